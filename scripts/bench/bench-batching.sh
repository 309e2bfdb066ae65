#!/usr/bin/env bash
# Batching across callers, batched and unbatched side by side: `tfjni bench --batch_max` on the
# tiny MLP and the weight-bound dense model (scripts/bench/generate_bench_models.py) and the digits CNN
# (scripts/goldens/generate_models.py), at 1, 4, 16 and 64 callers of one row each, every op on the
# calling thread. Each model's table goes to OUT_DIR/<model>.txt and .json. Then each model alone
# at batch 16, the largest batch 16 callers of one row can make, to OUT_DIR/<model>-run16.json, by
# one thread (the run time the 16-caller p99 target is judged against) and by as many threads as
# the machine has cores; and the dense model so at batch 64 (<model>-run64.json): the model's own
# ceiling at full batches on all cores, which the dense model's throughput targets allow for.
#
#   scripts/bench/bench-batching.sh OUT_DIR [EXTRA tfjni bench OPTIONS...]
#
# Settings: BATCH_MAX (64), BATCH_DELAY (0: a batch runs as soon as the model is free),
# BATCH_THREADS (1,4,16,64), BATCH_DURATION (3s per thread count and mode).
# Expects `make build` done (bin/tfjni's jar).
source "$(dirname "$0")/../common.sh"

[[ $# -ge 1 ]] || { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
out=$1
shift
mkdir -p "$out"
bench_models=$("$ROOT/scripts/bench/bench-models.sh")
test_models=$(models_dir)
[[ -f "$test_models/.complete" ]] || { echo "no test models in $test_models: run make build" >&2; exit 1; }

models=("$bench_models/mlp" "$bench_models/dense" "$test_models/digits")
for model in "${models[@]}"; do
  name=$(basename "$model")
  step "Batched and unbatched: $name" >&2
  "$ROOT/bin/tfjni" bench --dir "$model" --threads "${BATCH_THREADS:-1,4,16,64}" \
    --batch_max "${BATCH_MAX:-64}" --batch_delay "${BATCH_DELAY:-0}" \
    --duration "${BATCH_DURATION:-3s}" --warmup 20 --inter_op_threads -1 --progress none \
    --json "$out/$name.json" "$@" | tee "$out/$name.txt"
done
cores=$(nproc)
full_batch_threads=1$( ((cores > 1)) && echo ",$cores")
full_batches=()
for model in "${models[@]}"; do full_batches+=("$model 16"); done
full_batches+=("$bench_models/dense 64")
for full_batch in "${full_batches[@]}"; do
  read -r model rows <<<"$full_batch"
  name=$(basename "$model")
  step "Runs of $rows rows: $name, $full_batch_threads thread(s)" >&2
  "$ROOT/bin/tfjni" bench --dir "$model" --threads "$full_batch_threads" --batch "$rows" \
    --duration "${BATCH_DURATION:-3s}" --warmup 20 --inter_op_threads -1 --progress none \
    --json "$out/$name-run$rows.json" >/dev/null
done
