#!/usr/bin/env bash
# Builds the native core, the JNI library, the runtime artifact (cached) and every Maven module
# (tests are not run here). With --all-platforms (make natives, make test) it also cross-builds
# the JNI library for every other platform in PLATFORMS, so that the tfjni jar carries them all,
# and builds every platform's and variant's runtime artifact.
source "$(dirname "$0")/common.sh"
all_platforms=false
case "${1:-}" in
  --all-platforms) all_platforms=true ;;
  "") ;;
  *) echo "usage: scripts/build.sh [--all-platforms]" >&2; exit 2 ;;
esac
"$ROOT/scripts/setup.sh"

TF_DIR=$(tensorflow_dir)
mkdir -p "$BUILD"
step "Building native code for linux-x86_64 (CMake + Ninja)"
cmake -S "$ROOT/native" -B "$BUILD/native" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTFJNI_BUILD_TESTS=ON \
  -DTFJNI_TENSORFLOW_DIR="$TF_DIR" >"$BUILD/cmake-configure.log" 2>&1 ||
  { cat "$BUILD/cmake-configure.log"; exit 1; }
cmake --build "$BUILD/native" -j "$JOBS"

if $all_platforms; then
  export TFJNI_JAR_PLATFORMS=$ALL_PLATFORMS
  "$ROOT/scripts/platforms/build-linux-aarch64.sh"
  "$ROOT/scripts/platforms/build-macos-arm64.sh"
  "$ROOT/scripts/platforms/build-windows.sh"
  "$ROOT/scripts/release/runtime-artifact.sh" --all
else
  "$ROOT/scripts/release/runtime-artifact.sh"
fi

step "Building the Maven modules (java/pom.xml) with the natives of $TFJNI_JAR_PLATFORMS"
(cd "$ROOT/java" && mvn -B -q -DskipTests $(maven_settings) install)
echo "built $ROOT/java/tfjni/target/tfjni.jar (the command line: $ROOT/bin/tfjni)"
