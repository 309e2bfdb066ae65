#!/usr/bin/env bash
# The second TensorFlow version (TFJNI_SECOND_TF_VERSION, 2.18.0 unless set; scripts/common.sh): tfjni
# as scripts/build.sh built it against TFJNI_TF_VERSION (2.21.0 unless set), run on the second
# version's libraries (its own venv) with the test models and expected values that version's
# TensorFlow Python makes (its own models directory). The second version's linux-x86_64 runtime
# artifact is built and installed first; the Java tests that load a runtime artifact load that one.
# A user who keeps the older TensorFlow runs exactly this: the same tfjni jar, their TensorFlow's
# libraries, models their TensorFlow made.
#
# What runs on each version: on TFJNI_TF_VERSION, everything make test runs; on this one, the C++
# core tests (ctest) and the tfjni Java library's tests (every class of the module), on
# linux-x86_64 alone. Every other module, oneDNN, the release, the other platforms, the sanitizers
# and fuzzing run on TFJNI_TF_VERSION only (docs/TF_VERSIONS.md says why and what this costs).
# Does nothing when the two versions are equal.
source "$(dirname "$0")/../common.sh"
BUILT_AGAINST=$TFJNI_TF_VERSION
if [[ "$TFJNI_SECOND_TF_VERSION" == "$BUILT_AGAINST" ]]; then
  step "Second TensorFlow version: none (TFJNI_SECOND_TF_VERSION is TFJNI_TF_VERSION, $BUILT_AGAINST)"
  exit 0
fi
[[ -x "$BUILD/native/tfjni_core_tests" ]] || { echo "test-second-tf: build first (scripts/build.sh)" >&2; exit 1; }

step "TensorFlow $TFJNI_SECOND_TF_VERSION, the second version: its venv and its test models (scripts/setup.sh)"
TFJNI_TF_VERSION=$TFJNI_SECOND_TF_VERSION "$ROOT/scripts/setup.sh"
TFJNI_TF_VERSION=$TFJNI_SECOND_TF_VERSION "$ROOT/scripts/release/runtime-artifact.sh" linux-x86_64/cpu

# From here on every setting (the venv, the models, maven_settings) is the second version's.
TFJNI_TF_VERSION=$TFJNI_SECOND_TF_VERSION
VENV=$(venv_of "$TFJNI_TF_VERSION")
TF_DIR=$(tensorflow_dir)
MODELS=$(models_dir)

# The test binary links libtensorflow by soname with a RUNPATH to the build's venv, so
# LD_LIBRARY_PATH chooses the libraries; ldd says which it gets.
loaded=$(LD_LIBRARY_PATH="$TF_DIR" ldd "$BUILD/native/tfjni_core_tests" | awk '$1 == "libtensorflow_cc.so.2" {print $3}')
[[ "$loaded" == "$TF_DIR/"* ]] ||
  { echo "test-second-tf: the test binary loads $loaded, not TensorFlow $TFJNI_TF_VERSION's from $TF_DIR" >&2; exit 1; }
step "C++ core tests (ctest), built against TensorFlow $BUILT_AGAINST, on TensorFlow $TFJNI_TF_VERSION ($loaded)"
LD_LIBRARY_PATH="$TF_DIR" TFJNI_TEST_MODELS="$MODELS" TFJNI_TEST_MISMATCHED_OP_LIBRARIES="$(mismatched_op_library_dir)" \
  TFJNI_LITERT_LIBRARY="$(litert_library)" ctest --test-dir "$BUILD/native" --output-on-failure -j "$JOBS"

step "Java library tests (tfjni), built against TensorFlow $BUILT_AGAINST, on TensorFlow $TFJNI_TF_VERSION"
# `test`, not `install`: the installed tfjni stays the one the main run tested.
(cd "$ROOT/java" && mvn -B $(maven_settings) test -pl tfjni)
