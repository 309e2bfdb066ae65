#!/usr/bin/env bash
# Tests the linux-aarch64 natives on this x86_64 machine under qemu-user: cross-builds them
# (scripts/platforms/build-linux-aarch64.sh), runs a subset of the C++ core tests against the official
# aarch64 TensorFlow wheel (LiteRT's against the library of the linux-aarch64 LiteRT runtime
# artifact), then the digits demo through the Java library on Debian's arm64 JVM,
# which must predict the same classes as TensorFlow Python with probabilities within
# AARCH64_DEMO_TOLERANCE.
source "$(dirname "$0")/../common.sh"
source "$ROOT/scripts/platforms/setup-linux-aarch64.sh"   # functions only (aarch64_jvm_root)

# The C++ core tests that run under qemu (187 tests, 20-40 s here; the whole suite takes ~95 s):
# loading SavedModels and frozen graphs, running them against TensorFlow Python's golden outputs (every
# test model's cases, dtypes included), tensors, eager ops and contexts, session configs, threads,
# live-object counts and TensorFlow's errors; LiteRT models loaded and run against TensorFlow
# Python's outputs, their signatures, damaged files and wrong inputs (9 tests; beside TensorFlow
# 2.18's libraries LiteRT 1.4.0's aarch64 library crashes in its first run, docs/LITERT.md). Left
# out: the op library, package requirement and text ops tests (their op libraries are x86_64
# builds of tensorflow-text), the step stats test (TensorFlow Python traced oneDNN's fused x86_64
# kernels), two tests that wait on slow graphs for 20 s each under emulation (a timeout, the slow
# loop), and input-parsing suites (attrs, wire format, test data) whose code does not depend on
# the platform.
AARCH64_CORE_TESTS="${AARCH64_CORE_TESTS:-SavedModelTest.*:GraphModelTest.*:RunnerTest.*:MultiRunnerTest.*\
:AddRunnerTest.*:TensorTest.*:DtypeTest.*:EagerTest.*:ContextTest.*:*EagerConcurrencyTest.*:ConfigTest.*\
:RunOptionsTest.*:CallerThreadTest.*:LiveObjectsTest.*:LiteRtModelTest.*\
-SavedModelTest.EveryModelLoadsWithTheManifestsSignatures:RunnerTest.TextOpsCases:RunnerTest.SlowLoopCases\
:RunOptionsTest.StepStatsNameTheNodesTensorFlowPythonTraced\
:RunOptionsTest.TimeoutGivesDeadlineExceededAndTheModelStaysUsable}"
# How far an aarch64 probability may lie from TensorFlow Python's (computed on x86_64) for the
# same digit: aarch64's kernels round differently in the last bits (measured: 4.8e-7, ~8 ulp of 1.0).
AARCH64_DEMO_TOLERANCE="${AARCH64_DEMO_TOLERANCE:-1e-5}"
# The CLI jar of the host build, built with every platform's natives (scripts/build.sh
# --all-platforms), and the aarch64 runtime artifact: the demo loads both as a user's JVM would.
CLI_JAR="${TFJNI_CLI_JAR:-$ROOT/java/tfjni-cli/target/tfjni-cli.jar}"
AARCH64_ARTIFACT=$(runtime_artifact_jar cpu linux-aarch64)
AARCH64_LITERT_ARTIFACT=$(runtime_artifact_jar litert linux-aarch64)
# The arm64 JVM keeps both JIT compilers: the first run extracts the runtime artifact, hashing
# 768 MB in Java, which takes about an hour interpreted under emulation, 51 s with C1 only and
# 37 s with both JITs. Once extracted, the demo itself takes 8.5 s with -Xint, 11 s with C1 only
# and 13 s with both (measured here; more with both cores busy).
AARCH64_JAVA_OPTS="${AARCH64_JAVA_OPTS:-}"

[[ -f "$CLI_JAR" ]] || { echo "no CLI jar at $CLI_JAR: run 'make build' first (or set TFJNI_CLI_JAR)" >&2; exit 1; }
unzip -l "$CLI_JAR" io/tfjni/native/linux-aarch64/libtfjni.so >/dev/null ||
  { echo "$CLI_JAR carries no linux-aarch64 natives: build it with scripts/build.sh --all-platforms" >&2; exit 1; }
[[ "$AARCH64_DEMO_TOLERANCE" =~ ^[0-9.]+(e-?[0-9]+)?$ ]] ||
  { echo "AARCH64_DEMO_TOLERANCE must be a non-negative number, got '$AARCH64_DEMO_TOLERANCE'" >&2; exit 1; }

