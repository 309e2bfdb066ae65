#!/usr/bin/env bash
# Generates the benchmark models once (cached under ~/.cache/tfjni) and prints their directory.
source "$(dirname "$0")/../common.sh"
"$ROOT/scripts/setup.sh" >&2
dir=$(bench_models_dir)
if [[ ! -f "$dir/.complete" ]]; then
  step "Generating benchmark models with TensorFlow Python into $dir (~30 s)" >&2
  install_staged "$dir" "$VENV/bin/python" "$ROOT/scripts/bench/generate_bench_models.py" >&2
fi
echo "$dir"
