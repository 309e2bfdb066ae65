"""A staging Maven repository directory (Maven's repository layout) as Maven Central takes it:
which files are artifacts, their checksum files and their detached PGP signatures.

Used as a program by scripts/release.sh to finish a directory Maven deployed into:
    staging_repo.py finish DIR [--gpg-key KEY]
removes Maven's repository metadata (Central builds its own), signs every artifact with KEY
(gpg's default key ring, or GNUPGHOME) and writes every artifact's checksums.
"""

import argparse
import hashlib
import pathlib
import subprocess
import sys

# Checksum file extensions and their algorithms: .md5 and .sha1 are required by Maven Central,
# .sha256 and .sha512 accepted; tfjni writes all four.
CHECKSUMS = {"md5": "md5", "sha1": "sha1", "sha256": "sha256", "sha512": "sha512"}
REQUIRED_CHECKSUMS = ("md5", "sha1")
SIGNATURE = "asc"


def is_artifact(path):
    """An artifact: a file that is neither a checksum nor a signature."""
    return path.is_file() and path.suffix[1:] not in CHECKSUMS and path.suffix[1:] != SIGNATURE


def artifacts(root):
    """Every artifact file under root, in path order."""
    return sorted(p for p in pathlib.Path(root).rglob("*") if is_artifact(p))


def digest(path, algorithm):
    h = hashlib.new(algorithm)
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def companion(path, extension):
    """The checksum or signature file of an artifact: PATH.EXTENSION."""
    return path.with_name(path.name + "." + extension)


def write_checksums(path):
    for extension, algorithm in CHECKSUMS.items():
        companion(path, extension).write_text(digest(path, algorithm))


def sign(path, key):
    subprocess.run(["gpg", "--batch", "--yes", "--quiet", "--local-user", key, "--armor",
                    "--detach-sign", "--output", str(companion(path, SIGNATURE)), str(path)],
                   check=True)


def finish(root, key):
    for metadata in pathlib.Path(root).rglob("maven-metadata.xml*"):
        metadata.unlink()
    for path in artifacts(root):
        if key:
            sign(path, key)
        write_checksums(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    finish_parser = sub.add_parser("finish", help="sign (with --gpg-key) and checksum every artifact")
    finish_parser.add_argument("dir")
    finish_parser.add_argument("--gpg-key", help="the key to sign with; unsigned without it")
    args = parser.parse_args()
    finish(args.dir, args.gpg_key)
    return 0


if __name__ == "__main__":
    sys.exit(main())
