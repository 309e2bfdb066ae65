// The protocol-buffers wire format reader and writer.
#include "tfjni/wire_format.h"

#include <cstring>
#include <limits>
#include <random>

#include "test_data.h"

namespace tfjni::test {
namespace {

using wire::Reader;
using wire::WireType;
using wire::Writer;

using WireFormatTest = LeakCheckedTest;

// Reads every field of `bytes`; throws like Reader does.
void read_all(std::string_view bytes) {
  Reader reader(bytes);
  while (reader.next()) {
  }
}

::testing::AssertionResult is_data_loss(std::string_view bytes, std::string_view fragment) {
  return throws_error([&] { read_all(bytes); }, TF_DATA_LOSS, {"malformed", fragment});
}

std::string raw(std::initializer_list<unsigned char> bytes) {
  return std::string(bytes.begin(), bytes.end());
}

TEST_F(WireFormatTest, EmptyMessageHasNoFields) {
  Reader reader(std::string_view{});
  EXPECT_FALSE(reader.next());
}

TEST_F(WireFormatTest, VarintsOfOneToTenBytesRoundTrip) {
  for (int bytes = 1; bytes <= 10; ++bytes) {
    // The smallest and the largest value that need exactly `bytes` bytes.
    uint64_t smallest = bytes == 1 ? 0 : uint64_t{1} << (7 * (bytes - 1));
    uint64_t largest = bytes == 10 ? std::numeric_limits<uint64_t>::max()
                                   : (uint64_t{1} << (7 * bytes)) - 1;
    for (uint64_t value : {smallest, largest}) {
      SCOPED_TRACE("value " + std::to_string(value));
      Writer w;
      w.varint(1, value);
      ASSERT_EQ(w.data().size(), 1u + static_cast<size_t>(bytes));  // one tag byte
      Reader r(w.data());
      ASSERT_TRUE(r.next());
      EXPECT_EQ(r.field(), 1u);
      EXPECT_EQ(r.type(), WireType::kVarint);
      EXPECT_EQ(r.varint(), value);
      EXPECT_FALSE(r.next());
    }
  }
}

TEST_F(WireFormatTest, NegativeInt64IsATenByteVarint) {
  for (int64_t value : {int64_t{-1}, int64_t{-2}, std::numeric_limits<int64_t>::min()}) {
    Writer w;
    w.varint(3, static_cast<uint64_t>(value));
    EXPECT_EQ(w.data().size(), 11u);
    Reader r(w.data());
    ASSERT_TRUE(r.next());
    EXPECT_EQ(static_cast<int64_t>(r.varint()), value);
  }
  // As protobuf writes -1: nine 0xff and a final 0x01.
  Writer w;
  w.varint(1, static_cast<uint64_t>(int64_t{-1}));
  EXPECT_EQ(w.data(), raw({0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}));
}

TEST_F(WireFormatTest, FieldsOfEveryWireTypeRoundTripInOrder) {
  std::string long_bytes(300, 'x');  // two-byte length
  const std::string with_nul("a\0b", 3);
  Writer w;
  w.varint(1, 150);
  w.fixed64(2, 0x0102030405060708ULL);
  w.double_value(3, -0.1);
  w.bytes(4, "");
  w.bytes(5, with_nul);
  w.bytes(6, long_bytes);
  w.varint(0x1fffffff, 7);  // the largest field number

  Reader r(w.data());
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.field(), 1u);
  EXPECT_EQ(r.varint(), 150u);
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.field(), 2u);
  EXPECT_EQ(r.type(), WireType::kFixed64);
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.field(), 3u);
  EXPECT_EQ(r.type(), WireType::kFixed64);
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.field(), 4u);
  EXPECT_EQ(r.type(), WireType::kLengthDelimited);
  EXPECT_EQ(r.bytes(), "");
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.bytes(), with_nul);
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.bytes(), long_bytes);
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.field(), 0x1fffffffu);
  EXPECT_EQ(r.varint(), 7u);
  EXPECT_FALSE(r.next());
}

TEST_F(WireFormatTest, Fixed64AndDoubleAreLittleEndian) {
  Writer w;
  w.fixed64(1, 0x0102030405060708ULL);
  EXPECT_EQ(w.data(), raw({0x09, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01}));
  Writer d;
  d.double_value(1, 0.5);  // 0x3fe0000000000000
  EXPECT_EQ(d.data(), raw({0x09, 0, 0, 0, 0, 0, 0, 0xe0, 0x3f}));
}

TEST_F(WireFormatTest, FixedWidthValuesReadBack) {
  Writer w;
  w.fixed64(1, 0x0102030405060708ULL);
  w.double_value(2, -0.1);
  std::string bytes = w.data() + raw({0x1d, 0x78, 0x56, 0x34, 0x12});  // field 3, fixed32 0x12345678
  Reader r(bytes);
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.fixed64(), 0x0102030405060708ULL);
  ASSERT_TRUE(r.next());
  double value;
  uint64_t bits = r.fixed64();
  std::memcpy(&value, &bits, sizeof value);
  EXPECT_EQ(value, -0.1);
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.fixed32(), 0x12345678u);
  EXPECT_TRUE(throws_error([&] { (void)r.fixed64(); }, TF_DATA_LOSS, {"fixed64"}));
  EXPECT_TRUE(throws_error([&] { (void)r.varint(); }, TF_DATA_LOSS, {"varint"}));
  EXPECT_FALSE(r.next());
}

