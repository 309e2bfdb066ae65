#!/usr/bin/env bash
# A soak run of tfjni-djl's Predictor.predict loop (PredictLoopMemoryTest) with more calls and a
# fixed, pre-touched Java heap, so that the RSS it prints every tenth of the loop shows native
# memory only: flat numbers mean no native growth. Nothing is asserted on RSS (the test asserts
# the live native object count); read the table.
#
#   scripts/test/djl-soak.sh [CALLS]      (default 500000; about 2 min on a quiet 2-core machine)
source "$(dirname "$0")/../common.sh"
CALLS=${1:-500000}
REPO=$MAVEN_REPO
step "tfjni-djl predict loop: $CALLS calls, heap fixed at 128 MB and pre-touched"
cd "$ROOT/java"
mvn -B -Dmaven.repo.local="$REPO" $(maven_settings) install -pl tfjni-djl \
  -Dtest=PredictLoopMemoryTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Dtfjni.djl.predict.calls="$CALLS" \
  -Dtfjni.djl.test.jvmArgs="-Xms128m -Xmx128m -XX:+AlwaysPreTouch" |
  sed -n '/^predict loop/,/^\[/p' | grep -v '^\['
