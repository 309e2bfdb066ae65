#include "tfjni/tfrecord.h"

#include <array>

#include "tfjni/error.h"

namespace tfjni::tfrecord {
namespace {

constexpr size_t kHeaderSize = sizeof(uint64_t) + sizeof(uint32_t);
constexpr size_t kFooterSize = sizeof(uint32_t);
constexpr uint32_t kMaskDelta = 0xa282ead8;

// The byte-at-a-time table of the reflected polynomial: warm-up files are small, so the
// slicing-by-8 speed of TensorFlow's own implementation is not needed.
constexpr std::array<uint32_t, 256> make_table() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t crc = i;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1) ? 0x82F63B78u : 0u);
    table[i] = crc;
  }
  return table;
}
constexpr std::array<uint32_t, 256> kTable = make_table();

uint64_t read_le(std::string_view bytes, size_t size) {
  uint64_t value = 0;
  for (size_t i = 0; i < size; ++i) value |= static_cast<uint64_t>(static_cast<uint8_t>(bytes[i])) << (8 * i);
  return value;
}

void append_le(std::string& out, uint64_t value, size_t size) {
  for (size_t i = 0; i < size; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

}  // namespace

uint32_t crc32c(std::string_view bytes) noexcept {
  uint32_t crc = 0xffffffffu;
  for (char c : bytes) crc = kTable[(crc ^ static_cast<uint8_t>(c)) & 0xff] ^ (crc >> 8);
  return crc ^ 0xffffffffu;
}

uint32_t masked_crc32c(std::string_view bytes) noexcept {
  uint32_t crc = crc32c(bytes);
  return ((crc >> 15) | (crc << 17)) + kMaskDelta;
}

std::string frame(std::string_view data) {
  std::string out;
  out.reserve(kHeaderSize + data.size() + kFooterSize);
  append_le(out, data.size(), sizeof(uint64_t));
  append_le(out, masked_crc32c(out), sizeof(uint32_t));
  out.append(data);
  append_le(out, masked_crc32c(data), sizeof(uint32_t));
  return out;
}

void Reader::damaged(const std::string& what) const {
  throw_error(TF_DATA_LOSS, "TFRecord record " + std::to_string(index_ - 1) + " at byte " +
                                std::to_string(size_ - rest_.size()) + ": " + what);
}

bool Reader::next() {
  if (rest_.empty()) return false;
  ++index_;
  if (rest_.size() < kHeaderSize) {
    damaged("truncated header (" + std::to_string(rest_.size()) + " of " +
            std::to_string(kHeaderSize) + " bytes)");
  }
  std::string_view length_bytes = rest_.substr(0, sizeof(uint64_t));
  if (static_cast<uint32_t>(read_le(rest_.substr(sizeof(uint64_t)), sizeof(uint32_t))) !=
      masked_crc32c(length_bytes)) {
    damaged("CRC mismatch of the length");
  }
  uint64_t length = read_le(length_bytes, sizeof(uint64_t));
  size_t after_header = rest_.size() - kHeaderSize;
  if (after_header < kFooterSize || length > after_header - kFooterSize) {
    damaged("truncated: the record holds " + std::to_string(length) + " bytes and its CRC, " +
            std::to_string(after_header) + " bytes are left");
  }
  data_ = rest_.substr(kHeaderSize, static_cast<size_t>(length));
  uint32_t stored = static_cast<uint32_t>(read_le(rest_.substr(kHeaderSize + data_.size()), sizeof(uint32_t)));
  if (stored != masked_crc32c(data_)) damaged("CRC mismatch of the data");
  rest_.remove_prefix(kHeaderSize + data_.size() + kFooterSize);
  return true;
}

}  // namespace tfjni::tfrecord
