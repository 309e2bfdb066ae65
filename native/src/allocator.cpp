#include "tfjni/allocator.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace tfjni {

bool release_free_memory() noexcept {
#if defined(__GLIBC__)
  if (kCanReleaseFreeMemory) malloc_trim(0);  // its result only says whether pages were released
#endif
  return kCanReleaseFreeMemory;
}

}  // namespace tfjni
