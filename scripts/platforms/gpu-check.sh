#!/usr/bin/env bash
# The GPU build on a machine with an NVIDIA GPU (not part of make test: no machine of the project's
# has one). Builds tfjni (scripts/build.sh), installs TensorFlow's CUDA 12 libraries from PyPI
# (tensorflow[and-cuda] into a venv of its own, ~3 GB, once), then, with libtensorflow from the
# runtime artifact io.tfjni:tfjni-tensorflow-gpu and CUDA from that venv:
#  1. `tfjni devices` must list GPU:0;
#  2. the digits CNN runs traced (`tfjni bench --trace`): its convolutions and matrix products
#     must have run on GPU:0 (the trace's device column is TensorFlow's own op placement);
#  3. the digits demo must predict every class as TensorFlow Python did on the CPU, with each
#     probability within TOLERANCE (cuDNN's kernels round differently from the CPU's).
# Needs an NVIDIA driver for CUDA 12 (nvidia-smi). Exits non-zero with the reason on any failure.
source "$(dirname "$0")/../common.sh"
TOLERANCE="${TOLERANCE:-1e-4}"
CUDA_VENV="$TFJNI_CACHE/venv-cuda-$TFJNI_TF_VERSION"
GPU_JAR=$(runtime_artifact_jar gpu linux-x86_64)
CLI_JAR="$ROOT/java/tfjni-cli/target/tfjni-cli.jar"

# Fails unless some traced node whose op matches OP_PATTERN ran on GPU:0 (bench --trace's table).
check_placed_on_gpu() {  # check_placed_on_gpu TRACE_OUTPUT OP_PATTERN
  if ! awk -v pattern="$2" '$5 == "GPU:0" && $6 ~ pattern { found = 1 } END { exit !found }' <<<"$1"; then
    echo "gpu-check: no op matching /$2/ ran on GPU:0; the trace's ops by device:" >&2
    awk '$5 ~ /:[0-9]+$/ { print "  " $5 "  " $6 }' <<<"$1" | sort | uniq -c >&2
    return 1
  fi
  echo "ops matching /$2/ ran on GPU:0"
}

if [[ "${1:-}" == --check-trace ]]; then  # the placement check alone, on a saved trace
  check_placed_on_gpu "$(cat "$2")" "$3"
  exit
fi

command -v nvidia-smi >/dev/null && nvidia-smi -L ||
  { echo "gpu-check: no NVIDIA GPU here (nvidia-smi is missing or found none); this check needs one" >&2; exit 1; }

"$ROOT/scripts/build.sh"
"$ROOT/scripts/release/runtime-artifact.sh" linux-x86_64/gpu

if [[ ! -f "$CUDA_VENV/.complete" ]]; then
  step "Installing TensorFlow's CUDA 12 libraries from PyPI into $CUDA_VENV (one-off, ~3 GB)"
  rm -rf "$CUDA_VENV"
  python3 -m venv "$CUDA_VENV"
  "$CUDA_VENV/bin/pip" install -q "tensorflow[and-cuda]==$TFJNI_TF_VERSION"
  touch "$CUDA_VENV/.complete"
fi
# TensorFlow opens CUDA with dlopen; its wheel finds the nvidia packages through a RUNPATH relative
# to site-packages, which an extracted runtime artifact does not have: name them on the path.
cuda_path=$(ls -d "$CUDA_VENV"/lib/python3*/site-packages/nvidia/*/lib | paste -sd:)

cli() {
  env -u TFJNI_TENSORFLOW_DIR LD_LIBRARY_PATH="$cuda_path${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    TF_CPP_MIN_LOG_LEVEL=1 "$JAVA_HOME/bin/java" -Djava.awt.headless=true -cp "$CLI_JAR:$GPU_JAR" io.tfjni.cli.Main "$@"
}

step "Devices TensorFlow found"
devices=$(cli devices)
echo "$devices"
grep -q "device:GPU:0" <<<"$devices" || { echo "gpu-check: TensorFlow found no GPU:0" >&2; exit 1; }

step "The digits CNN, traced: where each op ran"
trace=$(cli bench --dir "$(models_dir)/digits" --batch 32 --iterations 20 --warmup 5 --progress none \
  --trace 3 --trace_top 1000)
echo "$trace"
check_placed_on_gpu "$trace" "Conv2D"
check_placed_on_gpu "$trace" "MatMul"

step "The digits demo on the GPU against TensorFlow Python's CPU predictions"
demo=$(cli demo --models "$(models_dir)")
echo "$demo" | tail -4
check_demo_agreement "$demo" "$TOLERANCE"
echo "gpu-check: passed"
