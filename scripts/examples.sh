#!/usr/bin/env bash
# Builds examples/ (a user's Maven project that depends on tfjni by coordinates) against the
# artifacts `mvn install` put in ~/.m2, and runs its digits classifier as a machine without
# Python would: in a private mount namespace where the project's venv is an empty directory, with
# a bare environment (no TFJNI_TENSORFLOW_DIR, no LD_LIBRARY_PATH, no venv on PATH). libtensorflow
# must then come from the runtime artifact io.tfjni:tfjni-tensorflow-cpu. Fails unless it does
# and the predictions agree with TensorFlow Python's.
source "$(dirname "$0")/common.sh"

EXAMPLES="$ROOT/examples"
OUT="$BUILD/examples"
mkdir -p "$OUT/cache" "$OUT/empty"
(cd "$EXAMPLES" && mvn -B -q -Dtensorflow.version="$TFJNI_TF_VERSION" package \
  dependency:build-classpath -Dmdep.outputFile="$OUT/classpath.txt")
classpath="$EXAMPLES/target/classes:$(cat "$OUT/classpath.txt")"
MODELS=$(models_dir)

# The example's own cache for the extracted libraries: the first run extracts, later runs reuse.
unshare --mount bash -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' hide "$OUT/empty" "$VENV" \
  env -i HOME="$HOME" PATH=/usr/bin:/bin TFJNI_CACHE_DIR="$OUT/cache" TF_CPP_MIN_LOG_LEVEL="$TF_CPP_MIN_LOG_LEVEL" \
  "$JAVA_HOME/bin/java" -cp "$classpath" io.tfjni.examples.ClassifyDigits "$MODELS" | tee "$OUT/output.txt"

grep -q "^TensorFlow $TFJNI_TF_VERSION from $OUT/cache/libtensorflow/" "$OUT/output.txt" ||
  { echo "examples: libtensorflow did not come from the runtime artifact" >&2; exit 1; }
grep -q "^live native objects after close: 0$" "$OUT/output.txt" ||
  { echo "examples: native objects left open" >&2; exit 1; }
