#!/usr/bin/env bash
# DJL's Predictor.predict side by side (java/tfjni-bench DjlBench, JMH): (a) tfjni-djl, (b) DJL's
# own TensorFlow engine 0.36.0 on TensorFlow Java's native library 1.0.0-rc.1 (TensorFlow 2.16.1,
# found through TENSORFLOW_LIBRARY_PATH), (c) tfjni's prepared path (ModelBench.tfjniFast), on the
# benchmark models' mlp_b1 and cnn_b1: latency (1 thread, with JMH's gc profiler for bytes per
# call), throughput at 1, 2 and 4 threads. The contenders alternate per measurement so drift on a
# shared machine hits them alike; each runs from a class path of its own (the two DJL engines are
# both named TensorFlow). Every contender runs in two threadings with the same settings for all:
# "pooled" (2 intra-op, 2 inter-op threads) and "caller" (2 intra-op, inter-op -1: TensorFlow runs
# a session's ops on the calling thread). Writes OUT_DIR/*.json and OUT_DIR/djl.md (the table,
# with the ratios).
#
#   scripts/bench/bench-djl.sh [OUT_DIR]   (default build/bench-results/djl-<time>; ~20 min, BENCH_QUICK=1 ~12)
#   BENCH_DJL_THREADINGS="pooled caller" (default), BENCH_DJL_CASES=mlp_b1,cnn_b1 (default)
#   BENCH_DJL_ROUNDS=5 (default): the target rows (mlp_b1 throughput at 1 and 4 threads) run this
#     many times in all, the contenders alternating in a rotated order each round; the table shows
#     their medians and the median of the per-round (a)/(b) ratios (~2 min per round after the
#     first). The DJL contenders' speed moves by up to 2x between JVM forks here: 3 rounds were
#     seen to land on either side of a 2x target.
#   BENCH_DJL_INSTRUCTIONS=1 (default): also count each contender's instructions per predict on
#     mlp_b1 in the caller threading with callgrind (scripts/bench/bench-instructions.sh, ~5 min).
source "$(dirname "$0")/../common.sh"
OUT=${1:-$BUILD/bench-results/djl-$(date -u +%Y%m%dT%H%M%SZ)}
REPO=$MAVEN_REPO
MVN="mvn -B -q -Dmaven.repo.local=$REPO"
CASES=${BENCH_DJL_CASES:-mlp_b1,cnn_b1}
THREADINGS=${BENCH_DJL_THREADINGS:-pooled caller}
if [[ "${BENCH_QUICK:-0}" == 1 ]]; then TIMING=(-wi 1 -w 1 -i 2 -r 1); else TIMING=(-wi 2 -w 1 -i 4 -r 1); fi
mkdir -p "$OUT/deps"

classpath() {  # classpath NAME COORDINATE...: the class path, resolved under OUT by NAME
  local name=$1; shift
  maven_classpath "$OUT/deps/$name" "$@" || exit 1
}

step "Building tfjni-bench's classes and resolving the two class paths"
(cd "$ROOT/java" && $MVN $(maven_settings) install -pl tfjni,tfjni-djl,tfjni-bench -DskipTests)
V=0.1.0-SNAPSHOT
JMH=$(classpath jmh org.openjdk.jmh:jmh-core:1.37)
CLASSES="$ROOT/java/tfjni-bench/target/classes"
CP_TFJNI="$CLASSES:$JMH:$(classpath tfjni io.tfjni:tfjni-djl:$V)"
CP_DJL="$CLASSES:$JMH:$(djl_tensorflow_engine "$OUT/deps/djl")" || exit 1
NATIVE="$OUT/deps/djl/tensorflow-core-native"

MODELS=$(bench_models_dir); [[ -f "$MODELS/.complete" ]] || MODELS=$("$ROOT/scripts/bench/bench-models.sh")
COMMON="-Dtfjni.bench.models=$MODELS -Dai.djl.offline=true"

thread_props() {  # thread_props THREADING: the same threads for every contender (make bench's names)
  case "$1" in
    pooled) echo "-Dai.djl.tensorflow.num_intraop_threads=2 -Dai.djl.tensorflow.num_interop_threads=2" ;;
    caller) echo "-Dai.djl.tensorflow.num_intraop_threads=2 -Dai.djl.tensorflow.num_interop_threads=-1" ;;
    *) echo "bench-djl.sh: unknown threading $1 (pooled or caller)" >&2; return 1 ;;
  esac
}

