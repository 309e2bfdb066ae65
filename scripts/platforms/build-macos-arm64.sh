#!/usr/bin/env bash
# Cross-builds tfjni's natives for macOS on Apple silicon (libtfjni.dylib, libtfjni_loader.dylib)
# into build/native-macos-arm64 with zig, against the macOS arm64 TensorFlow wheel's dylibs. No
# tests or benchmarks: nothing here can run a macOS binary. scripts/platforms/check-macos-arm64.sh checks
# what this links against.
source "$(dirname "$0")/../common.sh"
MACOS_ARM64_BUILD=$(native_build_dir macos-arm64)

ensure_debian_packages cmake ninja-build openjdk-17-jdk-headless unzip
ZIG=$(zig_executable)
TF_DIR=$(tensorflow_dir_of macos-arm64 cpu)

step "Building the macos-arm64 natives in $MACOS_ARM64_BUILD (zig $ZIG_VERSION, TensorFlow $TFJNI_TF_VERSION's macOS wheel)"
mkdir -p "$MACOS_ARM64_BUILD"
# zig's own cache (the libc++ it builds for the target, object files) lives with tfjni's.
export ZIG_GLOBAL_CACHE_DIR="$TFJNI_CACHE/zig-cache"
cmake -S "$ROOT/native" -B "$MACOS_ARM64_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE="$ROOT/native/cmake/macos-arm64.cmake" -DTFJNI_ZIG="$ZIG" \
  -DTFJNI_BUILD_TESTS=OFF -DTFJNI_BUILD_BENCHMARKS=OFF -DTFJNI_TENSORFLOW_DIR="$TF_DIR" \
  >"$MACOS_ARM64_BUILD/cmake-configure.log" 2>&1 ||
  { cat "$MACOS_ARM64_BUILD/cmake-configure.log"; echo "configuring the macos-arm64 build failed (log above)" >&2; exit 1; }
cmake --build "$MACOS_ARM64_BUILD" -j "$JOBS" --target tfjni_jni tfjni_loader
echo "built $MACOS_ARM64_BUILD/libtfjni.dylib and $MACOS_ARM64_BUILD/libtfjni_loader.dylib (macOS arm64; not run here)"
