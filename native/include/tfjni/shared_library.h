// Opening shared libraries at run time and naming the file a loaded function came from: dlopen,
// dlsym and dladdr on Linux and macOS, their Win32 counterparts on Windows.
#pragma once

#include <string>

namespace tfjni::shared_library {

// Opens the library at `path` with every symbol bound now; null on failure, with the system's
// reason in `error`.
void* open(const std::string& path, std::string& error);

// Closes a library from open() that nothing uses.
void close(void* library);

// The address of `name` in a library from open(), or null.
void* symbol(void* library, const char* name);

// The file of the loaded library holding `address` (UTF-8), or "" if none does.
std::string file_of(const void* address);

}  // namespace tfjni::shared_library
