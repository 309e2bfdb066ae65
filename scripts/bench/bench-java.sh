#!/usr/bin/env bash
# The Java benchmarks (java/tfjni-bench/): tfjni's map API and fast path against TensorFlow Java 1.1.0.
#
#   scripts/bench/bench-java.sh jmh [JMH ARGS...]          java -jar java/tfjni-bench/target/benchmarks.jar ARGS
#   scripts/bench/bench-java.sh rss CONTENDER CASE N1,N2   RSS / heap / GC count after N1, N2 calls
#   scripts/bench/bench-java.sh calls CONTENDER CASE WARMUP CALLS [pooled|caller]
#                                                    CALLS calls between callgrind marks
#                                                   (run with BENCH_JAVA_PREFIX="valgrind ...")
#   scripts/bench/bench-java.sh paired CASE THREADING THREADS... [OPTIONS]
#                                                    io.tfjni.bench.PairedCallerBench: the C API
#                                                    floor and the fast path in one JVM
#                                                    (scripts/bench/bench-paired.sh runs it)
#   scripts/bench/bench-java.sh runtimes CASE THREADS... [OPTIONS]
#                                                    io.tfjni.bench.RuntimesPairedBench: TensorFlow,
#                                                    LiteRT and ONNX Runtime paired in one JVM
#                                                    (scripts/bench/bench-runtimes.sh runs it)
#   scripts/bench/bench-java.sh batcher MODEL_DIR CALLERS [PAIRS] [SLICE_MS]
#                                                    io.tfjni.bench.BatcherPairedBench: CALLERS
#                                                    callers through the batcher paired with one
#                                                    thread's batches of CALLERS rows
#   scripts/bench/bench-java.sh build                      only the build below
#
# Builds and installs every module (scripts/build.sh) and packages the benchmarks first, unless
# BENCH_NO_BUILD=1. Every JVM gets the same flags ($BENCH_JVM_FLAGS) and the tfjni properties;
# see java/tfjni-bench/README.md.
source "$(dirname "$0")/../common.sh"

# The same for every contender. Pre-touching the heap keeps its first-touch page faults out of the
# timings and out of RSS, so RSS growth shows native memory.
BENCH_JVM_FLAGS="${BENCH_JVM_FLAGS:--Xms1g -Xmx1g -XX:+AlwaysPreTouch}"
JAR="$ROOT/java/tfjni-bench/target/benchmarks.jar"

