#!/usr/bin/env bash
# `make bench`: every benchmark of the project in one run, then the report.
#
# Contenders: the C API called from C++ (the floor, native/bench/model_floor_bench),
# tfjni's map API, tfjni's prepared fast path and TensorFlow Java (JMH, through
# scripts/bench/bench-java.sh), all on the models of scripts/bench/generate_bench_models.py
# with the same TensorFlow and thread settings, in two threading configurations:
# "pooled" (intra-op 2, inter-op 2: TensorFlow's inter-op pool runs the ops) and
# "caller" (intra-op 2, inter-op -1: every op on the calling thread). ROUNDS rounds (default 3); each
# round runs every contender on every case before the next round starts, in an
# order rotated per round, so drift on a shared machine hits all of them alike.
# Per round and case: latency per call (1 thread; JMH sample mode with the gc
# profiler for bytes and GCs per call), throughput at 2 and 4 threads, and eager
# dispatch of one AddV2. Then, once per contender, RSS after 1e4 and 1e6 calls on
# mlp_b1 and text_b8, and instructions per call on mlp_b1's calling thread, counted
# by callgrind (scripts/bench/bench-instructions.sh), which the machine's load cannot
# change. After the rounds, once: the floor, the fast path and the map API paired in
# one process on mlp_b1 (scripts/bench/bench-paired.sh, ~4 min), in turn on the same threads
# in short slices, whose per-pair ratios to the floor judge the report's latency and
# throughput ratio targets in both threading configurations (the rounds' ratios shown beside).
# Raw results: build/bench-results/<timestamp>/.
# scripts/bench/bench_report.py turns them into docs/BENCHMARKS.md and docs/benchmarks.png.
#
#   ROUNDS=n         rounds (default 3)
#   BENCH_QUICK=1    a short trial: 1 round, short runs, RSS after 1e3 and 2e4
#                    calls; its report stays in the results directory, not docs/
#   BENCH_RSS_JOBS=n RSS probes run at once (default 2; they count calls, not time)
#   BENCH_CASES=a,b  only these cases (a partial run: its report stays with its
#                    raw results, like a quick one)
#   BENCH_THREADINGS="pooled caller"   the threading configurations (default both)
#   BENCH_JAVA=path  the Java side (default scripts/bench/bench-java.sh)
#   BENCH_DJL=0      skip DJL's engines (scripts/bench/bench-djl.sh, ~20 min; 1 by default)
#   BENCH_BATCHING=0 skip batching across callers (scripts/bench/bench-batching.sh, ~2 min a round)
#   BENCH_SWAPS=0    skip the latency around version swaps (scripts/bench/bench-swaps.sh, ~0.5 min a round)
#   BENCH_RUNTIMES=0 skip TensorFlow, LiteRT and ONNX Runtime side by side (scripts/bench/bench-runtimes.sh,
#                    ~10 min; run alone: scripts/bench/bench-runtimes.sh)
source "$(dirname "$0")/common.sh"

# The command as typed, for the report: the settings given, then the command.
COMMAND=""
for setting in ROUNDS BENCH_QUICK BENCH_RSS_JOBS BENCH_CASES BENCH_THREADINGS; do
  [[ -n "${!setting:-}" ]] && COMMAND+="$setting=${!setting} "
done
COMMAND+="${BENCH_COMMAND:-scripts/bench.sh}"
BENCH_QUICK="${BENCH_QUICK:-0}"
BENCH_JAVA="${BENCH_JAVA:-$ROOT/scripts/bench/bench-java.sh}"
BENCH_RSS_JOBS="${BENCH_RSS_JOBS:-2}"
JAVA_CONTENDERS=(tfjniMap tfjniFast tfJava)
RSS_CASES=(text_b8 mlp_b1)  # the slower first, so parallel probes end together
THREADS=(1 2 4)  # throughput runs
read -ra THREADINGS <<<"${BENCH_THREADINGS:-pooled caller}"
for threading in "${THREADINGS[@]}"; do
  [[ "$threading" == pooled || "$threading" == caller ]] ||
    { echo "bench.sh: BENCH_THREADINGS: unknown threading '$threading' (pooled or caller)" >&2; exit 2; }
