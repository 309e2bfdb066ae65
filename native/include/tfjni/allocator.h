// The C allocator's free memory handed back to the operating system.
#pragma once

#include <cstdlib>  // defines __GLIBC__ where the C library is glibc

namespace tfjni {

// Whether release_free_memory() can act here: glibc's allocator, not a sanitizer's in its place.
#if !defined(__GLIBC__) || defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kCanReleaseFreeMemory = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
inline constexpr bool kCanReleaseFreeMemory = false;
#else
inline constexpr bool kCanReleaseFreeMemory = true;
#endif
#else
inline constexpr bool kCanReleaseFreeMemory = true;
#endif

// Returns the pages the C allocator holds free (freed by TensorFlow, tfjni or anyone else in the
// process) to the operating system: glibc's malloc_trim(0), which also releases the free pages in
// the middle of its heaps and arenas, not only at their tops. Returns kCanReleaseFreeMemory.
bool release_free_memory() noexcept;

}  // namespace tfjni
