#!/usr/bin/env bash
# Three runtimes side by side on the same inputs (io.tfjni.bench.RuntimesPairedBench): TensorFlow
# (tfjni's prepared path), LiteRT through tfjni (io.tfjni.LiteRtModel) and ONNX Runtime's Java
# binding, on the runtime models (scripts/bench/runtime-models.sh: the benchmark models' float cases, a
# Transformer block and an LSTM, converted to LiteRT and to ONNX), each at 1 and 2 CPU threads.
# Per case and thread count, one JVM: agreement with TensorFlow Python's outputs first (a runtime
# that disagrees or did not convert is reported, not timed), the Java bytes each allocates per call,
# then pairs of slices on one caller thread, TensorFlow's in the middle, LiteRT and ONNX Runtime on
# either side swapping every pair (as scripts/bench/bench-paired.sh pairs the floor): the median of the
# per-pair ratios compares runtimes under one machine speed. scripts/bench/runtimes_report.py turns the
# results into the "Three runtimes" section of docs/BENCHMARKS.md; make bench runs this once.
#
#   scripts/bench/bench-runtimes.sh [OUT_DIR]   (default build/bench-results/runtimes-<timestamp>)
#
# Writes OUT_DIR/runtimes-CASE.jsonl (java/tfjni-bench/README.md describes the lines),
# OUT_DIR/meta.json (versions, the conversions, the command, the load) and OUT_DIR/runtimes.md (the
# section). About 8 minutes with the defaults on 2 quiet cores. Environment:
#   RUNTIMES_CASES="mlp_b1 cnn_b1 ..."  the cases (default: every case of the runtime models)
#   RUNTIMES_THREADS="1 2"      each runtime's CPU threads (TensorFlow: intra-op, ops on the caller)
#   RUNTIMES_PAIRS=60           measured pairs per case and thread count
#   RUNTIMES_WARMUP_PAIRS=5     unmeasured pairs first
#   RUNTIMES_SLICE_MS=100       a slice's least length (at least 5 calls of the slowest runtime)
#   RUNTIMES_DOCS=1             also replace the section in docs/BENCHMARKS.md
#   BENCH_QUICK=1               a short trial: 10 pairs
#   BENCH_NO_BUILD=1            use the benchmarks jar as built
source "$(dirname "$0")/../common.sh"

if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then
  sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
[[ $# -le 1 ]] || { echo "usage: scripts/bench/bench-runtimes.sh [OUT_DIR] (see --help)" >&2; exit 2; }
OUT="${1:-$BUILD/bench-results/runtimes-$(date -u +%Y%m%dT%H%M%SZ)}"
PAIRS="${RUNTIMES_PAIRS:-$([[ "${BENCH_QUICK:-0}" == 1 ]] && echo 10 || echo 60)}"
read -ra THREADS <<<"${RUNTIMES_THREADS:-1 2}"

if [[ "${BENCH_NO_BUILD:-0}" != 1 ]]; then
  step "Building the benchmarks jar"
  "$ROOT/scripts/bench/bench-java.sh" build
fi
step "Runtime models (LiteRT, ONNX)"
BENCH_RUNTIME_MODELS="${BENCH_RUNTIME_MODELS:-$("$ROOT/scripts/bench/runtime-models.sh")}"
export BENCH_NO_BUILD=1 BENCH_RUNTIME_MODELS
mapfile -t CASES < <(python3 -c 'import json, sys
print("\n".join(c["name"] for c in json.load(open(sys.argv[1]))["cases"]))' \
  "$BENCH_RUNTIME_MODELS/bench_models.json")
[[ -z "${RUNTIMES_CASES:-}" ]] || read -ra CASES <<<"$RUNTIMES_CASES"
mkdir -p "$OUT"
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
STARTED=$SECONDS

for case in "${CASES[@]}"; do
  step "$case: $PAIRS pairs at ${THREADS[*]} thread(s), load average $(cut -d' ' -f1-3 /proc/loadavg)"
  "$ROOT/scripts/bench/bench-java.sh" runtimes "$case" "${THREADS[@]}" --pairs="$PAIRS" \
    --warmup-pairs="${RUNTIMES_WARMUP_PAIRS:-5}" --slice-ms="${RUNTIMES_SLICE_MS:-100}" \
    >"$OUT/runtimes-$case.jsonl"
  grep -E '"kind":"(agreement|summary)"' "$OUT/runtimes-$case.jsonl"
done

COMMAND=""
for setting in RUNTIMES_CASES RUNTIMES_THREADS RUNTIMES_PAIRS BENCH_QUICK; do
  [[ -n "${!setting:-}" ]] && COMMAND+="$setting=\"${!setting}\" "
done
"$VENV/bin/python" - "$OUT/meta.json" "$BENCH_RUNTIME_MODELS/bench_models.json" <<EOF
import json, sys
manifest = json.load(open(sys.argv[2]))
json.dump({
    "command": '${COMMAND}${BENCH_RUNTIMES_COMMAND:-scripts/bench/bench-runtimes.sh}',
    "cpu_model": "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)", "cores": $(nproc),
    "load_average_before": "$LOAD_BEFORE", "load_average_after": "$(cut -d' ' -f1-3 /proc/loadavg)",
    "duration_s": $((SECONDS - STARTED)), "pairs": $PAIRS,
    "tensorflow": manifest["tensorflow"], "litert": "$LITERT_VERSION",
    "onnxruntime": "$(sed -n 's|.*<onnxruntime.version>\(.*\)</onnxruntime.version>.*|\1|p' "$ROOT/java/tfjni-bench/pom.xml")",
    "tf2onnx": manifest["tf2onnx"], "onnx_opset": manifest["onnx_opset"],
    "conversions": [{k: c.get(k) for k in ("name", "model", "input_shape", "litert", "litert_error",
                                           "onnx", "onnx_error")} for c in manifest["cases"]],
    "not_timed": manifest["not_timed"],
}, open(sys.argv[1], "w"), indent=2)
EOF
"$VENV/bin/python" "$ROOT/scripts/bench/runtimes_report.py" "$OUT" >"$OUT/runtimes.md"
if [[ "${RUNTIMES_DOCS:-0}" == 1 ]]; then
  "$VENV/bin/python" "$ROOT/scripts/bench/runtimes_report.py" "$OUT" --splice "$ROOT/docs/BENCHMARKS.md"
fi
echo "results in $OUT; the section in $OUT/runtimes.md"
