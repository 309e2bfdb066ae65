// Aligned heap blocks with the platform's C runtime: aligned_alloc and free, or on Windows,
// whose C runtime has no aligned_alloc, _aligned_malloc and _aligned_free.
#pragma once

#include <cstddef>
#include <cstdlib>
#if defined(_WIN32)
#include <malloc.h>
#endif

namespace tfjni {

// `size` bytes aligned to `alignment` (a power of two; `size` a multiple of it), or null.
inline void* aligned_allocate(size_t alignment, size_t size) {
#if defined(_WIN32)
  return _aligned_malloc(size, alignment);
#else
  return std::aligned_alloc(alignment, size);
#endif
}

// Frees a block from aligned_allocate (null is ignored).
inline void aligned_free(void* block) {
#if defined(_WIN32)
  _aligned_free(block);
#else
  std::free(block);
#endif
}

}  // namespace tfjni
