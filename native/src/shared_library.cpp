#include "tfjni/shared_library.h"

#if defined(_WIN32)
#include <windows.h>

#include <filesystem>

#include "tfjni/utf8_path.h"
#else
#include <dlfcn.h>
#endif

namespace tfjni::shared_library {

#if defined(_WIN32)
namespace {

std::string last_error_text() {
  DWORD code = GetLastError();
  char* text = nullptr;
  DWORD length = FormatMessageA(
      FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
      nullptr, code, 0, reinterpret_cast<char*>(&text), 0, nullptr);
  std::string message = length > 0 ? std::string(text, length) : "";
  LocalFree(text);
  while (!message.empty() && (message.back() == '\n' || message.back() == '\r')) message.pop_back();
  return message + " (Windows error " + std::to_string(code) + ")";
}

}  // namespace

void* open(const std::string& path, std::string& error) {
  // The path is UTF-8; Windows takes UTF-16. The library's own folder is searched for its
  // dependencies, as the dynamic linkers of the other platforms search its RPATH.
  std::wstring wide = utf8_path(path).wstring();
  HMODULE library = LoadLibraryExW(wide.c_str(), nullptr,
                                   LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_DEFAULT_DIRS);
  if (library == nullptr) error = last_error_text();
  return reinterpret_cast<void*>(library);
}

void close(void* library) { FreeLibrary(static_cast<HMODULE>(library)); }

void* symbol(void* library, const char* name) {
  return reinterpret_cast<void*>(GetProcAddress(static_cast<HMODULE>(library), name));
}

std::string file_of(const void* address) {
  HMODULE module = nullptr;
  if (!GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
                              GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                          static_cast<LPCWSTR>(address), &module)) {
    return "";
  }
  std::wstring name(MAX_PATH, L'\0');
  for (;;) {
    DWORD length = GetModuleFileNameW(module, name.data(), static_cast<DWORD>(name.size()));
    if (length == 0) return "";
    if (length < name.size()) {
      name.resize(length);
      break;
    }
    name.resize(name.size() * 2);  // truncated: try a larger buffer
  }
  return utf8_string(std::filesystem::path(name));
}
#else
void* open(const std::string& path, std::string& error) {
  // RTLD_LOCAL: the library's symbols resolve nothing else.
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* reason = dlerror();
    error = reason != nullptr ? reason : "unknown reason";
  }
  return library;
}

void close(void* library) { dlclose(library); }

void* symbol(void* library, const char* name) { return dlsym(library, name); }

std::string file_of(const void* address) {
  Dl_info info{};
  if (dladdr(address, &info) == 0 || info.dli_fname == nullptr) return "";
  return info.dli_fname;
}
#endif

}  // namespace tfjni::shared_library
