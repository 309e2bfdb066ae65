#!/usr/bin/env bash
# Latency around version swaps: `tfjni bench --swap_every` on a TensorFlow Serving base path whose
# versions are the test exports versioned_a (version 1) and versioned_b (version 2), at 1 and 2
# caller threads, every op on the calling thread. The bench copies the versions in turn into a
# temporary base path of its own and swaps one in every SWAP_EVERY measured runs while its threads
# call; it splits the runs into those around a swap and the steady ones (docs/CLI.md#bench).
# Writes OUT_DIR/swaps.txt and OUT_DIR/swaps.json.
#
#   scripts/bench/bench-swaps.sh OUT_DIR [EXTRA tfjni bench OPTIONS...]
#
# Settings: SWAP_THREADS (1,2), SWAP_EVERY (40000 measured runs), SWAP_WINDOW (100ms),
# SWAP_DURATION (10s per thread count). Expects `make build` done (bin/tfjni's jar).
source "$(dirname "$0")/../common.sh"

[[ $# -ge 1 ]] || { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
out=$1
shift
mkdir -p "$out"
test_models=$(models_dir)
[[ -f "$test_models/.complete" ]] || { echo "no test models in $test_models: run make build" >&2; exit 1; }

# The source base path: the bench reads its numbered versions and never changes it.
base="$out/base"
rm -rf "$base"
mkdir -p "$base"
cp -r "$test_models/versioned_a" "$base/1"
cp -r "$test_models/versioned_b" "$base/2"

step "Swaps: versioned_a and versioned_b in turn, a swap every ${SWAP_EVERY:-40000} runs" >&2
"$ROOT/bin/tfjni" bench --dir "$base" --threads "${SWAP_THREADS:-1,2}" \
  --swap_every "${SWAP_EVERY:-40000}" --swap_window "${SWAP_WINDOW:-100ms}" \
  --duration "${SWAP_DURATION:-10s}" --warmup 20 --inter_op_threads -1 --progress none \
  --json "$out/swaps.json" "$@" | tee "$out/swaps.txt"
rm -rf "$base"
