#!/usr/bin/env bash
# Runs tfjni's C++ core tests and the Java library's tests against several libtensorflow 2.x
# versions and writes a table of the results. Not part of `make test`; see docs/TF_VERSIONS.md.
usage() {
  cat <<'EOF'
Usage: scripts/test/tf-versions.sh [--no-build] [--out DIR] [MINOR...]

Runs the C++ core tests (build/native/tfjni_core_tests, one process, GoogleTest XML) and the Java
library's tests (mvn test -pl tfjni) against the libtensorflow of each tensorflow-cpu minor
version given (default: 2.16 2.17 2.18 2.19 2.20 2.21), one version after another.

tfjni is built once, against the default venv (TensorFlow 2.21.0 unless TFJNI_TF_VERSION says
otherwise; scripts/build.sh);
that venv's own libraries are the reference row. For every other minor version the newest patch
that PyPI serves is found with `pip index versions`, its wheel downloaded once (no dependencies)
into ~/.cache/tfjni/tf-wheels/, and only libtensorflow_cc.so.2 and libtensorflow_framework.so.2
extracted into ~/.cache/tfjni/tf-libs/<version>/. The C++ tests then load that directory through
LD_LIBRARY_PATH (the test binary's RUNPATH comes after it), the Java tests through
-Dtfjni.tensorflow.dir; the script checks with ldd and `bin/tfjni --version` which libtensorflow
each side actually loads. The test models stay those made by the venv's TensorFlow Python.

Options:
  --no-build   skip scripts/build.sh (use the existing build/native and jars)
  --out DIR    where logs and reports go (default: build/tf-versions)
  -h, --help   this text

From 2.21 on, the Java side also runs NarrowTypesModelCheck: a SavedModel with TensorFlow 2.21's
one-byte types (float8, float4, int4, int2) as inputs and outputs, made by
scripts/goldens/generate_narrow_types_model.py in a TensorFlow 2.21 venv of its own
(~/.cache/tfjni/venv-narrow-types-2.21.0, from the cached wheel) and cached in
~/.cache/tfjni/models/narrow-types-tf2.21.0-<hash>/, with TensorFlow Python's outputs.

Writes DIR/<version>/{cpp.log,cpp.xml,java.log,surefire-reports/} and DIR/table.md; with the
default versions it also replaces the generated part of docs/TF_VERSIONS.md (between its
markers). Progress goes to stdout, one block per version, and a summary at the end. Exits 0 once
the table is written, whatever the tests said: it is a report. Settings: TFJNI_TF_VERSION and
TFJNI_CACHE as for every script (scripts/common.sh); JOBS (default 2) for the build.
EOF
}
source "$(dirname "$0")/../common.sh"

DEFAULT_MINORS=(2.16 2.17 2.18 2.19 2.20 2.21)
OUT="$BUILD/tf-versions"
do_build=true
minors=()
while (($#)); do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --no-build) do_build=false ;;
    --out) [[ $# -ge 2 ]] || { echo "tf-versions: --out needs a directory" >&2; exit 2; }; OUT="$2"; shift ;;
    --out=*) OUT="${1#--out=}" ;;
    2.[0-9]*) [[ "$1" =~ ^2\.[0-9]+$ ]] || { echo "tf-versions: give minor versions like 2.17, not '$1'" >&2; exit 2; }
      minors+=("$1") ;;
    *) echo "tf-versions: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
full_run=false
if ((${#minors[@]} == 0)); then
  minors=("${DEFAULT_MINORS[@]}")
  full_run=true
fi

WHEELS="$TFJNI_CACHE/tf-wheels"
LIBS="$TFJNI_CACHE/tf-libs"
REFERENCE_MINOR="${TFJNI_TF_VERSION%.*}"
DOC="$ROOT/docs/TF_VERSIONS.md"
BEGIN_MARK='<!-- tf-versions.sh: generated table, begin -->'
END_MARK='<!-- tf-versions.sh: generated table, end -->'
PIP="$VENV/bin/pip"

say() { printf '%s\n' "$*"; }

# Known reasons for tests that fail on a TensorFlow other than the one that made the test models,
# found by reading the failures (docs/TF_VERSIONS.md explains each). Anything else is reported
# with the first line of its failure message.
declare -A REASONS=(
  [SavedModelTest.ManifestComesFromTheLinkedTensorFlow]="by design: the models' manifest records TensorFlow $TFJNI_TF_VERSION (Python), the test binary loaded another version"
  [ManifestCasesTest.manifestComesFromTheLoadedTensorFlow]="by design: the models' manifest records TensorFlow $TFJNI_TF_VERSION (Python), the JVM loaded another version"
  [RunnerTest.DigitsCases]="TensorFlow difference: a ~6e-10 probability of the digits CNN moves by more than the C++ check's 1e-6 relative (~1e-15 absolute; Java's 1e-6 absolute + relative passes)"
  [RunnerTest.ConcurrentRunsGiveTheSerialResults]="TensorFlow difference: the same digits output as RunnerTest.DigitsCases, compared the same way"
  [EagerTest.InvalidDtypeCodeInAnAttrIsInvalidArgument]="TensorFlow difference: dtype code 31, invalid up to 2.19, is DT_INT2 from 2.20 on, so Cast to it is UNIMPLEMENTED instead of an invalid DataType"
)

# --- versions and libraries ----------------------------------------------------------------------

# The versions PyPI serves for tensorflow-cpu, newest first, one a line (empty when offline).
pypi_versions() {
  "$PIP" index versions tensorflow-cpu 2>/dev/null |
    sed -n 's/^Available versions: //p' | tr -d ' ' | tr ',' '\n'
}

# The newest patch of MINOR: from PyPI, else from the wheels already downloaded.
resolve_version() {
  local minor="$1" version
  version=$(grep -E "^${minor//./\\.}\.[0-9]+$" <<<"$PYPI_VERSIONS" | head -n 1 || true)
  if [[ -z "$version" ]]; then
    version=$(ls "$WHEELS"/tensorflow_cpu-"$minor".*.whl 2>/dev/null | sed 's/.*tensorflow_cpu-\([^-]*\)-.*/\1/' |
      sort -V | tail -n 1 || true)
  fi
  echo "$version"
}

# Downloads (once) the wheel of VERSION and extracts (once) its two libraries; echoes their dir.
libraries_of() {
  local version="$1" dir="$LIBS/$1" wheel
  if [[ -f "$dir/libtensorflow_cc.so.2" && -f "$dir/libtensorflow_framework.so.2" ]]; then
    echo "$dir"
    return
  fi
  mkdir -p "$WHEELS" "$LIBS"
  wheel=$(ls "$WHEELS"/tensorflow_cpu-"$version"-*.whl 2>/dev/null | head -n 1 || true)
  if [[ -z "$wheel" ]]; then
    say "  downloading tensorflow-cpu==$version (the wheel only, ~250 MB)" >&2
    "$PIP" download -q --no-deps --only-binary=:all: "tensorflow-cpu==$version" -d "$WHEELS" >&2 || return 1
    wheel=$(ls "$WHEELS"/tensorflow_cpu-"$version"-*.whl 2>/dev/null | head -n 1 || true)
    [[ -n "$wheel" ]] || return 1
  fi
  say "  extracting the two libraries from $(basename "$wheel")" >&2
  local staging
  staging=$(mktemp -d "$LIBS/.$version.XXXXXX")
  unzip -q -o -j "$wheel" tensorflow/libtensorflow_cc.so.2 tensorflow/libtensorflow_framework.so.2 -d "$staging" >&2 ||
    { rm -rf "$staging"; return 1; }
  rm -rf "$dir"
  mv "$staging" "$dir"
  echo "$dir"
}

# The TensorFlow C API functions libtfjni.so imports that TF_DIR's libraries do not define (the
# JVM would refuse to load libtfjni.so, which binds every symbol at load: -z now).
missing_symbols() {
  local tf_dir="$1"
  comm -23 <(nm -D --undefined-only "$BUILD/native/libtfjni.so" | awk '{print $2}' | sed 's/@.*//' |
               grep -E '^TFE?_' | sort -u) \
           <(nm -D --defined-only "$tf_dir/libtensorflow_cc.so.2" "$tf_dir/libtensorflow_framework.so.2" |
               awk 'NF == 3 {print $3}' | sed 's/@.*//' | sort -u)
}

# --- the narrow-types model ----------------------------------------------------------------------

# The model with TensorFlow 2.21's one-byte types is made by that version's Python, whatever
# TFJNI_TF_VERSION is, and checked on every libtensorflow from 2.21 on.
NARROW_TYPES_TF_VERSION=2.21.0
NARROW_TYPES_VENV="$TFJNI_CACHE/venv-narrow-types-$NARROW_TYPES_TF_VERSION"
NARROW_TYPES_CHECK=NarrowTypesModelCheck

runs_narrow_types_check() {  # runs_narrow_types_check MINOR: true for 2.21 and later
  local first="${NARROW_TYPES_TF_VERSION#2.}"
  ((${1#2.} >= ${first%%.*}))
}

# Echoes the model directory (model/ and expected.json), making the venv and the model once.
narrow_types_model() {
  local hash dir
  if [[ ! -f "$NARROW_TYPES_VENV/.complete" ]]; then
    say "  creating the TensorFlow $NARROW_TYPES_TF_VERSION venv $NARROW_TYPES_VENV (one-off, ~1 min)" >&2
    # Made in place (a venv's scripts name its path) and complete once marked.
    rm -rf "$NARROW_TYPES_VENV"
    python3 -m venv "$NARROW_TYPES_VENV" >&2 &&
      "$NARROW_TYPES_VENV/bin/pip" install -q --find-links "$WHEELS" "tensorflow-cpu==$NARROW_TYPES_TF_VERSION" >&2 ||
      return 1
    touch "$NARROW_TYPES_VENV/.complete"
  fi
  hash=$(sha256sum < "$ROOT/scripts/goldens/generate_narrow_types_model.py" | cut -c1-16)
  dir="$TFJNI_CACHE/models/narrow-types-tf$NARROW_TYPES_TF_VERSION-$hash"
  if [[ ! -f "$dir/.complete" ]]; then
    say "  generating the narrow-types model with TensorFlow $NARROW_TYPES_TF_VERSION Python" >&2
    install_staged "$dir" "$NARROW_TYPES_VENV/bin/python" "$ROOT/scripts/goldens/generate_narrow_types_model.py" \
      >"$OUT/narrow-types-model.log" 2>&1 || { cat "$OUT/narrow-types-model.log" >&2; return 1; }
  fi
  echo "$dir"
}

# --- running the tests ---------------------------------------------------------------------------

# C++: one process for the whole suite (TensorFlow loads once; ~25 s). If it dies before writing
# its XML, ctest runs each test in a process of its own, so one crash costs one test.
run_cpp() {
  local tf_dir="$1" dir="$2" binary="$BUILD/native/tfjni_core_tests" loaded
  loaded=$(LD_LIBRARY_PATH="$tf_dir" ldd "$binary" | awk '$1 == "libtensorflow_cc.so.2" {print $3}')
  echo "$loaded" > "$dir/cpp-loaded.txt"
  rm -f "$dir/cpp.xml" "$dir/ctest.xml"
  LD_LIBRARY_PATH="$tf_dir" TFJNI_TEST_MODELS="$MODELS" TFJNI_LITERT_LIBRARY="$(litert_library)" \
    "$binary" --gtest_output="xml:$dir/cpp.xml" >"$dir/cpp.log" 2>&1 || true
  if [[ ! -s "$dir/cpp.xml" ]]; then
    say "  the test binary died without a report (see cpp.log); rerunning test by test with ctest"
    LD_LIBRARY_PATH="$tf_dir" TFJNI_TEST_MODELS="$MODELS" TFJNI_LITERT_LIBRARY="$(litert_library)" \
      ctest --test-dir "$BUILD/native" -j "$JOBS" --timeout 300 --output-junit "$dir/ctest.xml" \
      >"$dir/ctest.log" 2>&1 || true
  fi
}

# Java: the library module's tests, as scripts/test.sh runs them but pointed at TF_DIR. The pom
# hands tfjni.tensorflow.dir to the tests both as tfjni.tensorflow.dir (the loader) and
# tfjni.test.tensorflow.dir (LibraryLoadingTest's source of library copies). The runtime artifact
# on the test class path stays the reference version's (the only one installed): the tests that
# load from it on purpose, in child JVMs, load that version.
run_java() {
  local tf_dir="$1" dir="$2"
  TFJNI_TENSORFLOW_DIR="$tf_dir" "$ROOT/bin/tfjni" --version >"$dir/java-loaded.txt" 2>&1 || true
  rm -rf "$ROOT/java/tfjni/target/surefire-reports" "$dir/surefire-reports"
  (cd "$ROOT/java" && mvn -B -Dtfjni.native.dir="$BUILD/native" -Dtfjni.tensorflow.dir="$tf_dir" \
    -Dtfjni.tensorflow.version="$TFJNI_TF_VERSION" -Dtfjni.test.models="$MODELS" \
    -Dtfjni.saved_model_cli="$VENV/bin/saved_model_cli" -Dtfjni.litert.library="$(litert_library)" \
    -Dmaven.test.failure.ignore=true test -pl tfjni) >"$dir/java.log" 2>&1 || true
  if [[ -d "$ROOT/java/tfjni/target/surefire-reports" ]]; then
    cp -r "$ROOT/java/tfjni/target/surefire-reports" "$dir/surefire-reports"
  fi
}

# Java: NarrowTypesModelCheck alone (its name keeps it out of the default test run), pointed at
# TF_DIR and the narrow-types model; its report joins the other Java reports.
run_narrow_types_check() {
  local tf_dir="$1" dir="$2" model="$3"
  (cd "$ROOT/java" && mvn -B -Dtfjni.native.dir="$BUILD/native" -Dtfjni.tensorflow.dir="$tf_dir" \
    -Dtfjni.tensorflow.version="$TFJNI_TF_VERSION" -Dtfjni.test.models="$MODELS" \
    -Dtfjni.saved_model_cli="$VENV/bin/saved_model_cli" -Dtfjni.test.narrow_types_model="$model" \
    -Dtest="$NARROW_TYPES_CHECK" -Dmaven.test.failure.ignore=true test -pl tfjni) \
    >"$dir/narrow-types.log" 2>&1 || true
  mkdir -p "$dir/surefire-reports"
  cp "$ROOT/java/tfjni/target/surefire-reports/TEST-io.tfjni.$NARROW_TYPES_CHECK.xml" \
    "$dir/surefire-reports/" 2>/dev/null || say "  $NARROW_TYPES_CHECK wrote no report (see $dir/narrow-types.log)"
}

# Reads JUnit-style XML reports (GoogleTest's, ctest's or Surefire's) and prints
# "passed failed errors skipped" and then one line per failing test: "name<TAB>first message line".
summarise_xml() {
  python3 - "$@" <<'EOF'
import re, sys, xml.etree.ElementTree as ET
counts = {"passed": 0, "failed": 0, "errors": 0, "skipped": 0}
failing = []
for path in sys.argv[1:]:
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        continue
    for case in root.iter("testcase"):
        cls = case.get("classname", "").rsplit(".", 1)[-1]
        name = f"{cls}.{case.get('name')}" if cls else case.get("name")
        if case.get("result") == "skipped" or case.find("skipped") is not None:
            counts["skipped"] += 1
            continue
        bad = case.find("failure")
        kind = "failed"
        if bad is None:
            bad = case.find("error")
            kind = "errors"
        if bad is None:
            counts["passed"] += 1
            continue
        counts[kind] += 1
        text = (bad.get("message") or bad.text or "").strip()
        # GoogleTest starts with "file:line"; keep the rest on one line.
        lines = [l.strip() for l in text.splitlines() if l.strip()]
        lines = [l for l in lines if not re.fullmatch(r"\S+:\d+(: Failure)?", l)]
        first = " ".join(lines)
        failing.append(f"{name}\t{first[:240]}")
print(counts["passed"], counts["failed"], counts["errors"], counts["skipped"])
print("\n".join(failing))
EOF
}

reason_for() {
  local name="$1" message="$2" key
  for key in "${!REASONS[@]}"; do
    if [[ "$name" == "$key" || "$name" == "$key"* ]]; then
      echo "${REASONS[$key]}"
      return
    fi
  done
  echo "${message//|/\\|}"
}

# --- main ----------------------------------------------------------------------------------------

if $do_build; then
  step "Building tfjni once, against the venv's TensorFlow $TFJNI_TF_VERSION (scripts/build.sh)"
  "$ROOT/scripts/build.sh"
fi
[[ -x "$BUILD/native/tfjni_core_tests" ]] || { echo "tf-versions: no $BUILD/native/tfjni_core_tests; run without --no-build" >&2; exit 1; }
[[ -f "$ROOT/java/tfjni-cli/target/tfjni-cli.jar" ]] || { echo "tf-versions: the jars are not built; run without --no-build" >&2; exit 1; }
MODELS=$(models_dir)
[[ -f "$MODELS/.complete" ]] || { echo "tf-versions: no test models in $MODELS; run scripts/setup.sh" >&2; exit 1; }
REFERENCE_DIR=$(tensorflow_dir)
IMPORT_COUNT=$(nm -D --undefined-only "$BUILD/native/libtfjni.so" | awk '{print $2}' | sed 's/@.*//' | grep -cE '^TFE?_')
mkdir -p "$OUT"

step "Resolving the newest patch of each minor version on PyPI"
PYPI_VERSIONS=$(pypi_versions || true)
[[ -n "$PYPI_VERSIONS" ]] || say "  PyPI did not answer: using the wheels already in $WHEELS"

rows=()
summary=()
started=$(date +%s)
for minor in "${minors[@]}"; do
  if [[ "$minor" == "$REFERENCE_MINOR" ]]; then
    version="$TFJNI_TF_VERSION"
    tf_dir="$REFERENCE_DIR"
    source_note="the venv's: the reference"
  else
    version=$(resolve_version "$minor")
    if [[ -z "$version" ]]; then
      step "TensorFlow $minor: no version found on PyPI or in $WHEELS; skipped"
      rows+=("| $minor | not found | – | – | – | – | – | – | – |")
      summary+=("$minor: not found")
      continue
    fi
    tf_dir=""
    source_note="wheel"
  fi
  dir="$OUT/$version"
  mkdir -p "$dir"
  step "TensorFlow $version ($source_note)"
  if [[ -z "$tf_dir" ]] && ! tf_dir=$(libraries_of "$version"); then
    say "  could not download or extract tensorflow-cpu==$version"
    rows+=("| $minor | $version | download failed | – | – | – | – | – | – |")
    summary+=("$version: download failed")
    continue
  fi
  say "  libraries: $tf_dir"
  missing=$(missing_symbols "$tf_dir" | tr '\n' ' ')
  if [[ -n "$missing" ]]; then
    symbols_cell="missing: ${missing% }"
    say "  libtfjni.so needs C API functions these libraries lack: $missing"
  else
    symbols_cell="all $IMPORT_COUNT"
    say "  the $IMPORT_COUNT C API functions libtfjni.so imports are all there"
  fi

  t0=$(date +%s)
  say "  C++ core tests ..."
  run_cpp "$tf_dir" "$dir"
  cpp_loaded=$(cat "$dir/cpp-loaded.txt")
  cpp_report="$dir/cpp.xml"
  [[ -s "$cpp_report" ]] || cpp_report="$dir/ctest.xml"
  mapfile -t cpp < <(summarise_xml "$cpp_report")
  read -r cpp_pass cpp_fail cpp_err _ <<<"${cpp[0]}"
  cpp_fail=$((cpp_fail + cpp_err))
  say "  C++: $cpp_pass passed, $cpp_fail failed in $(($(date +%s) - t0)) s; libtensorflow_cc.so.2 => $cpp_loaded"
  [[ "$cpp_loaded" == "$tf_dir/"* ]] || say "  WARNING: the test binary does not load $tf_dir"

  t0=$(date +%s)
  say "  Java library tests (mvn test -pl tfjni) ..."
  run_java "$tf_dir" "$dir"
  narrow_types_error=""
  if runs_narrow_types_check "$minor"; then
    say "  $NARROW_TYPES_CHECK (TensorFlow $NARROW_TYPES_TF_VERSION's one-byte types) ..."
    if narrow_model=$(narrow_types_model); then
      run_narrow_types_check "$tf_dir" "$dir" "$narrow_model"
    else
      narrow_types_error="could not make the narrow-types model (see $OUT/narrow-types-model.log)"
      say "  $narrow_types_error"
    fi
  fi
  java_version=$(sed -n 's/^TensorFlow //p' "$dir/java-loaded.txt" | head -n 1)
  java_library=$(sed -n 's/^libtensorflow: //p' "$dir/java-loaded.txt" | head -n 1)
  mapfile -t java < <(summarise_xml "$dir"/surefire-reports/TEST-*.xml)
  read -r java_pass java_fail java_err java_skip <<<"${java[0]}"
  if [[ -n "$narrow_types_error" ]]; then
    java+=("$NARROW_TYPES_CHECK"$'\t'"$narrow_types_error")
    java_err=$((java_err + 1))
  fi
  say "  Java: $java_pass passed, $java_fail failed, $java_err errors, $java_skip skipped in" \
    "$(($(date +%s) - t0)) s; the jar loads TensorFlow ${java_version:-?} from ${java_library:-?}"
  [[ "$java_library" == "$tf_dir/"* ]] || say "  WARNING: bin/tfjni did not load from $tf_dir: $(head -n 3 "$dir/java-loaded.txt")"
  if ((java_pass + java_fail + java_err == 0)); then
    say "  no Surefire reports: the build failed before the tests (see $dir/java.log)"
    java_pass="build failed"; java_fail="–"; java_err="–"
  fi

  failures=()
  for line in "${cpp[@]:1}" "${java[@]:1}"; do
    [[ -n "$line" ]] || continue
    name="${line%%$'\t'*}"
    message="${line#*$'\t'}"
    failures+=("\`$name\`: $(reason_for "$name" "$message")")
    say "  FAIL $name: $message"
  done
  failing_cell="–"
  if ((${#failures[@]})); then
    failing_cell=$(printf '%s<br>' "${failures[@]}")
    failing_cell="${failing_cell%<br>}"
  fi
  rows+=("| $minor | $version${java_version:+ (loaded: $java_version)} | $symbols_cell | $cpp_pass | $cpp_fail | $java_pass | $java_fail | $java_err | $failing_cell |")
  summary+=("$version: C++ $cpp_pass passed / $cpp_fail failed; Java $java_pass passed / $java_fail failed / $java_err errors")
done

machine="$(lscpu | sed -n 's/^Model name: *//p' | head -n 1), $(nproc) cores, $(free -g | awk '/^Mem:/ {print $2}') GiB, $(. /etc/os-release && echo "$PRETTY_NAME")"
commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$ROOT" diff --quiet HEAD -- 2>/dev/null || commit+=" (with uncommitted changes)"
{
  echo "$BEGIN_MARK"
  echo
  echo "Made by \`scripts/test/tf-versions.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC') at commit $commit"
  elapsed=$(($(date +%s) - started))
  echo "(tests: $((elapsed / 60)) min $((elapsed % 60)) s), on $machine."
  echo "tfjni built against TensorFlow $TFJNI_TF_VERSION; test models made by TensorFlow $TFJNI_TF_VERSION Python."
  echo
  echo "| minor | wheel version | C API symbols | C++ passed | C++ failed | Java passed | Java failed | Java errors | failing tests: reason |"
  echo "|---|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
  echo
  echo "$END_MARK"
} > "$OUT/table.md"

if $full_run; then
  if [[ -f "$DOC" ]] && grep -qF "$BEGIN_MARK" "$DOC" && grep -qF "$END_MARK" "$DOC"; then
    python3 - "$DOC" "$OUT/table.md" "$BEGIN_MARK" "$END_MARK" <<'EOF'
import sys
doc, table, begin, end = sys.argv[1:]
text = open(doc).read()
head, rest = text.split(begin, 1)
_, tail = rest.split(end, 1)
open(doc, "w").write(head + open(table).read().rstrip("\n") + tail)
EOF
  else
    { echo "# TensorFlow versions"; echo; cat "$OUT/table.md"; } > "$DOC"
  fi
  wrote="$DOC (and $OUT/table.md)"
else
  wrote="$OUT/table.md (a partial run: docs/TF_VERSIONS.md is left alone)"
fi

step "Summary"
printf '  %s\n' "${summary[@]}"
say "wrote $wrote; logs in $OUT/<version>/"
