"""Prints the POM of a runtime artifact (one classified jar per platform; scripts/release/runtime-artifact.sh):
io.tfjni:tfjni-tensorflow-VARIANT:TF_VERSION for KIND cpu or gpu, io.tfjni:tfjni-litert:LITERT_VERSION
for KIND litert. The project's URL, developers, SCM and issue management are taken from java/pom.xml,
the one place they are written; the license is the runtime's, since the binaries inside are its.

    runtime_pom.py KIND VERSION CLASSIFIER...
"""

import argparse
import copy
import pathlib
import sys
import xml.etree.ElementTree as ET

NAMESPACE = "http://maven.apache.org/POM/4.0.0"
PROJECT_POM = pathlib.Path(__file__).resolve().parents[2] / "java" / "pom.xml"
# The project's elements a runtime artifact shares with the Java modules, in the POM's order.
SHARED = ("url", "developers", "scm", "issueManagement")
APACHE_2 = ("Apache License, Version 2.0", "https://www.apache.org/licenses/LICENSE-2.0.txt")


def element(tag, text=None, children=()):
    node = ET.Element(f"{{{NAMESPACE}}}{tag}")
    node.text = text
    node.extend(children)
    return node


def shared_metadata(project_pom):
    """The SHARED elements of the project POM, without Maven's inheritance attributes (child.*)."""
    root = ET.parse(project_pom).getroot()
    found = []
    for tag in SHARED:
        node = root.find(f"{{{NAMESPACE}}}{tag}")
        if node is None:
            raise SystemExit(f"runtime_pom: {project_pom} has no <{tag}>")
        node = copy.deepcopy(node)
        for each in node.iter():
            each.attrib.clear()
        found.append(node)
    return found


def described(kind, version, classifiers):
    """The artifactId, name, description and license comment of a kind's artifact."""
    platforms = ", ".join(classifiers)
    if kind == "litert":
        return ("tfjni-litert", f"LiteRT {version} runtime for tfjni",
                f"LiteRT's runtime library (libLiteRtRuntimeCApi.so, its C API, {version}) for tfjni's "
                f"LiteRtModel: the LiteRT authors' binary, unmodified, from PyPI's ai-edge-litert wheels, "
                f"with LiteRT's LICENSE; one jar per platform (classifiers: {platforms}).",
                "LiteRT's license (META-INF/LICENSE, from LiteRT's repository at the release's tag); the "
                "wheel's METADATA, which declares it, is beside it")
    return (f"tfjni-tensorflow-{kind}", f"TensorFlow {version} runtime ({kind}) for tfjni",
            f"TensorFlow's C API libraries (libtensorflow {version}, {kind}) for tfjni: the "
            f"TensorFlow authors' binaries, unmodified, from TensorFlow's official wheels, with "
            f"TensorFlow's LICENSE and THIRD_PARTY_NOTICES.txt; one jar per platform "
            f"(classifiers: {platforms}).",
            "TensorFlow's license; its third-party components' notices are in "
            "META-INF/THIRD_PARTY_NOTICES.txt")


def runtime_pom(kind, version, classifiers, project_pom=PROJECT_POM):
    artifact, name, description, license_comment = described(kind, version, classifiers)
    license_name, license_url = APACHE_2
    url, *people_and_places = shared_metadata(project_pom)
    project = element("project", children=[
        element("modelVersion", "4.0.0"),
        element("groupId", "io.tfjni"),
        element("artifactId", artifact),
        element("version", version),
        element("name", name),
        element("description", description),
        url,
        element("licenses", children=[element("license", children=[
            element("name", license_name), element("url", license_url), element("distribution", "repo"),
            element("comments", license_comment)])]),
        *people_and_places,
    ])
    ET.register_namespace("", NAMESPACE)
    ET.indent(project)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(project, encoding="unicode") + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=("cpu", "gpu", "litert"))
    parser.add_argument("version")
    parser.add_argument("classifiers", nargs="+")
    args = parser.parse_args()
    sys.stdout.write(runtime_pom(args.kind, args.version, args.classifiers))
    return 0


if __name__ == "__main__":
    sys.exit(main())