done
# inter_op_parallelism_threads of each threading (intra-op is 2 in both).
declare -A INTER_OP=([pooled]=2 [caller]=-1)

# Budget of a full run on 2 quiet cores, ~64 min: building ~2 min (when tfjni is
# built already); per round ~14.5 min: 98 JMH runs (~3.5 s each to start two JVMs,
# load TensorFlow and the model) measuring 6 s (latency), 3 s (throughput) or
# 5 s (eager), the floor ~14 s per case and threading, eager C++ ~7 s; 3 rounds
# ~44 min (each threading configuration adds ~7 min per round).
# RSS: 1e6 calls of text_b8 (~0.1 ms each) and mlp_b1 (~20-60 us) per
# contender, ~10 min one at a time, ~7.5 min two at a time. Instructions: ~0.5 min
# per C++ contender and ~1.5 to 3.5 min per Java one under valgrind, ~7 min per
# threading configuration. Paired: ~4 min.
if [[ "$BENCH_QUICK" == 1 ]]; then
  ROUNDS="${ROUNDS:-1}"
  JMH_LATENCY=(-wi 1 -w 500ms -i 2 -r 500ms)
  JMH_THROUGHPUT=(-wi 1 -w 200ms -i 1 -r 500ms)
  JMH_EAGER=(-wi 1 -w 500ms -i 2 -r 500ms)
  FLOOR_TIMES=(--warmup_time=0.3 --latency_time=0.7 --throughput_time=0.4)
  EAGER_MIN_TIME=0.3
  RSS_CALLS=1000,20000
  INSTRUCTION_CALLS=300
  INSTRUCTION_JAVA_WARMUP=5000
else
  ROUNDS="${ROUNDS:-3}"
  JMH_LATENCY=(-wi 2 -w 1s -i 4 -r 1s)
  JMH_THROUGHPUT=(-wi 1 -w 1s -i 2 -r 1s)
  JMH_EAGER=(-wi 2 -w 1s -i 3 -r 1s)
  # Google Benchmark measures ~1.4x its minimum time: about JMH's 4 s and 2 s.
  FLOOR_TIMES=(--warmup_time=1 --latency_time=3 --throughput_time=1.5)
  EAGER_MIN_TIME=2
  RSS_CALLS=10000,1000000
  INSTRUCTION_CALLS=2000
  INSTRUCTION_JAVA_WARMUP=20000
fi

OUT="$BUILD/bench-results/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$OUT/logs"
STARTED=$SECONDS

# run NAME COMMAND...: one benchmark step, its output in logs/NAME.log. A failed
# step is reported and marked (logs/NAME.failed) and the run goes on.
run() {
  local name=$1 start=$SECONDS
  shift
  if "$@" >"$OUT/logs/$name.log" 2>&1; then
    printf '  %-44s %4d s\n' "$name" $((SECONDS - start))
  else
    printf '  %-44s FAILED, see logs/%s.log:\n%s\n' "$name" "$name" "$(tail -n 5 "$OUT/logs/$name.log")"
    touch "$OUT/logs/$name.failed"
  fi
}

