# Compiling with zig: CMake wants one executable per tool, zig is one executable with
# subcommands, so each tool gets a wrapper script that passes the target. Included by the
# cross-compiling toolchain files after they set TFJNI_ZIG_TARGET. TFJNI_ZIG (a cache variable or
# the environment variable) is the zig executable (scripts/common.sh, zig_executable).
if(NOT TFJNI_ZIG)
  set(TFJNI_ZIG "$ENV{TFJNI_ZIG}")
endif()
if(NOT EXISTS "${TFJNI_ZIG}")
  message(FATAL_ERROR "zig not found: set TFJNI_ZIG to the zig executable (got '${TFJNI_ZIG}')")
endif()
# try_compile projects configure with the toolchain file again: give them the same zig.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES TFJNI_ZIG)

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

# No system root of the target here: headers and libraries come from zig and the TensorFlow wheel.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
