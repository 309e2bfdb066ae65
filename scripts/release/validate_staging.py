"""Checks a staging Maven repository directory against Maven Central's publishing requirements
(https://central.sonatype.org/publish/requirements/) and tfjni's own rule that every jar carries
the license and notice; prints one line per broken requirement and exits 1 if there is any.

    validate_staging.py DIR [--gnupghome DIR] [--legal-file NAME=FILE ...] [--skip RULE]

The rules, each reported under its name:
  layout      every version directory holds ARTIFACT-VERSION.pom, named as the POM's coordinates
  pom         the POM names groupId, artifactId, version, name, description, url, a license
              (name and url), a developer (name) and scm (url and connection)
  release     no SNAPSHOT or unresolved ${...} version in the POM, its parent or its dependencies
  files       every jar-packaged artifact has its jar (or, built per platform, its classified jars:
              ARTIFACT-VERSION-CLASSIFIER.jar), -sources.jar and -javadoc.jar
  checksums   every artifact has .md5 and .sha1 files that match it, and .sha256 and .sha512 files
              match where present
  signatures  every artifact has an .asc signature that gpg verifies
  legal       every jar (class, sources and javadoc) holds META-INF/NAME for each --legal-file
              NAME=FILE, with FILE's bytes (without any: META-INF/LICENSE and META-INF/NOTICE)
"""

import argparse
import os
import pathlib
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import staging_repo  # noqa: E402

NS = {"m": "http://maven.apache.org/POM/4.0.0"}
REQUIRED_ELEMENTS = ("name", "description", "url", "licenses/m:license/m:name",
                     "licenses/m:license/m:url", "developers/m:developer/m:name", "scm/m:url",
                     "scm/m:connection")


def text(pom, path):
    element = pom.find("m:" + path, NS)
    return element.text.strip() if element is not None and element.text else None


def classified_jars(directory, artifact_id, version):
    """The jars built per platform (ARTIFACT-VERSION-CLASSIFIER.jar), not sources, javadoc or tests."""
    prefix = f"{artifact_id}-{version}-"
    return [p for p in directory.glob(prefix + "*.jar")
            if p.name[len(prefix):-len(".jar")] not in ("sources", "javadoc", "tests")]


def unreleased(version):
    return version is None or "SNAPSHOT" in version or "${" in version


