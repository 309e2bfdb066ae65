#!/usr/bin/env bash
# Generates the runtime comparison's models once (cached under ~/.cache/tfjni: LiteRT and ONNX
# files, scripts/bench/generate_runtime_models.py) and prints their directory. Makes tf2onnx's venv
# first if it is missing (one-off, ~2 min: it has TensorFlow too).
source "$(dirname "$0")/../common.sh"
bench=$("$ROOT/scripts/bench/bench-models.sh")
dir=$(runtime_models_dir)
if [[ ! -f "$dir/.complete" ]]; then
  onnx_venv=$(tf2onnx_venv)
  if [[ ! -f "$onnx_venv/.complete" ]]; then
    step "Creating tf2onnx's virtualenv in $onnx_venv (one-off, ~2 min)" >&2
    rm -rf "$onnx_venv"
    python3 -m venv "$onnx_venv"
    "$onnx_venv/bin/pip" install -q -r "$ROOT/scripts/requirements/requirements-tf2onnx.txt" >&2
    touch "$onnx_venv/.complete"
  fi
  step "Converting the runtime comparison's models (LiteRT, ONNX) into $dir (~3 min)" >&2
  install_staged "$dir" "$VENV/bin/python" "$ROOT/scripts/bench/generate_runtime_models.py" "$bench" \
    "$onnx_venv/bin/python" >&2
fi
echo "$dir"
