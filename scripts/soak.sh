#!/usr/bin/env bash
# Soak test, outside CI: `scripts/soak.sh [minutes]` (default 20) runs mixed predictor and eager
# work on every core (io.tfjni.soak.SoakDriver), samples RSS, Java heap and live native objects
# every second, then scripts/soak_report.py writes summary.md and soak.png and fails (exit 1) if
# RSS grew more than 5 MiB after warm-up, the live count drifted, or any result was wrong.
# Output: $SOAK_OUT, default build/soak/<date-time>.
source "$(dirname "$0")/common.sh"
MINUTES="${1:-20}"
OUT="${SOAK_OUT:-$BUILD/soak/$(date +%Y%m%d-%H%M%S)}"
"$ROOT/scripts/build.sh" >/dev/null
TF_DIR=$(tensorflow_dir)
mkdir -p "$OUT"
# A private copy of the classes: rebuilding the tree during a long soak must not change them.
classes=$(mktemp -d)
trap 'rm -rf "$classes"' EXIT
classpath=""
for module in tfjni-soak tfjni-numpy tfjni; do
  cp -r "$ROOT/java/$module/target/classes" "$classes/$module"
  classpath+="${classpath:+:}$classes/$module"
done
step "Soaking for $MINUTES minutes; samples in $OUT"
# A fixed, pre-touched heap: Java heap growth must not pass for native growth in the RSS. Native
# Memory Tracking tells the JVM's own native memory apart from TensorFlow's and tfjni's.
java -Xms256m -Xmx256m -XX:+AlwaysPreTouch -XX:NativeMemoryTracking=summary \
  -Dtfjni.tensorflow.dir="$TF_DIR" \
  -cp "$classpath" io.tfjni.soak.SoakDriver "$MINUTES" "$(models_dir)" "$OUT"
step "Report"
"$VENV/bin/python" "$ROOT/scripts/soak_report.py" "$OUT"
