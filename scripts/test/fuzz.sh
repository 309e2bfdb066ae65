#!/usr/bin/env bash
# Builds the libFuzzer targets (native/fuzz, clang with ASan + UBSan) in build/fuzz, runs every
# committed seed once (regression seeds included), then fuzzes each target for FUZZ_SECONDS
# (default 20) from a scratch copy of its corpus, so the tree stays clean. Fails on any crash,
# leak, timeout or failed check, and names the input that caused it.
source "$(dirname "$0")/../common.sh"
"$ROOT/scripts/setup.sh"

FUZZ_SECONDS="${FUZZ_SECONDS:-20}"
CORPUS="$ROOT/native/fuzz/corpus"
OUT="$BUILD/fuzz"
ARTIFACTS="$OUT/artifacts"
LOGS="$OUT/logs"

step "Building the fuzz targets (clang: libFuzzer, ASan, UBSan)"
mkdir -p "$BUILD"
cmake -S "$ROOT/native" -B "$OUT" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DTFJNI_FUZZ=ON -DTFJNI_BUILD_TESTS=OFF -DTFJNI_BUILD_JNI=OFF -DTFJNI_TENSORFLOW_DIR="$(tensorflow_dir)" \
  >"$BUILD/fuzz-configure.log" 2>&1 || { cat "$BUILD/fuzz-configure.log"; exit 1; }
cmake --build "$OUT" -j "$JOBS"

# Every target needs a corpus and every corpus a target: a new target must not go unfuzzed.
targets=()
for dir in "$CORPUS"/*/; do targets+=("$(basename "$dir")"); done
for exe in "$OUT"/*_fuzz; do
  [[ -d "$CORPUS/$(basename "$exe")" ]] || { echo "no seed corpus for $(basename "$exe") in $CORPUS" >&2; exit 1; }
done
for target in "${targets[@]}"; do
  [[ -x "$OUT/$target" ]] || { echo "corpus $CORPUS/$target has no fuzz target $OUT/$target" >&2; exit 1; }
done

export ASAN_OPTIONS="detect_leaks=1"
export LSAN_OPTIONS="suppressions=$ROOT/native/test/sanitizer.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
mkdir -p "$ARTIFACTS" "$LOGS"

# Prints why a run failed: the end of its log and the input that did it.
report_failure() {
  local target=$1 log=$2 input=$3
  tail -n 60 "$log" >&2
  echo >&2
  echo "FAILED: $target, log $log" >&2
  [[ -n "$input" ]] && echo "the input: $input (reproduce: $OUT/$target $input)" >&2
  exit 1
}

step "Running every committed seed once"
for target in "${targets[@]}"; do
  log="$LOGS/$target-seeds.log"
  seeds=("$CORPUS/$target"/*)
  if ! "$OUT/$target" -timeout=10 "${seeds[@]}" >"$log" 2>&1; then
    report_failure "$target" "$log" "$(grep -o '^Running: .*' "$log" | tail -n 1 | cut -d' ' -f2- || true)"
  fi
  echo "$target: ${#seeds[@]} seeds pass"
done

step "Fuzzing each target for $FUZZ_SECONDS s"
for target in "${targets[@]}"; do
  log="$LOGS/$target.log"
  work=$(mktemp -d "${TMPDIR:-/tmp}/tfjni-fuzz-$target.XXXXXX")
  cp "$CORPUS/$target"/* "$work/"
  rm -f "$ARTIFACTS/$target-"*
  if ! "$OUT/$target" -max_total_time="$FUZZ_SECONDS" -timeout=10 -artifact_prefix="$ARTIFACTS/$target-" \
      "$work" >"$log" 2>&1; then
    rm -rf "$work"
    report_failure "$target" "$log" "$(ls "$ARTIFACTS/$target-"* 2>/dev/null | head -n 1)"
  fi
  rm -rf "$work"
  # libFuzzer's last status line: "#runs DONE cov: n ft: n corp: inputs/bytes ..."
  echo "$target: $(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1 | awk '{print substr($1, 2) " runs, coverage " $4 ", corpus " $8}')"
done
echo "fuzzing passed (logs in $LOGS)"
