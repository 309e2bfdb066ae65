# Shared settings for the set-up, build, test and demo scripts. Source it.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TFJNI_TF_VERSION="${TFJNI_TF_VERSION:-2.18.0}"
TFJNI_CACHE="${TFJNI_CACHE:-$HOME/.cache/tfjni}"
VENV="$TFJNI_CACHE/venv-$TFJNI_TF_VERSION"
# PySpark for the Spark example (examples/spark), in a venv of its own: no TensorFlow there.
PYSPARK_VENV="$TFJNI_CACHE/venv-$(sed -n 's/^pyspark==/pyspark-/p' "$ROOT/scripts/requirements-pyspark.txt")"
BUILD="$ROOT/build"
JOBS="${JOBS:-2}"
export JAVA_HOME="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac || echo /usr/lib/jvm/java-17-openjdk-amd64/bin/javac)")")")}"
# TensorFlow's INFO lines (model loading, MLIR) are noise in tests and the demo.
export TF_CPP_MIN_LOG_LEVEL="${TF_CPP_MIN_LOG_LEVEL:-1}"

step() { printf '\n==> %s\n' "$*"; }

tensorflow_dir() {
  local dir
  dir=$(ls -d "$VENV"/lib/python3*/site-packages/tensorflow 2>/dev/null | head -n 1)
  [[ -n "$dir" && -f "$dir/libtensorflow_cc.so.2" ]] || { echo "no TensorFlow in $VENV" >&2; return 1; }
  echo "$dir"
}

# The generated test models, cached by the generator's content and TF version.
models_dir() {
  local hash
  hash=$(cat "$ROOT/scripts/generate_models.py" "$ROOT/scripts/generate_eager_cases.py" "$ROOT/scripts/golden.py" "$ROOT/scripts/requirements.txt" | sha256sum | cut -c1-16)
  echo "$TFJNI_CACHE/models/tf$TFJNI_TF_VERSION-$hash"
}

# The benchmark models (scripts/generate_bench_models.py), cached the same way.
bench_models_dir() {
  local hash
  hash=$(cat "$ROOT/scripts/generate_bench_models.py" "$ROOT/scripts/requirements.txt" | sha256sum | cut -c1-16)
  echo "$TFJNI_CACHE/bench-models/tf$TFJNI_TF_VERSION-$hash"
}

# The Maven properties every build of java/ takes: the native build, TensorFlow, the test models.
maven_settings() {
  echo "-Dtfjni.native.dir=$BUILD/native -Dtfjni.tensorflow.dir=$(tensorflow_dir)" \
    "-Dtfjni.tensorflow.version=$TFJNI_TF_VERSION -Dtfjni.test.models=$(models_dir)" \
    "-Dtfjni.saved_model_cli=$VENV/bin/saved_model_cli"
}
