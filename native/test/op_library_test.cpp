// Op libraries: TensorFlow Text's libraries load and report the ops TensorFlow Python saw them
// register; loading is idempotent and thread-safe; bad files, and a TensorFlow Text built for
// another TensorFlow version, are refused with clear errors.
#include <algorithm>
#include <cstdlib>
#include <thread>

#include "test_data.h"
#include "tfjni/package_requirement.h"

namespace tfjni::test {
namespace {
namespace fs = std::filesystem;

using OpLibraryTest = LeakCheckedTest;

fs::path text_package_dir() { return manifest().at("models").at("text_ops").at("op_library_dir").get<std::string>(); }

// tensorflow-text unpacked for another TensorFlow (scripts/setup.sh fetches it).
fs::path mismatched_site() {
  const char* dir = std::getenv("TFJNI_TEST_MISMATCHED_OP_LIBRARIES");
  if (dir == nullptr || *dir == '\0') {
    throw std::runtime_error("TFJNI_TEST_MISMATCHED_OP_LIBRARIES is not set: scripts/test.sh sets it "
                             "to scripts/common.sh's mismatched_op_library_dir");
  }
  if (!fs::is_directory(fs::path(dir) / "tensorflow_text")) {
    throw std::runtime_error(std::string("no tensorflow_text in ") + dir + ": run scripts/setup.sh");
  }
  return dir;
}

TEST_F(OpLibraryTest, PackageLibrariesReportTheOpsPythonSaw) {
  const Json& expected = manifest().at("models").at("text_ops").at("op_libraries");
  std::vector<OpLibrary> loaded = load_op_libraries_of(text_package_dir().string());
  ASSERT_EQ(loaded.size(), expected.size());
  size_t i = 0;
  for (const auto& [relative, ops] : expected.items()) {
    const OpLibrary& library = loaded[i++];
    EXPECT_EQ(library.path, fs::canonical(text_package_dir() / relative).string());
    EXPECT_EQ(library.op_names, ops.get<std::vector<std::string>>()) << relative;
  }
}

TEST_F(OpLibraryTest, LoadingAgainReturnsTheFirstResult) {
  fs::path file = text_package_dir() / "python/ops/_normalize_ops.so";
  OpLibrary first = load_op_library(file.string());
  EXPECT_FALSE(first.op_names.empty());
  OpLibrary again = load_op_library(file.string());
  EXPECT_EQ(again.path, first.path);
  EXPECT_EQ(again.op_names, first.op_names);
  // The same file under another spelling and through a symbolic link is the same library.
  TempDir dir;
  fs::create_symlink(file, dir.path() / "link.so");
  OpLibrary linked = load_op_library((dir.path() / "link.so").string());
  EXPECT_EQ(linked.path, first.path);
  EXPECT_EQ(linked.op_names, first.op_names);
  OpLibrary dotted = load_op_library((file.parent_path() / "." / file.filename()).string());
  EXPECT_EQ(dotted.op_names, first.op_names);
}

// The registry lists each loaded library once, by canonical path, however often it was loaded.
TEST_F(OpLibraryTest, LoadedLibrariesAreListedOnce) {
  std::vector<OpLibrary> package = load_op_libraries_of(text_package_dir().string());
  load_op_libraries_of(text_package_dir().string());
  std::vector<OpLibrary> loaded = loaded_op_libraries();
  for (const OpLibrary& library : package) {
    auto same = [&](const OpLibrary& l) { return l.path == library.path; };
    EXPECT_EQ(std::count_if(loaded.begin(), loaded.end(), same), 1) << library.path;
  }
  for (size_t i = 1; i < loaded.size(); ++i) EXPECT_LT(loaded[i - 1].path, loaded[i].path);
}

TEST_F(OpLibraryTest, ConcurrentLoadsAgree) {
  std::vector<std::vector<OpLibrary>> results(4);
  std::vector<std::thread> threads;
  for (auto& result : results) {
    threads.emplace_back([&result] { result = load_op_libraries_of(text_package_dir().string()); });
  }
  for (auto& t : threads) t.join();
  for (const auto& result : results) {
    ASSERT_EQ(result.size(), results[0].size());
    for (size_t i = 0; i < result.size(); ++i) {
      EXPECT_EQ(result[i].path, results[0][i].path);
      EXPECT_EQ(result[i].op_names, results[0][i].op_names);
    }
  }
}

TEST_F(OpLibraryTest, BadFilesAreRefusedByName) {
  TempDir dir;
  EXPECT_TRUE(throws_error([&] { load_op_library((dir.path() / "missing.so").string()); }, TF_NOT_FOUND,
                           {"missing.so", "does not exist"}));
  EXPECT_TRUE(throws_error([&] { load_op_library(""); }, TF_INVALID_ARGUMENT, {"empty"}));
  EXPECT_TRUE(throws_error([&] { load_op_library(dir.path().string()); }, TF_INVALID_ARGUMENT, {"is a directory"}));
  write_file(dir.path() / "notes.so", "not a library, just text\n");
  EXPECT_TRUE(throws_error([&] { load_op_library((dir.path() / "notes.so").string()); }, TF_INVALID_ARGUMENT,
                           {"notes.so", "not a shared library"}));
  fs::path extension = text_package_dir() / "core/pybinds/tflite_registrar.so";
  EXPECT_TRUE(throws_error([&] { load_op_library(extension.string()); }, TF_INVALID_ARGUMENT,
                           {"tflite_registrar.so", "Python extension module"}));
}

TEST_F(OpLibraryTest, BadDirectoriesAreRefusedByName) {
  TempDir dir;
  EXPECT_TRUE(throws_error([&] { load_op_libraries_of((dir.path() / "missing").string()); }, TF_NOT_FOUND,
                           {"missing", "does not exist"}));
  EXPECT_TRUE(throws_error([&] { load_op_libraries_of(""); }, TF_INVALID_ARGUMENT, {"empty"}));
  write_file(dir.path() / "readme.txt", "no libraries here\n");
  write_file(dir.path() / "fake.so", "text\n");
  EXPECT_TRUE(throws_error([&] { load_op_libraries_of(dir.path().string()); }, TF_NOT_FOUND, {"no op library"}));
  EXPECT_TRUE(throws_error([&] { load_op_libraries_of((dir.path() / "readme.txt").string()); }, TF_INVALID_ARGUMENT,
                           {"not a directory"}));
}

// tensorflow-text 2.16.1's _normalize_ops.so loads into TensorFlow 2.18 without any error from
// the dynamic linker; its package metadata says it needs TensorFlow < 2.17, so it is refused.
TEST_F(OpLibraryTest, LibraryOfAPackageForAnotherTensorFlowIsRefusedBeforeLoading) {
  fs::path library = mismatched_site() / "tensorflow_text/python/ops/_normalize_ops.so";
  EXPECT_TRUE(throws_error([&] { load_op_library(library.string()); }, TF_FAILED_PRECONDITION,
                           {"_normalize_ops.so", "built for another TensorFlow version", "requires tensorflow",
                            TF_Version()}));
  EXPECT_TRUE(throws_error([&] { load_op_libraries_of((mismatched_site() / "tensorflow_text").string()); },
                           TF_FAILED_PRECONDITION, {"built for another TensorFlow version"}));
}

// Outside its package (no metadata), 2.16.1's _constrained_sequence_op.so misses a symbol that
// TensorFlow 2.18 no longer exports: the dynamic linker's error, explained.
TEST_F(OpLibraryTest, LibraryMissingASymbolIsRefusedAsAnotherVersion) {
  TempDir dir;
  fs::copy_file(mismatched_site() / "tensorflow_text/python/ops/_constrained_sequence_op.so",
                dir.path() / "_constrained_sequence_op.so");
  EXPECT_TRUE(throws_error([&] { load_op_library((dir.path() / "_constrained_sequence_op.so").string()); },
                           TF_FAILED_PRECONDITION,
                           {"_constrained_sequence_op.so", "undefined symbol", "another TensorFlow version"}));
}

TEST(PackageRequirementTest, VersionSpecifiers) {
  EXPECT_TRUE(version_satisfies("2.18.0", "<2.19,>=2.18.0"));
  EXPECT_FALSE(version_satisfies("2.18.0", "<2.17,>=2.16.1"));
  EXPECT_FALSE(version_satisfies("2.16.0", "<2.17,>=2.16.1"));
  EXPECT_TRUE(version_satisfies("2.18.0", "==2.18.*"));
  EXPECT_FALSE(version_satisfies("2.19.0", "==2.18.*"));
  EXPECT_TRUE(version_satisfies("2.18.0", "~=2.18.0"));
  EXPECT_FALSE(version_satisfies("2.19.0", "~=2.18.0"));
  EXPECT_TRUE(version_satisfies("2.18", "==2.18.0"));
  EXPECT_TRUE(version_satisfies("2.18.0", ""));
}

TEST(PackageRequirementTest, ReadsTheInstalledPackagesRequirement) {
  auto installed = tensorflow_requirement_of((text_package_dir() / "python/ops/_normalize_ops.so").string(), TF_Version());
  ASSERT_TRUE(installed.has_value());
  EXPECT_TRUE(installed->satisfied) << installed->requirement;
  auto other = tensorflow_requirement_of(
      (mismatched_site() / "tensorflow_text/python/ops/_normalize_ops.so").string(), TF_Version());
  ASSERT_TRUE(other.has_value());
  EXPECT_FALSE(other->satisfied);
  EXPECT_EQ(other->package.rfind("tensorflow_text-", 0), 0u) << other->package;
  TempDir dir;
  EXPECT_FALSE(tensorflow_requirement_of((dir.path() / "lib.so").string(), TF_Version()).has_value());
}

}  // namespace
}  // namespace tfjni::test
