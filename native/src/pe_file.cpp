#include "tfjni/pe_file.h"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <vector>

#include "read_at.h"
#include "tfjni/utf8_path.h"

namespace tfjni::pe {
namespace {

// The format's constants (Microsoft's "PE Format" specification); no Windows header is needed.
constexpr uint32_t kPeSignature = 0x00004550;   // "PE\0\0"
constexpr uint16_t kMachineAmd64 = 0x8664;
constexpr uint16_t kCharacteristicDll = 0x2000;
constexpr uint16_t kPe32PlusMagic = 0x20B;
constexpr uint32_t kExportDirectoryOffset = 112;  // data directory 0 in a PE32+ optional header

#pragma pack(push, 1)
struct FileHeader {
  uint32_t signature;
  uint16_t machine;
  uint16_t section_count;
  uint32_t time_date_stamp;
  uint32_t symbol_table;
  uint32_t symbol_count;
  uint16_t optional_header_size;
  uint16_t characteristics;
};
struct Section {
  char name[8];
  uint32_t virtual_size;
  uint32_t virtual_address;
  uint32_t raw_size;
  uint32_t raw_pointer;
  uint32_t unused[4];
};
struct ExportDirectory {
  uint32_t characteristics;
  uint32_t time_date_stamp;
  uint32_t version;
  uint32_t name;
  uint32_t ordinal_base;
  uint32_t address_count;
  uint32_t name_count;
  uint32_t addresses;
  uint32_t names;
  uint32_t ordinals;
};
#pragma pack(pop)

struct Headers {
  uint32_t optional_header;  // file offset
  FileHeader file;
};

bool read_headers(std::ifstream& in, Headers& headers) {
  uint32_t pe_offset = 0;
  char mz[2] = {};
  uint16_t magic = 0;
  return read_at(in, 0, mz, 2) && mz[0] == 'M' && mz[1] == 'Z' &&
         read_at(in, 0x3C, &pe_offset, sizeof pe_offset) &&
         read_at(in, pe_offset, &headers.file, sizeof headers.file) &&
         headers.file.signature == kPeSignature && headers.file.machine == kMachineAmd64 &&
         (headers.file.characteristics & kCharacteristicDll) != 0 &&
         (headers.optional_header = pe_offset + sizeof(FileHeader),
          read_at(in, headers.optional_header, &magic, sizeof magic)) &&
         magic == kPe32PlusMagic;
}

}  // namespace

bool is_shared_object(const std::string& path) {
  std::ifstream in(utf8_path(path), std::ios::binary);
  Headers headers{};
  return in && read_headers(in, headers);
}

bool defines_symbol_with_prefix(const std::string& path, std::string_view prefix) {
  std::ifstream in(utf8_path(path), std::ios::binary);
  Headers headers{};
  uint32_t export_rva = 0;
  if (!in || !read_headers(in, headers) ||
      headers.file.optional_header_size < kExportDirectoryOffset + 8 ||
      !read_at(in, headers.optional_header + kExportDirectoryOffset, &export_rva, sizeof export_rva) ||
      export_rva == 0) {
    return false;
  }
  std::vector<Section> sections(headers.file.section_count);
  if (sections.empty() ||
      !read_at(in, headers.optional_header + headers.file.optional_header_size, sections.data(),
               sections.size() * sizeof(Section))) {
    return false;
  }
  // Addresses in the headers are relative to where the DLL is mapped: each section says where
  // its bytes are in the file.
  auto file_offset = [&](uint32_t rva, uint64_t& offset) {
    for (const Section& section : sections) {
      uint32_t size = std::max(section.virtual_size, section.raw_size);
      if (rva >= section.virtual_address && rva - section.virtual_address < size) {
        offset = uint64_t{section.raw_pointer} + (rva - section.virtual_address);
        return true;
      }
    }
    return false;
  };
  uint64_t offset = 0;
  ExportDirectory exports{};
  if (!file_offset(export_rva, offset) || !read_at(in, offset, &exports, sizeof exports) ||
      exports.name_count == 0 || !file_offset(exports.names, offset)) {
    return false;
  }
  std::vector<uint32_t> names(exports.name_count);
  if (!read_at(in, offset, names.data(), names.size() * sizeof(uint32_t))) return false;
  std::string name(prefix.size(), '\0');
  for (uint32_t name_rva : names) {
    if (!file_offset(name_rva, offset) || !read_at(in, offset, name.data(), name.size())) continue;
    if (name == prefix) return true;
  }
  return false;
}

}  // namespace tfjni::pe
