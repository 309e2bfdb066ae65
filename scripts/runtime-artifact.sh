#!/usr/bin/env bash
# Builds the TensorFlow runtime artifact io.tfjni:tfjni-tensorflow-cpu:$TFJNI_TF_VERSION and
# installs it into the local Maven repository: the official tensorflow-cpu wheel's
# libtensorflow_cc.so.2 and libtensorflow_framework.so.2 under tfjni-tensorflow/linux-x86_64/,
# with libraries.properties (the version and each file's SHA-256, which tfjni's loader checks
# when it extracts them; java/tfjni/.../internal/RuntimeArtifact.java).
#
# A cached step: it does nothing when the installed jar was made from the same libraries by this
# same script (a stamp of their sizes and times and of this file), since compressing ~680 MB
# takes a minute. Usage: scripts/runtime-artifact.sh [--force]
source "$(dirname "$0")/common.sh"

TF_DIR=$(tensorflow_dir)
ARTIFACT=tfjni-tensorflow-cpu
REPO="${MAVEN_LOCAL_REPO:-$HOME/.m2/repository}"
INSTALLED="$REPO/io/tfjni/$ARTIFACT/$TFJNI_TF_VERSION/$ARTIFACT-$TFJNI_TF_VERSION.jar"
WORK="$TFJNI_CACHE/runtime-artifact/$TFJNI_TF_VERSION"
LIBRARIES=(libtensorflow_framework.so.2 libtensorflow_cc.so.2)

stamp=$( (cd "$TF_DIR" && stat -c '%n %s %Y' "${LIBRARIES[@]}"); sha256sum < "${BASH_SOURCE[0]}")
if [[ "${1:-}" != --force && -f "$INSTALLED" && -f "$WORK/stamp" ]] && [[ "$(cat "$WORK/stamp")" == "$stamp" ]]; then
  exit 0
fi

step "Building the runtime artifact io.tfjni:$ARTIFACT:$TFJNI_TF_VERSION from $TF_DIR (one-off, ~1 min)"
rm -rf "$WORK"
content="$WORK/content/tfjni-tensorflow/linux-x86_64"
mkdir -p "$content"
{
  echo "# TensorFlow's C API libraries from the official tensorflow-cpu $TFJNI_TF_VERSION wheel."
  echo "tensorflow.version=$TFJNI_TF_VERSION"
  for name in "${LIBRARIES[@]}"; do
    cp "$TF_DIR/$name" "$content/$name"
    echo "sha256.$name=$(sha256sum "$content/$name" | cut -d' ' -f1)"
  done
} > "$content/libraries.properties"
# The loader finds the artifact by this resource; a module name lets it sit on the module path.
printf 'Automatic-Module-Name: io.tfjni.tensorflow.cpu\n' > "$WORK/manifest.txt"
"$JAVA_HOME/bin/jar" --create --file "$WORK/$ARTIFACT.jar" --manifest "$WORK/manifest.txt" -C "$WORK/content" .

cat > "$WORK/pom.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.tfjni</groupId>
  <artifactId>$ARTIFACT</artifactId>
  <version>$TFJNI_TF_VERSION</version>
  <name>$ARTIFACT</name>
  <description>libtensorflow $TFJNI_TF_VERSION for linux-x86_64 (CPU), from the official tensorflow-cpu wheel, for tfjni's loader</description>
  <licenses>
    <license>
      <name>Apache License 2.0 (TensorFlow)</name>
      <url>https://www.apache.org/licenses/LICENSE-2.0</url>
    </license>
  </licenses>
</project>
EOF
mvn -B -q install:install-file -Dfile="$WORK/$ARTIFACT.jar" -DpomFile="$WORK/pom.xml"
rm -rf "$WORK/content"
echo "$stamp" > "$WORK/stamp"
echo "installed $INSTALLED ($(du -h "$INSTALLED" | cut -f1))"
