// TFRecord framing: CRC-32C against published check values, records framed and read back, and
// damaged framing refused with the record's index.
#include "tfjni/tfrecord.h"

#include <string>

#include "test_data.h"

namespace tfjni::test {
namespace {

using TfrecordTest = LeakCheckedTest;

TEST_F(TfrecordTest, Crc32cMatchesPublishedCheckValues) {
  // The CRC catalogue's check value, and RFC 3720 (iSCSI) appendix B.4.
  EXPECT_EQ(tfrecord::crc32c("123456789"), 0xE3069283u);
  EXPECT_EQ(tfrecord::crc32c(std::string(32, '\0')), 0x8A9136AAu);
  EXPECT_EQ(tfrecord::crc32c(std::string(32, '\xff')), 0x62A8AB43u);
  std::string ascending;
  for (int i = 0; i < 32; ++i) ascending.push_back(static_cast<char>(i));
  EXPECT_EQ(tfrecord::crc32c(ascending), 0x46DD794Eu);
  EXPECT_EQ(tfrecord::crc32c(""), 0u);
}

TEST_F(TfrecordTest, MaskRotatesRightBy15AndAddsTheDelta) {
  uint32_t crc = 0xE3069283u;
  EXPECT_EQ(tfrecord::masked_crc32c("123456789"), ((crc >> 15) | (crc << 17)) + 0xa282ead8u);
}

TEST_F(TfrecordTest, FramedRecordsReadBackInOrder) {
  std::string file = tfrecord::frame("first") + tfrecord::frame("") + tfrecord::frame(std::string(300, 'x'));
  EXPECT_EQ(file.size(), 3 * 16 + 5 + 300u);
  tfrecord::Reader reader(file);
  ASSERT_TRUE(reader.next());
  EXPECT_EQ(reader.index(), 0u);
  EXPECT_EQ(reader.data(), "first");
  ASSERT_TRUE(reader.next());
  EXPECT_EQ(reader.data(), "");
  ASSERT_TRUE(reader.next());
  EXPECT_EQ(reader.index(), 2u);
  EXPECT_EQ(reader.data(), std::string(300, 'x'));
  EXPECT_FALSE(reader.next());
}

TEST_F(TfrecordTest, EmptyFileHasNoRecords) {
  tfrecord::Reader reader(std::string_view{});
  EXPECT_FALSE(reader.next());
}

// Reads every record of `file`.
void read_all(std::string_view file) {
  tfrecord::Reader reader(file);
  while (reader.next()) {
  }
}

TEST_F(TfrecordTest, DamagedFramingNamesTheRecord) {
  const std::string good = tfrecord::frame("zero") + tfrecord::frame("one");
  const size_t second = 16 + 4;  // where record 1 starts
  std::string bad = good;
  bad[second] ^= 1;  // its length
  EXPECT_TRUE(throws_error([&] { read_all(bad); }, TF_DATA_LOSS, {"record 1 at byte 20", "CRC mismatch of the length"}));
  bad = good;
  bad[second + 12] ^= 1;  // its data
  EXPECT_TRUE(throws_error([&] { read_all(bad); }, TF_DATA_LOSS, {"record 1", "CRC mismatch of the data"}));
  bad = good;
  bad.back() ^= 1;  // its data CRC
  EXPECT_TRUE(throws_error([&] { read_all(bad); }, TF_DATA_LOSS, {"record 1", "CRC mismatch of the data"}));
  EXPECT_TRUE(throws_error([&] { read_all(good.substr(0, second + 5)); }, TF_DATA_LOSS,
                           {"record 1", "truncated header (5 of 12 bytes)"}));
  EXPECT_TRUE(throws_error([&] { read_all(good.substr(0, good.size() - 1)); }, TF_DATA_LOSS,
                           {"record 1", "truncated"}));
}

TEST_F(TfrecordTest, LengthPastTheEndIsTruncationNotAnOverflow) {
  // A length near 2^64 with a valid CRC: length + header must not wrap around.
  std::string header(8, '\xff');
  uint32_t crc = tfrecord::masked_crc32c(header);
  for (int i = 0; i < 4; ++i) header.push_back(static_cast<char>((crc >> (8 * i)) & 0xff));
  EXPECT_TRUE(throws_error([&] { read_all(header + "data"); }, TF_DATA_LOSS,
                           {"record 0", "truncated: the record holds 18446744073709551615 bytes"}));
}

}  // namespace
}  // namespace tfjni::test
