# Cross-compiles for linux-aarch64 with Debian's g++-aarch64-linux-gnu (scripts/platforms/setup-linux-aarch64.sh
# installs it). Libraries for the target come from Debian multiarch (/usr/lib/aarch64-linux-gnu,
# e.g. libgtest-dev:arm64), which CMake searches by the compiler's library architecture; header-only
# packages (nlohmann-json) and the host JDK's JNI headers serve both architectures.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# Built programs (the test binary's gtest discovery, ctest) run under qemu-user, with the cross
# toolchain's libc, libstdc++ and dynamic loader.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu)
