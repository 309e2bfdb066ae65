// TFRecord files as tf.io.TFRecordWriter writes them (uncompressed). Each record is
//   uint64 length | uint32 masked CRC32C of the 8 length bytes | data | uint32 masked CRC32C of data
// with every integer little-endian.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tfjni::tfrecord {

// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), as TensorFlow's crc32c::Value.
uint32_t crc32c(std::string_view bytes) noexcept;
// TensorFlow's crc32c::Mask: stored CRCs are rotated and offset, because a CRC computed over
// data that embeds CRCs is weak.
uint32_t masked_crc32c(std::string_view bytes) noexcept;

// One framed record holding `data`: what TFRecordWriter.write(data) appends to a file.
std::string frame(std::string_view data);

// Walks the records of a whole file in memory. A damaged record throws Error(DATA_LOSS) naming
// its index (0-based) and byte offset: a truncated header, data or CRC, or a CRC mismatch.
class Reader {
 public:
  explicit Reader(std::string_view file) : rest_(file), size_(file.size()) {}
  // A reader only views its bytes: it must not outlive them.
  explicit Reader(std::string&&) = delete;

  // Moves to the next record; false at the end of the file.
  bool next();
  // The current record's data, viewing the file's bytes.
  std::string_view data() const noexcept { return data_; }
  // The current record's index: 0 for the first.
  size_t index() const noexcept { return index_ - 1; }

 private:
  [[noreturn]] void damaged(const std::string& what) const;

  std::string_view rest_;
  size_t size_;
  size_t index_ = 0;
  std::string_view data_;
};

}  // namespace tfjni::tfrecord
