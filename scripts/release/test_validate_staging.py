"""Tests of validate_staging.py: a staging directory that meets every requirement passes, and one
with a single requirement broken fails naming that rule. Run: python3 scripts/release/test_validate_staging.py
(needs gpg; the key is a throwaway one in a temporary GNUPGHOME)."""

import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest
import zipfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import staging_repo  # noqa: E402
from runtime_pom import runtime_pom  # noqa: E402
from validate_staging import Validator  # noqa: E402

LICENSE = b"the license\n"
NOTICE = b"the notice\n"
METADATA = """
  <name>{artifact}</name>
  <description>a test artifact</description>
  <url>https://example.invalid/tfjni</url>
  <licenses><license><name>Apache License, Version 2.0</name>
    <url>https://www.apache.org/licenses/LICENSE-2.0.txt</url></license></licenses>
  <developers><developer><name>The tfjni Authors</name></developer></developers>
  <scm><url>https://example.invalid/tfjni</url><connection>scm:git:https://example.invalid/tfjni.git</connection></scm>"""


def pom(artifact, packaging, extra=""):
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent><groupId>io.tfjni</groupId><artifactId>tfjni-parent</artifactId><version>1.2.3</version></parent>
  <artifactId>{artifact}</artifactId>
  <packaging>{packaging}</packaging>{METADATA.format(artifact=artifact)}{extra}
</project>
"""


PARENT_POM = f"""<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.tfjni</groupId>
  <artifactId>tfjni-parent</artifactId>
  <version>1.2.3</version>
  <packaging>pom</packaging>{METADATA.format(artifact="tfjni-parent")}
