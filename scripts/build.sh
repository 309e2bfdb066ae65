#!/usr/bin/env bash
# Builds the native core, the JNI library, the runtime artifact (cached) and every Maven module
# (tests are not run here).
source "$(dirname "$0")/common.sh"
"$ROOT/scripts/setup.sh"

TF_DIR=$(tensorflow_dir)
mkdir -p "$BUILD"
step "Building native code (CMake + Ninja)"
cmake -S "$ROOT/native" -B "$BUILD/native" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTFJNI_BUILD_TESTS=ON \
  -DTFJNI_TENSORFLOW_DIR="$TF_DIR" >"$BUILD/cmake-configure.log" 2>&1 ||
  { cat "$BUILD/cmake-configure.log"; exit 1; }
cmake --build "$BUILD/native" -j "$JOBS"

"$ROOT/scripts/runtime-artifact.sh"

step "Building the Maven modules (java/pom.xml)"
(cd "$ROOT/java" && mvn -B -q -DskipTests $(maven_settings) install)
echo "built $ROOT/java/tfjni/target/tfjni.jar (the command line: $ROOT/bin/tfjni)"
