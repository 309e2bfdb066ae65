#!/usr/bin/env bash
# Builds TensorFlow runtime artifacts and installs them into the local Maven repository:
# io.tfjni:tfjni-tensorflow-VARIANT:$TFJNI_TF_VERSION with classifier PLATFORM, holding the
# official wheel's C API libraries under io/tfjni/tensorflow/PLATFORM/ with libraries.properties
# (the version, the variant, the libraries in load order and each file's SHA-256, which tfjni's
# loader checks when it extracts them; java/tfjni/.../internal/RuntimeArtifact.java), and
# TensorFlow's LICENSE and THIRD_PARTY_NOTICES.txt from the same wheel under META-INF/; beside them
# the -sources and -javadoc jars Maven Central asks of every jar artifact (a README saying where
# TensorFlow's sources and API documentation are, with the same LICENSE and notices), and a POM
# with the project's metadata (scripts/runtime_pom.py). Every jar's entries carry one fixed time,
# so the same libraries give the same bytes. scripts/release-runtime.sh stages them for Central.
#
# A cached step: an artifact is rebuilt only when its libraries (sizes and times), its POM or this
# script changed, since compressing 0.7 to 1.2 GB of libraries takes a minute or two.
usage() {
  cat <<'EOF'
Usage: scripts/runtime-artifact.sh [--force] [PLATFORM/VARIANT ...]
       scripts/runtime-artifact.sh --all

PLATFORM/VARIANT: linux-x86_64/cpu (the default), linux-x86_64/gpu, linux-aarch64/cpu,
macos-arm64/cpu, windows-x86_64/cpu. --all builds every one. --force rebuilds even when the cached one is current.
The wheels are fetched once into ~/.cache/tfjni/wheels (scripts/common.sh, tensorflow_dir_of).
EOF
}
source "$(dirname "$0")/common.sh"

