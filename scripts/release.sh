#!/usr/bin/env bash
# Cuts a release: builds every published module of java/ at version VERSION from the tracked
# files of this checkout, reproducibly (jar entries carry the HEAD commit's time), with -sources
# and -javadoc jars (Javadoc held to doclint), into a staging Maven repository directory in
# Maven Central's layout; signs every file with GPG when a key is given; writes .md5, .sha1,
# .sha256 and .sha512 checksums; then checks the directory with scripts/release/validate_staging.py.
# Internal modules (<tfjni.internal>true in their POM: benchmarks, soak) are not built or staged.
#
# The runtime artifacts (io.tfjni:tfjni-tensorflow-*, versioned by TensorFlow's version) are not
# part of a tfjni release: scripts/release-runtime.sh stages them, once per TensorFlow version.
usage() {
  cat <<'EOF'
Usage: scripts/release.sh [options] VERSION        (make release VERSION=x.y.z)

  --out DIR             the staging directory (default build/release/VERSION/staging); emptied first
  --gpg-key KEY         sign with this key (gpg's key ring, or GNUPGHOME's); unsigned without it,
                        and the validator then skips its signatures rule
  --skip-natives        use the JNI libraries already built in build/ (scripts/build.sh
                        --all-platforms) instead of building them first
  --check-reproducible  build the library and the CLI a second time, in another directory, and
                        fail unless their jars are byte-identical to the staged ones
EOF
}
source "$(dirname "$0")/common.sh"

out="" key="" build_natives=true check_reproducible=false version=""
while (($#)); do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --out) out=$2; shift ;;
    --gpg-key) key=$2; shift ;;
    --skip-natives) build_natives=false ;;
    --check-reproducible) check_reproducible=true ;;
    -*) echo "release: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) [[ -z "$version" ]] || { echo "release: one VERSION only" >&2; exit 2; }; version=$1 ;;
  esac
  shift
done
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+([.-][A-Za-z0-9.]+)?$ && "$version" != *SNAPSHOT* ]] ||
  { echo "release: VERSION must be x.y.z (optionally -qualifier), not a SNAPSHOT: '$version'" >&2; usage >&2; exit 2; }

WORK="$BUILD/release/$version"
STAGING=$(realpath -m "${out:-$WORK/staging}")
export TFJNI_JAR_PLATFORMS=$ALL_PLATFORMS
if $build_natives; then
  "$ROOT/scripts/build.sh" --all-platforms
fi

if [[ -n "$(git -C "$ROOT" status --porcelain -- java LICENSE NOTICE)" ]]; then
  echo "release: warning: java/, LICENSE or NOTICE has uncommitted changes; they are built as they are" >&2
fi
# Jar entries' times: the commit's, so that every build of one commit gives the same bytes.
TIMESTAMP=$(git -C "$ROOT" log -1 --format=%cI HEAD)
mapfile -t INTERNAL < <(grep -l '<tfjni.internal>true</tfjni.internal>' "$ROOT"/java/*/pom.xml | xargs -n1 dirname | xargs -n1 basename)
EXCLUDED=$(printf '!%s,' "${INTERNAL[@]}"); EXCLUDED=${EXCLUDED%,}

# Copies the tracked files of java/, LICENSE and NOTICE into DIR: what a clean checkout has.
export_sources() {  # export_sources DIR
  rm -rf "$1"; mkdir -p "$1"
  (cd "$ROOT" && git ls-files -z -- java LICENSE NOTICE | xargs -0 cp --parents -t "$1")
}

release_maven() {  # release_maven SOURCE_DIR MAVEN_ARGUMENTS...
  local source=$1; shift
  (cd "$source/java" && mvn -B -q -Dmaven.repo.local="$MAVEN_REPO" -Prelease -DskipTests \
    -Drevision="$version" -Dproject.build.outputTimestamp="$TIMESTAMP" $(maven_settings) "$@")
}

step "Building tfjni $version's published modules (not ${INTERNAL[*]}) into $STAGING"
export_sources "$WORK/source"
rm -rf "$STAGING"; mkdir -p "$STAGING"
release_maven "$WORK/source" -pl "$EXCLUDED" verify deploy:deploy -DaltDeploymentRepository="staging::file://$STAGING"
# The test helpers other modules' tests share are not API.
find "$STAGING" -name '*-tests.jar*' -delete

jar="$STAGING/io/tfjni/tfjni/$version/tfjni-$version.jar"
entries=$(unzip -Z1 "$jar")
for platform in "${PLATFORMS[@]}"; do
  grep -Eq "^io/tfjni/native/$platform/(lib)?tfjni\." <<<"$entries" ||
    { echo "release: $jar lacks $platform's JNI library (build it: scripts/build.sh --all-platforms)" >&2; exit 1; }
done

# The reactor's modules (java/pom.xml), not the directories: a build leaves java/target behind.
expected=$({ echo tfjni-parent; sed -n 's|^ *<module>\(.*\)</module>.*|\1|p' "$ROOT/java/pom.xml" |
  grep -vxF -f <(printf '%s\n' "${INTERNAL[@]}"); } | sort)
staged=$(ls "$STAGING/io/tfjni" | sort)
[[ "$staged" == "$expected" ]] ||
  { echo "release: staged artifacts ($(echo $staged)) are not the published modules ($(echo $expected))" >&2; exit 1; }

finish_staging "$STAGING" "$key" LICENSE="$ROOT/LICENSE" NOTICE="$ROOT/NOTICE"

if $check_reproducible; then
  step "Building the library and the CLI again in another directory, to compare bytes"
  export_sources "$WORK/rebuild"
  release_maven "$WORK/rebuild" verify -pl tfjni-cli -am
  differ=0
  for module in tfjni tfjni-numpy tfjni-cli; do
    for built in "$WORK/rebuild/java/$module/target/"*.jar; do
      name=$(basename "$built"); name=${name%.jar}
      case "$name" in *-tests | original-*) continue ;; esac  # test helpers; the CLI's jar before shading
      # target/ names a jar by finalName (tfjni, tfjni-cli) or artifact-version (tfjni-numpy).
      classifier=${name##*-}; [[ "$classifier" == sources || "$classifier" == javadoc ]] || classifier=""
      staged_jar="$STAGING/io/tfjni/$module/$version/$module-$version${classifier:+-$classifier}.jar"
      if cmp -s "$built" "$staged_jar"; then
        echo "  identical: $(basename "$staged_jar")"
      else
        echo "release: $(basename "$staged_jar") differs between two builds of one commit:" >&2
        diff <(unzip -lv "$staged_jar" | awk '{print $1, $5, $6, $7, $8}') <(unzip -lv "$built" | awk '{print $1, $5, $6, $7, $8}') >&2 || true
        differ=1
      fi
    done
  done
  ((differ == 0)) || exit 1
fi
echo "staged tfjni $version in $STAGING"
