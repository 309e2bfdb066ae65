// A minimal protocol-buffers wire-format reader and writer. TensorFlow bundles
// its own protobuf; we read SignatureDefs and write ConfigProtos with this
// instead of linking a second protobuf into the process.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tfjni::wire {

enum class WireType : uint8_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

// Walks the fields of one message. Malformed input throws Error(DATA_LOSS).
class Reader {
 public:
  explicit Reader(std::string_view bytes) : rest_(bytes) {}
  // A reader only views its bytes: it must not outlive them.
  explicit Reader(std::string&&) = delete;

  // Moves to the next field; false at the end of the message.
  bool next();
  uint32_t field() const noexcept { return field_; }
  WireType type() const noexcept { return type_; }
  // The current field's value; throws DATA_LOSS if the wire type differs.
  uint64_t varint() const;
  uint64_t fixed64() const;  // a double's bits, for example
  uint32_t fixed32() const;  // a float's bits, for example
  std::string_view bytes() const;

 private:
  std::string_view rest_;
  uint32_t field_ = 0;
  WireType type_ = WireType::kVarint;
  uint64_t scalar_ = 0;
  std::string_view payload_;
};

// Reads one varint from the front of `in` and removes it: the values of a packed repeated
// field are varints without keys. Malformed input throws Error(DATA_LOSS).
uint64_t take_varint(std::string_view& in);

// Appends fields to a message, in the order called.
class Writer {
 public:
  void varint(uint32_t field, uint64_t value);
  void fixed64(uint32_t field, uint64_t value);
  void double_value(uint32_t field, double value);
  void bytes(uint32_t field, std::string_view value);
  const std::string& data() const noexcept { return data_; }

 private:
  void tag(uint32_t field, WireType type);
  void raw_varint(uint64_t value);
  std::string data_;
};

}  // namespace tfjni::wire
