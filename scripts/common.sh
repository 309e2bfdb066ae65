# Shared settings for the set-up, build, test and demo scripts. Source it.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TFJNI_TF_VERSION="${TFJNI_TF_VERSION:-2.21.0}"
# The second TensorFlow version make test runs the C++ core tests and the Java library's tests
# against (scripts/test/test-second-tf.sh): tfjni built against TFJNI_TF_VERSION, run on this version's
# libraries with the test models its TensorFlow Python makes. Nothing runs when the two are equal.
TFJNI_SECOND_TF_VERSION="${TFJNI_SECOND_TF_VERSION:-2.18.0}"
TFJNI_CACHE="${TFJNI_CACHE:-$HOME/.cache/tfjni}"
# The TensorFlow venv of a version: TensorFlow Python, its libraries and headers.
venv_of() {  # venv_of VERSION
  echo "$TFJNI_CACHE/venv-$1"
}
VENV=$(venv_of "$TFJNI_TF_VERSION")
# PySpark and its Connect client, for the Spark example (examples/spark) and the Connect test, in a
# venv of its own (no TensorFlow there), named by PySpark's version and the pins' hash.
PYSPARK_VENV="$TFJNI_CACHE/venv-$(sed -n 's/^pyspark==/pyspark-/p' "$ROOT/scripts/requirements/requirements-pyspark.txt")-$(
  sha256sum "$ROOT/scripts/requirements/requirements-pyspark.txt" | cut -c1-12)"
BUILD="$ROOT/build"
JOBS="${JOBS:-2}"
export JAVA_HOME="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac || echo /usr/lib/jvm/java-17-openjdk-amd64/bin/javac)")")")}"
# TensorFlow's INFO lines (model loading, MLIR) are noise in tests and the demo.
export TF_CPP_MIN_LOG_LEVEL="${TF_CPP_MIN_LOG_LEVEL:-1}"
# TensorFlow's CPU kernels: oneDNN's (1) or Eigen's (0). TensorFlow's own default depends on the
# CPU, and results differ in the last bits between the two, so every script pins one: Eigen's,
# which every CPU runs, unless the caller sets it. The test models' expected values are made and
# checked under the same setting (models_dir); make test runs the golden suites under the other
# one too (scripts/test/test-onednn.sh).
export TF_ENABLE_ONEDNN_OPTS="${TF_ENABLE_ONEDNN_OPTS:-0}"

# Each step says how far into the whole run (make test, say) it starts, for reading where time goes.
export TFJNI_RUN_STARTED="${TFJNI_RUN_STARTED:-$(date +%s)}"
step() { printf '\n==> [%4d s] %s\n' "$(( $(date +%s) - TFJNI_RUN_STARTED ))" "$*"; }

tensorflow_dir() {
  local dir
  dir=$(ls -d "$VENV"/lib/python3*/site-packages/tensorflow 2>/dev/null | head -n 1)
  [[ -n "$dir" && -f "$dir/libtensorflow_cc.so.2" ]] || { echo "no TensorFlow in $VENV" >&2; return 1; }
  echo "$dir"
}

# The platforms tfjni ships natives for (docs/PLATFORMS.md), named as in the jars' resource paths
# and the runtime artifacts' classifiers.
PLATFORMS=(linux-x86_64 linux-aarch64 macos-arm64 windows-x86_64)
ALL_PLATFORMS=$(IFS=,; echo "${PLATFORMS[*]}")

# Where a platform's natives are built: build/native for this machine's, build/native-PLATFORM
# for the cross-built ones.
native_build_dir() {  # native_build_dir PLATFORM
  if [[ "$1" == linux-x86_64 ]]; then echo "$BUILD/native"; else echo "$BUILD/native-$1"; fi
}

