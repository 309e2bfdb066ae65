#!/usr/bin/env bash
# Machine instructions per model call, counted by valgrind's callgrind instead of timed: a count
# that the load of a shared machine cannot change, to tell apart what a binding's own code costs
# from timing noise. Counted on the calling thread, between a zero and a dump that each program
# requests around its measured calls: that thread does all of a binding's work (Java, JNI, the
# tfjni core) and TensorFlow's session run, while TensorFlow's pool threads run kernels the same way
# for every contender and spin while idle for as long as scheduling makes them (so they are left out).
#   c_api, core            native/bench/call_instructions.cpp (the floor; tfjni's C++ Runner)
#   tfjniFast, tfjniMap, tfJava, tfJavaRunner   io.tfjni.bench.CallLoop in a JVM (after JIT warm-up)
#   tfjniBatched            a lone caller through a BatchingPredictor (CallLoop)
#   tfjniDjl, djlTf         DJL's Predictor.predict (CallLoop, DjlBench's translator) through
#                           tfjni-djl or DJL's own TensorFlow engine 0.36.0 (TensorFlow 2.16.1)
#
#   scripts/bench/bench-instructions.sh [CASE...]        (default: mlp_b1)
#
# Environment: CONTENDERS (default "c_api core tfjniFast tfjniMap tfJava"), CALLS (measured calls,
# default 2000), NATIVE_WARMUP (default 200), JAVA_WARMUP (default 20000: enough for C2 to compile
# the loop), THREADINGS (default "pooled": inter-op pool of 2; "caller": inter-op -1, every op on
# the calling thread, whose count then includes the kernels; "pooled caller" counts both),
# BENCH_NO_BUILD=1 (use what is built), BENCH_MODELS (the models directory),
# OUT (results directory; default build/bench-results/instructions-<timestamp>).
# Prints one JSON line per contender and case and writes them to
# $OUT/instructions.jsonl: instructions_per_call, and outside_session_run_per_call, the part not
# under TF_SessionRun: what the binding itself costs (TF_SessionRun's own count varies by a few
# hundred instructions with how long it waits for the pool). Under valgrind a JVM runs ~50x slower:
# expect ~10 minutes for the default.
source "$(dirname "$0")/../common.sh"

CONTENDERS="${CONTENDERS:-c_api core tfjniFast tfjniMap tfJava}"
CALLS="${CALLS:-2000}"
THREADINGS="${THREADINGS:-pooled}"
NATIVE_WARMUP="${NATIVE_WARMUP:-200}"
JAVA_WARMUP="${JAVA_WARMUP:-20000}"
OUT="${OUT:-$BUILD/bench-results/instructions-$(date -u +%Y%m%dT%H%M%SZ)}"
if [[ "${1:-}" == -h || "${1:-}" == --help ]]; then
  sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
