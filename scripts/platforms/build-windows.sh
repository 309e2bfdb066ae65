#!/usr/bin/env bash
# Cross-builds tfjni's natives for Windows on x86_64 (tfjni.dll, tfjni_loader.dll) and the C++
# core tests (tfjni_core_tests.exe) into build/native-windows-x86_64 with zig, against the C API of
# TFJNI_TF_VERSION's Windows wheel (scripts/platforms/setup-windows.sh); checks that every output is an
# x86_64 PE file.
source "$(dirname "$0")/../common.sh"
"$ROOT/scripts/platforms/setup-windows.sh"
source "$ROOT/scripts/platforms/setup-windows.sh"   # functions only (windows_java_home)

WINDOWS_BUILD=$(native_build_dir windows-x86_64)
TF_DIR=$(tensorflow_dir_of windows-x86_64 cpu)
step "Cross-building native code for windows-x86_64 (zig $ZIG_VERSION, $WINDOWS_BUILD)"
mkdir -p "$WINDOWS_BUILD"
# zig's own cache (the C and C++ runtimes it builds for the target: ~6 min the first time).
export ZIG_GLOBAL_CACHE_DIR="$TFJNI_CACHE/zig-cache"
# javac -h (the JNI headers) is the host JDK's; jni.h and jni_md.h are the Windows runtime's.
cmake -S "$ROOT/native" -B "$WINDOWS_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE="$ROOT/native/cmake/windows-x86_64.cmake" -DTFJNI_ZIG="$(zig_executable)" \
  -DTFJNI_BUILD_TESTS=ON -DTFJNI_GTEST_SOURCE_DIR=/usr/src/googletest \
  -DJNI_HEADER_DIR="$(windows_java_home)/include" -DTFJNI_TENSORFLOW_DIR="$TF_DIR" \
  >"$BUILD/cmake-configure-windows-x86_64.log" 2>&1 ||
  { cat "$BUILD/cmake-configure-windows-x86_64.log"; echo "configuring the windows-x86_64 build failed (log above)" >&2; exit 1; }
cmake --build "$WINDOWS_BUILD" -j "$JOBS" --target tfjni_jni tfjni_loader tfjni_core_tests

step "Checking that the outputs are x86_64 PE files"
for output in tfjni.dll tfjni_loader.dll tfjni_core_tests.exe; do
  kind=$(file -b "$WINDOWS_BUILD/$output")
  [[ "$kind" == "PE32+ executable"*"x86-64"* ]] || { echo "$WINDOWS_BUILD/$output is '$kind', not an x86_64 PE file" >&2; exit 1; }
  echo "$output: $kind"
done
echo "built windows-x86_64 natives in $WINDOWS_BUILD"