MAVEN_REPO="${MAVEN_LOCAL_REPO:-$HOME/.m2/repository}"
# tfjni's version: the revision property of java/pom.xml, the one place it is set.
tfjni_version() {
  sed -n 's|^ *<revision>\(.*\)</revision>.*|\1|p' "$ROOT/java/pom.xml"
}
# Every runtime artifact (scripts/release/runtime-artifact.sh) as PLATFORM/KIND. A kind is a TensorFlow
# variant (cpu, gpu: gpu is linux-x86_64's only) or litert, LiteRT's runtime, published for the
# platforms PyPI has ai-edge-litert wheels for (docs/LITERT.md).
RUNTIME_ARTIFACTS=(linux-x86_64/cpu linux-x86_64/gpu linux-aarch64/cpu macos-arm64/cpu
  windows-x86_64/cpu linux-x86_64/litert linux-aarch64/litert macos-arm64/litert)
runtime_platforms_of() {  # runtime_platforms_of KIND: its platforms (the jars' classifiers)
  local each
  for each in "${RUNTIME_ARTIFACTS[@]}"; do [[ "${each#*/}" == "$1" ]] && echo "${each%/*}"; done
  return 0
}
# A runtime artifact's Maven artifactId and version: tfjni-tensorflow-VARIANT at TensorFlow's
# version, tfjni-litert at LiteRT's.
runtime_artifact_id() {  # runtime_artifact_id KIND
  if [[ "$1" == litert ]]; then echo tfjni-litert; else echo "tfjni-tensorflow-$1"; fi
}
runtime_artifact_version() {  # runtime_artifact_version KIND
  if [[ "$1" == litert ]]; then echo "$LITERT_VERSION"; else echo "$TFJNI_TF_VERSION"; fi
}
# Finishes a staging Maven repository directory for Maven Central: signs every file with KEY (none:
# unsigned, which Central refuses) and writes its checksums (scripts/release/staging_repo.py), checks it
# (scripts/release/validate_staging.py; every jar must carry META-INF/NAME equal to FILE) and lists its
# jars and POMs with their sizes: finish_staging DIR KEY NAME=FILE...
finish_staging() {
  local staging=$1 key=$2 legal=() unsigned=() each; shift 2
  for each in "$@"; do legal+=(--legal-file "$each"); done
  step "Signing${key:+ with $key} and writing checksums"
  [[ -n "$key" ]] || { echo "no GPG key: $staging is unsigned, and Maven Central refuses it" >&2; unsigned=(--skip signatures); }
  python3 "$ROOT/scripts/release/staging_repo.py" finish "$staging" ${key:+--gpg-key "$key"}
  step "Checking $staging against Maven Central's requirements"
  python3 "$ROOT/scripts/release/validate_staging.py" "$staging" "${legal[@]}" ${GNUPGHOME:+--gnupghome "$GNUPGHOME"} "${unsigned[@]}"
  (cd "$staging" && find . -type f \( -name '*.jar' -o -name '*.pom' \) -printf '%P %s\n' | sort |
    awk '{ printf "  %-70s %12d bytes\n", $1, $2 }')
}

# The installed runtime artifact jar of a kind (cpu, gpu, litert) and platform
# (scripts/release/runtime-artifact.sh).
runtime_artifact_jar() {  # runtime_artifact_jar KIND PLATFORM
  local artifact version
  artifact=$(runtime_artifact_id "$1") version=$(runtime_artifact_version "$1")
  echo "$MAVEN_REPO/io/tfjni/$artifact/$version/$artifact-$version-$2.jar"
}

# Whether TFJNI_TF_VERSION is VERSION or newer: tf_version_at_least VERSION
tf_version_at_least() {
  [[ "$(printf '%s\n' "$1" "$TFJNI_TF_VERSION" | sort -V | head -n 1)" == "$1" ]]
}

