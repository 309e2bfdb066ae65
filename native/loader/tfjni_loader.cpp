// libtfjni_loader.so: what tfjni's Java loader must do natively *before* libtensorflow is
// loaded, so it depends on no TensorFlow library. Today that is one thing: putting
// TF_CPP_MIN_LOG_LEVEL into the process environment, which TensorFlow reads with getenv()
// (once, when it first logs) and which Java cannot change (System.getenv is a read-only copy
// made at start-up).
#include <cerrno>
#include <cstdlib>

#include "io_tfjni_internal_NativeLibrary.h"

namespace {

// Releases a GetStringUTFChars result however the function returns.
class Utf {
 public:
  Utf(JNIEnv* env, jstring text)
      : env_(env), text_(text), chars_(env->GetStringUTFChars(text, nullptr)) {}
  ~Utf() {
    if (chars_ != nullptr) {
      env_->ReleaseStringUTFChars(text_, chars_);
    }
  }
  Utf(const Utf&) = delete;
  Utf& operator=(const Utf&) = delete;
  const char* get() const { return chars_; }

 private:
  JNIEnv* env_;
  jstring text_;
  const char* chars_;
};

}  // namespace

// Returns 0, or the errno of setenv (or ENOMEM if the strings could not be read; the JVM then
// has an OutOfMemoryError pending).
JNIEXPORT jint JNICALL Java_io_tfjni_internal_NativeLibrary_nativeSetenv(JNIEnv* env, jclass,
                                                                       jstring name,
                                                                       jstring value) {
  Utf n(env, name);
  Utf v(env, value);
  if (n.get() == nullptr || v.get() == nullptr) {
    return ENOMEM;
  }
#if defined(_WIN32)
  // The C runtime's environment, which TensorFlow's getenv reads (both use Windows' universal C
  // runtime, ucrtbase.dll); SetEnvironmentVariable would not reach it.
  return _putenv_s(n.get(), v.get());
#else
  // overwrite = 1: the Java side has already decided that the user did not set it.
  return setenv(n.get(), v.get(), 1) == 0 ? 0 : errno;
#endif
}
