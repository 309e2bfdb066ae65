// Reading a binary file at an offset, for the ELF and Mach-O readers of the op library checks.
#pragma once

#include <cstdint>
#include <fstream>

namespace tfjni {

// Reads `size` bytes at `offset`; false if the file is shorter.
inline bool read_at(std::ifstream& in, uint64_t offset, void* out, uint64_t size) {
  in.seekg(static_cast<std::streamoff>(offset));
  in.read(static_cast<char*>(out), static_cast<std::streamsize>(size));
  return in.good();
}

}  // namespace tfjni