usage() {
  sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

[[ $# -ge 1 ]] || usage
mode=$1
shift
case "$mode" in
  jmh) ;;
  rss) [[ $# -eq 3 ]] || usage ;;
  calls) [[ $# -eq 4 || $# -eq 5 ]] || usage ;;
  paired) [[ $# -ge 3 ]] || usage ;;
  runtimes) [[ $# -ge 2 ]] || usage ;;
  batcher) [[ $# -ge 2 && $# -le 4 ]] || usage ;;
  build) [[ $# -eq 0 && "${BENCH_NO_BUILD:-0}" != 1 ]] || usage ;;
  *) usage ;;
esac

if [[ "${BENCH_NO_BUILD:-0}" != 1 ]]; then
  "$ROOT/scripts/build.sh" >&2
  step "Packaging the benchmarks (java/tfjni-bench/target/benchmarks.jar)" >&2
  (cd "$ROOT/java" && mvn -B -q -Pbench-jar -DskipTests $(maven_settings) package -pl tfjni-bench) >&2
fi
[[ -f "$JAR" ]] || { echo "no $JAR: run without BENCH_NO_BUILD=1 once" >&2; exit 1; }
[[ "$mode" != build ]] || exit 0

# scripts/bench.sh passes the models directory it made, so its ~170 calls skip the set-up check.
# The runtime comparison reads the runtime models' directory (scripts/bench/runtime-models.sh) instead.
if [[ "$mode" == runtimes ]]; then
  MODELS="${BENCH_RUNTIME_MODELS:-$("$ROOT/scripts/bench/runtime-models.sh")}"
else
  MODELS="${BENCH_MODELS:-$("$ROOT/scripts/bench/bench-models.sh")}"
fi
TF_DIR=$(tensorflow_dir)
# System properties for tfjni (io.tfjni.NativeLibrary) and for the benchmark's case loader.
# The forks check that both bindings run TensorFlow $TFJNI_TF_VERSION.
PROPS="-Dtfjni.tensorflow.dir=$TF_DIR -Dtfjni.library.dir=$BUILD/native -Dtfjni.bench.models=$MODELS"
PROPS+=" -Dtfjni.bench.tensorflow.version=$TFJNI_TF_VERSION"
for p in "$TF_DIR" "$BUILD/native" "$MODELS"; do
  # JMH splits -jvmArgsAppend at spaces.
  [[ "$p" != *" "* ]] || { echo "bench-java.sh: paths with spaces are not supported: $p" >&2; exit 1; }
done

case "$mode" in
  jmh)
    # JMH splits -jvmArgsAppend at spaces only when it is given once: fold the caller's into ours.
    append="$BENCH_JVM_FLAGS $PROPS"
    args=()
    prev=
    saw_foe=0
    for a in "$@"; do
      if [[ "$prev" == -jvmArgsAppend ]]; then
        append+=" $a"
        prev=
        continue
      fi
      case "$a" in
        -jvmArgsAppend) prev=$a; continue ;;
        -jvmArgsAppend=*) append+=" ${a#-jvmArgsAppend=}"; prev=; continue ;;
        -foe) saw_foe=1 ;;
      esac
      # Java reserves `case`, so the JMH parameter is named caseName: accept both spellings.
      if [[ "$prev" == -p && "$a" == case=* ]]; then
        a="caseName=${a#case=}"
      fi
      prev=$a
      args+=("$a")
    done
    # A contender whose output is wrong fails its set-up; make that fail the run, not just a line.
    ((saw_foe)) || args=(-foe true "${args[@]}")
    # The parent JVM only forks (JMH hands its own JVM options to every fork, so it gets none).
    exec java -jar "$JAR" -jvmArgsAppend "$append" "${args[@]}"
    ;;
  rss)
    exec java $BENCH_JVM_FLAGS $PROPS -cp "$JAR" io.tfjni.bench.RssProbe "$@"
    ;;
  calls)
    # DJL's engines are not in the benchmarks jar; DJL's own brings TensorFlow Java classes of
    # its own, so it runs from the benchmark classes and its class path (as in bench-djl.sh).
    cp=$JAR
    case "$1" in
      tfjniDjl) cp+=":$(maven_classpath "$BUILD/bench-results/deps-calls-tfjni-djl" io.tfjni:tfjni-djl:0.1.0-SNAPSHOT)" ;;
      djlTf)
        deps="$BUILD/bench-results/deps-calls-djl-tf"
        cp="$ROOT/java/tfjni-bench/target/classes:$(djl_tensorflow_engine "$deps")" || exit 1
        export TENSORFLOW_LIBRARY_PATH="$deps/tensorflow-core-native" OPT_OUT_TRACKING=true ;;
    esac
    # The marks library is built with the C++ benchmarks (build/bench). -Xbatch compiles in the
    # foreground: under valgrind a background compile may not finish within the warm-up, and the
    # counts would then include interpreted or C1 code.
    exec ${BENCH_JAVA_PREFIX:-} java -Xbatch $BENCH_JVM_FLAGS $PROPS -Dai.djl.offline=true \
      -Dtfjni.bench.callgrindMarks="$BUILD/bench/libcallgrind_marks.so" -cp "$cp" io.tfjni.bench.CallLoop "$@"
    ;;
  paired)
    # The floor's JNI library is built with the C++ benchmarks (build/bench, target floor_loop).
    exec java $BENCH_JVM_FLAGS $PROPS -Dtfjni.bench.floorLoop="$BUILD/bench/libfloor_loop.so" -cp "$JAR" \
      io.tfjni.bench.PairedCallerBench "$@"
    ;;
  runtimes)
    exec java $BENCH_JVM_FLAGS $PROPS -Dtfjni.litert.library="$(litert_library)" -cp "$JAR" \
      io.tfjni.bench.RuntimesPairedBench "$@"
    ;;
  batcher)
    exec java $BENCH_JVM_FLAGS $PROPS -cp "$JAR" io.tfjni.bench.BatcherPairedBench "$@"
    ;;
esac
