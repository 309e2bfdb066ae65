#!/usr/bin/env bash
# Stages the runtime artifacts (io.tfjni:tfjni-tensorflow-VARIANT:$TFJNI_TF_VERSION and
# io.tfjni:tfjni-litert:$LITERT_VERSION, built by scripts/release/runtime-artifact.sh: a jar per platform,
# -sources and -javadoc jars, the POM) for Maven Central, one staging directory per artifact, since
# each is its own Publisher Portal bundle (at most 1 GB): copies them from the local Maven
# repository, signs every file with GPG when a key is given, writes checksums, checks the directory
# with scripts/release/validate_staging.py (every jar carries the runtime's licence files:
# scripts/common.sh, runtime_legal_files) and fails if it is over the bundle limit.
usage() {
  cat <<'EOF'
Usage: scripts/release-runtime.sh [options] [KIND ...]      (make release-runtime)

  KIND                  cpu, gpu (TensorFlow's variants), litert (default: all three)
  --out DIR             where each staging directory goes, as DIR/KIND (default
                        build/release/tensorflow-TF_VERSION/VARIANT and
                        build/release/litert-LITERT_VERSION); each one is emptied first
  --gpg-key KEY         sign with this key (gpg's key ring, or GNUPGHOME's); unsigned without it,
                        and the validator then skips its signatures rule
EOF
}
source "$(dirname "$0")/common.sh"

# The Publisher Portal's limit on one uploaded bundle, 1 GB (read as decimal: the stricter).
BUNDLE_LIMIT_BYTES=$((1000 * 1000 * 1000))

out="" key="" kinds=()
while (($#)); do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --out) out=$2; shift ;;
    --gpg-key) key=$2; shift ;;
    -*) echo "release-runtime: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) kinds+=("$1") ;;
  esac
  shift
done
((${#kinds[@]})) || kinds=(cpu gpu litert)

for kind in "${kinds[@]}"; do
  mapfile -t platforms < <(runtime_platforms_of "$kind")
  ((${#platforms[@]})) || { echo "release-runtime: no runtime artifact of kind '$kind' (cpu, gpu, litert)" >&2; exit 2; }
  artifact=$(runtime_artifact_id "$kind") version=$(runtime_artifact_version "$kind")
  if [[ -n "$out" ]]; then staging="$out/$kind"
  elif [[ "$kind" == litert ]]; then staging="$BUILD/release/litert-$LITERT_VERSION"
  else staging="$BUILD/release/tensorflow-$TFJNI_TF_VERSION/$kind"; fi
  staging=$(realpath -m "$staging")
  # Current ones (a cached step when make natives built them).
  "$ROOT/scripts/release/runtime-artifact.sh" "${platforms[@]/%//$kind}"

  step "Staging io.tfjni:$artifact:$version (${platforms[*]}) into $staging"
  rm -rf "$staging"
  version_dir="$staging/io/tfjni/$artifact/$version"
  mkdir -p "$version_dir"
  installed="$MAVEN_REPO/io/tfjni/$artifact/$version"
  for file in "$artifact-$version.pom" "${platforms[@]/#/$artifact-$version-}" \
    "$artifact-$version-sources" "$artifact-$version-javadoc"; do
    [[ "$file" == *.pom ]] || file="$file.jar"
    cp "$installed/$file" "$version_dir/"
  done

  # Every platform's wheel holds the same licence files; the validator would tell otherwise.
  mapfile -t legal < <(runtime_legal_files "$kind" "$(runtime_source_dir "${platforms[0]}" "$kind")")
  finish_staging "$staging" "$key" "${legal[@]}"
  bytes=$(du -sb "$staging" | cut -f1)
  ((bytes < BUNDLE_LIMIT_BYTES)) ||
    { echo "release-runtime: $staging is $bytes bytes, over the Publisher Portal's bundle limit ($BUNDLE_LIMIT_BYTES)" >&2; exit 1; }
  echo "staged $artifact $version in $staging: $bytes bytes, one bundle (limit $BUNDLE_LIMIT_BYTES)"
done
