#include "tfjni/wire_format.h"

#include <cstring>

#include "tfjni/error.h"

namespace tfjni::wire {
namespace {

[[noreturn]] void malformed(const char* what) {
  throw_error(TF_DATA_LOSS, std::string("malformed protocol buffer: ") + what);
}

}  // namespace

uint64_t take_varint(std::string_view& in) {
  uint64_t value = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (in.empty()) malformed("truncated varint");
    auto byte = static_cast<uint8_t>(in.front());
    in.remove_prefix(1);
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return value;
  }
  malformed("varint longer than 10 bytes");
}

namespace {

uint64_t read_fixed(std::string_view& in, size_t size) {
  if (in.size() < size) malformed("truncated fixed-width field");
  uint64_t value = 0;
  for (size_t i = 0; i < size; ++i) value |= static_cast<uint64_t>(static_cast<uint8_t>(in[i])) << (8 * i);
  in.remove_prefix(size);
  return value;
}

}  // namespace

bool Reader::next() {
  if (rest_.empty()) return false;
  uint64_t key = take_varint(rest_);
  uint64_t field = key >> 3;
  if (field == 0 || field > 0x1fffffff) malformed("invalid field number");
  field_ = static_cast<uint32_t>(field);
  payload_ = {};
  scalar_ = 0;
  switch (key & 7) {
    case 0:
      type_ = WireType::kVarint;
      scalar_ = take_varint(rest_);
      break;
    case 1:
      type_ = WireType::kFixed64;
      scalar_ = read_fixed(rest_, 8);
      break;
    case 2: {
      type_ = WireType::kLengthDelimited;
      uint64_t length = take_varint(rest_);
      if (length > rest_.size()) malformed("length-delimited field runs past the end");
      payload_ = rest_.substr(0, static_cast<size_t>(length));
      rest_.remove_prefix(static_cast<size_t>(length));
      break;
    }
    case 5:
      type_ = WireType::kFixed32;
      scalar_ = read_fixed(rest_, 4);
      break;
    default:
      malformed("unsupported wire type");
  }
  return true;
}

uint64_t Reader::varint() const {
  if (type_ != WireType::kVarint) malformed("expected a varint field");
  return scalar_;
}

uint64_t Reader::fixed64() const {
  if (type_ != WireType::kFixed64) malformed("expected a fixed64 field");
  return scalar_;
}

uint32_t Reader::fixed32() const {
  if (type_ != WireType::kFixed32) malformed("expected a fixed32 field");
  return static_cast<uint32_t>(scalar_);
}

std::string_view Reader::bytes() const {
  if (type_ != WireType::kLengthDelimited) malformed("expected a length-delimited field");
  return payload_;
}

void Writer::raw_varint(uint64_t value) {
  while (value >= 0x80) {
    data_.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  data_.push_back(static_cast<char>(value));
}

void Writer::tag(uint32_t field, WireType type) {
  raw_varint((static_cast<uint64_t>(field) << 3) | static_cast<uint64_t>(type));
}

void Writer::varint(uint32_t field, uint64_t value) {
  tag(field, WireType::kVarint);
  raw_varint(value);
}

void Writer::fixed64(uint32_t field, uint64_t value) {
  tag(field, WireType::kFixed64);
  for (int i = 0; i < 8; ++i) data_.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

void Writer::double_value(uint32_t field, double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  fixed64(field, bits);
}

void Writer::bytes(uint32_t field, std::string_view value) {
  tag(field, WireType::kLengthDelimited);
  raw_varint(value.size());
  data_.append(value);
}

}  // namespace tfjni::wire