</project>
"""
DEPENDENCY = ("<dependencies><dependency><groupId>info.picocli</groupId><artifactId>picocli</artifactId>"
              "<version>{version}</version></dependency></dependencies>")


def write_jar(path, entries):
    with zipfile.ZipFile(path, "w") as jar:
        for name, data in entries.items():
            jar.writestr(name, data)


class ValidateStagingTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.gnupghome = tempfile.mkdtemp(prefix="gpg")
        cls.env = dict(os.environ, GNUPGHOME=cls.gnupghome)
        subprocess.run(["gpg", "--batch", "--quiet", "--passphrase", "", "--quick-gen-key",
                        "tfjni test <test@tfjni.invalid>", "ed25519", "sign", "never"],
                       env=cls.env, check=True, capture_output=True)
        cls.key = "test@tfjni.invalid"

    @classmethod
    def tearDownClass(cls):
        subprocess.run(["gpgconf", "--kill", "gpg-agent"], env=cls.env, check=False)
        shutil.rmtree(cls.gnupghome, ignore_errors=True)

    def setUp(self):
        self.root = pathlib.Path(tempfile.mkdtemp(prefix="staging"))
        self.addCleanup(shutil.rmtree, self.root, ignore_errors=True)
        self.lib = self.root / "io/tfjni/tfjni/1.2.3"
        self.lib.mkdir(parents=True)
        parent = self.root / "io/tfjni/tfjni-parent/1.2.3"
        parent.mkdir(parents=True)
        (parent / "tfjni-parent-1.2.3.pom").write_text(PARENT_POM)
        self.write_library(pom("tfjni", "jar"))

    def write_library(self, pom_text, legal=None):
        legal = {"META-INF/LICENSE": LICENSE, "META-INF/NOTICE": NOTICE} if legal is None else legal
        (self.lib / "tfjni-1.2.3.pom").write_text(pom_text)
        write_jar(self.lib / "tfjni-1.2.3.jar", {**legal, "io/tfjni/A.class": b"\xca\xfe"})
        write_jar(self.lib / "tfjni-1.2.3-sources.jar", {**legal, "io/tfjni/A.java": b"class A {}"})
        write_jar(self.lib / "tfjni-1.2.3-javadoc.jar", {**legal, "index.html": b"<html/>"})

    def write_runtime_artifact(self, platforms, legal=None):
        """A runtime artifact as scripts/release/runtime-artifact.sh writes it: a POM from runtime_pom.py,
        a jar per platform and the -sources and -javadoc jars; returns its version directory."""
        legal = {"META-INF/LICENSE": LICENSE, "META-INF/NOTICE": NOTICE} if legal is None else legal
        directory = self.root / "io/tfjni/tfjni-tensorflow-cpu/2.18.0"
        directory.mkdir(parents=True)
        (directory / "tfjni-tensorflow-cpu-2.18.0.pom").write_text(runtime_pom("cpu", "2.18.0", platforms))
        for classifier in (*platforms, "sources", "javadoc"):
            write_jar(directory / f"tfjni-tensorflow-cpu-2.18.0-{classifier}.jar", {**legal, "README.md": b"r"})
        return directory

    def finish(self):
        old = os.environ.get("GNUPGHOME")
        os.environ["GNUPGHOME"] = self.gnupghome
        try:
            staging_repo.finish(self.root, self.key)
        finally:
            if old is None:
                del os.environ["GNUPGHOME"]
            else:
                os.environ["GNUPGHOME"] = old

    def problems(self):
        return Validator(self.root, self.gnupghome, {"LICENSE": LICENSE, "NOTICE": NOTICE}).run()

    def assertBroken(self, rule, fragment):
        problems = self.problems()
        self.assertTrue(problems, "the validator passed a broken staging directory")
        self.assertTrue(all(p.startswith(rule + ":") for p in problems), problems)
        self.assertTrue(any(fragment in p for p in problems), problems)

    def test_a_complete_staging_directory_passes(self):
        self.finish()
        self.assertEqual([], self.problems())
        # The parent's POM and the library's POM and 3 jars, each with 4 checksums and a signature.
        self.assertEqual(5 * 6, sum(1 for p in self.root.rglob("*") if p.is_file()))

    def test_maven_metadata_is_not_staged(self):
        (self.lib.parent / "maven-metadata.xml").write_text("<metadata/>")
        self.finish()
        self.assertFalse((self.lib.parent / "maven-metadata.xml").exists())

    def test_layout_pom_missing(self):
        self.finish()
        for name in ("tfjni-1.2.3.pom", "tfjni-1.2.3.pom.asc", "tfjni-1.2.3.pom.md5",
                     "tfjni-1.2.3.pom.sha1", "tfjni-1.2.3.pom.sha256", "tfjni-1.2.3.pom.sha512"):
            (self.lib / name).unlink()
        self.assertBroken("layout", "no tfjni-1.2.3.pom")

    def test_layout_coordinates_differ_from_path(self):
        self.write_library(pom("tfjni", "jar").replace("<artifactId>tfjni</artifactId>",
                                                       "<artifactId>tfjni-core</artifactId>"))
        self.finish()
        self.assertBroken("layout", "do not match the path")

    def test_pom_each_required_element(self):
        required = {"name": "<name>tfjni</name>", "description": "<description>a test artifact</description>",
                    "url": "<url>https://example.invalid/tfjni</url>\n",
                    "licenses": "<licenses>", "developers": "<developers>", "scm": "<scm>"}
        for element, needle in required.items():
            with self.subTest(element=element):
                text = pom("tfjni", "jar")
                if element in ("licenses", "developers", "scm"):
                    start = text.index(needle)
                    end = text.index(f"</{element}>") + len(f"</{element}>")
                    text = text[:start] + text[end:]
                else:
                    self.assertIn(needle, text)
                    text = text.replace(needle, "", 1)
                self.write_library(text)
                self.finish()
                self.assertBroken("pom", f"no <{element}")

    def test_release_snapshot_version(self):
        self.write_library(pom("tfjni", "jar").replace("<packaging>", "<version>1.2.3-SNAPSHOT</version><packaging>"))
        self.finish()
        problems = self.problems()
        self.assertTrue(any(p.startswith("release:") and "1.2.3-SNAPSHOT" in p for p in problems), problems)

    def test_release_snapshot_dependency(self):
        self.write_library(pom("tfjni", "jar", DEPENDENCY.format(version="4.7.8-SNAPSHOT")))
        self.finish()
        self.assertBroken("release", "dependency info.picocli:picocli has version 4.7.8-SNAPSHOT")

    def test_release_unresolved_property(self):
        self.write_library(pom("tfjni", "jar", DEPENDENCY.format(version="${picocli.version}")))
        self.finish()
        self.assertBroken("release", "${picocli.version}")

    def test_files_sources_jar_missing(self):
        (self.lib / "tfjni-1.2.3-sources.jar").unlink()
        self.finish()
        self.assertBroken("files", "no tfjni-1.2.3-sources.jar")

    def test_files_javadoc_jar_missing(self):
        (self.lib / "tfjni-1.2.3-javadoc.jar").unlink()
        self.finish()
        self.assertBroken("files", "no tfjni-1.2.3-javadoc.jar")

    def test_files_main_jar_missing(self):
        (self.lib / "tfjni-1.2.3.jar").unlink()
        self.finish()
        self.assertBroken("files", "no tfjni-1.2.3.jar")

    def test_files_classified_jars_stand_for_the_main_jar(self):
        self.write_runtime_artifact(["linux-x86_64", "macos-arm64"])
        self.finish()
        self.assertEqual([], self.problems())

    def test_files_no_class_jar_at_all(self):
        directory = self.write_runtime_artifact(["linux-x86_64"])
        (directory / "tfjni-tensorflow-cpu-2.18.0-linux-x86_64.jar").unlink()
        self.finish()
        self.assertBroken("files", "no tfjni-tensorflow-cpu-2.18.0.jar (nor a classified one)")

    def test_legal_files_of_the_command_line(self):
        """--legal-file NAME=FILE names the legal files, as for the runtime artifacts' TensorFlow ones."""
        notices = self.root.parent / f"{self.root.name}-THIRD_PARTY_NOTICES.txt"
        license_file = self.root.parent / f"{self.root.name}-LICENSE"
        notices.write_bytes(NOTICE)
        license_file.write_bytes(LICENSE)
        self.addCleanup(notices.unlink)
        self.addCleanup(license_file.unlink)
        shutil.rmtree(self.root / "io/tfjni/tfjni")
        shutil.rmtree(self.root / "io/tfjni/tfjni-parent")
        directory = self.write_runtime_artifact(
            ["linux-x86_64"], legal={"META-INF/LICENSE": LICENSE, "META-INF/THIRD_PARTY_NOTICES.txt": NOTICE})
        self.finish()
        command = [sys.executable, str(HERE / "validate_staging.py"), str(self.root), "--gnupghome",
                   self.gnupghome, "--legal-file", f"LICENSE={license_file}",
                   "--legal-file", f"THIRD_PARTY_NOTICES.txt={notices}"]
        passed = subprocess.run(command, capture_output=True, text=True)
        self.assertEqual(0, passed.returncode, passed.stdout + passed.stderr)
        write_jar(directory / "tfjni-tensorflow-cpu-2.18.0-sources.jar", {"META-INF/LICENSE": LICENSE})
        staging_repo.write_checksums(directory / "tfjni-tensorflow-cpu-2.18.0-sources.jar")
        failed = subprocess.run(command + ["--skip", "signatures"], capture_output=True, text=True)
        self.assertEqual(1, failed.returncode, failed.stdout + failed.stderr)
        self.assertEqual("legal: io/tfjni/tfjni-tensorflow-cpu/2.18.0/tfjni-tensorflow-cpu-2.18.0-sources.jar: "
                         "no META-INF/THIRD_PARTY_NOTICES.txt", failed.stdout.strip())

    def test_checksums_missing(self):
        self.finish()
        (self.lib / "tfjni-1.2.3.jar.sha1").unlink()
        self.assertBroken("checksums", "no .sha1")

    def test_checksums_not_matching(self):
        self.finish()
        (self.lib / "tfjni-1.2.3.jar.md5").write_text("0" * 32)
        self.assertBroken("checksums", ".md5 does not match")

    def test_checksums_optional_one_not_matching(self):
        self.finish()
        (self.lib / "tfjni-1.2.3.jar.sha512").write_text("0" * 128)
        self.assertBroken("checksums", ".sha512 does not match")

    def test_signatures_missing(self):
        self.finish()
        (self.lib / "tfjni-1.2.3.jar.asc").unlink()
        self.assertBroken("signatures", "no .asc")

    def test_signatures_not_verifying(self):
        self.finish()
        # Another artifact's signature: a valid signature by the key, of other bytes.
        shutil.copy(self.lib / "tfjni-1.2.3-sources.jar.asc", self.lib / "tfjni-1.2.3.jar.asc")
        self.assertBroken("signatures", "does not verify")

    def test_signatures_unknown_key(self):
        staging_repo.finish(self.root, None)
        other = tempfile.mkdtemp(prefix="gpg")
        env = dict(os.environ, GNUPGHOME=other)
        try:
            subprocess.run(["gpg", "--batch", "--quiet", "--passphrase", "", "--quick-gen-key",
                            "stranger <stranger@tfjni.invalid>", "ed25519", "sign", "never"],
                           env=env, check=True, capture_output=True)
            for path in staging_repo.artifacts(self.root):
                subprocess.run(["gpg", "--batch", "--yes", "--armor", "--detach-sign", "--output",
                                str(staging_repo.companion(path, "asc")), str(path)], env=env, check=True)
        finally:
            subprocess.run(["gpgconf", "--kill", "gpg-agent"], env=env, check=False)
            shutil.rmtree(other, ignore_errors=True)
        self.assertBroken("signatures", "does not verify")

    def test_legal_notice_missing(self):
        self.write_library(pom("tfjni", "jar"), legal={"META-INF/LICENSE": LICENSE})
        self.finish()
        self.assertBroken("legal", "no META-INF/NOTICE")

    def test_legal_license_differs(self):
        self.write_library(pom("tfjni", "jar"), legal={"META-INF/LICENSE": b"MIT\n", "META-INF/NOTICE": NOTICE})
        self.finish()
        self.assertBroken("legal", "META-INF/LICENSE differs")

    def test_legal_files_missing_from_the_javadoc_jar(self):
        self.write_library(pom("tfjni", "jar"))
        write_jar(self.lib / "tfjni-1.2.3-javadoc.jar", {"index.html": b"<html/>"})
        self.finish()
        self.assertBroken("legal", "tfjni-1.2.3-javadoc.jar: no META-INF/LICENSE")


if __name__ == "__main__":
    unittest.main()
