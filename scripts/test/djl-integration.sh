#!/usr/bin/env bash
# Runs DJL's engine-agnostic integration tests (ai.djl.integration.tests.ndarray.*, NDImageUtilsTest,
# BufferedImageFactoryTest, the batchifier tests) against tfjni-djl or DJL's own TensorFlow engine,
# and prints pass / fail / unsupported / skipped per class.
#
#   scripts/test/djl-integration.sh DJL_SOURCE_DIR [tfjni|djl] [DJL_API_VERSION]
#
# DJL_SOURCE_DIR is a checkout of github.com/deepjavalibrary/djl at v0.36.0. DJL's code is compiled
# into $DJL_IT_DIR (default $TFJNI_CACHE/djl-it), outside this repository, never copied into it. "tfjni" needs
# `mvn install -pl tfjni-djl -am` first; "djl" runs ai.djl.tensorflow:tensorflow-engine:0.36.0 with
# TensorFlow Java's native jar (org.tensorflow:tensorflow-core-native:1.0.0-rc.1:linux-x86_64),
# found through TENSORFLOW_LIBRARY_PATH since its own download host may be unreachable.
source "$(dirname "$0")/../common.sh"
SRC=$(cd "${1:?usage: $0 DJL_SOURCE_DIR [tfjni|djl] [DJL_API_VERSION]}" && pwd)
ENGINE=${2:-tfjni}
API=${3:-0.36.0}
OUT="${DJL_IT_DIR:-$TFJNI_CACHE/djl-it}"
REPO=$MAVEN_REPO
mkdir -p "$OUT/classes"

classpath() {  # classpath NAME COORDINATE...: the class path, resolved under OUT by NAME
  local name=$1; shift
  maven_classpath "$OUT/deps-$name" "$@" || exit 1
}

BASE=$(classpath "api-$API" "ai.djl:api:$API" org.testng:testng:7.11.0 commons-cli:commons-cli:1.9.0 \
  org.slf4j:slf4j-simple:2.0.17)
I="$SRC/integration/src/main/java/ai/djl/integration"
if [[ ! -f "$OUT/classes/ai/djl/integration/IntegrationTest.class" ]]; then
  step "Compiling DJL's integration tests from $SRC into $OUT/classes"
  find "$I/IntegrationTest.java" "$I/util" "$I/tests/ndarray" "$I/tests/modality/cv/NDImageUtilsTest.java" \
    "$I/tests/modality/cv/BufferedImageFactoryTest.java" "$I"/tests/translate/*BatchifierTest.java \
    "$SRC/testing/src/main/java/ai/djl/testing/Assertions.java" \
    "$SRC/testing/src/main/java/ai/djl/testing/TestRequirements.java" -name '*.java' > "$OUT/sources.txt"
  javac -nowarn -d "$OUT/classes" -cp "$BASE" @"$OUT/sources.txt"
fi

ENV=()
PROPS=()
if [[ $ENGINE == tfjni ]]; then
  V=0.1.0-SNAPSHOT
  CP="$REPO/io/tfjni/tfjni/$V/tfjni-$V.jar:$REPO/io/tfjni/tfjni-djl/$V/tfjni-djl-$V.jar"
  PROPS=(-Dtfjni.tensorflow.dir="$(tensorflow_dir)")
else
  CP=$(djl_tensorflow_engine "$OUT/deps-djl-tf") || exit 1
  ENV=(TENSORFLOW_LIBRARY_PATH="$OUT/deps-djl-tf/tensorflow-core-native")
fi

LOG="$OUT/$ENGINE-$API.log"
step "Running with $ENGINE (ai.djl:api $API); log: $LOG"
env "${ENV[@]}" OPT_OUT_TRACKING=true java -cp "$OUT/classes:$BASE:$CP" "${PROPS[@]}" \
  -Dai.djl.default_engine=TensorFlow -Dai.djl.offline=true \
  ai.djl.integration.IntegrationTest > "$LOG" 2>&1 || true
python3 - "$LOG" <<'PY'
import collections, re, sys
counts = collections.defaultdict(collections.Counter)
for line in open(sys.argv[1], errors="replace"):
    m = re.search(r"Test ai\.djl\.integration\.tests\.([\w.]+)\.\w+ (PASSED|FAILED|SKIPPED|UNSUPPORTED)", line)
    if m:
        counts[m.group(1)][m.group(2)] += 1
total = collections.Counter()
print("%-45s %6s %6s %6s %6s" % ("class", "pass", "fail", "unsup", "skip"))
for name in sorted(counts):
    c = counts[name]; total.update(c)
    print("%-45s %6d %6d %6d %6d" % (name, c["PASSED"], c["FAILED"], c["UNSUPPORTED"], c["SKIPPED"]))
print("%-45s %6d %6d %6d %6d" % ("TOTAL (%d tests)" % sum(total.values()), total["PASSED"],
      total["FAILED"], total["UNSUPPORTED"], total["SKIPPED"]))
PY