# The official wheel holding TensorFlow's C API for a platform and variant (cpu or gpu): prints
# "PACKAGE PLATFORM_TAG". linux-x86_64's cpu libraries come from the venv (tensorflow-cpu); the
# `tensorflow` wheel is TensorFlow's GPU build there, and its only build elsewhere. Linux wheels
# are manylinux 2.17 up to TensorFlow 2.20 and manylinux 2.27 from 2.21 on (pip takes the tag as
# given, so it must be the wheel's own).
wheel_of() {  # wheel_of PLATFORM VARIANT
  local manylinux=manylinux_2_17
  tf_version_at_least 2.21 && manylinux=manylinux_2_27
  case "$1/$2" in
    linux-x86_64/cpu) echo "tensorflow-cpu ${manylinux}_x86_64" ;;
    linux-x86_64/gpu) echo "tensorflow ${manylinux}_x86_64" ;;
    linux-aarch64/cpu) echo "tensorflow ${manylinux}_aarch64" ;;
    macos-arm64/cpu) echo "tensorflow macosx_12_0_arm64" ;;
    # Windows' build of TensorFlow up to 2.18 is Intel's package, which `tensorflow` depends on
    # there; from 2.19 on it is the `tensorflow` wheel itself.
    windows-x86_64/cpu) if tf_version_at_least 2.19; then echo "tensorflow win_amd64"; else echo "tensorflow-intel win_amd64"; fi ;;
    *) echo "no TensorFlow wheel for platform '$1' variant '$2' (platforms: ${PLATFORMS[*]}; gpu only on linux-x86_64)" >&2
       return 1 ;;
  esac
}

# The `tensorflow` directory (libraries, include/, THIRD_PARTY_NOTICES.txt) of a platform and
# variant: the venv's for linux-x86_64/cpu, else the official wheel's C API part, fetched and
# unpacked once into the cache (the rest of the wheel is Python, which tfjni does not need).
tensorflow_dir_of() {  # tensorflow_dir_of PLATFORM VARIANT
  if [[ "$1/$2" == linux-x86_64/cpu ]]; then tensorflow_dir; return; fi
  wheel_of "$1" "$2" >/dev/null || return 1
  local dir="$TFJNI_CACHE/wheels/tensorflow-$TFJNI_TF_VERSION-$1-$2"
  if [[ ! -f "$dir/.complete" ]]; then
    step "Fetching TensorFlow $TFJNI_TF_VERSION's $1 $2 wheel into $dir (one-off: a 230 to 620 MB download)" >&2
    install_staged "$dir" unpack_c_api_wheel "$1" "$2" >&2 || return 1
  fi
  echo "$dir/tensorflow"
}

