#!/usr/bin/env bash
# Cost of dispatching one small eager op (AddV2 of two 1-element tensors), side
# by side in one run, interleaved: C++ through the tfjni core, C++ through the
# raw C API (the floor), and Java through tfjni's OpBuilder. Prints medians.
source "$(dirname "$0")/common.sh"
"$ROOT/scripts/build.sh" >/dev/null
ROUNDS="${ROUNDS:-3}"
cmake -S "$ROOT/native" -B "$BUILD/bench" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTFJNI_BUILD_BENCHMARKS=ON \
  -DTFJNI_BUILD_TESTS=OFF -DTFJNI_BUILD_JNI=OFF -DTFJNI_TENSORFLOW_DIR="$(tensorflow_dir)" >/dev/null
cmake --build "$BUILD/bench" -j "$JOBS" --target eager_dispatch_bench >/dev/null
(cd "$ROOT/java" && mvn -B -q test-compile -Dtfjni.native.dir="$BUILD/native" \
  -Dtfjni.tensorflow.dir="$(tensorflow_dir)" >/dev/null)
classpath="$ROOT/java/target/test-classes:$ROOT/java/target/classes"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; TensorFlow $TFJNI_TF_VERSION"
for round in $(seq "$ROUNDS"); do
  echo "-- round $round"
  "$BUILD/bench/eager_dispatch_bench" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
    --benchmark_min_time=0.5 2>/dev/null | grep -E "_median" | awk '{printf "%s_ns %s\n", $1, $2}'
  java -cp "$classpath" io.tfjni.bench.EagerDispatchBench 2>/dev/null
done
