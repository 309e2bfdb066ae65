#include "tfjni/op_library.h"

#include <tensorflow/c/c_api.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <mutex>

#include "tfjni/error.h"
#include "tfjni/package_requirement.h"
#include "tfjni/utf8_path.h"
#include "tfjni/wire_format.h"
#if defined(__APPLE__)
#include "tfjni/macho_file.h"
#elif defined(_WIN32)
#include "tfjni/pe_file.h"
#else
#include "tfjni/elf_file.h"
#endif

namespace tfjni {
namespace fs = std::filesystem;
namespace {

// The platform's shared library format, and how its dynamic linker words a missing symbol
// (macOS's dyld: "Symbol not found: _x" or "symbol not found in flat namespace '_x'").
#if defined(__APPLE__)
namespace binary = macho;
constexpr const char* kNoSharedLibraryHeader = "no 64-bit Mach-O dylib or bundle header for this architecture";
constexpr std::string_view kMissingSymbolMarkers[] = {"Symbol not found", "symbol not found"};
#elif defined(_WIN32)
// Windows' loader: ERROR_PROC_NOT_FOUND, "The specified procedure could not be found."
namespace binary = pe;
constexpr const char* kNoSharedLibraryHeader = "no x86_64 PE32+ DLL header";
constexpr std::string_view kMissingSymbolMarkers[] = {"procedure could not be found"};
#else
namespace binary = elf;
constexpr const char* kNoSharedLibraryHeader = "no 64-bit ELF shared object header";
constexpr std::string_view kMissingSymbolMarkers[] = {"undefined symbol"};
#endif

bool mentions_missing_symbol(std::string_view message) {
  for (std::string_view marker : kMissingSymbolMarkers) {
    if (message.find(marker) != std::string_view::npos) return true;
  }
  return false;
}

// Libraries loaded so far, by canonical path. Entries are never removed: a library stays
// loaded for the life of the process (see op_library.h).
struct Registry {
  std::mutex mutex;
  std::map<std::string, OpLibrary> loaded;
};

Registry& registry() {
  static Registry* instance = new Registry;  // never destroyed: loads may run during exit
  return *instance;
}

// OpList { repeated OpDef op = 1; }  OpDef { string name = 1; ... }
std::vector<std::string> op_names_of(std::string_view op_list) {
  std::vector<std::string> names;
  wire::Reader list(op_list);
  while (list.next()) {
    if (list.field() != 1) continue;
    wire::Reader op(list.bytes());
    while (op.next()) {
      if (op.field() == 1) {
        names.emplace_back(op.bytes());
        break;
      }
    }
  }
  return names;
}

std::string quoted(const std::string& path) { return "'" + path + "'"; }

// The file checks that give a clear error before the dynamic linker gives a terse one.
std::string checked_canonical_path(const std::string& path) {
  if (path.empty()) throw_invalid_argument("op library path is empty");
  std::error_code error;
  fs::file_status status = fs::status(utf8_path(path), error);
  if (!fs::exists(status)) throw_error(TF_NOT_FOUND, "op library " + quoted(path) + " does not exist");
  if (fs::is_directory(status)) {
    throw_invalid_argument("op library " + quoted(path) +
                           " is a directory (to load every library in it, load the directory's libraries)");
  }
  std::string canonical = utf8_string(fs::canonical(utf8_path(path), error));
  if (error) throw_error(TF_NOT_FOUND, "op library " + quoted(path) + ": " + error.message());
  if (!binary::is_shared_object(canonical)) {
    throw_invalid_argument("op library " + quoted(path) + " is not a shared library (" + kNoSharedLibraryHeader + ")");
  }
  if (binary::defines_symbol_with_prefix(canonical, "PyInit_")) {
    throw_invalid_argument("op library " + quoted(path) +
                           " is a Python extension module, not a TensorFlow op library");
  }
  return canonical;
}

// An op library built for another TensorFlow can load cleanly and fail later, at run time, so
// the package's own declaration is checked first (package_requirement.h).
void check_declared_tensorflow_version(const std::string& path) {
  std::optional<PackageRequirement> requirement = tensorflow_requirement_of(path, TF_Version());
  if (requirement && !requirement->satisfied) {
    throw_error(TF_FAILED_PRECONDITION,
                "op library " + quoted(path) + " was built for another TensorFlow version: its package " +
                    requirement->package + " requires " + requirement->requirement + ", and this process runs TensorFlow " +
                    TF_Version() + "; the library is not loaded");
  }
}

bool is_missing_symbol(const Error& error) {
  return mentions_missing_symbol(error.what());
}

OpLibrary load_canonical(const std::string& path, const std::string& canonical) {
  check_declared_tensorflow_version(canonical);
  Status status;
  TF_Library* library = TF_LoadLibrary(canonical.c_str(), status.get());
  if (TF_GetCode(status.get()) != TF_OK) {
    std::string message = TF_Message(status.get());
    if (mentions_missing_symbol(message)) {
      throw_error(TF_FAILED_PRECONDITION,
                  "op library " + quoted(path) + " could not be loaded: " + message +
                      " (an undefined symbol usually means the library was built for another TensorFlow version; "
                      "this process runs TensorFlow " + TF_Version() + ")");
    }
    throw_error(TF_GetCode(status.get()), "op library " + quoted(path) + " could not be loaded: " + message);
  }
  TF_Buffer op_list = TF_GetOpList(library);
  OpLibrary result{canonical, op_names_of(std::string_view(static_cast<const char*>(op_list.data), op_list.length))};
  // Frees the op list and the handle's struct only: TensorFlow never unloads the code.
  TF_DeleteLibraryHandle(library);
  return result;
}

}  // namespace

OpLibrary load_op_library(const std::string& path) {
  std::string canonical = checked_canonical_path(path);
  Registry& r = registry();
  // Held across the load: TensorFlow's op registry and the dynamic linker see one load at a time,
  // and a second caller for the same file waits and gets the first one's result.
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.loaded.find(canonical);
  if (it != r.loaded.end()) return it->second;
  OpLibrary loaded = load_canonical(path, canonical);
  r.loaded.emplace(canonical, loaded);
  return loaded;
}

std::vector<OpLibrary> loaded_op_libraries() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<OpLibrary> libraries;
  for (const auto& [path, library] : r.loaded) libraries.push_back(library);
  return libraries;
}

