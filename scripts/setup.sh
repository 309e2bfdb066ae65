#!/usr/bin/env bash
# Installs what the build needs (Debian packages, the TensorFlow venv) and
# generates the test models. Quick when everything is already there.
source "$(dirname "$0")/common.sh"

install_debian_packages() {
  # clang + libclang-rt-14-dev (libFuzzer and the sanitizer runtimes) build the fuzz targets;
  # valgrind counts the benchmarks' instructions (scripts/bench/bench-instructions.sh).
  local wanted=(cmake ninja-build g++ clang libclang-rt-14-dev libgtest-dev libbenchmark-dev nlohmann-json3-dev valgrind
    openjdk-17-jdk-headless maven)
  # The machine's python3 may come from elsewhere (pyenv); it needs venv, not the Debian package.
  python3 -m venv --help >/dev/null 2>&1 || wanted+=(python3-venv)
  ensure_debian_packages "${wanted[@]}"
}

create_venv() {
  [[ -f "$VENV/.complete" ]] && return
  step "Creating the TensorFlow $TFJNI_TF_VERSION virtualenv in $VENV (one-off, ~1 min)"
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --upgrade pip
  sed "s/^tensorflow-cpu==.*/tensorflow-cpu==$TFJNI_TF_VERSION/" "$ROOT/scripts/requirements/requirements.txt" > "$VENV/requirements.txt"
  "$VENV/bin/pip" install -q -r "$VENV/requirements.txt"
  touch "$VENV/.complete"
}

install_tools() {
  [[ -f "$VENV/.tools-complete" ]] && cmp -s "$ROOT/scripts/requirements/requirements-tools.txt" "$VENV/.tools-complete" && return
  step "Installing report tools into the virtualenv (matplotlib)"
  "$VENV/bin/pip" install -q -r "$ROOT/scripts/requirements/requirements-tools.txt"
  cp "$ROOT/scripts/requirements/requirements-tools.txt" "$VENV/.tools-complete"
}

# tensorflow-text for this TensorFlow minor version, without its dependencies (see the file).
install_text_ops() {
  local wanted="$VENV/requirements-text.txt"
  sed "s/^tensorflow-text==.*/tensorflow-text==${TFJNI_TF_VERSION%.*}.*/" "$ROOT/scripts/requirements/requirements-text.txt" > "$wanted"
  [[ -f "$VENV/.text-complete" ]] && cmp -s "$wanted" "$VENV/.text-complete" && return
  step "Installing TensorFlow Text into the virtualenv (op libraries for the text_ops model)"
  "$VENV/bin/pip" install -q --no-deps -r "$wanted"
  cp "$wanted" "$VENV/.text-complete"
}

# tensorflow-serving-api for this TensorFlow minor version, without its dependencies (see the file).
install_serving_api() {
  local wanted="$VENV/requirements-serving.txt"
  sed "s/^tensorflow-serving-api==.*/tensorflow-serving-api==${TFJNI_TF_VERSION%.*}.*/" "$ROOT/scripts/requirements/requirements-serving.txt" > "$wanted"
  [[ -f "$VENV/.serving-complete" ]] && cmp -s "$wanted" "$VENV/.serving-complete" && return
  step "Installing TensorFlow Serving's Python API into the virtualenv (the warm-up file of a test model)"
  "$VENV/bin/pip" install -q --no-deps -r "$wanted"
  cp "$wanted" "$VENV/.serving-complete"
}

# A TensorFlow Text wheel for another TensorFlow version, unpacked (not installed) into the
# cache: the op library tests check that its libraries are refused.
fetch_mismatched_op_libraries() {
  local dir version
  dir=$(mismatched_op_library_dir)
  version=$(mismatched_text_version)
  [[ -f "$dir/.complete" ]] && return
  step "Fetching tensorflow-text $version (built for another TensorFlow) into $dir"
  install_staged "$dir" unpack_text_wheel "$version"
}

unpack_text_wheel() {  # unpack_text_wheel VERSION OUT_DIR
  local wheels="$2.wheel"
  "$VENV/bin/pip" download -q --no-deps "tensorflow-text==$1" -d "$wheels"
  "$VENV/bin/python" -m zipfile -e "$wheels"/tensorflow_text-*.whl "$2"
}

create_pyspark_venv() {
  [[ -f "$PYSPARK_VENV/.complete" ]] && cmp -s "$ROOT/scripts/requirements/requirements-pyspark.txt" "$PYSPARK_VENV/.complete" && return
  step "Creating the PySpark virtualenv in $PYSPARK_VENV (one-off, ~3 min)"
  rm -rf "$PYSPARK_VENV"
  python3 -m venv "$PYSPARK_VENV"
  "$PYSPARK_VENV/bin/pip" install -q -r "$ROOT/scripts/requirements/requirements-pyspark.txt"
  cp "$ROOT/scripts/requirements/requirements-pyspark.txt" "$PYSPARK_VENV/.complete"
}

generate_models() {
  local dir
  dir=$(models_dir)
  [[ -f "$dir/.complete" ]] && return
  step "Generating test models with TensorFlow Python into $dir (TF_ENABLE_ONEDNN_OPTS=$TF_ENABLE_ONEDNN_OPTS)"
  install_staged "$dir" write_test_models
}

write_test_models() {  # write_test_models OUT_DIR
  "$VENV/bin/python" "$ROOT/scripts/goldens/generate_models.py" "$1"
  "$VENV/bin/python" "$ROOT/scripts/goldens/generate_eager_cases.py" "$1/eager_cases.json"
  "$VENV/bin/python" "$ROOT/scripts/goldens/djl_layer_goldens.py" "$1/djl_layer_goldens.json"
  "$VENV/bin/python" "$ROOT/scripts/goldens/djl_recurrent_goldens.py" "$1/djl_recurrent_goldens.json"
}

install_debian_packages
create_venv
install_tools
install_text_ops
install_serving_api
fetch_mismatched_op_libraries
create_pyspark_venv
tensorflow_dir >/dev/null
litert_library >/dev/null
generate_models