force=false
wanted=()
while (($#)); do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --force) force=true ;;
    --all) wanted+=("${RUNTIME_ARTIFACTS[@]}") ;;
    */*) wanted+=("$1") ;;
    *) echo "runtime-artifact: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
((${#wanted[@]})) || wanted=(linux-x86_64/cpu)
# Jar entries' time: any fixed one makes the bytes reproducible; this one says it is not a build's.
ENTRY_TIME=2000-01-01T00:00:00Z

# The files to load, in order: libraries the wheel bundles beside TensorFlow's (tensorflow.libs:
# libomp on aarch64), then TensorFlow's framework library, then the C API library that needs it.
# Windows: the python311.dll stand-in (scripts/python_stand_in.py), then the Python extension
# module that exports the C API and imports it.
libraries_of() {  # libraries_of PLATFORM TF_DIR
  local bundled
  if [[ -d "$2/../tensorflow.libs" ]]; then
    for bundled in "$2"/../tensorflow.libs/*; do [[ -f "$bundled" ]] && basename "$bundled"; done
  fi
  case "$1" in
    macos-*) echo libtensorflow_framework.2.dylib; echo libtensorflow_cc.2.dylib ;;
    windows-*) echo "$WINDOWS_PYTHON_DLL"; echo _pywrap_tensorflow_internal.pyd ;;
    *) echo libtensorflow_framework.so.2; echo libtensorflow_cc.so.2 ;;
  esac
}

build_artifact() {  # build_artifact PLATFORM VARIANT
  local platform=$1 variant=$2 tf_dir artifact installed work libraries stamp name source pom meta_inf kind
  tf_dir=$(tensorflow_dir_of "$platform" "$variant")
  artifact="tfjni-tensorflow-$variant"
  installed=$(runtime_artifact_jar "$variant" "$platform")
  work="$TFJNI_CACHE/runtime-artifact/$TFJNI_TF_VERSION/$platform-$variant"
  mapfile -t libraries < <(libraries_of "$platform" "$tf_dir")
  pom=$(python3 "$ROOT/scripts/runtime_pom.py" "$variant" "$TFJNI_TF_VERSION" $(runtime_platforms_of "$variant"))
  stamp=$(for name in "${libraries[@]}"; do stat -c '%n %s %Y' "$(library_path "$tf_dir" "$name")"; done
          { cat "${BASH_SOURCE[0]}"; echo "$pom"; } | sha256sum)
  if ! $force && [[ -f "$installed" && -f "$work/stamp" ]] && [[ "$(cat "$work/stamp")" == "$stamp" ]]; then
    return
  fi

  step "Building the runtime artifact io.tfjni:$artifact:$TFJNI_TF_VERSION:$platform from $tf_dir (one-off, 1-3 min)"
  rm -rf "$work"
  local content="$work/content/io/tfjni/tensorflow/$platform"
  mkdir -p "$content" "$work/content/META-INF"
  {
    echo "# TensorFlow's C API libraries from the official $(wheel_of "$platform" "$variant" | cut -d' ' -f1) $TFJNI_TF_VERSION wheel."
    [[ "$platform" != windows-* ]] ||
      echo "# $WINDOWS_PYTHON_DLL is tfjni's stand-in, not Python: any call into it ends the process with a message."
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
  mkdir -p "$work/pointer/META-INF"
  for meta_inf in "$work/content/META-INF" "$work/pointer/META-INF"; do
    cp "$tf_dir/include/LICENSE" "$meta_inf/LICENSE"
    cp "$tf_dir/THIRD_PARTY_NOTICES.txt" "$meta_inf/THIRD_PARTY_NOTICES.txt"
  done
  # A module name lets it sit on the module path.
  printf 'Automatic-Module-Name: io.tfjni.tensorflow.%s\n' "$variant" > "$work/manifest.txt"
  "$JAVA_HOME/bin/jar" --create --date="$ENTRY_TIME" --file "$work/$artifact.jar" --manifest "$work/manifest.txt" -C "$work/content" .
  check_artifact "$work/$artifact.jar" "$platform" "${libraries[@]}"
  # The -sources and -javadoc jars: no Java here, so a pointer to TensorFlow's own.
  pointer_readme "$variant" > "$work/pointer/README.md"
  for kind in sources javadoc; do
    "$JAVA_HOME/bin/jar" --create --date="$ENTRY_TIME" --file "$work/$artifact-$kind.jar" -C "$work/pointer" .
  done

  echo "$pom" > "$work/pom.xml"
  mvn -B -q install:install-file -Dmaven.repo.local="$MAVEN_REPO" -Dfile="$work/$artifact.jar" -DpomFile="$work/pom.xml" \
    -Dclassifier="$platform" -Dsources="$work/$artifact-sources.jar" -Djavadoc="$work/$artifact-javadoc.jar"
  rm -rf "$work/content" "$work/pointer"
  echo "$stamp" > "$work/stamp"
  echo "installed $installed ($(du -h "$installed" | cut -f1))"
}

pointer_readme() {  # pointer_readme VARIANT
  cat <<EOF
# tfjni-tensorflow-$1 $TFJNI_TF_VERSION

This artifact holds no Java: its jars (one per platform) carry TensorFlow $TFJNI_TF_VERSION's C API
libraries as the TensorFlow authors built them, unmodified, from TensorFlow's official Python wheels,
for tfjni's loader. They are TensorFlow's binaries, under TensorFlow's license (META-INF/LICENSE,
Apache License 2.0) with its third-party components' notices (META-INF/THIRD_PARTY_NOTICES.txt).

The windows-x86_64 jar also carries python311.dll, which is not Python: TensorFlow's Windows C API
is exported by a Python extension module that imports python311.dll, and tfjni generates a
stand-in exporting the same names, which ends the process with a message if TensorFlow ever calls
one (only a model that runs Python code, such as tf.py_function, would).

- TensorFlow's sources for these binaries: https://github.com/tensorflow/tensorflow/tree/v$TFJNI_TF_VERSION
  (the C API: tensorflow/c/c_api.h and tensorflow/c/eager/c_api.h)
- TensorFlow's C API documentation: https://www.tensorflow.org/install/lang_c
- tfjni, which loads them, and its Java API documentation: https://github.com/tfjni/tfjni
  (io.tfjni:tfjni's -javadoc jar)
EOF
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
