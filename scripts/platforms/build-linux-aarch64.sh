#!/usr/bin/env bash
# Cross-builds the native core, the JNI library (libtfjni.so), the loader helper
# (libtfjni_loader.so) and the C++ core tests for linux-aarch64 into build/native-linux-aarch64,
# against the official aarch64 TensorFlow wheel's C API; checks that every output is AArch64.
source "$(dirname "$0")/../common.sh"
"$ROOT/scripts/setup.sh"
"$ROOT/scripts/platforms/setup-linux-aarch64.sh"

AARCH64_BUILD=$(native_build_dir linux-aarch64)
TF_DIR=$(tensorflow_dir_of linux-aarch64 cpu)
mkdir -p "$BUILD"
step "Cross-building native code for linux-aarch64 (CMake + Ninja, $AARCH64_BUILD)"
cmake -S "$ROOT/native" -B "$AARCH64_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE="$ROOT/native/cmake/linux-aarch64.cmake" -DTFJNI_BUILD_TESTS=ON \
  -DTFJNI_TENSORFLOW_DIR="$TF_DIR" >"$BUILD/cmake-configure-linux-aarch64.log" 2>&1 ||
  { cat "$BUILD/cmake-configure-linux-aarch64.log"; exit 1; }
cmake --build "$AARCH64_BUILD" -j "$JOBS"

step "Checking that the outputs are AArch64 ELF files"
for output in libtfjni.so libtfjni_loader.so tfjni_core_tests; do
  machine=$(readelf -h "$AARCH64_BUILD/$output" | sed -n 's/^ *Machine: *//p')
  [[ "$machine" == AArch64 ]] || { echo "$AARCH64_BUILD/$output is built for '$machine', not AArch64" >&2; exit 1; }
  echo "$output: $machine"
done
echo "built linux-aarch64 natives in $AARCH64_BUILD"
