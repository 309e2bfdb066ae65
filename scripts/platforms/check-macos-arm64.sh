#!/usr/bin/env bash
# Link check of the macos-arm64 natives (scripts/platforms/build-macos-arm64.sh builds them; nothing here
# can run them): each is a Mach-O arm64 dylib named @rpath/<file>, links only @rpath/@loader_path
# libraries or /usr/lib system ones, and every symbol it imports is exported by the library dyld
# will bind it to: the macOS TensorFlow wheel's two dylibs, or libSystem (zig's stub of it, the
# macOS SDK's list of its exports). libc++ and libc++abi are zig's, linked statically into each
# dylib, so no symbol may be bound to a /usr/lib C++ runtime. Before that, the check is run on
# small dylibs broken on purpose, each of which it must reject.
# Options: --skip-build checks what build/native-macos-arm64 holds without (re)building it.
source "$(dirname "$0")/../common.sh"
MACOS_ARM64_BUILD=$(native_build_dir macos-arm64)

skip_build=false
for arg in "$@"; do
  case "$arg" in
    --skip-build) skip_build=true ;;
    *) echo "unknown argument '$arg' (usage: $0 [--skip-build])" >&2; exit 2 ;;
  esac
done

ensure_debian_packages llvm qemu-user
# Debian's llvm package links most tools unversioned, not llvm-lipo.
LIPO=$(command -v llvm-lipo || ls /usr/lib/llvm-*/bin/llvm-lipo 2>/dev/null | tail -n 1)
[[ -n "$LIPO" ]] || { echo "no llvm-lipo (Debian package llvm)" >&2; exit 1; }
ZIG=$(zig_executable)
TF_DIR=$(tensorflow_dir_of macos-arm64 cpu)
SYSTEM_STUBS="$(dirname "$ZIG")/lib/libc/darwin/libSystem.tbd"
[[ -f "$SYSTEM_STUBS" ]] || { echo "zig's libSystem stub is missing: $SYSTEM_STUBS" >&2; exit 1; }
$skip_build || "$ROOT/scripts/platforms/build-macos-arm64.sh"
for library in libtfjni.dylib libtfjni_loader.dylib; do
  [[ -f "$MACOS_ARM64_BUILD/$library" ]] || { echo "no $MACOS_ARM64_BUILD/$library: run scripts/platforms/build-macos-arm64.sh" >&2; exit 1; }
done

check() {  # check LIBRARY [check_macho_links.py options]
  python3 "$ROOT/scripts/platforms/check_macho_links.py" --system-stubs "$SYSTEM_STUBS" "$@"
}
tensorflow_providers=(--provider "$TF_DIR/libtensorflow_cc.2.dylib" --provider "$TF_DIR/libtensorflow_framework.2.dylib")

step "The link check must reject dylibs broken on purpose"
export ZIG_GLOBAL_CACHE_DIR="$TFJNI_CACHE/zig-cache"
# The test files go beside the natives directory, not into it: the jar is made from that.
broken="$BUILD/check-macos-arm64/broken-on-purpose"
mkdir -p "$broken"
zig_dylib() {  # zig_dylib OUTPUT SOURCE_TEXT [linker arguments]: without a debug map, as tfjni's
  local output=$1 source=$2; shift 2
  printf '%s\n' "$source" > "$output.c"
  "$ZIG" cc -target aarch64-macos.12.0 -shared -o "$output" "$output.c" -Wl,-S "$@"
}
# A stand-in libtensorflow_cc that exports one function more than the real one, to link against.
zig_dylib "$broken/libtensorflow_cc.2.dylib" 'void TF_Version(void) {} void TF_NotInTensorFlow(void) {}' \
  -Wl,-install_name,@rpath/libtensorflow_cc.2.dylib
zig_dylib "$broken/stand-in-at-absolute-path.dylib" 'void TF_Version(void) {}' \
  -Wl,-install_name,/opt/homebrew/lib/libtensorflow_cc.2.dylib
calls_tf() { echo "void $1(void); void call(void) { $1(); }"; }
zig_dylib "$broken/libmissing_symbol.dylib" "$(calls_tf TF_NotInTensorFlow)" -Wl,-install_name,@rpath/libmissing_symbol.dylib \
  -Wl,-rpath,@loader_path "$broken/libtensorflow_cc.2.dylib"
zig_dylib "$broken/libabsolute_dependency.dylib" "$(calls_tf TF_Version)" -Wl,-install_name,@rpath/libabsolute_dependency.dylib \
  -Wl,-rpath,@loader_path "$broken/stand-in-at-absolute-path.dylib"
zig_dylib "$broken/libno_rpath.dylib" "$(calls_tf TF_Version)" -Wl,-install_name,@rpath/libno_rpath.dylib \
  "$broken/libtensorflow_cc.2.dylib"