step "Benchmark models"
MODELS=$("$ROOT/scripts/bench/bench-models.sh")
mapfile -t CASES < <("$VENV/bin/python" -c 'import json, sys
print("\n".join(c["name"] for c in json.load(open(sys.argv[1]))["cases"]))' "$MODELS/bench_models.json")
if [[ -n "${BENCH_CASES:-}" ]]; then
  IFS=, read -ra CASES <<<"$BENCH_CASES"
  mapfile -t RSS_CASES < <(printf '%s\n' "${RSS_CASES[@]}" | grep -Fxf <(printf '%s\n' "${CASES[@]}") || true)
fi
echo "$MODELS: ${CASES[*]}"

step "Building the C++ benchmarks (build/bench)"
build_bench "$OUT/logs/cmake-configure.log" model_floor_bench eager_dispatch_bench call_instructions \
  callgrind_marks floor_loop
FLOOR="$BUILD/bench/model_floor_bench"
EAGER="$BUILD/bench/eager_dispatch_bench"

step "Building the Java benchmarks ($BENCH_JAVA)"
if [[ -x "$BENCH_JAVA" ]]; then
  "$BENCH_JAVA" jmh -l >"$OUT/logs/java-build.log" 2>&1 || { tail -n 30 "$OUT/logs/java-build.log"; exit 1; }
  grep -E 'io\.tfjni\.bench\.(ModelBench|EagerBench)\.' "$OUT/logs/java-build.log" || true
  CONTENDERS=(c_api "${JAVA_CONTENDERS[@]}")
  EAGER_CONTENDERS=(cpp tfjni tfJava)
else
  echo "WARNING: no $BENCH_JAVA: running the C++ contenders only" >&2
  CONTENDERS=(c_api)
  EAGER_CONTENDERS=(cpp)
fi
export BENCH_NO_BUILD=1 BENCH_MODELS="$MODELS"

step "Machine"
CPU_MODEL=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)
echo "$CPU_MODEL, $(nproc) cores, Linux $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"

