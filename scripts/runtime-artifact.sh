#!/usr/bin/env bash
# Builds TensorFlow runtime artifacts and installs them into the local Maven repository:
# io.tfjni:tfjni-tensorflow-VARIANT:$TFJNI_TF_VERSION with classifier PLATFORM, holding the
# official wheel's C API libraries under io/tfjni/tensorflow/PLATFORM/ with libraries.properties
# (the version, the variant, the libraries in load order and each file's SHA-256, which tfjni's
# loader checks when it extracts them; java/tfjni/.../internal/RuntimeArtifact.java), and
# TensorFlow's LICENSE and THIRD_PARTY_NOTICES.txt from the same wheel under META-INF/.
#
# A cached step: an artifact is rebuilt only when its libraries (sizes and times) or this script
# changed, since compressing 0.7 to 1.2 GB of libraries takes a minute or two.
usage() {
  cat <<'EOF'
Usage: scripts/runtime-artifact.sh [--force] [PLATFORM/VARIANT ...]
       scripts/runtime-artifact.sh --all

PLATFORM/VARIANT: linux-x86_64/cpu (the default), linux-x86_64/gpu, linux-aarch64/cpu,
macos-arm64/cpu. --all builds every one. --force rebuilds even when the cached one is current.
The wheels are fetched once into ~/.cache/tfjni/wheels (scripts/common.sh, tensorflow_dir_of).
EOF
}
source "$(dirname "$0")/common.sh"

ALL_ARTIFACTS=(linux-x86_64/cpu linux-x86_64/gpu linux-aarch64/cpu macos-arm64/cpu)
force=false
wanted=()
while (($#)); do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --force) force=true ;;
    --all) wanted+=("${ALL_ARTIFACTS[@]}") ;;
    */*) wanted+=("$1") ;;
    *) echo "runtime-artifact: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
((${#wanted[@]})) || wanted=(linux-x86_64/cpu)

# The files to load, in order: libraries the wheel bundles beside TensorFlow's (tensorflow.libs:
# libomp on aarch64), then TensorFlow's framework library, then the C API library that needs it.
libraries_of() {  # libraries_of PLATFORM TF_DIR
  local bundled
  if [[ -d "$2/../tensorflow.libs" ]]; then
    for bundled in "$2"/../tensorflow.libs/*; do [[ -f "$bundled" ]] && basename "$bundled"; done
  fi
  case "$1" in
    macos-*) echo libtensorflow_framework.2.dylib; echo libtensorflow_cc.2.dylib ;;
    *) echo libtensorflow_framework.so.2; echo libtensorflow_cc.so.2 ;;
  esac
}

build_artifact() {  # build_artifact PLATFORM VARIANT
  local platform=$1 variant=$2 tf_dir artifact installed work libraries stamp name source
  tf_dir=$(tensorflow_dir_of "$platform" "$variant")
  artifact="tfjni-tensorflow-$variant"
  installed=$(runtime_artifact_jar "$variant" "$platform")
  work="$TFJNI_CACHE/runtime-artifact/$TFJNI_TF_VERSION/$platform-$variant"
  mapfile -t libraries < <(libraries_of "$platform" "$tf_dir")
  stamp=$(for name in "${libraries[@]}"; do stat -c '%n %s %Y' "$(library_path "$tf_dir" "$name")"; done
          sha256sum < "${BASH_SOURCE[0]}")
  if ! $force && [[ -f "$installed" && -f "$work/stamp" ]] && [[ "$(cat "$work/stamp")" == "$stamp" ]]; then
    return
  fi

  step "Building the runtime artifact io.tfjni:$artifact:$TFJNI_TF_VERSION:$platform from $tf_dir (one-off, 1-3 min)"
  rm -rf "$work"
  local content="$work/content/io/tfjni/tensorflow/$platform"
  mkdir -p "$content" "$work/content/META-INF"
  {
    echo "# TensorFlow's C API libraries from the official $(wheel_of "$platform" "$variant" | cut -d' ' -f1) $TFJNI_TF_VERSION wheel."
    echo "tensorflow.version=$TFJNI_TF_VERSION"
    echo "platform=$platform"
    echo "variant=$variant"
    echo "libraries=$(IFS=,; echo "${libraries[*]}")"
    for name in "${libraries[@]}"; do
      cp "$(library_path "$tf_dir" "$name")" "$content/$name"
      echo "sha256.$name=$(sha256sum "$content/$name" | cut -d' ' -f1)"
    done
  } > "$content/libraries.properties"
  # TensorFlow's license travels with its binaries (the wheel keeps it under include/).
  for source in "$tf_dir/include/LICENSE" "$tf_dir/THIRD_PARTY_NOTICES.txt"; do
    [[ -f "$source" ]] || { echo "runtime-artifact: $source is missing from the wheel" >&2; exit 1; }
  done
  cp "$tf_dir/include/LICENSE" "$work/content/META-INF/LICENSE"
  cp "$tf_dir/THIRD_PARTY_NOTICES.txt" "$work/content/META-INF/THIRD_PARTY_NOTICES.txt"
  # A module name lets it sit on the module path.
  printf 'Automatic-Module-Name: io.tfjni.tensorflow.%s\n' "$variant" > "$work/manifest.txt"
  "$JAVA_HOME/bin/jar" --create --file "$work/$artifact.jar" --manifest "$work/manifest.txt" -C "$work/content" .
  check_artifact "$work/$artifact.jar" "$platform" "${libraries[@]}"

  cat > "$work/pom.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.tfjni</groupId>
  <artifactId>$artifact</artifactId>
  <version>$TFJNI_TF_VERSION</version>
  <name>$artifact</name>
  <description>libtensorflow $TFJNI_TF_VERSION ($variant) from TensorFlow's official wheels, one jar per platform (classifiers: linux-x86_64$([[ $variant == cpu ]] && echo ", linux-aarch64, macos-arm64")), for tfjni's loader</description>
  <licenses>
    <license>
      <name>Apache License 2.0 (TensorFlow)</name>
      <url>https://www.apache.org/licenses/LICENSE-2.0</url>
    </license>
  </licenses>
</project>
EOF
  mvn -B -q install:install-file -Dmaven.repo.local="$MAVEN_REPO" -Dfile="$work/$artifact.jar" -DpomFile="$work/pom.xml" \
    -Dclassifier="$platform"
  rm -rf "$work/content"
  echo "$stamp" > "$work/stamp"
  echo "installed $installed ($(du -h "$installed" | cut -f1))"
}

# Fails unless the jar holds the index, every library and TensorFlow's license and notices.
check_artifact() {  # check_artifact JAR PLATFORM LIBRARY...
  local jar=$1 platform=$2 entry listing; shift 2
  listing=$(unzip -Z1 "$jar")
  for entry in META-INF/LICENSE META-INF/THIRD_PARTY_NOTICES.txt "io/tfjni/tensorflow/$platform/libraries.properties" \
    "${@/#/io/tfjni/tensorflow/$platform/}"; do
    grep -qxF "$entry" <<<"$listing" || { echo "runtime-artifact: $jar lacks $entry" >&2; exit 1; }
  done
}

# Where the wheel keeps a library: TensorFlow's beside its tf_dir, bundled ones in tensorflow.libs.
library_path() {  # library_path TF_DIR NAME
  if [[ -f "$1/$2" ]]; then echo "$1/$2"; else echo "$1/../tensorflow.libs/$2"; fi
}

for platform_variant in "${wanted[@]}"; do
  build_artifact "${platform_variant%/*}" "${platform_variant#*/}"
done
