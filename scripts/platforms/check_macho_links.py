#!/usr/bin/env python3
"""Link check of a macOS dylib built on a machine that cannot run it.

Checks that LIBRARY is a 64-bit arm64 Mach-O dylib whose install name is @rpath/<its file name>,
whose dependencies are @rpath/@loader_path-relative or /usr/lib system libraries, whose LC_RPATHs
are exactly the --rpath values given, that it carries no debug map (build paths), and that every symbol it imports resolves where dyld will
look for it: macOS binds each symbol to one named library (two-level namespace), so a symbol bound
to libtensorflow_cc must be exported by the given libtensorflow_cc dylib, one bound to libSystem
by the libSystem stubs (a .tbd text stub, as zig ships for macOS). Prints every problem found and
exits 1 if there is any.

Reads the Mach-O through llvm-objdump and llvm-nm (Debian's llvm package).
"""
import argparse
import os
import re
import subprocess
import sys


def run(*command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)} failed: {result.stderr.strip()}")
    return result.stdout


def load_commands(path):
    """The load commands as (command name, {field: value}) pairs."""
    commands = []
    for line in run("llvm-objdump", "--macho", "--private-headers", path).splitlines():
        fields = line.split()
        if len(fields) >= 2 and fields[0] == "cmd":
            commands.append((fields[1], {}))
        elif len(fields) >= 2 and commands:
            commands[-1][1].setdefault(fields[0], fields[1])
    return commands


def mach_header(path):
    """(cputype, filetype) from the Mach header."""
    lines = run("llvm-objdump", "--macho", "--private-header", path).splitlines()
    for index, line in enumerate(lines):
        if line.split()[:2] == ["magic", "cputype"] and index + 1 < len(lines):
            values = lines[index + 1].split()
            if values[0] != "MH_MAGIC_64":
                return values[0], None, None
            return values[0], values[1], values[4]
    return None, None, None


def exported_symbols(dylib):
    """The symbols dyld can bind to in a dylib: its export trie, re-exports included."""
    names = set()
    for line in run("llvm-objdump", "--macho", "--exports-trie", dylib).splitlines():
        match = re.match(r"\s*(?:0x[0-9A-Fa-f]+|\[re-export\])\s+(\S+)", line)
        if match:
            names.add(match.group(1))
    return names


def tbd_exports(path, architectures=("arm64-macos", "arm64e-macos")):
    """Symbols a text stub (.tbd, TAPI v4) exports for the architectures, over all its documents
    (libSystem's stub carries one per library it re-exports)."""
    text = open(path, encoding="utf-8").read()
    names = set()
    for document in text.split("--- !tapi-tbd")[1:]:
        # The exports: and reexports: sections, up to the next top-level key.
        for section in re.finditer(r"^(?:exports|reexports):\n((?:[ \t].*\n)*)", document, re.M):
            targets = []
            for key, values in re.findall(r"([\w-]+):\s*\[([^\]]*)\]", section.group(1)):
                items = [v.strip().strip("'") for v in values.split(",") if v.strip()]
                if key == "targets":
                    targets = items
                elif any(t in architectures for t in targets):
                    if key in ("symbols", "weak-symbols", "thread-local-symbols"):
                        names.update(items)
                    elif key == "objc-classes":
                        names.update(f"_OBJC_{kind}_$_{c}" for c in items for kind in ("CLASS", "METACLASS"))
    return names


