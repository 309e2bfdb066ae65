#!/usr/bin/env bash
# Installs what cross-building and running linux-aarch64 needs on a linux-x86_64 Debian machine:
# the cross compiler, qemu-user, GoogleTest for arm64 (Debian multiarch), and an aarch64 JVM
# unpacked into the cache (not installed: the host keeps its own JDK). Quick when all is there.
source "$(dirname "$0")/../common.sh"

# The arm64 JVM and the arm64 libraries it loads beyond those of the cross toolchain's sysroot
# (/usr/aarch64-linux-gnu: libc, libstdc++, libgcc_s).
AARCH64_JVM_PACKAGES=(openjdk-17-jre-headless zlib1g)

install_cross_packages() {
  # GoogleTest's arm64 libraries come from Debian's arm64 archive (multiarch, beside amd64's).
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    as_root dpkg --add-architecture arm64
  fi
  ensure_debian_packages g++-aarch64-linux-gnu qemu-user libgtest-dev:arm64 nlohmann-json3-dev
}

# Debian's arm64 OpenJDK, unpacked with its libraries into one directory; prints the directory.
aarch64_jvm_root() {
  local dir="$TFJNI_CACHE/jvm-linux-aarch64/openjdk-17"
  if [[ ! -f "$dir/.complete" ]]; then
    step "Unpacking Debian's arm64 OpenJDK 17 into $dir (one-off, ~45 MB download)" >&2
    install_staged "$dir" unpack_aarch64_jvm >&2
  fi
  echo "$dir"
}

unpack_aarch64_jvm() {  # unpack_aarch64_jvm OUT_DIR
  local debs="$1.debs" deb link target
  mkdir -p "$debs" "$1"
  # As root, apt hands downloads to its _apt user, which cannot write into root's cache.
  local sandbox=()
  [[ $(id -u) -ne 0 ]] || sandbox=(-o APT::Sandbox::User=root)
  # The arm64 package lists may be gone (images often delete /var/lib/apt/lists).
  apt-cache show openjdk-17-jre-headless:arm64 >/dev/null 2>&1 || as_root apt-get update -qq
  (cd "$debs" && apt-get download -q=2 "${sandbox[@]}" "${AARCH64_JVM_PACKAGES[@]/%/:arm64}")
  for deb in "$debs"/*.deb; do dpkg -x "$deb" "$1"; done
  rm -rf "$debs"
  # The package links its configuration (jvm.cfg, security) to absolute /etc paths; qemu-user
  # would follow them into the host's amd64 JDK, so point them into this directory instead.
  while IFS= read -r link; do
    target=$(readlink "$link")
    if [[ $target == /* ]] && [[ -e "$1$target" || -L "$1$target" ]]; then
      ln -sfn "$(realpath -s --relative-to="$(dirname "$link")" "$1$target")" "$link"
    fi
  done < <(find "$1" -type l)
  [[ -x "$1/usr/lib/jvm/java-17-openjdk-arm64/bin/java" ]] || { echo "no arm64 java in $1" >&2; return 1; }
}

# Run as a script: set everything up. Sourced: only define the functions.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  install_cross_packages
  aarch64_jvm_root >/dev/null
fi
