#include "tfjni/macho_file.h"

#include <mach-o/fat.h>
#include <mach-o/loader.h>
#include <mach-o/nlist.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <optional>
#include <vector>

#include "read_at.h"
#include "tfjni/utf8_path.h"

namespace tfjni::macho {
namespace {

#if defined(__aarch64__)
constexpr cpu_type_t kRunningCpu = CPU_TYPE_ARM64;
#else
constexpr cpu_type_t kRunningCpu = CPU_TYPE_X86_64;
#endif

// Fat headers are big-endian whatever the machine.
uint32_t big_endian(uint32_t value) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(&value);
  return uint32_t{bytes[0]} << 24 | uint32_t{bytes[1]} << 16 | uint32_t{bytes[2]} << 8 | uint32_t{bytes[3]};
}

// Where the Mach-O image for this architecture starts: 0 for a thin file, the matching slice's
// offset in a universal one; nothing if there is no such slice.
std::optional<uint64_t> image_offset(std::ifstream& in) {
  uint32_t magic = 0;
  if (!read_at(in, 0, &magic, sizeof magic)) return std::nullopt;
  if (big_endian(magic) != FAT_MAGIC) return 0;
  fat_header header{};
  if (!read_at(in, 0, &header, sizeof header)) return std::nullopt;
  uint32_t count = big_endian(header.nfat_arch);
  for (uint32_t i = 0; i < count; ++i) {
    fat_arch slice{};
    if (!read_at(in, sizeof header + uint64_t{i} * sizeof slice, &slice, sizeof slice)) return std::nullopt;
    if (static_cast<cpu_type_t>(big_endian(static_cast<uint32_t>(slice.cputype))) == kRunningCpu) {
      return big_endian(slice.offset);
    }
  }
  return std::nullopt;
}

bool read_header(std::ifstream& in, uint64_t offset, mach_header_64& header) {
  if (!read_at(in, offset, &header, sizeof header)) return false;
  return header.magic == MH_MAGIC_64 && header.cputype == kRunningCpu &&
         (header.filetype == MH_DYLIB || header.filetype == MH_BUNDLE);
}

}  // namespace

bool is_shared_object(const std::string& path) {
  std::ifstream in(utf8_path(path), std::ios::binary);
  if (!in) return false;
  std::optional<uint64_t> offset = image_offset(in);
  mach_header_64 header{};
  return offset && read_header(in, *offset, header);
}

bool defines_symbol_with_prefix(const std::string& path, std::string_view prefix) {
  std::ifstream in(utf8_path(path), std::ios::binary);
  if (!in) return false;
  std::optional<uint64_t> offset = image_offset(in);
  mach_header_64 header{};
  if (!offset || !read_header(in, *offset, header)) return false;
  // The load commands follow the header; LC_SYMTAB locates the symbol and string tables.
  std::vector<char> commands(header.sizeofcmds);
  if (!read_at(in, *offset + sizeof header, commands.data(), commands.size())) return false;
  std::string mangled_prefix = "_" + std::string(prefix);
  uint64_t position = 0;
  for (uint32_t i = 0; i < header.ncmds && position + sizeof(load_command) <= commands.size(); ++i) {
    load_command command{};
    std::memcpy(&command, commands.data() + position, sizeof command);
    if (command.cmdsize < sizeof command) return false;
    if (command.cmd == LC_SYMTAB && position + sizeof(symtab_command) <= commands.size()) {
      symtab_command table{};
      std::memcpy(&table, commands.data() + position, sizeof table);
      // Both tables are read whole: a few megabytes for a large library.
      std::string names(table.strsize, '\0');
      std::vector<nlist_64> entries(table.nsyms);
      if (!read_at(in, *offset + table.stroff, names.data(), names.size()) ||
          !read_at(in, *offset + table.symoff, entries.data(), entries.size() * sizeof(nlist_64))) {
        return false;
      }
      for (const nlist_64& symbol : entries) {
        bool exported = (symbol.n_type & N_STAB) == 0 && (symbol.n_type & N_EXT) != 0 &&
                        (symbol.n_type & N_TYPE) != N_UNDF;
        if (!exported || symbol.n_un.n_strx >= names.size()) continue;
        std::string_view name(names.c_str() + symbol.n_un.n_strx);
        if (name.substr(0, mangled_prefix.size()) == mangled_prefix) return true;
      }
    }
    position += command.cmdsize;
  }
  return false;
}

}  // namespace tfjni::macho