def short_name(install_name):
    """How llvm-nm names a library in "(from ...)": its file name up to the first dot."""
    return os.path.basename(install_name).split(".")[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("library", help="the dylib to check")
    parser.add_argument("--provider", action="append", default=[], metavar="DYLIB",
                        help="a dylib the library may link by @rpath, matched by its install name (repeatable)")
    parser.add_argument("--system-stubs", required=True, metavar="TBD", help="libSystem's text stub (zig's libSystem.tbd)")
    parser.add_argument("--rpath", action="append", default=[], help="an LC_RPATH the library must carry (repeatable)")
    args = parser.parse_args()
    for path in [args.library, args.system_stubs, *args.provider]:
        if not os.path.isfile(path):
            sys.exit(f"no such file: {path}")

    problems = []
    name = os.path.basename(args.library)
    magic, cpu, filetype = mach_header(args.library)
    if (magic, cpu, filetype) != ("MH_MAGIC_64", "ARM64", "DYLIB"):
        sys.exit(f"{args.library}: not a 64-bit arm64 Mach-O dylib (magic {magic}, cpu {cpu}, file type {filetype})")
    print(f"{name}: Mach-O 64-bit arm64 dylib")

    commands = load_commands(args.library)
    ids = [fields.get("name") for cmd, fields in commands if cmd == "LC_ID_DYLIB"]
    if ids != [f"@rpath/{name}"]:
        problems.append(f"install name is {ids or 'missing'}, not @rpath/{name}")
    rpaths = [fields.get("path") for cmd, fields in commands if cmd == "LC_RPATH"]
    if rpaths != args.rpath:
        problems.append(f"LC_RPATH is {rpaths}, expected {args.rpath}")

    # A debug map (stabs: the build machine's source and object paths, for dsymutil) has no use
    # in a shipped library and records where it was built.
    stabs = [line.split()[-1] for line in run("llvm-nm", "-a", args.library).splitlines()
             if re.match(r"\S+ - \S+ \S+\s+(SO|OSO) \S", line)]
    if stabs:
        problems.append(f"carries a debug map naming {len(stabs)} build paths, e.g. {stabs[0]} (link with -Wl,-S)")

    # Libraries dyld binds symbols from, by llvm-nm's short name; None: nothing to check against.
    providers = {}
    for provider in args.provider:
        provider_id = [f.get("name") for cmd, f in load_commands(provider) if cmd == "LC_ID_DYLIB"]
        if not provider_id:
            sys.exit(f"{provider}: no install name (LC_ID_DYLIB): not a dylib")
        providers[provider_id[0]] = provider
    exports_of = {}
    dependencies = [fields.get("name") for cmd, fields in commands
                    if cmd in ("LC_LOAD_DYLIB", "LC_LOAD_WEAK_DYLIB", "LC_REEXPORT_DYLIB", "LC_LAZY_LOAD_DYLIB",
                               "LC_LOAD_UPWARD_DYLIB")]
    for dependency in dependencies:
        if dependency == "/usr/lib/libSystem.B.dylib":
            exports_of[short_name(dependency)] = tbd_exports(args.system_stubs)
        elif dependency in providers:
            exports_of[short_name(dependency)] = exported_symbols(providers[dependency])
        elif dependency.startswith("/usr/lib/"):
            exports_of[short_name(dependency)] = None
            problems.append(f"links {dependency}, a system library with no export list here to check against")
        elif dependency.startswith(("@rpath/", "@loader_path/")):
            problems.append(f"links {dependency}, which no --provider has as its install name")
        else:
            problems.append(f"links {dependency}: neither @rpath/@loader_path-relative nor a /usr/lib system library")
    print(f"{name}: install name {ids}, LC_RPATH {rpaths}, links {dependencies}")

    unresolved, counts = [], {}
    for line in run("llvm-nm", "-m", "-u", args.library).splitlines():
        # No "(from LIBRARY)": looked up by name in every loaded image (-undefined dynamic_lookup).
        match = re.match(r"\s*\(undefined\)(?: weak)? external (\S+)(?: \(from (\S+)\)| \(dynamically looked up\))?\s*$", line)
        if not match:
            problems.append(f"cannot read llvm-nm's line: {line.strip()}")
            continue
        symbol, library = match.group(1), match.group(2)
        if library is None:
            unresolved.append(f"{symbol} (looked up in the flat namespace: bound to no library)")
        elif library not in exports_of:
            unresolved.append(f"{symbol} (from {library}, not a dependency given)")
        elif exports_of[library] is not None and symbol not in exports_of[library]:
            unresolved.append(f"{symbol} (not exported by {library})")
        else:
            counts[library] = counts.get(library, 0) + 1
    print(f"{name}: imported symbols resolved: " + ", ".join(f"{n} from {lib}" for lib, n in sorted(counts.items())))
    if unresolved:
        problems.append(f"{len(unresolved)} imported symbol(s) do not resolve:\n    " + "\n    ".join(unresolved))

    if problems:
        print(f"{name}: LINK CHECK FAILED", file=sys.stderr)
        for problem in problems:
            print(f"  - {problem}", file=sys.stderr)
        sys.exit(1)
    print(f"{name}: link check passed")


if __name__ == "__main__":
    main()