# rotated ARRAY_NAME ROUND: the array, starting at element ROUND-1 (mod its length).
rotated() {
  local -n items=$1
  local n=${#items[@]} i
  for ((i = 0; i < n; i++)); do echo "${items[$(((i + $2 - 1) % n))]}"; done
}

jmh() { "$BENCH_JAVA" jmh "$@" -f 1 -rf json; }

# model_case ROUND_DIR CONTENDER CASE THREADING: latency, bytes and GCs per call,
# throughput. The report tells the threading from the results themselves (the
# floor's context inter_op_threads, JMH's parameter threading).
model_case() {
  local dir=$1 contender=$2 case=$3 threading=$4 threads
  if [[ "$contender" == c_api ]]; then
    run "r$round-c_api-$case-$threading" "$FLOOR" --models="$MODELS" --cases="$case" --threads=1,2,4 \
      --inter_op_threads="${INTER_OP[$threading]}" "${FLOOR_TIMES[@]}" \
      --benchmark_out="$dir/floor-$threading-$case.json" --benchmark_out_format=json
    return
  fi
  local bench="io\\.tfjni\\.bench\\.ModelBench\\.$contender\$"
  run "r$round-$contender-$case-$threading-latency" jmh "$bench" -p case="$case" -p threading="$threading" \
    -t 1 -bm sample -tu us "${JMH_LATENCY[@]}" -rff "$dir/latency-$threading-$contender-$case.json"
  for threads in "${THREADS[@]}"; do
    run "r$round-$contender-$case-$threading-t$threads" jmh "$bench" -p case="$case" -p threading="$threading" \
      -t "$threads" -bm thrpt -tu s -prof gc "${JMH_THROUGHPUT[@]}" \
      -rff "$dir/throughput-t$threads-$threading-$contender-$case.json"
  done
}

# eager ROUND_DIR CONTENDER: one AddV2 of two 1-element tensors; "cpp" is the
# tfjni C++ core and the raw C API (native/bench/eager_dispatch_bench.cpp).
eager() {
  local dir=$1 contender=$2
  if [[ "$contender" == cpp ]]; then
    run "r$round-eager-cpp" "$EAGER" --benchmark_min_time="$EAGER_MIN_TIME" \
      --benchmark_out="$dir/eager-cpp.json" --benchmark_out_format=json
  else
    run "r$round-eager-$contender" jmh "io\\.tfjni\\.bench\\.EagerBench\\.$contender\$" -t 1 -bm avgt -tu ns \
      -prof gc "${JMH_EAGER[@]}" -rff "$dir/eager-$contender.json"
  fi
}

for ((round = 1; round <= ROUNDS; round++)); do
  step "Round $round of $ROUNDS ($(((SECONDS - STARTED) / 60)) min so far)"
  dir="$OUT/round-$round"
  mkdir -p "$dir"
  mapfile -t order < <(rotated CONTENDERS "$round")
  for case in "${CASES[@]}"; do
    for threading in "${THREADINGS[@]}"; do
      for contender in "${order[@]}"; do model_case "$dir" "$contender" "$case" "$threading"; done
    done
  done
  mapfile -t order < <(rotated EAGER_CONTENDERS "$round")
  for contender in "${order[@]}"; do eager "$dir" "$contender"; done
done

if [[ " ${CASES[*]} " == *" mlp_b1 "* && " ${CONTENDERS[*]} " == *" tfjniFast "* ]]; then
  step "Paired, same process: the floor, tfjni's fast path and map API in turn on mlp_b1 (scripts/bench/bench-paired.sh)"
  run paired env BENCH_QUICK="$BENCH_QUICK" PAIRED_CASE=mlp_b1 PAIRED_THREADINGS="${THREADINGS[*]}" \
    "$ROOT/scripts/bench/bench-paired.sh" "$OUT/paired"
fi

step "RSS after ${RSS_CALLS/,/ and } calls ($BENCH_RSS_JOBS at a time)"
rss() {
  local contender=$1 case=$2
  if [[ "$contender" == c_api ]]; then
    "$FLOOR" --models="$MODELS" --rss="$case" --rss_calls="$RSS_CALLS" >"$OUT/rss-$contender-$case.jsonl"
  else
    "$BENCH_JAVA" rss "$contender" "$case" "$RSS_CALLS" >"$OUT/rss-$contender-$case.jsonl"
  fi
}
for case in "${RSS_CASES[@]}"; do
  for contender in "${CONTENDERS[@]}"; do
    while (($(jobs -rp | wc -l) >= BENCH_RSS_JOBS)); do wait -n || true; done
    run "rss-$contender-$case" rss "$contender" "$case" &
  done
done
wait

if [[ " ${CASES[*]} " == *" mlp_b1 "* ]]; then
  step "Instructions per call on mlp_b1's calling thread (callgrind: counted, not timed)"
  run instructions env OUT="$OUT/instructions" CONTENDERS="c_api core ${CONTENDERS[*]:1}" \
    THREADINGS="${THREADINGS[*]}" \
    CALLS="$INSTRUCTION_CALLS" JAVA_WARMUP="$INSTRUCTION_JAVA_WARMUP" "$ROOT/scripts/bench/bench-instructions.sh" mlp_b1
fi

if [[ "${BENCH_DJL:-1}" == 1 ]]; then
  step "DJL's Predictor.predict: tfjni-djl, DJL's TensorFlow engine, tfjni's prepared path (scripts/bench/bench-djl.sh)"
  run djl env BENCH_QUICK="$BENCH_QUICK" "$ROOT/scripts/bench/bench-djl.sh" "$OUT/djl"
fi

if [[ "${BENCH_RUNTIMES:-1}" == 1 ]]; then
  step "Three runtimes: TensorFlow, LiteRT through tfjni, ONNX Runtime Java, paired (scripts/bench/bench-runtimes.sh)"
  run runtimes env BENCH_QUICK="$BENCH_QUICK" BENCH_RUNTIMES_COMMAND="$COMMAND" \
    "$ROOT/scripts/bench/bench-runtimes.sh" "$OUT/runtimes"
fi

if [[ "${BENCH_BATCHING:-1}" == 1 ]]; then
  step "Batching across callers: batched next to unbatched, $ROUNDS round(s) (scripts/bench/bench-batching.sh)"
  for ((round = 1; round <= ROUNDS; round++)); do
    run "batching-r$round" env BATCH_DURATION="$([[ "$BENCH_QUICK" == 1 ]] && echo 1s || echo 3s)" \
      "$ROOT/scripts/bench/bench-batching.sh" "$OUT/batching/round-$round"
  done
fi

if [[ "${BENCH_SWAPS:-1}" == 1 ]]; then
  step "Latency around version swaps at 1 and 2 callers, $ROUNDS round(s) (scripts/bench/bench-swaps.sh)"
  for ((round = 1; round <= ROUNDS; round++)); do
    if [[ "$BENCH_QUICK" == 1 ]]; then swap_settings=(SWAP_DURATION=2s SWAP_EVERY=5000); else swap_settings=(); fi
    run "swaps-r$round" env "${swap_settings[@]}" "$ROOT/scripts/bench/bench-swaps.sh" "$OUT/swaps/round-$round"
  done
fi

mapfile -t FAILED < <(cd "$OUT/logs" && ls -- *.failed 2>/dev/null | sed 's/\.failed$//')

step "Report"
TFJNI_BENCH_META_CPU="$CPU_MODEL" \
TFJNI_BENCH_META_COMPILER="$("$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$BUILD/bench/CMakeCache.txt")" --version | head -n 1)" \
TFJNI_BENCH_META_JDK="$("$JAVA_HOME/bin/java" -version 2>&1 | head -n 1)" \
TFJNI_BENCH_META_BENCHMARK="$(dpkg-query -W -f='${Version}' libbenchmark-dev 2>/dev/null || echo unknown)" \
TFJNI_BENCH_META_COMMIT="$(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo unknown)" \
  "$VENV/bin/python" - "$OUT/meta.json" <<EOF
