#!/usr/bin/env bash
# The C API floor, tfjni's fast path and tfjni's map API paired in one process
# (io.tfjni.bench.PairedCallerBench): one JVM runs all three on the same threads and the same
# libtensorflow in short slices (all threads run one contender, then all the next). A pair is three
# slices, the floor's in the middle and the fast path and the map API on either side of it, swapping
# sides every pair, so each Java contender is compared with a floor slice next to its own and the
# machine's drift between minutes hits both alike. Each pair gives, per Java contender, a ratio to
# the floor of calls/s (and, at 1 thread, of median latency); the median over the pairs is the
# comparison. It judges every latency-ratio target of the report on mlp_b1, in both threading
# configurations (pooled: TensorFlow's inter-op pool; caller: every op on the calling thread).
#
#   scripts/bench/bench-paired.sh [OUT_DIR]   (default build/bench-results/paired-<timestamp>)
#
# Writes OUT_DIR/paired-THREADING-CASE.jsonl (a line per pair, a summary line per thread count;
# java/tfjni-bench/README.md describes them) and prints the summaries. About 4 minutes with the
# defaults on 2 cores (100 pairs of three 100 ms slices per thread count and threading, and a JVM
# and model load per threading). Environment:
#   PAIRED_CASE=mlp_b1          the benchmark case
#   PAIRED_THREADINGS="caller pooled"
#   PAIRED_THREADS="1 2 4"      caller threads (latency is timed at 1)
#   PAIRED_PAIRS=100            measured pairs per thread count and threading (two runs on 2
#                               cores shared with other builds: the latency ratios' medians 0.1% to
#                               1.8% apart, the calls/s ratios' up to 6%)
#   PAIRED_WARMUP_PAIRS=5       unmeasured pairs first, per thread count (the JIT compiles the
#                               map API's path in the first second)
#   PAIRED_SLICE_MS=100         one contender's slice (short, so that load from other processes
#                               more often hits both slices of a pair)
#   BENCH_QUICK=1               a short trial: 10 pairs
#   BENCH_NO_BUILD=1            use build/bench/libfloor_loop.so and the benchmarks jar as built
#   BENCH_MODELS                the models directory (default: scripts/bench/bench-models.sh)
source "$(dirname "$0")/../common.sh"

if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then
  sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
[[ $# -le 1 ]] || { echo "usage: scripts/bench/bench-paired.sh [OUT_DIR] (see --help)" >&2; exit 2; }
OUT="${1:-$BUILD/bench-results/paired-$(date -u +%Y%m%dT%H%M%SZ)}"
CASE="${PAIRED_CASE:-mlp_b1}"
read -ra THREADS <<<"${PAIRED_THREADS:-1 2 4}"
PAIRS="${PAIRED_PAIRS:-$([[ "${BENCH_QUICK:-0}" == 1 ]] && echo 10 || echo 100)}"

if [[ "${BENCH_NO_BUILD:-0}" != 1 ]]; then
  step "Building the floor's JNI library (build/bench) and the benchmarks jar"
  build_bench "$BUILD/bench-configure.log" floor_loop
  "$ROOT/scripts/bench/bench-java.sh" build
fi
BENCH_MODELS="${BENCH_MODELS:-$("$ROOT/scripts/bench/bench-models.sh")}"
export BENCH_NO_BUILD=1 BENCH_MODELS
mkdir -p "$OUT"

for threading in ${PAIRED_THREADINGS:-caller pooled}; do
  [[ "$threading" == caller || "$threading" == pooled ]] ||
    { echo "bench-paired.sh: unknown threading '$threading' (caller or pooled)" >&2; exit 2; }
  step "$CASE, $threading: $PAIRS pairs of three ${PAIRED_SLICE_MS:-100} ms slices at ${THREADS[*]} thread(s)"
  results="$OUT/paired-$threading-$CASE.jsonl"
  "$ROOT/scripts/bench/bench-java.sh" paired "$CASE" "$threading" "${THREADS[@]}" --pairs="$PAIRS" \
    --warmup-pairs="${PAIRED_WARMUP_PAIRS:-5}" --slice-ms="${PAIRED_SLICE_MS:-100}" >"$results"
  grep '"kind":"summary"' "$results"
done
echo "results in $OUT"
