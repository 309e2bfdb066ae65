#!/usr/bin/env bash
# Builds examples/ (a user's Maven project that depends on tfjni by coordinates) against the
# artifacts `mvn install` put in ~/.m2, or with --staged DIR VERSION against a release staged in
# DIR (scripts/release.sh; the runtime artifact still comes from ~/.m2), and runs its digits
# classifier, then its Spark job, then its Flink jobs (DataStream, then SQL's ML_PREDICT), as a
# machine without Python would: in a
# private mount namespace where the project's venv is an empty directory, with a bare environment
# (no TFJNI_TENSORFLOW_DIR, no LD_LIBRARY_PATH, no venv on PATH). libtensorflow must then come from the runtime artifact
# io.tfjni:tfjni-tensorflow-cpu. Fails unless it does and the predictions agree with TensorFlow
# Python's.
source "$(dirname "$0")/../common.sh"

EXAMPLES="$ROOT/examples"
OUT="$BUILD/examples"
mkdir -p "$OUT/cache" "$OUT/empty"
tfjni=(-Dtfjni.version="$(tfjni_version)")
if [[ "${1:-}" == --staged ]]; then
  staging=$(realpath "$2")
  tfjni=(-Dtfjni.version="$3" -Dtfjni.staging="$staging")
  # Maven prefers its local repository: drop what an earlier run fetched of this version, so
  # that every tfjni artifact comes from the staging directory.
  for artifact in "$staging"/io/tfjni/*; do rm -rf "$MAVEN_REPO/io/tfjni/$(basename "$artifact")/$3"; done
fi
(cd "$EXAMPLES" && mvn -B -q -Dmaven.repo.local="$MAVEN_REPO" "${tfjni[@]}" -Dtensorflow.version="$TFJNI_TF_VERSION" \
  clean package dependency:build-classpath -Dmdep.outputFile="$OUT/classpath.txt")
if [[ -n "${staging:-}" ]]; then
  grep -q "/io/tfjni/tfjni/$3/tfjni-$3.jar" "$OUT/classpath.txt" ||
    { echo "examples: the class path does not hold the staged tfjni $3" >&2; exit 1; }
fi
classpath="$EXAMPLES/target/classes:$(cat "$OUT/classpath.txt")"
MODELS=$(models_dir)

# Without Python: the venv is an empty directory in this mount namespace, and the environment is
# bare. The examples' own cache for the extracted libraries: the first run extracts, later reuse.
venv_hidden=(unshare --mount bash -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' hide
  "$OUT/empty" "$VENV" env -i HOME="$HOME" PATH=/usr/bin:/bin TFJNI_CACHE_DIR="$OUT/cache"
  TF_CPP_MIN_LOG_LEVEL=2)
without_python=("${venv_hidden[@]}" "$JAVA_HOME/bin/java")

"${without_python[@]}" -cp "$classpath" io.tfjni.examples.ClassifyDigits "$MODELS" | tee "$OUT/output.txt"
grep -q "^TensorFlow $TFJNI_TF_VERSION from $OUT/cache/libtensorflow/" "$OUT/output.txt" ||
  { echo "examples: libtensorflow did not come from the runtime artifact" >&2; exit 1; }
grep -q "^live native objects after close: 0$" "$OUT/output.txt" ||
  { echo "examples: native objects left open" >&2; exit 1; }

# The Spark example: Parquet in, the transformer on local[2], Parquet out, then every
# probability compared with TensorFlow Python's.
spark() {
  "${without_python[@]}" "@$ROOT/java/tfjni-spark/jvm-options.txt" -Dspark.master="local[2]" \
    -Dspark.ui.enabled=false -cp "$classpath" "$@" 2>>"$OUT/spark.log" ||
    { echo "examples: $* failed; the end of $OUT/spark.log:" >&2; tail -n 30 "$OUT/spark.log" >&2; exit 1; }
}
: > "$OUT/spark.log"
spark io.tfjni.examples.spark.DigitsParquet write "$MODELS" "$OUT/digits.parquet"
spark io.tfjni.examples.spark.ScoreDigits "$OUT/digits.parquet" "$MODELS/digits" "$OUT/scored.parquet"
spark io.tfjni.examples.spark.DigitsParquet check "$OUT/scored.parquet" "$MODELS"

# The same from PySpark (its own venv, no TensorFlow there either): Python's Spark driver, tfjni's
# transformer through the Java object it wraps. Then the wrapper's persistence: a transformer and
# pipelines saved in one language and loaded in the other, each scoring the digits again.
jars=$(tr ':' '\n' < "$OUT/classpath.txt" | grep -E '/(tfjni|tfjni-spark|tfjni-tensorflow-cpu)-[0-9][^/]*\.jar$' | paste -sd,)
pyspark() {
  "${venv_hidden[@]}" PYTHONPATH="$ROOT/java/tfjni-spark/src/main/python" \
    JAVA_HOME="$JAVA_HOME" "$PYSPARK_VENV/bin/python" "$1" "$OUT/digits.parquet" "$MODELS/digits" \
    "$2" "$jars" 2>>"$OUT/spark.log" ||
    { echo "examples: $1 failed; the end of $OUT/spark.log:" >&2; tail -n 30 "$OUT/spark.log" >&2; exit 1; }
}
pyspark "$EXAMPLES/spark/score_digits.py" "$OUT/scored-pyspark.parquet"
rm -rf "$OUT/persistence" && mkdir -p "$OUT/persistence"
pyspark "$ROOT/java/tfjni-spark/src/test/python/persistence_check.py" "$OUT/persistence"
spark io.tfjni.examples.spark.DigitsParquet check "$OUT/scored-pyspark.parquet" \
  "$OUT/persistence/"{stage-python,pipeline-java,pipeline-python}.parquet "$MODELS"

# The Flink example: the held-out digits through tfjni's async function on a local Flink
# environment at parallelism 2, every probability compared with TensorFlow Python's.
"${without_python[@]}" -cp "$classpath" io.tfjni.examples.flink.ScoreDigitStream "$MODELS" \
  2>"$OUT/flink.log" | tee "$OUT/flink.txt" ||
  { echo "examples: the Flink example failed; the end of $OUT/flink.log:" >&2; tail -n 30 "$OUT/flink.log" >&2; exit 1; }
grep -q "^live native objects after the job: 0$" "$OUT/flink.txt" ||
  { echo "examples: the Flink job left native objects open" >&2; exit 1; }
# The same digits in pure SQL: CREATE MODEL with tfjni's provider, then ML_PREDICT.
"${without_python[@]}" -cp "$classpath" io.tfjni.examples.flink.ScoreDigitSql "$MODELS" \
  2>"$OUT/flink-sql.log" | tee "$OUT/flink-sql.txt" ||
  { echo "examples: the Flink SQL example failed; the end of $OUT/flink-sql.log:" >&2; tail -n 30 "$OUT/flink-sql.log" >&2; exit 1; }
grep -q "^live native objects after the job: 0$" "$OUT/flink-sql.txt" ||
  { echo "examples: the Flink SQL job left native objects open" >&2; exit 1; }

# The README's first program: its pom.xml and FirstProgram.java exactly as written there, in a
# project of their own, run by the README's command on the digits model.
first="$OUT/first-program"
rm -rf "$first" && mkdir -p "$first/src/main/java"
python3 "$ROOT/scripts/test/readme_blocks.py" "$ROOT/README.md" "A first program" xml > "$first/pom.xml"
python3 "$ROOT/scripts/test/readme_blocks.py" "$ROOT/README.md" "A first program" java \
  > "$first/src/main/java/FirstProgram.java"
command=$(python3 "$ROOT/scripts/test/readme_blocks.py" "$ROOT/README.md" "A first program" "")
[[ "$command" == "mvn "*" -Dexec.args=/path/to/saved_model" ]] ||
  { echo "examples: the README's command for the first program is not the one this runs: $command" >&2; exit 1; }
read -ra words <<< "${command/\/path\/to\/saved_model/$MODELS/digits}"
(cd "$first" && "${venv_hidden[@]}" JAVA_HOME="$JAVA_HOME" "${words[@]}") | tee "$OUT/first-program.txt"
grep -Eq '^output_0 = \[([-0-9.eE]+, ){9}[-0-9.eE]+\]$' "$OUT/first-program.txt" ||
  { echo "examples: the README's first program did not print the digits model's 10 outputs" >&2; exit 1; }