import json, os, platform, sys
env = lambda key: os.environ["TFJNI_BENCH_META_" + key]
meta = {
    "command": "$COMMAND", "rounds": $ROUNDS, "quick": "$BENCH_QUICK" == "1",
    "partial": "${BENCH_CASES:-}" != "",
    "started_utc": "$(basename "$OUT")", "duration_s": $((SECONDS - STARTED)),
    "cpu_model": env("CPU"), "cores": os.cpu_count(), "kernel": platform.release(),
    "memory_kb": int(next(l.split()[1] for l in open("/proc/meminfo") if l.startswith("MemTotal"))),
    "compiler": env("COMPILER"), "jdk": env("JDK"), "google_benchmark": env("BENCHMARK"),
    "commit": env("COMMIT"), "models": "$MODELS", "contenders": "${CONTENDERS[*]}".split(),
    "java_pom": "$ROOT/java/tfjni-bench/pom.xml",
    "settings": {"jmh_latency": "${JMH_LATENCY[*]}", "jmh_throughput": "${JMH_THROUGHPUT[*]}",
                 "jmh_eager": "${JMH_EAGER[*]}", "floor": "${FLOOR_TIMES[*]}",
                 "eager_min_time_s": $EAGER_MIN_TIME, "rss_calls": "$RSS_CALLS",
                 "rss_cases": "${RSS_CASES[*]}".split(),
                 "threadings": {t: {"intra_op_threads": 2, "inter_op_threads": {"pooled": 2, "caller": -1}[t]}
                                for t in "${THREADINGS[*]}".split()}},
    "failed": "${FAILED[*]}".split(),
}
json.dump(meta, open(sys.argv[1], "w"), indent=2)
EOF
if [[ "$BENCH_QUICK" == 1 || -n "${BENCH_CASES:-}" ]]; then  # trials never overwrite the committed report
  report_args=(--md "$OUT/BENCHMARKS.md" --png "$OUT/benchmarks.png")
else
  report_args=(--md "$ROOT/docs/BENCHMARKS.md" --png "$ROOT/docs/benchmarks.png")
fi
"$VENV/bin/python" "$ROOT/scripts/bench/bench_report.py" "$OUT" "${report_args[@]}"
echo "raw results in $OUT; $(((SECONDS - STARTED) / 60)) min $(((SECONDS - STARTED) % 60)) s in all"
if ((${#FAILED[@]})); then
  echo "FAILED: ${FAILED[*]}" >&2
  exit 1
fi
