# Cross-compiles for Windows on x86_64 with zig (MinGW-w64's headers and import libraries, LLVM's
# libc++ and libunwind linked statically), against TensorFlow's Windows wheel, whose C API is
# exported by _pywrap_tensorflow_internal.pyd and linked through its MSVC import library
# (zig.cmake: TFJNI_ZIG is the zig executable).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(TFJNI_ZIG_TARGET x86_64-windows-gnu)
include("${CMAKE_CURRENT_LIST_DIR}/zig.cmake")
