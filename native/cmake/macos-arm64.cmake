# Cross-compiles for macOS on Apple silicon (arm64) with zig, which carries its own libc++ and
# stubs of macOS's libSystem, so no Apple SDK is needed. TFJNI_ZIG (a cache variable or the
# environment variable) is the zig executable; scripts/build-macos-arm64.sh installs it.
set(CMAKE_SYSTEM_NAME Darwin)
set(CMAKE_SYSTEM_PROCESSOR arm64)
set(CMAKE_OSX_ARCHITECTURES arm64)
# The oldest macOS TensorFlow's macOS wheel supports (macosx_12_0_arm64).
set(CMAKE_OSX_DEPLOYMENT_TARGET 12.0)
set(TFJNI_ZIG_TARGET aarch64-macos.12.0)

if(NOT TFJNI_ZIG)
  set(TFJNI_ZIG "$ENV{TFJNI_ZIG}")
endif()
if(NOT EXISTS "${TFJNI_ZIG}")
  message(FATAL_ERROR "zig not found: set TFJNI_ZIG to the zig executable (got '${TFJNI_ZIG}')")
endif()
# try_compile projects configure with this file again: give them the same zig.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES TFJNI_ZIG)

# CMake wants one executable per tool, zig is one executable with subcommands: a wrapper each.
set(tfjni_zig_wrappers "${CMAKE_BINARY_DIR}/zig-wrappers")
foreach(tool cc c++ ar ranlib)
  if(tool MATCHES "^c")
    set(tfjni_zig_args "${tool} -target ${TFJNI_ZIG_TARGET}")
  else()
    set(tfjni_zig_args "${tool}")
  endif()
  file(WRITE "${tfjni_zig_wrappers}/zig-${tool}" "#!/bin/sh\nexec \"${TFJNI_ZIG}\" ${tfjni_zig_args} \"$@\"\n")
  file(CHMOD "${tfjni_zig_wrappers}/zig-${tool}"
    PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
endforeach()
set(CMAKE_C_COMPILER "${tfjni_zig_wrappers}/zig-cc")
set(CMAKE_CXX_COMPILER "${tfjni_zig_wrappers}/zig-c++")
set(CMAKE_AR "${tfjni_zig_wrappers}/zig-ar" CACHE FILEPATH "zig ar")
set(CMAKE_RANLIB "${tfjni_zig_wrappers}/zig-ranlib" CACHE FILEPATH "zig ranlib")

# No macOS system root here: headers and libraries come from zig and the TensorFlow wheel.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
