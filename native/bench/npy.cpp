#include "npy.h"

#include <bit>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace floor_bench {
namespace {

static_assert(std::endian::native == std::endian::little, "the .npy data is copied as is");

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw std::runtime_error(path + ": " + why);
}

// The header is a Python dict literal; we need the text after "'key':".
std::string value_after(const std::string& header, const std::string& key, const std::string& path) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos) fail(path, "no '" + key + "' in the header");
  at = header.find(':', at);
  if (at == std::string::npos) fail(path, "malformed header");
  return header.substr(at + 1);
}

std::vector<int64_t> parse_shape(const std::string& after_key, const std::string& path) {
  size_t open = after_key.find('('), close = after_key.find(')');
  if (open == std::string::npos || close == std::string::npos || close < open) fail(path, "malformed shape");
  std::vector<int64_t> shape;
  std::string dims = after_key.substr(open + 1, close - open - 1);
  size_t pos = 0;
  while (pos < dims.size()) {
    size_t comma = dims.find(',', pos);
    if (comma == std::string::npos) comma = dims.size();
    std::string dim = dims.substr(pos, comma - pos);
    if (dim.find_first_not_of(' ') != std::string::npos) shape.push_back(std::stoll(dim));
    pos = comma + 1;
  }
  return shape;
}

}  // namespace

FloatArray read_npy_float32(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) fail(path, "not a .npy file");

  // Version 1 stores the header length in 2 bytes, versions 2 and 3 in 4.
  const auto byte = [&](size_t i) { return static_cast<size_t>(static_cast<unsigned char>(bytes[i])); };
  const size_t major = byte(6);
  size_t header_start = 10, header_len = byte(8) | byte(9) << 8;
  if (major >= 2) {
    if (bytes.size() < 12) fail(path, "truncated header");
    header_start = 12;
    header_len = byte(8) | byte(9) << 8 | byte(10) << 16 | byte(11) << 24;
  }
  if (bytes.size() < header_start + header_len) fail(path, "truncated header");
  const std::string header = bytes.substr(header_start, header_len);

  if (value_after(header, "descr", path).find("'<f4'") == std::string::npos) fail(path, "not little-endian float32");
  if (value_after(header, "fortran_order", path).find("False") == std::string::npos) fail(path, "Fortran order");

  FloatArray array;
  array.shape = parse_shape(value_after(header, "shape", path), path);
  size_t count = 1;
  for (int64_t dim : array.shape) {
    if (dim < 0) fail(path, "negative dimension");
    count *= static_cast<size_t>(dim);
  }
  const size_t data_start = header_start + header_len;
  if (bytes.size() - data_start != count * sizeof(float)) fail(path, "data size does not match the shape");
  array.values.resize(count);
  std::memcpy(array.values.data(), bytes.data() + data_start, count * sizeof(float));
  return array;
}

}  // namespace floor_bench