zig_dylib "$broken/libabsolute_install_name.dylib" "$(calls_tf TF_Version)" -Wl,-install_name,/usr/local/lib/libabsolute_install_name.dylib \
  -Wl,-rpath,@loader_path "$broken/libtensorflow_cc.2.dylib"
zig_dylib "$broken/libflat_lookup.dylib" "$(calls_tf TF_Version)" -Wl,-install_name,@rpath/libflat_lookup.dylib \
  -Wl,-rpath,@loader_path -Wl,-undefined,dynamic_lookup
printf 'void TF_Version(void); void call(void) { TF_Version(); }\n' > "$broken/libdebug_map.dylib.c"
"$ZIG" cc -target aarch64-macos.12.0 -shared -o "$broken/libdebug_map.dylib" "$broken/libdebug_map.dylib.c" \
  -Wl,-install_name,@rpath/libdebug_map.dylib -Wl,-rpath,@loader_path "$broken/libtensorflow_cc.2.dylib"
expect_rejected() {  # expect_rejected LIBRARY EXPECTED_MESSAGE
  local output
  if output=$(check "$broken/$1" "${tensorflow_providers[@]}" --rpath @loader_path 2>&1); then
    echo "$output"; echo "the link check passed $1, which is broken on purpose" >&2; exit 1
  fi
  grep -qF -- "$2" <<<"$output" ||
    { echo "$output"; echo "the link check rejected $1, but not for the planted fault ('$2')" >&2; exit 1; }
  echo "rejected as it must be: $1 ($2)"
}
expect_rejected libmissing_symbol.dylib "_TF_NotInTensorFlow (not exported by libtensorflow_cc)"
expect_rejected libabsolute_dependency.dylib "links /opt/homebrew/lib/libtensorflow_cc.2.dylib: neither"
expect_rejected libno_rpath.dylib "LC_RPATH is [], expected ['@loader_path']"
expect_rejected libflat_lookup.dylib "_TF_Version (looked up in the flat namespace"
expect_rejected libdebug_map.dylib "carries a debug map naming"
expect_rejected libabsolute_install_name.dylib "install name is ['/usr/local/lib/libabsolute_install_name.dylib']"

step "The Mach-O reader of the op library checks (src/macho_file.cpp) on files of known answers"
# Built for aarch64 Linux so that it looks for arm64 slices as on an Apple-silicon Mac, run under
# qemu-user. It compiles there with the Mach-O format headers from zig's macOS headers and two
# small stand-ins for the kernel headers they include (native/test/macho-shim).
reader="$BUILD/check-macos-arm64/macho-reader"
mkdir -p "$reader/include/mach-o"
cp "$(dirname "$ZIG")"/lib/libc/include/any-darwin-any/mach-o/{loader,fat,nlist}.h "$reader/include/mach-o/"
"$ZIG" c++ -target aarch64-linux-musl -static -std=c++20 -O1 -I "$ROOT/native/include" \
  -isystem "$reader/include" -isystem "$ROOT/native/test/macho-shim" \
  "$ROOT/native/src/macho_file.cpp" "$ROOT/native/test/macho_file_check.cpp" -o "$reader/macho_file_check"
zig_dylib "$reader/extension.so" 'int PyInit_example(void) { return 0; }'
zig_dylib "$reader/op_library.so" 'static int PyInit_local(void) { return 0; } int TF_op(void) { return PyInit_local(); }'
zig_dylib "$reader/imports_pyinit.so" 'int PyInit_elsewhere(void); int call(void) { return PyInit_elsewhere(); }' \
  -Wl,-undefined,dynamic_lookup
"$ZIG" cc -target x86_64-macos.12.0 -shared -o "$reader/extension-x86_64.so" "$reader/extension.so.c"
"$LIPO" -create "$reader/extension-x86_64.so" "$reader/extension.so" -output "$reader/universal.so"
"$LIPO" -create "$reader/extension-x86_64.so" -output "$reader/universal-x86_64-only.so"
echo "not a library" > "$reader/text.so"
qemu-aarch64 "$reader/macho_file_check" \
  "$reader/extension.so" 1 1 \
  "$reader/op_library.so" 1 0 \
  "$reader/imports_pyinit.so" 1 0 \
  "$reader/extension-x86_64.so" 0 0 \
  "$reader/universal.so" 1 1 \
  "$reader/universal-x86_64-only.so" 0 0 \
  "$reader/text.so" 0 0 \
  "$reader/macho_file_check" 0 0 \
  "$reader/no-such-file.so" 0 0 \
  "$TF_DIR/libtensorflow_cc.2.dylib" 1 0

step "Link check of the macos-arm64 natives against TensorFlow $TFJNI_TF_VERSION's macOS wheel and libSystem"
check "$MACOS_ARM64_BUILD/libtfjni.dylib" "${tensorflow_providers[@]}" --rpath @loader_path
check "$MACOS_ARM64_BUILD/libtfjni_loader.dylib"
echo "macos-arm64 natives link-checked (built, not run here)"
