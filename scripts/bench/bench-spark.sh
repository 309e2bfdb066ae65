#!/usr/bin/env bash
# Rows per second through tfjni's Spark transformer on local[2] against a plain Predictor loop on
# 2 threads, for the tiny MLP and the MobileNetV2-sized CNN of the benchmark models, at several
# batch sizes (io.tfjni.bench.SparkThroughput), then docs/SPARK_BENCHMARKS.md from the results.
# Outside CI (~6 min); BENCH_QUICK=1 for a short trial that writes its report under build/.
#
#   scripts/bench/bench-spark.sh [--help]
source "$(dirname "$0")/../common.sh"
[[ "${1:-}" == --help ]] && { sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0; }

"$ROOT/scripts/build.sh" >&2
MODELS=$("$ROOT/scripts/bench/bench-models.sh")
OUT="$BUILD/bench-spark/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$OUT"
(cd "$ROOT/java" && mvn -B -q dependency:build-classpath -pl tfjni-bench -Dmdep.includeScope=test \
  -Dmdep.outputFile="$OUT/classpath.txt")
classpath="$ROOT/java/tfjni-bench/target/classes:$(cat "$OUT/classpath.txt")"
if [[ "${BENCH_QUICK:-0}" == 1 ]]; then
  runs=("mlp 20000 16,256 1" "cnn 64 8,32 1")
  report="$OUT/SPARK_BENCHMARKS.md"
else
  runs=("mlp 100000 16,256,1024 3" "cnn 256 8,32 3")
  report="$ROOT/docs/SPARK_BENCHMARKS.md"
fi
for run in "${runs[@]}"; do
  read -r model rows batches rounds <<<"$run"
  step "$model: $rows rows, batch sizes $batches, $rounds rounds" >&2
  "$JAVA_HOME/bin/java" -Xms4g -Xmx4g "@$ROOT/java/tfjni-spark/jvm-options.txt" \
    -Dtfjni.tensorflow.dir="$(tensorflow_dir)" -cp "$classpath" io.tfjni.bench.SparkThroughput \
    "$MODELS" "$model" "$rows" "$batches" "$rounds" 2>>"$OUT/spark.log" | tee -a "$OUT/results.jsonl"
done
"$VENV/bin/python" "$ROOT/scripts/bench/bench_spark_report.py" "$OUT/results.jsonl" "$report" \
  "BENCH_QUICK=${BENCH_QUICK:-0} scripts/bench/bench-spark.sh"
echo "wrote $report"
