// The TensorFlow version a Python package says it was built for. An op library built against
// another TensorFlow's headers can load without any error (every symbol it needs may still be
// there) and then break at run time on a changed class layout, so tfjni reads the requirement
// the package's wheel declares (`Requires-Dist: tensorflow<2.17,>=2.16.1` in its
// .dist-info/METADATA) and refuses the library before loading it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tfjni {

struct PackageRequirement {
  std::string package;      // e.g. "tensorflow_text-2.16.1" (the .dist-info's name)
  std::string requirement;  // e.g. "tensorflow<2.17,>=2.16.1"
  bool satisfied = false;   // by the version checked against
};

// Finds the .dist-info of the installed package that contains `library` (walking up from the
// file; a package directory P matches a sibling P-<version>.dist-info or one whose top_level.txt
// names P) and checks `tensorflow_version` against its TensorFlow requirements (distributions
// tensorflow, tensorflow-cpu, -gpu, -intel, -macos; `extra ==` requirements are ignored, and one
// satisfied requirement is enough since platform markers pick among them). Empty when there is
// no such metadata or it names no TensorFlow requirement: nothing to check.
std::optional<PackageRequirement> tensorflow_requirement_of(const std::string& library,
                                                            std::string_view tensorflow_version);

// Whether `version` (e.g. "2.18.0") meets a PEP 440 specifier list such as "<2.17,>=2.16.1" or
// "==2.18.*" (release numbers only; a pre-release suffix is ignored). Exposed for tests.
bool version_satisfies(std::string_view version, std::string_view specifiers);

}  // namespace tfjni
