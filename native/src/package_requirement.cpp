#include "tfjni/package_requirement.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <vector>

#include "tfjni/utf8_path.h"

namespace tfjni {
namespace fs = std::filesystem;
namespace {

// TensorFlow's distributions on the package index: any of them satisfies a requirement on it.
constexpr std::string_view kTensorFlowDistributions[] = {
    "tensorflow", "tensorflow-cpu", "tensorflow-gpu", "tensorflow-intel", "tensorflow-macos"};

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

// PEP 503 normalisation: lower case, runs of "-", "_", "." become "-".
std::string normalized_name(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c == '-' || c == '_' || c == '.') {
      if (out.empty() || out.back() != '-') out += '-';
    } else {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return out;
}

// The release numbers of a version, e.g. "2.16.1rc0" -> {2, 16, 1}; "*" ends the list.
std::vector<long> release_of(std::string_view version) {
  std::vector<long> parts;
  size_t i = 0;
  while (i < version.size() && std::isdigit(static_cast<unsigned char>(version[i]))) {
    long value = 0;
    while (i < version.size() && std::isdigit(static_cast<unsigned char>(version[i]))) {
      value = value * 10 + (version[i++] - '0');
    }
    parts.push_back(value);
    if (i >= version.size() || version[i] != '.') break;
    ++i;
  }
  return parts;
}

// Compares release numbers, the shorter padded with zeros.
int compare(std::vector<long> a, std::vector<long> b) {
  size_t n = std::max(a.size(), b.size());
  a.resize(n, 0);
  b.resize(n, 0);
  return a < b ? -1 : (a == b ? 0 : 1);
}

bool satisfies_one(const std::vector<long>& version, std::string_view specifier) {
  specifier = trim(specifier);
  size_t op_end = 0;
  while (op_end < specifier.size() && std::string_view("<>=!~").find(specifier[op_end]) != std::string_view::npos) {
    ++op_end;
  }
  std::string_view op = specifier.substr(0, op_end);
  std::string_view operand = trim(specifier.substr(op_end));
  std::vector<long> bound = release_of(operand);
  bool wildcard = operand.size() >= 2 && operand.substr(operand.size() - 2) == ".*";
  if (wildcard && (op == "==" || op == "!=")) {
    bool prefix = version.size() >= bound.size() && std::equal(bound.begin(), bound.end(), version.begin());
    return (op == "==") == prefix;
  }
  int order = compare(version, bound);
  if (op == "==" || op == "===") return order == 0;
  if (op == "!=") return order != 0;
  if (op == "<") return order < 0;
  if (op == "<=") return order <= 0;
  if (op == ">") return order > 0;
  if (op == ">=") return order >= 0;
  if (op == "~=") {  // compatible release: >= bound and the same release up to its last number
    if (order < 0 || bound.size() < 2) return order >= 0;
    return std::equal(bound.begin(), bound.end() - 1, version.begin(),
                      version.begin() + std::min(version.size(), bound.size() - 1));
  }
  return true;  // an operator we do not know restricts nothing we can check
}

// "Requires-Dist: tensorflow<2.17,>=2.16.1; marker" -> the requirement if it is on TensorFlow
// and not for an extra.
std::optional<std::string> tensorflow_requirement(std::string_view line) {
  constexpr std::string_view kKey = "Requires-Dist:";
  if (line.substr(0, kKey.size()) != kKey) return std::nullopt;
  std::string_view value = trim(line.substr(kKey.size()));
  size_t semicolon = value.find(';');
  if (semicolon != std::string_view::npos) {
    if (value.substr(semicolon).find("extra") != std::string_view::npos) return std::nullopt;
    value = trim(value.substr(0, semicolon));
  }
  size_t name_end = 0;
  while (name_end < value.size() &&
         (std::isalnum(static_cast<unsigned char>(value[name_end])) || value[name_end] == '-' ||
          value[name_end] == '_' || value[name_end] == '.')) {
    ++name_end;
  }
  std::string name = normalized_name(value.substr(0, name_end));
  if (std::find(std::begin(kTensorFlowDistributions), std::end(kTensorFlowDistributions), name) ==
      std::end(kTensorFlowDistributions)) {
    return std::nullopt;
  }
  return std::string(value);
}

// The specifiers of a requirement: "tensorflow (<2.17,>=2.16.1)" -> "<2.17,>=2.16.1".
std::string specifiers_of(std::string_view requirement) {
  std::string out;
  size_t start = requirement.find_first_of("<>=!~");
  if (start == std::string_view::npos) return out;
  for (char c : requirement.substr(start)) {
    if (c != '(' && c != ')' && !std::isspace(static_cast<unsigned char>(c))) out += c;
  }
  return out;
}

bool names_package(const fs::path& dist_info, const std::string& package) {
  std::string stem = utf8_string(dist_info.filename());
  stem = stem.substr(0, stem.size() - std::string_view(".dist-info").size());
  std::string project = stem.substr(0, stem.find('-'));
  if (normalized_name(project) == normalized_name(package)) return true;
  std::ifstream top_level(dist_info / "top_level.txt");
  for (std::string line; std::getline(top_level, line);) {
    if (trim(line) == package) return true;
  }
  return false;
}

std::optional<fs::path> dist_info_of(const fs::path& library) {
  std::error_code error;
  fs::path package = library.parent_path();
  for (int depth = 0; depth < 16 && package.has_relative_path(); ++depth, package = package.parent_path()) {
    fs::path site = package.parent_path();
    std::vector<fs::path> candidates;
    for (fs::directory_iterator it(site, error), end; !error && it != end; it.increment(error)) {
      const fs::path& entry = it->path();
      if (entry.extension() == ".dist-info" && names_package(entry, utf8_string(package.filename()))) {
        candidates.push_back(entry);
      }
    }
    std::sort(candidates.begin(), candidates.end());
    if (!candidates.empty()) return candidates.front();
    error.clear();
  }
  return std::nullopt;
}

}  // namespace

bool version_satisfies(std::string_view version, std::string_view specifiers) {
  std::vector<long> release = release_of(version);
  while (!specifiers.empty()) {
    size_t comma = specifiers.find(',');
    if (!satisfies_one(release, specifiers.substr(0, comma))) return false;
    if (comma == std::string_view::npos) break;
    specifiers.remove_prefix(comma + 1);
  }
  return true;
}

std::optional<PackageRequirement> tensorflow_requirement_of(const std::string& library,
                                                            std::string_view tensorflow_version) {
  std::optional<fs::path> dist_info = dist_info_of(utf8_path(library));
  if (!dist_info) return std::nullopt;
  std::ifstream metadata(*dist_info / "METADATA");
  std::optional<PackageRequirement> found;
  for (std::string line; std::getline(metadata, line);) {
    if (line.empty()) break;  // the headers end at the first empty line; the description follows
    std::optional<std::string> requirement = tensorflow_requirement(line);
    if (!requirement) continue;
    bool satisfied = version_satisfies(tensorflow_version, specifiers_of(*requirement));
    if (!found || (satisfied && !found->satisfied)) {
      std::string name = utf8_string(dist_info->filename());
      found = PackageRequirement{name.substr(0, name.size() - std::string_view(".dist-info").size()),
                                 *requirement, satisfied};
    }
  }
  return found;
}

}  // namespace tfjni
