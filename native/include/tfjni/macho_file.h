// Just enough of the Mach-O format to look at a file before handing it to dyld (macOS's
// counterpart of elf_file.h, same contract): whether it is a 64-bit dylib or bundle, and which
// symbols it defines. A universal ("fat") file is read at the slice of the running architecture.
#pragma once

#include <string>
#include <string_view>

namespace tfjni::macho {

// Whether `path` is a 64-bit Mach-O dylib or bundle (MH_DYLIB, MH_BUNDLE) for this architecture.
bool is_shared_object(const std::string& path);

// Whether the library exports a symbol whose C name starts with `prefix` (Mach-O symbol names
// carry a leading underscore, which this adds). False for anything it cannot read as Mach-O.
bool defines_symbol_with_prefix(const std::string& path, std::string_view prefix);

}  // namespace tfjni::macho
