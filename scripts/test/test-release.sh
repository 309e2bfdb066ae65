#!/usr/bin/env bash
# CI's release check: the staging validator's own tests; a release of the next version (the POMs'
# version without -SNAPSHOT) staged into a temporary directory, signed with a throwaway key,
# validated, and the library and the CLI built again to compare bytes (scripts/release.sh); then
# the examples project built and run against the staged artifacts. Needs the natives of every
# platform already built (scripts/build.sh --all-platforms).
source "$(dirname "$0")/../common.sh"

step "The staging validator's tests (one broken requirement per case)"
python3 "$ROOT/scripts/release/test_validate_staging.py"

version=$(tfjni_version); version=${version%-SNAPSHOT}
work=$(mktemp -d /tmp/tfjni-release.XXXXXX)
export GNUPGHOME="$work/gnupg"
cleanup() { gpgconf --kill gpg-agent 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
mkdir -m 700 "$GNUPGHOME"
key=release-check@tfjni.invalid
gpg --batch --quiet --passphrase '' --quick-gen-key "tfjni release check <$key>" ed25519 sign never

"$ROOT/scripts/release.sh" --skip-natives --check-reproducible --gpg-key "$key" --out "$work/staging" "$version"

# TensorFlow's two variants (cpu and gpu, 978 MB in all) and LiteRT's artifact (8 MB): signing,
# checksums and their check take some 20 s.
"$ROOT/scripts/release-runtime.sh" --gpg-key "$key" --out "$work/runtime"

step "The staged CLI reports tfjni's version ($version) and TensorFlow's ($TFJNI_TF_VERSION)"
cli_version=$("$JAVA_HOME/bin/java" -Dtfjni.tensorflow.dir="$(tensorflow_dir)" \
  -jar "$work/staging/io/tfjni/tfjni-cli/$version/tfjni-cli-$version.jar" --version)
echo "$cli_version"
grep -qx "tfjni $version" <<<"$cli_version" && grep -qx "TensorFlow $TFJNI_TF_VERSION" <<<"$cli_version" ||
  { echo "test-release: the staged CLI reports other versions" >&2; exit 1; }

step "The examples project against the staged release $version"
"$ROOT/scripts/test/examples.sh" --staged "$work/staging" "$version"
