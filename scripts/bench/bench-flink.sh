#!/usr/bin/env bash
# Records per second through tfjni-flink's async function at parallelism 2 against a plain
# Predictor loop on 2 threads, side by side in one JVM, on the CNN of the benchmark models, and
# each record's latency through the async path (io.tfjni.flink.FlinkThroughput). Outside CI.
#
#   scripts/bench/bench-flink.sh [RECORDS [BATCH [CAPACITY [ROUNDS [chained]]]]]   (defaults 128 8 32 3)
source "$(dirname "$0")/../common.sh"
[[ "${1:-}" == --help ]] && { sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0; }

"$ROOT/scripts/build.sh" >&2
MODELS=$("$ROOT/scripts/bench/bench-models.sh")
OUT="$BUILD/bench-flink"
mkdir -p "$OUT"
(cd "$ROOT/java" && mvn -B -q -Dmaven.repo.local="$MAVEN_REPO" $(maven_settings) test-compile \
  -pl tfjni-flink && mvn -B -q -Dmaven.repo.local="$MAVEN_REPO" dependency:build-classpath \
  -pl tfjni-flink -Dmdep.includeScope=test -Dmdep.outputFile="$OUT/classpath.txt")
module="$ROOT/java/tfjni-flink/target"
"$JAVA_HOME/bin/java" -Xmx4g -Dtfjni.tensorflow.dir="$(tensorflow_dir)" \
  -cp "$module/test-classes:$module/classes:$(cat "$OUT/classpath.txt")" \
  io.tfjni.flink.FlinkThroughput "$MODELS/cnn" "${1:-128}" "${2:-8}" "${3:-32}" "${4:-3}" ${5:-} \
  2>"$OUT/flink.log"