cases=("$@")
((${#cases[@]})) || cases=(mlp_b1)
for threading in $THREADINGS; do
  [[ "$threading" == pooled || "$threading" == caller ]] ||
    { echo "bench-instructions.sh: unknown threading '$threading' (pooled or caller)" >&2; exit 2; }
done
for contender in $CONTENDERS; do
  case "$contender" in
    c_api | core | tfjniFast | tfjniMap | tfjniBatched | tfJava | tfJavaRunner | tfjniDjl | djlTf) ;;
    *) echo "bench-instructions.sh: unknown contender '$contender' (see --help)" >&2; exit 2 ;;
  esac
done

command -v valgrind >/dev/null || { echo "bench-instructions.sh: valgrind is needed (scripts/setup.sh installs it)" >&2; exit 1; }
MODELS="${BENCH_MODELS:-$("$ROOT/scripts/bench/bench-models.sh")}"
if [[ "${BENCH_NO_BUILD:-0}" != 1 ]]; then
  step "Building call_instructions and the callgrind marks (build/bench)"
  build_bench "$BUILD/bench-configure.log" call_instructions callgrind_marks
  for contender in $CONTENDERS; do  # every contender but the native two runs in a JVM
    if [[ "$contender" != c_api && "$contender" != core ]]; then
      "$ROOT/scripts/bench/bench-java.sh" build
      break
    fi
  done
fi
mkdir -p "$OUT"
if [[ " $CONTENDERS " == *" djlTf "* || " $CONTENDERS " == *" tfjniDjl "* || " $CONTENDERS " == *" tfjniBatched "* ]]; then
  # Under valgrind, a JVM crashes at the first null met by an implicit null check in JIT code (a
  # SIGSEGV the JVM does not recognise as its own there); both DJL engines meet one (DJL's
  # managers iterate empty ConcurrentHashMaps), and so does closing a batcher (its lock's queue):
  # every JVM contender of such a run gets explicit null checks instead, so that their counts stay
  # comparable.
  export BENCH_JVM_FLAGS="${BENCH_JVM_FLAGS:--Xms1g -Xmx1g -XX:+AlwaysPreTouch} -XX:+UnlockDiagnosticVMOptions -XX:-ImplicitNullChecks"
fi

# "TOTAL SESSION_RUN": the instructions of the dump the program marked "measured" (its "summary:"
# line) and those under TF_SessionRun.
measured_instructions() {
  local dump
  dump=$(grep -l '^desc: Trigger: Client Request: measured' "$1".* 2>/dev/null | head -n 1)
  [[ -n "$dump" ]] || { echo "no measured dump in $1.*" >&2; return 1; }
  local total session_run
  total=$(sed -n 's/^summary: \([0-9]*\).*/\1/p' "$dump")
  # Inclusive count of TF_SessionRun (every contender ends in it), commas removed.
  session_run=$(callgrind_annotate --inclusive=yes --threshold=100 "$dump" 2>/dev/null |
    awk '/[?]:TF_SessionRun / { gsub(",", "", $1); print $1; exit }')
  [[ -n "$total" && -n "$session_run" ]] || { echo "cannot read the counts of $dump" >&2; return 1; }
  echo "$total $session_run"
}

# With one profile per thread, the marked dump is the calling thread's alone.
VALGRIND=(valgrind --tool=callgrind --separate-threads=yes --dump-instr=no)
for case in "${cases[@]}"; do
  for threading in $THREADINGS; do
    inter_op=2
    [[ "$threading" == pooled ]] || inter_op=-1
    # Pooled runs keep their historical file names.
    suffix=""
    [[ "$threading" == pooled ]] || suffix="-$threading"
    for contender in $CONTENDERS; do
      out="$OUT/callgrind-$contender-$case$suffix"
      log="$OUT/$contender-$case$suffix.log"
      step "Counting $contender on $case, $threading ($CALLS calls under callgrind)"
      start=$SECONDS
      case "$contender" in
        c_api | core)
          "${VALGRIND[@]}" --callgrind-out-file="$out" "$BUILD/bench/call_instructions" --models="$MODELS" \
            --case="$case" --contender="$contender" --calls="$CALLS" --warmup="$NATIVE_WARMUP" \
            --inter_op_threads="$inter_op" >"$log" 2>&1 ;;
        *)
          BENCH_NO_BUILD=1 BENCH_MODELS="$MODELS" \
            BENCH_JAVA_PREFIX="${VALGRIND[*]} --callgrind-out-file=$out --trace-children=no" \
            "$ROOT/scripts/bench/bench-java.sh" calls "$contender" "$case" "$JAVA_WARMUP" "$CALLS" "$threading" >"$log" 2>&1 ;;
      esac || { tail -n 30 "$log" >&2; echo "bench-instructions.sh: $contender on $case ($threading) failed (log: $log)" >&2; exit 1; }
      counts=$(measured_instructions "$out")
      read -r total session_run <<<"$counts"
      printf '{"contender": "%s", "case": "%s", "threading": "%s", "calls": %d, "instructions": %d, ' \
        "$contender" "$case" "$threading" "$CALLS" "$total" | tee -a "$OUT/instructions.jsonl"
      printf '"instructions_per_call": %d, "outside_session_run_per_call": %d, "seconds": %d}\n' \
        $((total / CALLS)) $(((total - session_run) / CALLS)) $((SECONDS - start)) | tee -a "$OUT/instructions.jsonl"
    done
  done
done
echo "results: $OUT/instructions.jsonl" >&2
