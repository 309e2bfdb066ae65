"""Prints the POM of a TensorFlow runtime artifact (io.tfjni:tfjni-tensorflow-VARIANT:TF_VERSION,
one classified jar per platform; scripts/runtime-artifact.sh): the project's URL, developers, SCM
and issue management taken from java/pom.xml, the one place they are written, with TensorFlow's
license, since the binaries inside are TensorFlow's.

    runtime_pom.py VARIANT TF_VERSION CLASSIFIER...
"""

import argparse
import copy
import pathlib
import sys
import xml.etree.ElementTree as ET

NAMESPACE = "http://maven.apache.org/POM/4.0.0"
PROJECT_POM = pathlib.Path(__file__).resolve().parent.parent / "java" / "pom.xml"
# The project's elements a runtime artifact shares with the Java modules, in the POM's order.
SHARED = ("url", "developers", "scm", "issueManagement")
TENSORFLOW_LICENSE = ("Apache License, Version 2.0", "https://www.apache.org/licenses/LICENSE-2.0.txt")


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


def runtime_pom(variant, tf_version, classifiers, project_pom=PROJECT_POM):
    artifact = f"tfjni-tensorflow-{variant}"
    description = (f"TensorFlow's C API libraries (libtensorflow {tf_version}, {variant}) for tfjni: the "
                   f"TensorFlow authors' binaries, unmodified, from TensorFlow's official wheels, with "
                   f"TensorFlow's LICENSE and THIRD_PARTY_NOTICES.txt; one jar per platform "
                   f"(classifiers: {', '.join(classifiers)}).")
    license_name, license_url = TENSORFLOW_LICENSE
    url, *people_and_places = shared_metadata(project_pom)
    project = element("project", children=[
        element("modelVersion", "4.0.0"),
        element("groupId", "io.tfjni"),
        element("artifactId", artifact),
        element("version", tf_version),
        element("name", f"TensorFlow {tf_version} runtime ({variant}) for tfjni"),
        element("description", description),
        url,
        element("licenses", children=[element("license", children=[
            element("name", license_name), element("url", license_url), element("distribution", "repo"),
            element("comments", "TensorFlow's license; its third-party components' notices are in "
                                "META-INF/THIRD_PARTY_NOTICES.txt")])]),
        *people_and_places,
    ])
    ET.register_namespace("", NAMESPACE)
    ET.indent(project)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(project, encoding="unicode") + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant")
    parser.add_argument("tf_version")
    parser.add_argument("classifiers", nargs="+")
    args = parser.parse_args()
    sys.stdout.write(runtime_pom(args.variant, args.tf_version, args.classifiers))
    return 0


if __name__ == "__main__":
    sys.exit(main())