"$ROOT/scripts/platforms/build-linux-aarch64.sh"
AARCH64_BUILD=$(native_build_dir linux-aarch64)
MODELS="${TFJNI_MODELS:-$(models_dir)}"
[[ -f "$MODELS/manifest.json" && -d "$MODELS/digits" ]] ||
  { echo "no test models in $MODELS (scripts/setup.sh generates them; TFJNI_MODELS overrides the directory)" >&2; exit 1; }
# The cross toolchain's sysroot gives the guest its dynamic loader, libc and libstdc++;
# TensorFlow finds its own libomp through its RPATH.
QEMU=(qemu-aarch64 -L /usr/aarch64-linux-gnu)

seconds_since() { echo "$(( $(date +%s) - $1 ))"; }

# LiteRT's library as the linux-aarch64 runtime artifact carries it.
[[ -f "$AARCH64_LITERT_ARTIFACT" ]] || "$ROOT/scripts/release/runtime-artifact.sh" linux-aarch64/litert
litert_dir="$BUILD/litert-linux-aarch64"
mkdir -p "$litert_dir"
unzip -q -o -j "$AARCH64_LITERT_ARTIFACT" "io/tfjni/litert/linux-aarch64/$LITERT_LIBRARY_FILE" -d "$litert_dir"

step "C++ core tests on aarch64 under qemu-user (filter: $AARCH64_CORE_TESTS)"
core_log="$BUILD/core-tests-linux-aarch64.log"
started=$(date +%s)
"${QEMU[@]}" -E TFJNI_TEST_MODELS="$MODELS" -E TF_CPP_MIN_LOG_LEVEL="$TF_CPP_MIN_LOG_LEVEL" \
  -E TFJNI_LITERT_LIBRARY="$litert_dir/$LITERT_LIBRARY_FILE" \
  "$AARCH64_BUILD/tfjni_core_tests" --gtest_filter="$AARCH64_CORE_TESTS" --gtest_brief=1 | tee "$core_log"
# A filter that matches nothing passes: count what ran.
ran=$(sed -n 's/^\[==========\] \([0-9]*\) tests\{0,1\} from .* ran\..*/\1/p' "$core_log")
[[ "${ran:-0}" -gt 0 ]] || { echo "no core test matched the filter '$AARCH64_CORE_TESTS'" >&2; exit 1; }
echo "$ran core tests took $(seconds_since "$started") s"

step "The digits demo through the Java library on an arm64 JVM under qemu-user"
JVM_ROOT=$(aarch64_jvm_root)
JAVA="$JVM_ROOT/usr/lib/jvm/java-17-openjdk-arm64/bin/java"
# No directory is set: tfjni's natives come from the jar and TensorFlow from the runtime artifact.
[[ -f "$AARCH64_ARTIFACT" ]] || "$ROOT/scripts/release/runtime-artifact.sh" linux-aarch64/cpu
launch=(-cp "$CLI_JAR:$AARCH64_ARTIFACT" io.tfjni.cli.Main)
demo_log="$BUILD/demo-linux-aarch64.log"
started=$(date +%s)
# The demo exits 1 itself when a class differs; its agreement line is checked below either way.
demo_status=0
# The JVM's own arm64 libraries (zlib) sit in its directory; TF_CPP_MIN_LOG_LEVEL=2 hides
# TensorFlow's warning that emulation's /proc/cpuinfo has no clock speed.
"${QEMU[@]}" -E LD_LIBRARY_PATH="$JVM_ROOT/lib/aarch64-linux-gnu:$JVM_ROOT/usr/lib/aarch64-linux-gnu" \
  -E TF_CPP_MIN_LOG_LEVEL=2 -U TFJNI_TENSORFLOW_DIR -U TFJNI_LIBRARY_DIR \
  "$JAVA" $AARCH64_JAVA_OPTS -Djava.awt.headless=true \
  -Dtfjni.models="$MODELS" "${launch[@]}" demo --show 1 | tee "$demo_log" || demo_status=$?
echo "demo took $(seconds_since "$started") s"

step "Checking the aarch64 demo against TensorFlow Python (tolerance $AARCH64_DEMO_TOLERANCE)"
grep -q '^TensorFlow .* from .*/libtensorflow/[^/]*-linux-aarch64-cpu-[0-9a-f]*/libtensorflow_cc.so.2$' "$demo_log" ||
  { echo "the demo did not run on the TensorFlow of the linux-aarch64 runtime artifact" >&2; exit 1; }
check_demo_agreement "$(cat "$demo_log")" "$AARCH64_DEMO_TOLERANCE"
((demo_status == 0)) || { echo "the aarch64 demo failed (exit status $demo_status)" >&2; exit 1; }
echo "linux-aarch64: core tests and demo pass"
