// Just enough of Windows' PE format to look at a file before handing it to the loader: whether
// it is a 64-bit x86 DLL, and which symbols it exports.
#pragma once

#include <string>
#include <string_view>

namespace tfjni::pe {

// Whether `path` starts like an x86_64 PE32+ DLL. Reads the headers only.
bool is_shared_object(const std::string& path);

// Whether the DLL exports a symbol whose name starts with `prefix`.
// False for anything it cannot read as a PE32+ DLL.
bool defines_symbol_with_prefix(const std::string& path, std::string_view prefix);

}  // namespace tfjni::pe
