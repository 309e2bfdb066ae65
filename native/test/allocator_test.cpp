#include "tfjni/allocator.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace {

long resident_kib() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

// 64 MiB of touched 4 KiB heap blocks (below the mmap threshold), all freed but the last one,
// which pins the heap's top: free() alone cannot give those pages back, release_free_memory can.
TEST(AllocatorTest, ReleaseFreeMemoryReturnsFreedHeapPagesToTheSystem) {
  if (!tfjni::kCanReleaseFreeMemory) {
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__clang__)
    ADD_FAILURE() << "glibc's own allocator (GCC, no sanitizer), yet kCanReleaseFreeMemory is false";
#endif
    EXPECT_FALSE(tfjni::release_free_memory());
    return;
  }
  constexpr size_t kBlock = 4096;
  constexpr size_t kBlocks = 64 * 1024 * 1024 / kBlock;
  std::vector<char*> blocks;
  blocks.reserve(kBlocks);
  for (size_t i = 0; i < kBlocks; ++i) {
    char* block = static_cast<char*>(std::malloc(kBlock));
    ASSERT_NE(block, nullptr);
    std::memset(block, 1, kBlock);
    blocks.push_back(block);
  }
  for (size_t i = 0; i + 1 < kBlocks; ++i) std::free(blocks[i]);
  const long held = resident_kib();
  EXPECT_TRUE(tfjni::release_free_memory());
  const long released = resident_kib();
  std::free(blocks.back());
  EXPECT_GT(held - released, 32 * 1024)
      << "VmRSS " << held << " KiB before, " << released << " KiB after";
}

}  // namespace
