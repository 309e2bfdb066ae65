#!/usr/bin/env bash
# Soak test, outside CI: `scripts/test/soak.sh [minutes]` (default 20) runs mixed predictor and eager
# work on every core (io.tfjni.soak.SoakDriver), samples RSS, Java heap and live native objects
# every second, then scripts/test/soak_report.py writes summary.md and soak.png and fails (exit 1) if
# RSS grew more than 5 MiB after warm-up, the live count drifted, or any result was wrong.
# Output: $SOAK_OUT, default build/soak/<date-time>.
source "$(dirname "$0")/../common.sh"
MINUTES="${1:-20}"
OUT="${SOAK_OUT:-$BUILD/soak/$(date +%Y%m%d-%H%M%S)}"
"$ROOT/scripts/build.sh" >/dev/null
mkdir -p "$OUT"
step "Soaking for $MINUTES minutes; samples in $OUT"
run_soak_driver io.tfjni.soak.SoakDriver "$MINUTES" "$(models_dir)" "$OUT"
step "Report"
"$VENV/bin/python" "$ROOT/scripts/test/soak_report.py" "$OUT"
