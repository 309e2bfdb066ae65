#!/usr/bin/env bash
# Stages TensorFlow's runtime artifacts (io.tfjni:tfjni-tensorflow-VARIANT:$TFJNI_TF_VERSION, built
# by scripts/runtime-artifact.sh: a jar per platform, -sources and -javadoc jars, the POM) for Maven
# Central, one staging directory per variant, since each is its own Publisher Portal bundle (at
# most 1 GB): copies them from the local Maven repository, signs every file with GPG when a key is
# given, writes checksums, checks the directory with scripts/validate_staging.py (every jar carries
# TensorFlow's LICENSE and THIRD_PARTY_NOTICES.txt) and fails if it is over the bundle limit.
usage() {
  cat <<'EOF'
Usage: scripts/release-runtime.sh [options] [VARIANT ...]      (make release-runtime)

  VARIANT               cpu, gpu (default: both)
  --out DIR             where each variant's staging directory goes, as DIR/VARIANT (default
                        build/release/tensorflow-TF_VERSION); each one is emptied first
  --gpg-key KEY         sign with this key (gpg's key ring, or GNUPGHOME's); unsigned without it,
                        and the validator then skips its signatures rule
EOF
}
source "$(dirname "$0")/common.sh"

# The Publisher Portal's limit on one uploaded bundle, 1 GB (read as decimal: the stricter).
BUNDLE_LIMIT_BYTES=$((1000 * 1000 * 1000))

out="$BUILD/release/tensorflow-$TFJNI_TF_VERSION" key="" variants=()
while (($#)); do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --out) out=$2; shift ;;
    --gpg-key) key=$2; shift ;;
    -*) echo "release-runtime: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) variants+=("$1") ;;
  esac
  shift
done
((${#variants[@]})) || variants=(cpu gpu)

for variant in "${variants[@]}"; do
  mapfile -t platforms < <(runtime_platforms_of "$variant")
  ((${#platforms[@]})) || { echo "release-runtime: no runtime artifact of variant '$variant' (cpu, gpu)" >&2; exit 2; }
  artifact="tfjni-tensorflow-$variant"
  staging=$(realpath -m "$out/$variant")
  # Current ones (a cached step when make natives built them).
  "$ROOT/scripts/runtime-artifact.sh" "${platforms[@]/%//$variant}"

  step "Staging io.tfjni:$artifact:$TFJNI_TF_VERSION (${platforms[*]}) into $staging"
  rm -rf "$staging"
  version_dir="$staging/io/tfjni/$artifact/$TFJNI_TF_VERSION"
  mkdir -p "$version_dir"
  installed="$MAVEN_REPO/io/tfjni/$artifact/$TFJNI_TF_VERSION"
  for file in "$artifact-$TFJNI_TF_VERSION.pom" "${platforms[@]/#/$artifact-$TFJNI_TF_VERSION-}" \
    "$artifact-$TFJNI_TF_VERSION-sources" "$artifact-$TFJNI_TF_VERSION-javadoc"; do
    [[ "$file" == *.pom ]] || file="$file.jar"
    cp "$installed/$file" "$version_dir/"
  done

  # Every platform's wheel holds the same LICENSE and notices; the validator would tell otherwise.
  tf_dir=$(tensorflow_dir_of "${platforms[0]}" "$variant")
  finish_staging "$staging" "$key" LICENSE="$tf_dir/include/LICENSE" THIRD_PARTY_NOTICES.txt="$tf_dir/THIRD_PARTY_NOTICES.txt"
  bytes=$(du -sb "$staging" | cut -f1)
  ((bytes < BUNDLE_LIMIT_BYTES)) ||
    { echo "release-runtime: $staging is $bytes bytes, over the Publisher Portal's bundle limit ($BUNDLE_LIMIT_BYTES)" >&2; exit 1; }
  echo "staged $artifact $TFJNI_TF_VERSION in $staging: $bytes bytes, one bundle (limit $BUNDLE_LIMIT_BYTES)"
done
