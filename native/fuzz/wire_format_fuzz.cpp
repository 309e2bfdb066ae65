// The protocol-buffers wire reader on arbitrary bytes: it parses them or throws
// DATA_LOSS, and never reads outside them. A field's value comes back only
// through the accessor of its wire type. What it parses survives a round trip
// through the writer: writing the fields again and reading that back gives the
// same fields, and writing those once more gives the same bytes (the writer's
// output is canonical).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.h"
#include "tfjni/wire_format.h"

namespace {

using tfjni::fuzz::check;
using tfjni::fuzz::succeeds;
using tfjni::wire::Reader;
using tfjni::wire::WireType;
using tfjni::wire::Writer;

struct Field {
  uint32_t number = 0;
  WireType type = WireType::kVarint;
  uint64_t scalar = 0;       // varint, fixed64 or fixed32
  std::string_view payload;  // length-delimited
  bool operator==(const Field&) const = default;
};

// Each accessor but the one of the field's wire type throws DATA_LOSS.
void check_other_accessors_refuse(const Reader& r) {
  auto refuses = [](auto read) { return !succeeds(TF_DATA_LOSS, read); };
  if (r.type() != WireType::kVarint) check(refuses([&] { (void)r.varint(); }), "varint() of another type");
  if (r.type() != WireType::kFixed64) check(refuses([&] { (void)r.fixed64(); }), "fixed64() of another type");
  if (r.type() != WireType::kFixed32) check(refuses([&] { (void)r.fixed32(); }), "fixed32() of another type");
  if (r.type() != WireType::kLengthDelimited) {
    check(refuses([&] { (void)r.bytes(); }), "bytes() of another type");
  }
}

// Every field of `bytes`; throws DATA_LOSS like the reader.
std::vector<Field> read_fields(std::string_view bytes) {
  std::vector<Field> fields;
  // The accessors of other wire types are tried on the first field of each
  // type only: throwing is slow, and fuzzing time is short.
  bool tried[8] = {};
  Reader r(bytes);
  while (r.next()) {
    Field f{r.field(), r.type(), 0, {}};
    check(f.number >= 1 && f.number <= 0x1fffffff, "field number out of range");
    switch (r.type()) {
      case WireType::kVarint: f.scalar = r.varint(); break;
      case WireType::kFixed64: f.scalar = r.fixed64(); break;
      case WireType::kFixed32: f.scalar = r.fixed32(); break;
      case WireType::kLengthDelimited: {
        f.payload = r.bytes();
        // The payload lies inside the input (ASan checks the reads; this the bounds).
        const char* end = bytes.data() + bytes.size();
        check(f.payload.data() >= bytes.data() && f.payload.data() + f.payload.size() <= end,
              "payload outside the input");
        break;
      }
      default: tfjni::fuzz::fail("unknown wire type " + std::to_string(static_cast<int>(r.type())));
    }
    if (!tried[static_cast<int>(r.type())]) check_other_accessors_refuse(r);
    tried[static_cast<int>(r.type())] = true;
    fields.push_back(f);
  }
  return fields;
}

// The writer has no fixed32 (tfjni writes none): those fields are left out.
std::string write_fields(const std::vector<Field>& fields) {
  Writer w;
  for (const Field& f : fields) {
    switch (f.type) {
      case WireType::kVarint: w.varint(f.number, f.scalar); break;
      case WireType::kFixed64: w.fixed64(f.number, f.scalar); break;
      case WireType::kLengthDelimited: w.bytes(f.number, f.payload); break;
      case WireType::kFixed32: break;
    }
  }
  return w.data();
}

std::vector<Field> without_fixed32(std::vector<Field> fields) {
  std::erase_if(fields, [](const Field& f) { return f.type == WireType::kFixed32; });
  return fields;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<Field> fields;
  if (!succeeds(TF_DATA_LOSS, [&] { fields = read_fields(input); })) return 0;

  const std::string written = write_fields(fields);
  std::vector<Field> reread;
  check(succeeds(TF_DATA_LOSS, [&] { reread = read_fields(written); }), "the writer's output does not parse");
  check(reread == without_fixed32(fields), "fields changed in a write/read round trip");
  check(write_fields(reread) == written, "writing the same fields twice gave different bytes");
  return 0;
}