std::vector<OpLibrary> load_op_libraries_of(const std::string& directory) {
  if (directory.empty()) throw_invalid_argument("op library directory path is empty");
  std::error_code error;
  if (!fs::exists(utf8_path(directory), error)) {
    throw_error(TF_NOT_FOUND, "op library directory " + quoted(directory) + " does not exist");
  }
  if (!fs::is_directory(utf8_path(directory), error)) {
    throw_invalid_argument(quoted(directory) + " is not a directory (load a single library by its path)");
  }
  std::vector<std::string> candidates;
  fs::recursive_directory_iterator it(utf8_path(directory), fs::directory_options::follow_directory_symlink, error), end;
  for (; !error && it != end; it.increment(error)) {
    const fs::path& file = it->path();
    if (file.extension() != ".so" || !it->is_regular_file(error)) continue;
    std::string path = utf8_string(file);
    if (binary::is_shared_object(path) && !binary::defines_symbol_with_prefix(path, "PyInit_")) {
      candidates.push_back(path);
    }
  }
  if (error) throw_error(TF_NOT_FOUND, "cannot list op library directory " + quoted(directory) + ": " + error.message());
  if (candidates.empty()) {
    throw_error(TF_NOT_FOUND, "no op library (*.so other than Python extension modules) under " + quoted(directory));
  }
  std::sort(candidates.begin(), candidates.end());  // a deterministic order, whatever the file system lists

  // Libraries that miss a symbol may need another library of the directory loaded first: retry
  // them while a round loads something, then report the first that still fails.
  std::vector<std::pair<std::string, OpLibrary>> loaded;
  std::vector<std::string> pending = candidates;
  while (!pending.empty()) {
    std::vector<std::string> failed;
    std::optional<Error> first_error;
    for (const std::string& path : pending) {
      try {
        loaded.emplace_back(path, load_op_library(path));
      } catch (const Error& e) {
        if (!is_missing_symbol(e)) throw;
        failed.push_back(path);
        if (!first_error) first_error = e;
      }
    }
    if (failed.size() == pending.size()) throw *first_error;
    pending = std::move(failed);
  }
  // Reported in path order, however many rounds it took.
  std::sort(loaded.begin(), loaded.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<OpLibrary> result;
  for (auto& [path, library] : loaded) result.push_back(std::move(library));
  return result;
}

}  // namespace tfjni
