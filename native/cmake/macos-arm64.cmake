# Cross-compiles for macOS on Apple silicon (arm64) with zig, which carries its own libc++ and
# stubs of macOS's libSystem, so no Apple SDK is needed (zig.cmake: TFJNI_ZIG is the zig executable).
set(CMAKE_SYSTEM_NAME Darwin)
set(CMAKE_SYSTEM_PROCESSOR arm64)
set(CMAKE_OSX_ARCHITECTURES arm64)
# The oldest macOS TensorFlow's macOS wheel supports (macosx_12_0_arm64).
set(CMAKE_OSX_DEPLOYMENT_TARGET 12.0)
set(TFJNI_ZIG_TARGET aarch64-macos.12.0)

include("${CMAKE_CURRENT_LIST_DIR}/zig.cmake")
