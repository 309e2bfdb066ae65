#!/usr/bin/env bash
# TensorFlow's GPU build (io.tfjni:tfjni-tensorflow-gpu, from the `tensorflow` wheel) through tfjni
# on a machine without a GPU, where TensorFlow runs every op on the CPU: the same results as
# TensorFlow Python's, from the same tfjni jar as the CPU build. scripts/platforms/gpu-check.sh is the check
# for a machine with an NVIDIA GPU. Run by scripts/test.sh, after the jars are installed.
#  1. the golden cases (every test model's and every eager op's cases, from TensorFlow Python) in
#     JVMs whose libtensorflow comes from the GPU artifact alone (no directory set, the CPU
#     artifact off the class path);
#  2. the digits demo through the CLI with the GPU artifact on the class path: every class as
#     TensorFlow Python's, and each probability within TOLERANCE of Python's;
#  3. `tfjni --version` and `tfjni devices`: which libtensorflow was loaded, and what TensorFlow
#     found (with no GPU: the CPU alone).
source "$(dirname "$0")/../common.sh"
# The same kernels run as in the CPU build; summation order may differ in the last bits.
TOLERANCE="${TOLERANCE:-1e-6}"
GPU_JAR=$(runtime_artifact_jar gpu linux-x86_64)
CLI_JAR="$ROOT/java/tfjni-cli/target/tfjni-cli.jar"
[[ -f "$GPU_JAR" ]] || "$ROOT/scripts/release/runtime-artifact.sh" linux-x86_64/gpu
[[ -f "$CLI_JAR" ]] || { echo "test-gpu-build: $CLI_JAR is not built (scripts/build.sh)" >&2; exit 1; }

step "The GPU build: golden cases with libtensorflow from io.tfjni:tfjni-tensorflow-gpu (no GPU here: the CPU)"
(cd "$ROOT/java" && mvn -B $(maven_settings) -Dtfjni.tensorflow.dir= -Dtfjni.test.tensorflow.variant=gpu \
  test -pl tfjni -Dtest='ManifestCasesTest,EagerOpsTest,PipelineTest' -Dsurefire.failIfNoSpecifiedTests=false) |
  grep -E "Tests run:|FAIL|ERROR"

cli() {  # the CLI with the GPU artifact, and no TensorFlow directory anywhere
  env -u TFJNI_TENSORFLOW_DIR -u LD_LIBRARY_PATH "$JAVA_HOME/bin/java" -Djava.awt.headless=true \
    -cp "$CLI_JAR:$GPU_JAR" io.tfjni.cli.Main "$@"
}

step "The GPU build: which libtensorflow, and the devices TensorFlow found"
version=$(cli --version)
echo "$version"
grep -q "^libtensorflow: .*/libtensorflow/[^/]*-linux-x86_64-gpu-[0-9a-f]*/libtensorflow_cc.so.2$" <<<"$version" ||
  { echo "test-gpu-build: the GPU artifact's libtensorflow was not the one loaded" >&2; exit 1; }
cli devices

step "The GPU build: the digits demo against TensorFlow Python's predictions"
demo=$(cli demo --models "$(models_dir)")
echo "$demo"
check_demo_agreement "$demo" "$TOLERANCE"
