// Just enough of the ELF format to look at a file before handing it to the dynamic linker:
// whether it is a 64-bit shared object, and which symbols it defines.
#pragma once

#include <string>
#include <string_view>

namespace tfjni::elf {

// Whether `path` starts like a 64-bit little-endian ELF shared object (ET_DYN). Reads 64 bytes.
bool is_shared_object(const std::string& path);

// Whether the shared object defines a dynamic symbol whose name starts with `prefix`.
// False for anything it cannot read as ELF64 (the caller checked is_shared_object first).
bool defines_symbol_with_prefix(const std::string& path, std::string_view prefix);

}  // namespace tfjni::elf
