#include "tfjni/elf_file.h"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <vector>

#include "read_at.h"
#include "tfjni/utf8_path.h"

namespace tfjni::elf {
namespace {

bool read_header(std::ifstream& in, Elf64_Ehdr& header) {
  if (!read_at(in, 0, &header, sizeof header)) return false;
  return std::memcmp(header.e_ident, ELFMAG, SELFMAG) == 0 && header.e_ident[EI_CLASS] == ELFCLASS64 &&
         header.e_ident[EI_DATA] == ELFDATA2LSB && header.e_type == ET_DYN;
}

}  // namespace

bool is_shared_object(const std::string& path) {
  std::ifstream in(utf8_path(path), std::ios::binary);
  Elf64_Ehdr header{};
  return in && read_header(in, header);
}

bool defines_symbol_with_prefix(const std::string& path, std::string_view prefix) {
  std::ifstream in(utf8_path(path), std::ios::binary);
  Elf64_Ehdr header{};
  if (!in || !read_header(in, header) || header.e_shentsize != sizeof(Elf64_Shdr)) return false;
  std::vector<Elf64_Shdr> sections(header.e_shnum);
  if (sections.empty() ||
      !read_at(in, header.e_shoff, sections.data(), sections.size() * sizeof(Elf64_Shdr))) {
    return false;
  }
  for (const Elf64_Shdr& symbols : sections) {
    if (symbols.sh_type != SHT_DYNSYM || symbols.sh_link >= sections.size()) continue;
    const Elf64_Shdr& names_section = sections[symbols.sh_link];
    // Both tables are read whole: a few hundred kilobytes for a large library.
    std::string names(names_section.sh_size, '\0');
    std::vector<Elf64_Sym> entries(symbols.sh_size / sizeof(Elf64_Sym));
    if (!read_at(in, names_section.sh_offset, names.data(), names.size()) ||
        !read_at(in, symbols.sh_offset, entries.data(), entries.size() * sizeof(Elf64_Sym))) {
      return false;
    }
    for (const Elf64_Sym& symbol : entries) {
      if (symbol.st_shndx == SHN_UNDEF || symbol.st_name >= names.size()) continue;
      std::string_view name(names.c_str() + symbol.st_name);
      if (name.substr(0, prefix.size()) == prefix) return true;
    }
  }
  return false;
}

}  // namespace tfjni::elf
