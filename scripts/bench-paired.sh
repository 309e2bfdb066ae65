#!/usr/bin/env bash
# The C API floor and tfjni's fast path paired in one process (io.tfjni.bench.PairedCallerBench):
# one JVM runs both on the same threads and the same libtensorflow, alternating in short slices
# (all threads run one contender, then all the other, the order flipped every pair), so the
# machine's drift between minutes hits both alike. Each pair gives a ratio fast / floor of calls/s
# (and, at 1 thread, of median latency); the median over the pairs is the comparison. It judges
# the caller-thread targets on mlp_b1 with every op on the calling thread; the pooled configuration is
# run too, with fewer pairs.
#
#   scripts/bench-paired.sh [OUT_DIR]   (default build/bench-results/paired-<timestamp>)
#
# Writes OUT_DIR/paired-THREADING-CASE.jsonl (a line per pair, a summary line per thread count;
# java/tfjni-bench/README.md describes them) and prints the summaries. About 2 minutes with the
# defaults. Environment:
#   PAIRED_CASE=mlp_b1          the benchmark case
#   PAIRED_THREADINGS="caller pooled"
#   PAIRED_THREADS="1 2 4"      caller threads (latency is timed at 1)
#   PAIRED_PAIRS=100            measured pairs per thread count, caller threading
#   PAIRED_POOLED_PAIRS=30      the same, pooled threading
#   PAIRED_WARMUP_PAIRS=2       unmeasured pairs first, per thread count
#   PAIRED_SLICE_MS=100         one contender's slice (short, so that load from other processes
#                               more often hits both slices of a pair)
#   BENCH_QUICK=1               a short trial: 10 and 4 pairs
#   BENCH_NO_BUILD=1            use build/bench/libfloor_loop.so and the benchmarks jar as built
#   BENCH_MODELS                the models directory (default: scripts/bench-models.sh)
source "$(dirname "$0")/common.sh"

if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then
  sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
[[ $# -le 1 ]] || { echo "usage: scripts/bench-paired.sh [OUT_DIR] (see --help)" >&2; exit 2; }
OUT="${1:-$BUILD/bench-results/paired-$(date -u +%Y%m%dT%H%M%SZ)}"
CASE="${PAIRED_CASE:-mlp_b1}"
read -ra THREADS <<<"${PAIRED_THREADS:-1 2 4}"
if [[ "${BENCH_QUICK:-0}" == 1 ]]; then
  CALLER_PAIRS="${PAIRED_PAIRS:-10}" POOLED_PAIRS="${PAIRED_POOLED_PAIRS:-4}"
else
  CALLER_PAIRS="${PAIRED_PAIRS:-100}" POOLED_PAIRS="${PAIRED_POOLED_PAIRS:-30}"
fi

if [[ "${BENCH_NO_BUILD:-0}" != 1 ]]; then
  step "Building the floor's JNI library (build/bench) and the benchmarks jar"
  build_bench "$BUILD/bench-configure.log" floor_loop
  "$ROOT/scripts/bench-java.sh" build
fi
BENCH_MODELS="${BENCH_MODELS:-$("$ROOT/scripts/bench-models.sh")}"
export BENCH_NO_BUILD=1 BENCH_MODELS
mkdir -p "$OUT"

for threading in ${PAIRED_THREADINGS:-caller pooled}; do
  case "$threading" in
    caller) pairs=$CALLER_PAIRS ;;
    pooled) pairs=$POOLED_PAIRS ;;
    *) echo "bench-paired.sh: unknown threading '$threading' (caller or pooled)" >&2; exit 2 ;;
  esac
  step "$CASE, $threading: $pairs pairs of ${PAIRED_SLICE_MS:-100} ms slices at ${THREADS[*]} thread(s)"
  results="$OUT/paired-$threading-$CASE.jsonl"
  "$ROOT/scripts/bench-java.sh" paired "$CASE" "$threading" "${THREADS[@]}" --pairs="$pairs" \
    --warmup-pairs="${PAIRED_WARMUP_PAIRS:-2}" --slice-ms="${PAIRED_SLICE_MS:-100}" >"$results"
  grep '"kind":"summary"' "$results"
done
echo "results in $OUT"