class Validator:
    def __init__(self, root, gnupghome, legal_files, skipped=()):
        self.root = pathlib.Path(root)
        self.skipped = set(skipped)
        self.gnupghome = gnupghome
        self.legal = legal_files
        self.problems = []

    def report(self, rule, path, message):
        if rule in self.skipped:
            return
        self.problems.append(f"{rule}: {path.relative_to(self.root)}: {message}")

    def run(self):
        version_dirs = sorted({p.parent for p in staging_repo.artifacts(self.root)})
        if not version_dirs:
            self.problems.append(f"layout: {self.root}: no artifacts")
        for directory in version_dirs:
            self.check_version_dir(directory)
        for path in staging_repo.artifacts(self.root):
            self.check_checksums(path)
            self.check_signature(path)
            if path.suffix == ".jar":
                self.check_legal(path)
        return self.problems

    def check_version_dir(self, directory):
        version, artifact_id = directory.name, directory.parent.name
        group_path = directory.parent.parent.relative_to(self.root)
        pom_path = directory / f"{artifact_id}-{version}.pom"
        if not pom_path.is_file():
            self.report("layout", directory, f"no {pom_path.name}")
            return
        try:
            pom = ET.parse(pom_path).getroot()
        except ET.ParseError as e:
            self.report("pom", pom_path, f"not XML: {e}")
            return
        coordinates = (text(pom, "groupId") or text(pom, "parent/m:groupId"), text(pom, "artifactId"),
                       text(pom, "version") or text(pom, "parent/m:version"))
        if coordinates != (str(group_path).replace(os.sep, "."), artifact_id, version):
            self.report("layout", pom_path, f"coordinates {':'.join(map(str, coordinates))} do not match the path")
        for element in REQUIRED_ELEMENTS:
            if not text(pom, element):
                self.report("pom", pom_path, f"no <{element.replace('m:', '')}>")
        self.check_release(pom, pom_path)
        packaging = text(pom, "packaging") or "jar"
        if packaging != "pom":
            for suffix in ("-sources", "-javadoc"):
                jar = directory / f"{artifact_id}-{version}{suffix}.jar"
                if not jar.is_file():
                    self.report("files", directory, f"no {jar.name}")
            main = directory / f"{artifact_id}-{version}.jar"
            if not main.is_file() and not classified_jars(directory, artifact_id, version):
                self.report("files", directory, f"no {main.name} (nor a classified one)")

    def check_release(self, pom, pom_path):
        versions = {"the version": text(pom, "version")}
        if pom.find("m:parent", NS) is not None:
            versions["the parent"] = text(pom, "parent/m:version")
        if versions["the version"] is None:
            versions["the version"] = versions.get("the parent")
        # A dependency without a version takes the parent's managed one, checked in the parent.
        for dependency in pom.iterfind(".//m:dependency", NS):
            if text(dependency, "version") is not None:
                name = f"dependency {text(dependency, 'groupId')}:{text(dependency, 'artifactId')}"
                versions[name] = text(dependency, "version")
        for what, version in versions.items():
            if unreleased(version):
                self.report("release", pom_path, f"{what} has version {version}")

    def check_checksums(self, path):
        for extension, algorithm in staging_repo.CHECKSUMS.items():
            checksum = staging_repo.companion(path, extension)
            if not checksum.is_file():
                if extension in staging_repo.REQUIRED_CHECKSUMS:
                    self.report("checksums", path, f"no .{extension}")
                continue
            recorded = checksum.read_text().split()
            if not recorded or recorded[0].lower() != staging_repo.digest(path, algorithm):
                self.report("checksums", path, f".{extension} does not match")

    def check_signature(self, path):
        signature = staging_repo.companion(path, staging_repo.SIGNATURE)
        if not signature.is_file():
            self.report("signatures", path, "no .asc")
            return
        env = dict(os.environ, **({"GNUPGHOME": self.gnupghome} if self.gnupghome else {}))
        result = subprocess.run(["gpg", "--batch", "--verify", str(signature), str(path)],
                                env=env, capture_output=True, text=True)
        if result.returncode != 0:
            reason = re.sub(r"\s+", " ", result.stderr.strip().splitlines()[-1] if result.stderr.strip() else "")
            self.report("signatures", path, f".asc does not verify ({reason})")

    def check_legal(self, path):
        try:
            with zipfile.ZipFile(path) as jar:
                names = set(jar.namelist())
                for name, expected in self.legal.items():
                    entry = f"META-INF/{name}"
                    if entry not in names:
                        self.report("legal", path, f"no {entry}")
                    elif expected is not None and jar.read(entry) != expected:
                        self.report("legal", path, f"{entry} differs from the repository's {name}")
        except zipfile.BadZipFile:
            self.report("legal", path, "not a jar")


def legal_files(arguments):
    """{NAME: bytes} from NAME=FILE arguments; without any, LICENSE and NOTICE of any content."""
    if not arguments:
        return {"LICENSE": None, "NOTICE": None}
    legal = {}
    for argument in arguments:
        name, separator, path = argument.partition("=")
        if not separator or not name or not path:
            raise SystemExit(f"validate_staging: --legal-file takes NAME=FILE, not '{argument}'")
        legal[name] = pathlib.Path(path).read_bytes()
    return legal


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir")
    parser.add_argument("--gnupghome", help="the key ring that verifies the signatures")
    parser.add_argument("--legal-file", action="append", default=[], metavar="NAME=FILE",
                        help="every jar's META-INF/NAME must equal FILE (repeat it for each file)")
    parser.add_argument("--skip", action="append", default=[], metavar="RULE",
                        help="a rule not to check (an unsigned trial staging skips signatures)")
    args = parser.parse_args()
    problems = Validator(args.dir, args.gnupghome, legal_files(args.legal_file), args.skip).run()
    for problem in problems:
        print(problem)
    count = len(staging_repo.artifacts(args.dir))
    skipped = f" (not checked: {', '.join(args.skip)})" if args.skip else ""
    print(f"{args.dir}: {count} artifacts, {len(problems)} broken requirements{skipped}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
