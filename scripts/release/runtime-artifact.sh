#!/usr/bin/env bash
# Builds the runtime artifacts and installs them into the local Maven repository, one jar per
# platform (classifier PLATFORM):
#   io.tfjni:tfjni-tensorflow-VARIANT:$TFJNI_TF_VERSION  TensorFlow's C API libraries from the
#       official wheel, under io/tfjni/tensorflow/PLATFORM/, with TensorFlow's LICENSE and
#       THIRD_PARTY_NOTICES.txt from the same wheel under META-INF/;
#   io.tfjni:tfjni-litert:$LITERT_VERSION  LiteRT's runtime library from PyPI's ai-edge-litert
#       wheel, under io/tfjni/litert/PLATFORM/, with the Apache License 2.0's text as LiteRT's
#       LICENSE (the wheel has none) and the wheel's METADATA, which declares it, under META-INF/.
# Each directory holds libraries.properties (the runtime's version, the libraries in load order
# and each file's SHA-256, which tfjni's loader checks when it extracts them;
# java/tfjni/.../internal/RuntimeArtifact.java). Beside each jar go the -sources and -javadoc jars
# Maven Central asks of every jar artifact (a README saying where the runtime's sources and
# documentation are, with the same licence files), and a POM with the project's metadata
# (scripts/release/runtime_pom.py). Every jar's entries carry one fixed time, so the same libraries give
# the same bytes. scripts/release-runtime.sh stages them for Central.
#
# A cached step: an artifact is rebuilt only when its libraries (sizes and times), its licence
# files, its POM or this script changed, since compressing 0.7 to 1.2 GB of TensorFlow's libraries
# takes a minute or two.
usage() {
  cat <<'EOF'
Usage: scripts/release/runtime-artifact.sh [--force] [PLATFORM/KIND ...]
       scripts/release/runtime-artifact.sh --all

PLATFORM/KIND: linux-x86_64/cpu and linux-x86_64/litert (the default), linux-x86_64/gpu,
linux-aarch64/cpu, macos-arm64/cpu, windows-x86_64/cpu, linux-aarch64/litert, macos-arm64/litert.
--all builds every one. --force rebuilds even when the cached one is current. The wheels are
fetched once into ~/.cache/tfjni (scripts/common.sh, tensorflow_dir_of and litert_dir_of).
EOF
}
source "$(dirname "$0")/../common.sh"

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
((${#wanted[@]})) || wanted=(linux-x86_64/cpu linux-x86_64/litert)
# Jar entries' time: any fixed one makes the bytes reproducible; this one says it is not a build's.
ENTRY_TIME=2000-01-01T00:00:00Z

# The files to load, in order. TensorFlow's: libraries the wheel bundles beside TensorFlow's
# (tensorflow.libs: libomp on aarch64), then TensorFlow's framework library, then the C API library
# that needs it; on Windows, the python311.dll stand-in (scripts/platforms/python_stand_in.py), then the
# DLL that exports the C API and imports it (windows_tensorflow_libraries). LiteRT's: its one library, which
# needs only the C and C++ runtimes.
libraries_of() {  # libraries_of PLATFORM KIND SOURCE_DIR
  local bundled
  if [[ "$2" == litert ]]; then echo "$LITERT_LIBRARY_FILE"; return; fi
  if [[ -d "$3/../tensorflow.libs" ]]; then
    for bundled in "$3"/../tensorflow.libs/*; do [[ -f "$bundled" ]] && basename "$bundled"; done
  fi
  case "$1" in
    macos-*) echo libtensorflow_framework.2.dylib; echo libtensorflow_cc.2.dylib ;;
    windows-*) windows_tensorflow_libraries ;;
    *) echo libtensorflow_framework.so.2; echo libtensorflow_cc.so.2 ;;
  esac
}

# The index's first lines: where the libraries come from, the runtime's version, the platform (and
# TensorFlow's variant).
index_header() {  # index_header PLATFORM KIND
  if [[ "$2" == litert ]]; then
    echo "# LiteRT's runtime library from PyPI's ai-edge-litert $LITERT_VERSION wheel ($(litert_wheel_tag "$1"))."
    echo "litert.version=$LITERT_VERSION"
    echo "platform=$1"
  else
    echo "# TensorFlow's C API libraries from the official $(wheel_of "$1" "$2" | cut -d' ' -f1) $TFJNI_TF_VERSION wheel."
    [[ "$1" != windows-* ]] ||
      echo "# $WINDOWS_PYTHON_DLL is tfjni's stand-in, not Python: any call into it ends the process with a message."
    echo "tensorflow.version=$TFJNI_TF_VERSION"
    echo "platform=$1"
    echo "variant=$2"
  fi
}

# The runtime's directory in the jar, io/tfjni/NAME/PLATFORM/ (the loader's NativeRuntime).
resource_name_of() {  # resource_name_of KIND
  if [[ "$1" == litert ]]; then echo litert; else echo tensorflow; fi
}

build_artifact() {  # build_artifact PLATFORM KIND
  local platform=$1 kind=$2 source_dir artifact version installed work libraries legal stamp name pom
  local entry meta_inf jar_kind directory
  source_dir=$(runtime_source_dir "$platform" "$kind")
  artifact=$(runtime_artifact_id "$kind") version=$(runtime_artifact_version "$kind")
  installed=$(runtime_artifact_jar "$kind" "$platform")
  work="$TFJNI_CACHE/runtime-artifact/$artifact-$version/$platform"
  # The libraries' directory in the jar, as the loader's Platform names it.
  directory="io/tfjni/$(resource_name_of "$kind")/$platform/"
  mapfile -t libraries < <(libraries_of "$platform" "$kind" "$source_dir")
  mapfile -t legal < <(runtime_legal_files "$kind" "$source_dir")
  pom=$(python3 "$ROOT/scripts/release/runtime_pom.py" "$kind" "$version" $(runtime_platforms_of "$kind"))
  stamp=$(for name in "${libraries[@]}"; do stat -c '%n %s %Y' "$(library_path "$source_dir" "$name")"; done
          { cat "${BASH_SOURCE[0]}" "${legal[@]#*=}"; echo "$pom"; } | sha256sum)
  if ! $force && [[ -f "$installed" && -f "$work/stamp" ]] && [[ "$(cat "$work/stamp")" == "$stamp" ]]; then
    return
  fi

  step "Building the runtime artifact io.tfjni:$artifact:$version:$platform from $source_dir"
  rm -rf "$work"
  local content="$work/content/$directory"
  mkdir -p "$content" "$work/content/META-INF" "$work/pointer/META-INF"
  {
    index_header "$platform" "$kind"
    echo "libraries=$(IFS=,; echo "${libraries[*]}")"
    for name in "${libraries[@]}"; do
      cp "$(library_path "$source_dir" "$name")" "$content/$name"
      echo "sha256.$name=$(sha256sum "$content/$name" | cut -d' ' -f1)"
    done
  } > "$content/libraries.properties"
  # The runtime's licence travels with its binaries, in every jar.
  for entry in "${legal[@]}"; do
    [[ -f "${entry#*=}" ]] || { echo "runtime-artifact: ${entry#*=} is missing" >&2; exit 1; }
    for meta_inf in "$work/content/META-INF" "$work/pointer/META-INF"; do
      cp "${entry#*=}" "$meta_inf/${entry%%=*}"
    done
  done
  # A module name lets it sit on the module path: io.tfjni.tensorflow.cpu, io.tfjni.litert.
  printf 'Automatic-Module-Name: io.tfjni.%s\n' "$(tr - . <<<"${artifact#tfjni-}")" > "$work/manifest.txt"
  "$JAVA_HOME/bin/jar" --create --date="$ENTRY_TIME" --file "$work/$artifact.jar" --manifest "$work/manifest.txt" -C "$work/content" .
  check_artifact "$work/$artifact.jar" "${legal[@]/#/META-INF/}" "${directory}libraries.properties" "${libraries[@]/#/$directory}"
  # The -sources and -javadoc jars: no Java here, so a pointer to the runtime's own.
  pointer_readme "$kind" > "$work/pointer/README.md"
  for jar_kind in sources javadoc; do
    "$JAVA_HOME/bin/jar" --create --date="$ENTRY_TIME" --file "$work/$artifact-$jar_kind.jar" -C "$work/pointer" .
  done

  echo "$pom" > "$work/pom.xml"
  mvn -B -q install:install-file -Dmaven.repo.local="$MAVEN_REPO" -Dfile="$work/$artifact.jar" -DpomFile="$work/pom.xml" \
    -Dclassifier="$platform" -Dsources="$work/$artifact-sources.jar" -Djavadoc="$work/$artifact-javadoc.jar"
  rm -rf "$work/content" "$work/pointer"
  echo "$stamp" > "$work/stamp"
  echo "installed $installed ($(du -h "$installed" | cut -f1))"
}

pointer_readme() {  # pointer_readme KIND
  if [[ "$1" == litert ]]; then
    cat <<EOF
# tfjni-litert $LITERT_VERSION

This artifact holds no Java: its jars (one per platform) carry LiteRT $LITERT_VERSION's runtime
library (libLiteRtRuntimeCApi.so, LiteRT's C API) as the LiteRT authors built it, unmodified, from
PyPI's ai-edge-litert wheels, for tfjni's loader (io.tfjni.LiteRtModel). It is LiteRT's binary,
under LiteRT's license, the Apache License 2.0 (META-INF/LICENSE: its text; the wheel ships
none), which the wheel's METADATA, beside it, declares.

- LiteRT's sources for this binary: https://github.com/google-ai-edge/LiteRT/tree/v$LITERT_VERSION
  (the C API: litert/c/)
- LiteRT's documentation: https://ai.google.dev/edge/litert
- tfjni, which loads it, and its Java API documentation: https://github.com/tfjni/tfjni
  (io.tfjni:tfjni's -javadoc jar)
EOF
    return
  fi
  cat <<EOF
# tfjni-tensorflow-$1 $TFJNI_TF_VERSION

This artifact holds no Java: its jars (one per platform) carry TensorFlow $TFJNI_TF_VERSION's C API
libraries as the TensorFlow authors built them, unmodified, from TensorFlow's official Python wheels,
for tfjni's loader. They are TensorFlow's binaries, under TensorFlow's license (META-INF/LICENSE,
Apache License 2.0) with its third-party components' notices (META-INF/THIRD_PARTY_NOTICES.txt).

The windows-x86_64 jar also carries python311.dll, which is not Python: TensorFlow's Windows C API
is exported by a DLL of its Python build that imports python311.dll, and tfjni generates a
stand-in exporting the same names, which ends the process with a message if TensorFlow ever calls
one (only a model that runs Python code, such as tf.py_function, would).

- TensorFlow's sources for these binaries: https://github.com/tensorflow/tensorflow/tree/v$TFJNI_TF_VERSION
  (the C API: tensorflow/c/c_api.h and tensorflow/c/eager/c_api.h)
- TensorFlow's C API documentation: https://www.tensorflow.org/install/lang_c
- tfjni, which loads them, and its Java API documentation: https://github.com/tfjni/tfjni
  (io.tfjni:tfjni's -javadoc jar)
EOF
}

# Fails unless the jar holds every entry given (the licence files, the index, the libraries).
check_artifact() {  # check_artifact JAR ENTRY...
  local jar=$1 entry listing; shift
  listing=$(unzip -Z1 "$jar")
  for entry in "$@"; do
    grep -qxF "${entry%%=*}" <<<"$listing" || { echo "runtime-artifact: $jar lacks ${entry%%=*}" >&2; exit 1; }
  done
}

# Where a wheel keeps a library: in the source directory, or (TensorFlow's bundled ones) in
# tensorflow.libs beside it.
library_path() {  # library_path SOURCE_DIR NAME
  if [[ -f "$1/$2" ]]; then echo "$1/$2"; else echo "$1/../tensorflow.libs/$2"; fi
}

for platform_kind in "${wanted[@]}"; do
  build_artifact "${platform_kind%/*}" "${platform_kind#*/}"
done
