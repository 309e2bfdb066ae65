#!/usr/bin/env bash
# The golden suites under TensorFlow's other CPU kernel set. make test runs everything under
# TF_ENABLE_ONEDNN_OPTS as scripts/common.sh pins it (0, Eigen's kernels, unless set); this runs,
# under the other value, whatever compares with TensorFlow Python's values: the test models and
# expected values generated under it, the C++ core's tests, the Java tests of the library, the
# DJL engine, Spark and Flink (installed by make test's Maven step), and the demo.
source "$(dirname "$0")/../common.sh"
case "$TF_ENABLE_ONEDNN_OPTS" in
  1|true|True|TRUE) other=0 ;;
  *) other=1 ;;
esac
export TF_ENABLE_ONEDNN_OPTS=$other
"$ROOT/scripts/setup.sh"
MODELS=$(models_dir)

step "C++ core tests (ctest) with TF_ENABLE_ONEDNN_OPTS=$other"
TFJNI_TEST_MODELS="$MODELS" TFJNI_TEST_MISMATCHED_OP_LIBRARIES="$(mismatched_op_library_dir)" \
  TFJNI_LITERT_LIBRARY="$(litert_library)" ctest --test-dir "$BUILD/native" --output-on-failure -j "$JOBS"

step "Java tests of tfjni, tfjni-djl, tfjni-spark and tfjni-flink with TF_ENABLE_ONEDNN_OPTS=$other"
(cd "$ROOT/java" && mvn -B $(maven_settings) test -pl tfjni,tfjni-djl,tfjni-spark,tfjni-flink)

step "The demo with TF_ENABLE_ONEDNN_OPTS=$other"
"$ROOT/bin/tfjni" demo --models "$MODELS"