unpack_c_api_wheel() {  # unpack_c_api_wheel PLATFORM VARIANT OUT_DIR
  local package tag
  read -r package tag < <(wheel_of "$1" "$2")
  python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.11 --implementation cp \
    --platform "$tag" "$package==$TFJNI_TF_VERSION" -d "$3.wheel"
  if [[ "$1" == windows-* ]]; then
    unpack_windows_c_api "$3.wheel"/*.whl "$3"
  else
    unzip -q "$3.wheel"/*.whl 'tensorflow/libtensorflow*' 'tensorflow/include/*' 'tensorflow/THIRD_PARTY_NOTICES.txt' \
      'tensorflow.libs/*' '*.dist-info/*' -d "$3" 2>/dev/null || [[ $? -eq 11 ]]  # 11: a pattern matched nothing (macOS has no tensorflow.libs)
  fi
  rm -rf "$3.wheel"
}

# Windows has no libtensorflow: the C API is exported by a DLL of TensorFlow's Python build,
# linked through its import library and loaded after a stand-in for python311.dll, which it
# imports. Up to TensorFlow 2.18 (tensorflow-intel) that DLL is the Python extension module
# _pywrap_tensorflow_internal.pyd; from 2.19 on (tensorflow) it is _pywrap_tensorflow_common.dll,
# which the extension module, by then a small one, imports. native/CMakeLists.txt links the one the
# directory holds; the loader's Platform.WINDOWS_X86_64 loads the same files.
windows_c_api_dll() {
  if tf_version_at_least 2.19; then echo _pywrap_tensorflow_common.dll; else echo _pywrap_tensorflow_internal.pyd; fi
}
windows_c_api_import_library() {
  if tf_version_at_least 2.19; then echo _pywrap_tensorflow_common.dll.if.lib; else echo _pywrap_tensorflow_internal.lib; fi
}
# TensorFlow's Windows libraries in load order: the stand-in, then the C API DLL.
windows_tensorflow_libraries() {
  echo "$WINDOWS_PYTHON_DLL"
  windows_c_api_dll
}

# Only the C API DLL, its import library, the extension module (the PE reader's tests read it; from
# 2.19 on it is not loaded), the C API's headers, the licence and notices are kept (the wheel's
# other 8,000 headers are C++), moved up beside include/ as the other platforms' libraries are.
# The stand-in for python311.dll is generated next to them (scripts/platforms/python_stand_in.py)
# from the C API DLL's imports.
unpack_windows_c_api() {  # unpack_windows_c_api WHEEL OUT_DIR
  local dll
  dll=$(windows_c_api_dll)
  unzip -q "$1" "tensorflow/python/$dll" "tensorflow/python/$(windows_c_api_import_library)" \
    'tensorflow/python/_pywrap_tensorflow_internal.pyd' \
    'tensorflow/include/tensorflow/c/*' 'tensorflow/include/xla/tsl/c/*' 'tensorflow/include/tensorflow/core/platform/ctstring*' \
    'tensorflow/include/tsl/platform/ctstring*' 'tensorflow/include/LICENSE' \
    'tensorflow/THIRD_PARTY_NOTICES.txt' '*.dist-info/*' -d "$2"
  mv "$2"/tensorflow/python/* "$2/tensorflow/"
  rmdir "$2/tensorflow/python"
  # The notices are the other wheels' text with Windows line ends: the same bytes in every
  # runtime artifact's META-INF (the release's validator compares them).
  sed -i 's/\r$//' "$2/tensorflow/THIRD_PARTY_NOTICES.txt"
  python3 "$ROOT/scripts/platforms/python_stand_in.py" --zig "$(zig_executable)" \
    "$2/tensorflow/$dll" "$2/tensorflow/$WINDOWS_PYTHON_DLL"
}
# The CPython DLL TensorFlow's Windows wheel for Python 3.11 imports.
WINDOWS_PYTHON_DLL=python311.dll

# The generated test models and expected values, cached by the generators' content, the TF
# version and the oneDNN setting they were computed under.
models_dir() {
  local hash
  hash=$(cat "$ROOT/scripts/goldens/generate_models.py" "$ROOT/scripts/goldens/generate_eager_cases.py" "$ROOT/scripts/goldens/golden.py" "$ROOT/scripts/goldens/text_ops_model.py" \
    "$ROOT/scripts/goldens/djl_layer_goldens.py" "$ROOT/scripts/goldens/djl_recurrent_goldens.py" "$ROOT/scripts/goldens/warmup_requests.py" \
    "$ROOT/scripts/goldens/litert_models.py" "$ROOT/scripts/goldens/litert_convert.py" \
    "$ROOT/scripts/requirements/requirements.txt" "$ROOT/scripts/requirements/requirements-text.txt" "$ROOT/scripts/requirements/requirements-serving.txt" |
    sha256sum | cut -c1-16)
  echo "$TFJNI_CACHE/models/tf$TFJNI_TF_VERSION-onednn$TF_ENABLE_ONEDNN_OPTS-$hash"
}

# LiteRT's runtime library (its C API, libLiteRtRuntimeCApi.so) from PyPI's ai-edge-litert wheel,
# fetched once into the cache. 1.4.0: the last release whose C API sets CPU threads directly and
# whose library carries nothing but the runtime (docs/LITERT.md). tfjni opens it with dlopen at
# first use; builds and tests pass its path (tfjni.litert.library, TFJNI_LITERT_LIBRARY), users get
# it from the runtime artifact io.tfjni:tfjni-litert (scripts/release/runtime-artifact.sh).
LITERT_VERSION=1.4.0
# The file is named so in every wheel, a Mach-O library on macOS too.
LITERT_LIBRARY_FILE=libLiteRtRuntimeCApi.so
litert_library() {
  echo "$(litert_dir_of linux-x86_64)/$LITERT_LIBRARY_FILE"
}
# The ai-edge-litert wheel of a platform: its platform tag. 1.4.0 has none for Windows (its first
# Windows wheel is 2.1.2) nor for macOS on x86-64.
litert_wheel_tag() {  # litert_wheel_tag PLATFORM
  case "$1" in
    linux-x86_64) echo manylinux_2_17_x86_64 ;;
    linux-aarch64) echo manylinux_2_17_aarch64 ;;
    macos-arm64) echo macosx_12_0_arm64 ;;
    *) echo "no ai-edge-litert $LITERT_VERSION wheel for platform '$1' (linux-x86_64, linux-aarch64, macos-arm64)" >&2
       return 1 ;;
  esac
}
# The directory holding a platform's LiteRT library and the wheel's METADATA (which declares the
# licence; the wheel ships no licence file), fetched once into the cache.
litert_dir_of() {  # litert_dir_of PLATFORM
  local dir="$TFJNI_CACHE/litert-$LITERT_VERSION-$1"
  litert_wheel_tag "$1" >/dev/null || return 1
  if [[ ! -f "$dir/.complete" ]]; then
    step "Fetching LiteRT $LITERT_VERSION's $1 runtime library (ai-edge-litert wheel, 3 to 11 MB) into $dir" >&2
    install_staged "$dir" unpack_litert_wheel "$1" >&2 || return 1
  fi
  echo "$dir"
}
unpack_litert_wheel() {  # unpack_litert_wheel PLATFORM OUT_DIR
  python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.11 --implementation cp \
    --platform "$(litert_wheel_tag "$1")" "ai-edge-litert==$LITERT_VERSION" -d "$2.wheel"
  mkdir -p "$2"
  unzip -q -j "$2.wheel"/*.whl "ai_edge_litert/$LITERT_LIBRARY_FILE" '*.dist-info/METADATA' -d "$2"
  rm -rf "$2.wheel"
}
# LiteRT's licence: the Apache License 2.0 (its wheel's METADATA names it; the wheel ships no text of
# it), whose text is the one in tfjni's own LICENSE.
LITERT_LICENSE="$ROOT/LICENSE"

# Where a runtime artifact's libraries come from: TensorFlow's directory of the platform's wheel
# (tensorflow_dir_of), or LiteRT's (litert_dir_of).
runtime_source_dir() {  # runtime_source_dir PLATFORM KIND
  if [[ "$2" == litert ]]; then litert_dir_of "$1"; else tensorflow_dir_of "$1" "$2"; fi
}
# The licence files every jar of a runtime artifact carries under META-INF/, as NAME=FILE lines:
# TensorFlow's LICENSE and THIRD_PARTY_NOTICES.txt from its wheel; LiteRT's LICENSE and the wheel's
# METADATA, which names LiteRT's authors and declares the licence.
runtime_legal_files() {  # runtime_legal_files KIND SOURCE_DIR
  if [[ "$1" == litert ]]; then
    echo "LICENSE=$LITERT_LICENSE"
    echo "ai-edge-litert-$LITERT_VERSION-METADATA=$2/METADATA"
  else
    echo "LICENSE=$2/include/LICENSE"
    echo "THIRD_PARTY_NOTICES.txt=$2/THIRD_PARTY_NOTICES.txt"
  fi
}

# The benchmark models (scripts/bench/generate_bench_models.py), cached the same way.
bench_models_dir() {
  local hash
  hash=$(cat "$ROOT/scripts/bench/generate_bench_models.py" "$ROOT/scripts/requirements/requirements.txt" | sha256sum | cut -c1-16)
  echo "$TFJNI_CACHE/bench-models/tf$TFJNI_TF_VERSION-$hash"
}

# The runtime comparison's models (scripts/bench/generate_runtime_models.py: LiteRT and ONNX files of the
# benchmark models, a Transformer block, an LSTM), cached by their generator, the conversion they
# reuse, the ONNX converter's pins and the benchmark models they start from.
runtime_models_dir() {
  local hash
  hash=$( (cat "$ROOT/scripts/bench/generate_runtime_models.py" "$ROOT/scripts/goldens/litert_models.py" \
    "$ROOT/scripts/requirements/requirements-tf2onnx.txt"; bench_models_dir) | sha256sum | cut -c1-16)
  echo "$TFJNI_CACHE/runtime-models/tf$TFJNI_TF_VERSION-$hash"
}
# tf2onnx in a venv of its own (scripts/requirements/requirements-tf2onnx.txt says why), named by its pins.
tf2onnx_venv() {
  echo "$TFJNI_CACHE/venv-tf2onnx-$(sha256sum "$ROOT/scripts/requirements/requirements-tf2onnx.txt" | cut -c1-12)"
}

# TensorFlow Text built for another TensorFlow minor version than TFJNI_TF_VERSION: its op
# libraries are the "wrong ABI" case of the op library tests. The wheel is unpacked here as it
# would be installed (package directory next to its .dist-info), not into any venv.
mismatched_text_version() {
  if [[ "${TFJNI_TF_VERSION%.*}" == "2.16" ]]; then echo 2.18.1; else echo 2.16.1; fi
}
mismatched_op_library_dir() {
  echo "$TFJNI_CACHE/op-libraries/tensorflow-text-$(mismatched_text_version)"
}

# Fills a cache directory once, whole or not at all: install_staged DIR COMMAND... runs COMMAND
# with one more argument, a directory path to create and fill, inside a private staging directory
# (concurrent set-ups never share one), marks it complete and moves it to DIR unless another set-up
# completed DIR meanwhile. Callers skip the call when "DIR/.complete" exists.
install_staged() {
  local dir=$1 staging; shift
  mkdir -p "$(dirname "$dir")"
  staging=$(mktemp -d "$dir.tmp.XXXXXX")
  "$@" "$staging/filled"
  touch "$staging/filled/.complete"
  if [[ ! -f "$dir/.complete" ]]; then
    rm -rf "$dir"
    mv "$staging/filled" "$dir"
  fi
  rm -rf "$staging"
}

# The benchmark programs (native/CMakeLists.txt with TFJNI_BUILD_BENCHMARKS, no tests, no JNI
# library) in build/bench: build_bench LOG TARGET... configures (output in LOG, shown on failure)
# and builds the targets.
build_bench() {
  local log=$1; shift
  mkdir -p "$(dirname "$log")"
  cmake -S "$ROOT/native" -B "$BUILD/bench" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTFJNI_BUILD_BENCHMARKS=ON \
    -DTFJNI_BUILD_TESTS=OFF -DTFJNI_BUILD_JNI=OFF -DTFJNI_TENSORFLOW_DIR="$(tensorflow_dir)" >"$log" 2>&1 ||
    { cat "$log"; return 1; }
  cmake --build "$BUILD/bench" -j "$JOBS" --target "$@"
}

# The platforms whose JNI library goes into the tfjni jar: this machine's alone (make build), or
# ALL_PLATFORMS (scripts/build.sh --all-platforms, which make natives and make test run).
TFJNI_JAR_PLATFORMS="${TFJNI_JAR_PLATFORMS:-linux-x86_64}"

# The Maven properties every build of java/ takes: the local repository (MAVEN_LOCAL_REPO), the
# native builds, TensorFlow, the test models.
maven_settings() {
  local platform
  for platform in ${TFJNI_JAR_PLATFORMS//,/ }; do
    [[ "$platform" == linux-x86_64 ]] || echo "-Dtfjni.native.dir.$platform=$(native_build_dir "$platform")"
  done
  echo "-Dtfjni.jar.platforms=$TFJNI_JAR_PLATFORMS -Dmaven.repo.local=$MAVEN_REPO"
  echo "-Dtfjni.native.dir=$(native_build_dir linux-x86_64) -Dtfjni.tensorflow.dir=$(tensorflow_dir)" \
    "-Dtfjni.tensorflow.version=$TFJNI_TF_VERSION -Dtfjni.test.models=$(models_dir)" \
    "-Dtfjni.saved_model_cli=$VENV/bin/saved_model_cli" \
    "-Dtfjni.test.mismatched_op_libraries=$(mismatched_op_library_dir)" \
    "-Dtfjni.litert.library=$(litert_library) -Dtfjni.litert.version=$LITERT_VERSION" \
    "-Dtfjni.test.pyspark.python=$PYSPARK_VENV/bin/python"
}

# Prints the class path of Maven coordinates (group:artifact:version[:classifier]), resolved by a
# throw-away POM in DIR: maven_classpath DIR COORDINATE...
maven_classpath() {
  local dir=$1; shift
  mkdir -p "$dir"
  { echo '<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>'
    echo '<groupId>local</groupId><artifactId>deps</artifactId><version>1</version><dependencies>'
    local gav g a v c
    for gav in "$@"; do
      IFS=: read -r g a v c <<<"$gav"
      echo "<dependency><groupId>$g</groupId><artifactId>$a</artifactId><version>$v</version>${c:+<classifier>$c</classifier>}</dependency>"
    done
    echo '</dependencies></project>'; } > "$dir/pom.xml"
  (cd "$dir" && mvn -B -q -Dmaven.repo.local="$MAVEN_REPO" \
    dependency:build-classpath -Dmdep.outputFile=cp.txt >/dev/null) || return 1
  cat "$dir/cp.txt"
}

# DJL's own TensorFlow engine 0.36.0 as a DJL user runs it, for comparisons: prints its class path
# (resolved in DIR) and extracts TensorFlow Java's native libraries (1.0.0-rc.1, TensorFlow
# 2.16.1) into DIR/tensorflow-core-native, the directory to give it as TENSORFLOW_LIBRARY_PATH
# (it would download them from a host this machine cannot reach): djl_tensorflow_engine DIR
djl_tensorflow_engine() {
  local dir=$1 cp native="$1/tensorflow-core-native"
  local jar="$MAVEN_REPO/org/tensorflow/tensorflow-core-native/1.0.0-rc.1/tensorflow-core-native-1.0.0-rc.1-linux-x86_64.jar"
  cp=$(maven_classpath "$dir" ai.djl.tensorflow:tensorflow-engine:0.36.0 \
    org.tensorflow:tensorflow-core-native:1.0.0-rc.1:linux-x86_64) || return 1
  if [[ ! -f "$native/libjnitensorflow.so" ]]; then
    mkdir -p "$native"
    unzip -q -o -j "$jar" '*.so*' -d "$native" || return 1
  fi
  echo "$cp"
}

# Checks `tfjni demo`'s output: every class as TensorFlow Python's, and the largest probability
# difference at most TOLERANCE. Prints the figures; fails with them otherwise.
check_demo_agreement() {  # check_demo_agreement DEMO_OUTPUT TOLERANCE
  local line agree total diff
  line=$(grep -o 'agreement with TensorFlow Python: [0-9]*/[0-9]*, max |p - p_python| = [0-9.e+-]*' <<<"$1") ||
    { echo "no agreement line in the demo's output" >&2; return 1; }
  read -r agree total diff < <(sed -E 's|.*: ([0-9]+)/([0-9]+), .* = (.*)|\1 \2 \3|' <<<"$line")
  echo "classes equal: $agree/$total; max |p - p_python| = $diff (tolerance $2)"
  if [[ "$agree" != "$total" ]] || ! python3 -c "import sys; sys.exit(0 if float('$diff') <= float('$2') else 1)"; then
    echo "the demo does not agree with TensorFlow Python within tolerance $2" >&2
    return 1
  fi
}