run() {  # run NAME THREADING CLASSPATH BENCHMARK JMH-ARGS...
  local name=$1 threading=$2 cp=$3 bench=$4 props; shift 4
  props=$(thread_props "$threading") || exit 1
  env TENSORFLOW_LIBRARY_PATH="$NATIVE" OPT_OUT_TRACKING=true java -cp "$cp" \
    org.openjdk.jmh.Main "$bench" "${TIMING[@]}" -p caseName="$CASES" \
    -jvmArgsAppend "$COMMON $props -Dtfjni.tensorflow.dir=$(tensorflow_dir) -Dtfjni.library.dir=$BUILD/native" \
    -rf json -rff "$OUT/$name.json" "$@" > "$OUT/$name.log" 2>&1 ||
    { tail -30 "$OUT/$name.log"; echo "bench-djl.sh: $name failed (log: $OUT/$name.log)" >&2; exit 1; }
}

contender() {  # contender LABEL THREADING MODE THREADS [NAME-SUFFIX]
  local label=$1 threading=$2 mode=$3 threads=$4 extra=()
  local name="$label-$threading-$mode-t$threads${5:-}"
  [[ "$mode" == avgt ]] && extra=(-prof gc)
  case "$label" in
    tfjniDjl) run "$name" "$threading" "$CP_TFJNI" 'io.tfjni.bench.DjlBench.predict' -p engine=tfjni -bm "$mode" -t "$threads" "${extra[@]}" ;;
    djlTf) run "$name" "$threading" "$CP_DJL" 'io.tfjni.bench.DjlBench.predict' -p engine=djl -bm "$mode" -t "$threads" "${extra[@]}" ;;
    # ModelBench's threadings set the same 2 intra-op threads and inter-op 2 or -1.
    tfjniFast) run "$name" "$threading" "$CP_TFJNI" 'io.tfjni.bench.ModelBench.tfjniFast' -p threading="$threading" -bm "$mode" -t "$threads" "${extra[@]}" ;;
  esac
}

for threading in $THREADINGS; do
  for spec in "avgt 1" "thrpt 1" "thrpt 2" "thrpt 4"; do
    read -r mode threads <<<"$spec"
    for label in tfjniDjl djlTf tfjniFast; do
      step "$label: $threading, $mode, $threads thread(s)"
      contender "$label" "$threading" "$mode" "$threads"
    done
  done
done
# The target rows again: on a shared machine one run of each can be off by 1.5x either way.
ROUNDS=${BENCH_DJL_ROUNDS:-5}
LABELS=(tfjniDjl djlTf tfjniFast)
if [[ ",$CASES," == *,mlp_b1,* ]]; then
  CASES=mlp_b1
  for ((round = 2; round <= ROUNDS; round++)); do
    for threading in $THREADINGS; do
      for threads in 1 4; do
        for ((k = 0; k < 3; k++)); do
          label=${LABELS[$(( (k + round - 1) % 3 ))]}
          step "$label: $threading, thrpt, $threads thread(s), round $round of $ROUNDS"
          contender "$label" "$threading" thrpt "$threads" "-r$round"
        done
      done
    done
  done
fi
if [[ "${BENCH_DJL_INSTRUCTIONS:-1}" == 1 && ",$CASES," == *,mlp_b1,* && " $THREADINGS " == *" caller "* ]]; then
  step "Instructions per predict on mlp_b1, caller threading (callgrind)"
  OUT="$OUT/instructions" CONTENDERS="${LABELS[*]}" THREADINGS=caller CALLS=1000 \
    "$ROOT/scripts/bench/bench-instructions.sh" mlp_b1 > "$OUT/instructions.log" 2>&1 ||
    { tail -30 "$OUT/instructions.log"; echo "bench-djl.sh: counting instructions failed" >&2; exit 1; }
fi
"$VENV/bin/python" "$ROOT/scripts/bench/bench_djl_report.py" "$OUT" | tee "$OUT/djl.md"