TEST_F(WireFormatTest, Fixed32FieldsAreSkippable) {
  // Field 2, wire type 5, then a varint field 3 = 1.
  const std::string bytes = raw({0x15, 0x01, 0x02, 0x03, 0x04, 0x18, 0x01});
  Reader r(bytes);  // a Reader views its bytes: keep them alive
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.type(), WireType::kFixed32);
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.field(), 3u);
  EXPECT_EQ(r.varint(), 1u);
  EXPECT_FALSE(r.next());
}

TEST_F(WireFormatTest, TruncatedVarintIsDataLoss) {
  EXPECT_TRUE(is_data_loss(raw({0x80}), "truncated varint"));              // in the key
  EXPECT_TRUE(is_data_loss(raw({0x08}), "truncated varint"));              // value missing
  EXPECT_TRUE(is_data_loss(raw({0x08, 0xff, 0xff}), "truncated varint"));  // value cut
  EXPECT_TRUE(is_data_loss(raw({0x0a}), "truncated varint"));              // length missing
}

TEST_F(WireFormatTest, VarintLongerThanTenBytesIsDataLoss) {
  std::string overlong = raw({0x08});
  overlong.append(10, static_cast<char>(0x80));
  overlong.push_back(0x01);
  EXPECT_TRUE(is_data_loss(overlong, "longer than 10 bytes"));
}

TEST_F(WireFormatTest, LengthPastTheEndIsDataLoss) {
  EXPECT_TRUE(is_data_loss(raw({0x0a, 0x05, 'a', 'b', 'c'}), "past the end"));
  // A length that does not fit in size_t on any platform.
  EXPECT_TRUE(is_data_loss(raw({0x0a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 'a'}),
                           "past the end"));
}

TEST_F(WireFormatTest, TruncatedFixedFieldsAreDataLoss) {
  EXPECT_TRUE(is_data_loss(raw({0x09, 1, 2, 3, 4, 5, 6, 7}), "truncated fixed-width"));
  EXPECT_TRUE(is_data_loss(raw({0x0d, 1, 2, 3}), "truncated fixed-width"));
}

TEST_F(WireFormatTest, UnsupportedWireTypesAreDataLoss) {
  for (int type : {3, 4, 6, 7}) {
    SCOPED_TRACE("wire type " + std::to_string(type));
    EXPECT_TRUE(is_data_loss(raw({static_cast<unsigned char>(0x08 | type), 0x00}), "wire type"));
  }
}

TEST_F(WireFormatTest, FieldNumberZeroOrTooLargeIsDataLoss) {
  EXPECT_TRUE(is_data_loss(raw({0x00, 0x01}), "field number"));
  // Field 2^29 (one more than protobuf's largest).
  Writer w;
  w.varint(1, uint64_t{1} << 32);  // a varint value, reused below as a key
  std::string key_too_large = w.data().substr(1);
  key_too_large.push_back(0x00);
  EXPECT_TRUE(is_data_loss(key_too_large, "field number"));
}

TEST_F(WireFormatTest, ReadingTheWrongWireTypeIsDataLoss) {
  Writer w;
  w.varint(1, 5);
  w.bytes(2, "x");
  Reader r(w.data());
  ASSERT_TRUE(r.next());
  EXPECT_TRUE(throws_error([&] { (void)r.bytes(); }, TF_DATA_LOSS, {"length-delimited"}));
  ASSERT_TRUE(r.next());
  EXPECT_TRUE(throws_error([&] { (void)r.varint(); }, TF_DATA_LOSS, {"varint"}));
  EXPECT_TRUE(throws_error([&] { (void)r.fixed32(); }, TF_DATA_LOSS, {"fixed32"}));
}

// Random bytes and random truncations of a valid message: the reader either
// parses them or throws DATA_LOSS; it never reads out of bounds (run under ASan).
TEST_F(WireFormatTest, RandomBytesParseOrThrowDataLoss) {
  Writer nested;
  nested.varint(1, 12345);
  nested.bytes(2, "nested");
  Writer w;
  w.bytes(5, nested.data());
  w.fixed64(6, 42);
  w.varint(7, static_cast<uint64_t>(int64_t{-7}));
  const std::string valid = w.data();

  std::mt19937 rng(1234);
  std::uniform_int_distribution<int> byte(0, 255);
  int parsed = 0, rejected = 0;
  auto check = [&](const std::string& bytes) {
    try {
      Reader r(bytes);
      while (r.next()) {
        if (r.type() == WireType::kLengthDelimited) read_all(r.bytes());  // may be garbage too
      }
      ++parsed;
    } catch (const Error& e) {
      ASSERT_EQ(e.code(), TF_DATA_LOSS) << e.what();
      ++rejected;
    }
  };
  for (size_t cut = 0; cut <= valid.size(); ++cut) check(valid.substr(0, cut));
  for (int i = 0; i < 20000; ++i) {
    std::string bytes = valid;
    bytes[static_cast<size_t>(byte(rng)) % bytes.size()] = static_cast<char>(byte(rng));
    if (i % 2 == 0) {
      bytes.resize(static_cast<size_t>(byte(rng)) % 24);
      for (char& c : bytes) c = static_cast<char>(byte(rng));
    }
    check(bytes);
  }
  EXPECT_GT(parsed, 0);
  EXPECT_GT(rejected, 0);
}

}  // namespace
}  // namespace tfjni::test