# Zig from PyPI's ziglang wheel: a C/C++ cross compiler with its own libc++ and macOS libSystem
# stubs, so macOS natives build here without an Apple SDK. Installed once into the cache; prints
# the zig executable.
ZIG_VERSION=0.17.1
zig_executable() {
  local dir="$TFJNI_CACHE/ziglang-$ZIG_VERSION"
  if [[ ! -f "$dir/.complete" ]]; then
    step "Installing zig $ZIG_VERSION from PyPI (ziglang) into $dir (one-off, ~50 MB download)" >&2
    install_staged "$dir" install_ziglang >&2
  fi
  # A failed install may have left a directory marked complete (install_staged goes on when
  # called in a command substitution, where bash drops set -e): remove it so the next run retries.
  [[ -x "$dir/ziglang/zig" ]] || { rm -rf "$dir"; echo "zig $ZIG_VERSION could not be installed into $dir" >&2; return 1; }
  echo "$dir/ziglang/zig"
}
install_ziglang() {  # install_ziglang OUT_DIR
  python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore --no-deps --target "$1" "ziglang==$ZIG_VERSION" ||
    { echo "could not install ziglang==$ZIG_VERSION from PyPI" >&2; return 1; }
}

as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }

# Installs whichever of the Debian packages given is missing (apt-get; sudo unless root).
# --no-install-recommends first: without the packages they recommend.
ensure_debian_packages() {  # ensure_debian_packages [--no-install-recommends] PACKAGE...
  local package missing=() options=()
  [[ "${1:-}" != --no-install-recommends ]] || { options=("$1"); shift; }
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  ((${#missing[@]})) || return 0
  step "Installing Debian packages: ${missing[*]}"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${options[@]}" "${missing[@]}" >/dev/null
}

# A SavedModel whose signature calls tf.py_function, made by TensorFlow Python into the build
# directory once (scripts/goldens/python_op_model.py); prints its directory.
python_op_model() {
  local dir="$BUILD/python-op-model"
  if [[ ! -f "$dir/saved_model.pb" ]]; then
    rm -rf "$dir"
    TF_CPP_MIN_LOG_LEVEL=2 "$VENV/bin/python" "$ROOT/scripts/goldens/python_op_model.py" "$dir" >&2
  fi
  echo "$dir"
}

# Runs COMMAND (a `tfjni run` of python_op_model) and checks that it fails with tfjni's refusal
# at load (exit status 1, UNIMPLEMENTED, the op named), not with a run that calls Python.
expect_python_op_refused() {  # expect_python_op_refused COMMAND...
  local output status=0
  output=$("$@" 2>&1 | tr -d '\r') || status=$?
  echo "$output" | tail -1
  if ((status != 1)) || [[ "$output" != *"(UNIMPLEMENTED)"*"calls Python at run time: op 'EagerPyFunc'"* ]]; then
    echo "expected tfjni to refuse the model that calls Python (exit status 1, UNIMPLEMENTED); got status $status" >&2
    return 1
  fi
}

# Runs a soak driver of tfjni-soak (its main class and arguments) on a private copy of the classes,
# since rebuilding the tree during a long soak must not change them, in a JVM whose Java heap is
# fixed and pre-touched (heap growth must not pass for native growth in the RSS) and whose Native
# Memory Tracking tells the JVM's own native memory apart from TensorFlow's and tfjni's.
run_soak_driver() {  # run_soak_driver MAIN_CLASS ARGUMENT...
  local classes classpath="" module status=0
  classes=$(mktemp -d)
  for module in tfjni-soak tfjni-numpy tfjni; do
    cp -r "$ROOT/java/$module/target/classes" "$classes/$module"
    classpath+="${classpath:+:}$classes/$module"
  done
  java -Xms256m -Xmx256m -XX:+AlwaysPreTouch -XX:NativeMemoryTracking=summary \
    -Dtfjni.tensorflow.dir="$(tensorflow_dir)" -cp "$classpath" "$@" || status=$?
  rm -rf "$classes"
  return "$status"
}
