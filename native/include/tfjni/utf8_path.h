// Paths in tfjni are UTF-8 strings: Java's strings reach the core as UTF-8, and TensorFlow's file
// systems take UTF-8 on every platform. std::filesystem::path, and the file streams that take a
// plain char string, read it in the platform's narrow encoding instead: UTF-8 on Linux and macOS,
// but on Windows the ANSI code page, in which a character outside that code page becomes '?' and
// the file is not found. Every conversion between a path string and a path goes through these.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace tfjni {

// The path a UTF-8 string names.
inline std::filesystem::path utf8_path(std::string_view utf8) {
  return std::filesystem::path(std::u8string(utf8.begin(), utf8.end()));
}

// A path as a UTF-8 string (for messages, and for TensorFlow's and tfjni's string APIs).
inline std::string utf8_string(const std::filesystem::path& path) {
  std::u8string utf8 = path.u8string();
  return std::string(utf8.begin(), utf8.end());
}

}  // namespace tfjni
