#!/usr/bin/env bash
# The main job: classify held-out handwritten digits with a Keras CNN through tfjni.
source "$(dirname "$0")/common.sh"
"$ROOT/scripts/build.sh" >&2
step "Running the demo" >&2
exec "$ROOT/bin/tfjni" demo --models "$(models_dir)"
