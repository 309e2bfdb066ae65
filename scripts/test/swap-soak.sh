#!/usr/bin/env bash
# Swap soak, outside CI: `scripts/test/swap-soak.sh [minutes] [callers] [seconds per version]`
# (default 2 minutes, 16 callers, a new version every 2 s) runs io.tfjni.soak.SwapSoakDriver:
# callers (half through a batching predictor) call a VersionedModel without pause while new
# version directories arrive, copies of versioned_a and versioned_b alternating, each answer
# checked against TensorFlow Python's; RSS, heap and live native objects sampled every second.
# scripts/test/soak_report.py then writes summary.md and soak.png and fails (exit 1) if RSS grew more
# than 5 MiB after warm-up, the live count drifted, or any call failed or answered wrong.
# Output: $SOAK_OUT, default build/swap-soak/<date-time>.
source "$(dirname "$0")/../common.sh"
MINUTES="${1:-2}"
CALLERS="${2:-16}"
SECONDS_PER_VERSION="${3:-2}"
OUT="${SOAK_OUT:-$BUILD/swap-soak/$(date +%Y%m%d-%H%M%S)}"
"$ROOT/scripts/build.sh" >/dev/null
MODELS=$(models_dir)
mkdir -p "$OUT/expected"
# TensorFlow Python's rows and answers for the two exports, from the models' manifest.
"$VENV/bin/python" - "$MODELS/manifest.json" "$OUT/expected" <<'PY'
import base64, json, sys
import numpy as np
manifest, out = sys.argv[1], sys.argv[2]
cases = {c["name"]: c for c in json.load(open(manifest, encoding="utf-8"))["cases"]}
def array(tensor):
    return np.frombuffer(base64.b64decode(tensor["data"]), dtype="<f4").reshape(tensor["shape"])
for export in ("versioned_a", "versioned_b"):
    call = cases[export + "_rows"]["calls"][0]
    np.save(f"{out}/{export}_y.npy", array(call["outputs"]["y"]))
    np.save(f"{out}/rows_x.npy", array(call["inputs"]["x"]))  # the same rows for both
PY
step "Swap soak: $MINUTES minutes, $CALLERS callers, a new version every $SECONDS_PER_VERSION s; samples in $OUT"
run_soak_driver io.tfjni.soak.SwapSoakDriver "$MINUTES" "$MODELS" "$OUT" "$CALLERS" \
  "$SECONDS_PER_VERSION"
step "Report"
"$VENV/bin/python" "$ROOT/scripts/test/soak_report.py" "$OUT"
