// Shared by the fuzz targets: checks that stay on in optimised builds (assert
// does not), and telling the errors an input may cause from real failures.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "tfjni/error.h"

namespace tfjni::fuzz {

// Aborts, so libFuzzer reports the input as a crash and keeps it.
[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz check failed: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

inline void check(bool ok, const char* what) {
  if (!ok) fail(what);
}

// Runs `f`: true if it returned, false if it threw tfjni::Error with `code`.
// Any other error code fails; any other exception escapes and libFuzzer
// reports it as a crash.
template <typename F>
bool succeeds(TF_Code code, F&& f) {
  try {
    f();
    return true;
  } catch (const Error& e) {
    if (e.code() != code) {
      fail(std::string("expected ") + code_name(code) + ", got " + code_name(e.code()) + ": " + e.what());
    }
    return false;
  }
}

// Sends stderr to /dev/null while it lives: protobuf inside TensorFlow logs
// every string field that is not UTF-8, and fuzzed bytes hold many. Our own
// checks never fail while one is alive.
class QuietStderr {
 public:
  QuietStderr() : saved_(dup(2)) {
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 2);
    close(null);
  }
  ~QuietStderr() {
    dup2(saved_, 2);
    close(saved_);
  }
  QuietStderr(const QuietStderr&) = delete;
  QuietStderr& operator=(const QuietStderr&) = delete;

 private:
  int saved_;
};

}  // namespace tfjni::fuzz
