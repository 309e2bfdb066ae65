// Windows only: the PE reader of the op library checks, on files whose answers are known (the
// DLLs of the TensorFlow this test runs on, this test program, a text file), and the op library
// loader refusing TensorFlow's own Python extension module by name. Also where the loaded
// TensorFlow DLL is (shared_library::file_of), which the JNI layer reports to Java.
#include <tensorflow/c/c_api.h>

#include <filesystem>

#include "test_data.h"
#include "tfjni/op_library.h"
#include "tfjni/package_requirement.h"
#include "tfjni/pe_file.h"
#include "tfjni/shared_library.h"

namespace tfjni::test {
namespace {
namespace fs = std::filesystem;

// The paths here are ASCII: the build and cache directories.
fs::path tensorflow_module() {
  return shared_library::file_of(reinterpret_cast<const void*>(&TF_Version));
}

// TensorFlow's Windows wheels export the C API from the Python extension module
// _pywrap_tensorflow_internal.pyd up to 2.18 (tensorflow-intel), and from 2.19 on (tensorflow)
// from _pywrap_tensorflow_common.dll, a DLL that this module, by then a small one, imports.
bool c_api_outside_the_extension_module() { return version_satisfies(TF_Version(), ">=2.19"); }

// TensorFlow's Python extension module: the loaded C API DLL up to 2.18, beside it from 2.19 on.
fs::path python_extension_module() {
  return tensorflow_module().parent_path() / "_pywrap_tensorflow_internal.pyd";
}

TEST(PeFileTest, TheLoadedTensorFlowIsTheCApiDllOfItsVersion) {
  EXPECT_EQ(tensorflow_module().filename().string(),
            c_api_outside_the_extension_module() ? "_pywrap_tensorflow_common.dll" : "_pywrap_tensorflow_internal.pyd")
      << "TensorFlow " << TF_Version();
  EXPECT_TRUE(fs::is_regular_file(tensorflow_module()));
}

TEST(PeFileTest, TensorFlowsDllExportsTheCApi) {
  std::string module = tensorflow_module().string();
  EXPECT_TRUE(pe::is_shared_object(module));
  EXPECT_TRUE(pe::defines_symbol_with_prefix(module, "TF_NewSession"));
  EXPECT_TRUE(pe::defines_symbol_with_prefix(module, "TFE_Execute"));
  EXPECT_FALSE(pe::defines_symbol_with_prefix(module, "TF_NotInTensorFlow"));
  // The Python entry point is the extension module's alone.
  EXPECT_EQ(pe::defines_symbol_with_prefix(module, "PyInit_"), !c_api_outside_the_extension_module());
}

TEST(PeFileTest, ThePythonExtensionModuleIsADllWithAPythonEntryPoint) {
  std::string module = python_extension_module().string();
  EXPECT_TRUE(pe::is_shared_object(module));
  EXPECT_TRUE(pe::defines_symbol_with_prefix(module, "PyInit__pywrap_tensorflow_internal"));
}

TEST(PeFileTest, ThePythonStandInIsADllWithPythonsNamesAndNoEntryPoint) {
  std::string stand_in = (tensorflow_module().parent_path() / "python311.dll").string();
  EXPECT_TRUE(pe::is_shared_object(stand_in));
  EXPECT_TRUE(pe::defines_symbol_with_prefix(stand_in, "PyExc_TypeError"));
  EXPECT_TRUE(pe::defines_symbol_with_prefix(stand_in, "Py_IsInitialized"));
  EXPECT_FALSE(pe::defines_symbol_with_prefix(stand_in, "PyInit_"));
}

TEST(PeFileTest, AProgramATextFileAndAMissingFileAreNotDlls) {
  fs::path self = shared_library::file_of(reinterpret_cast<const void*>(&tensorflow_module));
  EXPECT_EQ(self.extension().string(), ".exe");
  EXPECT_FALSE(pe::is_shared_object(self.string()));
  TempDir dir;
  write_file(dir.path() / "notes.dll", "MZ and then just text\n");
  EXPECT_FALSE(pe::is_shared_object((dir.path() / "notes.dll").string()));
  EXPECT_FALSE(pe::defines_symbol_with_prefix((dir.path() / "notes.dll").string(), "PyInit_"));
  EXPECT_FALSE(pe::is_shared_object((dir.path() / "missing.dll").string()));
}

TEST(PeFileTest, OpLibraryLoaderRefusesTextAndPythonModulesByName) {
  TempDir dir;
  write_file(dir.path() / "notes.dll", "not a library, just text\n");
  EXPECT_TRUE(throws_error([&] { load_op_library((dir.path() / "notes.dll").string()); }, TF_INVALID_ARGUMENT,
                           {"notes.dll", "not a shared library"}));
  EXPECT_TRUE(throws_error([&] { load_op_library(python_extension_module().string()); }, TF_INVALID_ARGUMENT,
                           {"_pywrap_tensorflow_internal.pyd", "Python extension module"}));
}

}  // namespace
}  // namespace tfjni::test
