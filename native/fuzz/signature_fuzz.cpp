// The SignatureDef reader on arbitrary bytes taken as a serialized
// MetaGraphDef: it parses them or throws DATA_LOSS. What it returns keeps its
// promises (sorted keys, shapes without rank when the rank is unknown, dims of
// -1 or more, dtypes tfjni knows or 0, lookups that find every key), and survives a
// round trip: written back as a MetaGraphDef and parsed again, it is the same.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fuzz_support.h"
#include "tfjni/dtype.h"
#include "tfjni/signature.h"
#include "tfjni/wire_format.h"

namespace {

using tfjni::SignatureDef;
using tfjni::TensorSpec;
using tfjni::fuzz::check;
using tfjni::fuzz::succeeds;
using tfjni::wire::Writer;

// ---- Written back with the field numbers of meta_graph.proto and tensor_shape.proto.

std::string tensor_info(const TensorSpec& spec) {
  Writer shape;
  for (int64_t d : spec.shape) {
    Writer dim;
    dim.varint(1, static_cast<uint64_t>(d));
    shape.bytes(2, dim.data());
  }
  if (spec.unknown_rank) shape.varint(3, 1);
  Writer info;
  info.bytes(1, spec.tensor_name);
  info.varint(2, static_cast<uint64_t>(spec.dtype));
  info.bytes(3, shape.data());
  return info.data();
}

std::string map_entry(std::string_view key, std::string_view value) {
  Writer entry;
  entry.bytes(1, key);
  entry.bytes(2, value);
  return entry.data();
}

std::string signature_def(const SignatureDef& def) {
  Writer w;
  for (const TensorSpec& spec : def.inputs) w.bytes(1, map_entry(spec.key, tensor_info(spec)));
  for (const TensorSpec& spec : def.outputs) w.bytes(2, map_entry(spec.key, tensor_info(spec)));
  w.bytes(3, def.method);
  return w.data();
}

std::string meta_graph_def(const std::vector<SignatureDef>& defs) {
  Writer w;
  for (const SignatureDef& def : defs) w.bytes(5, map_entry(def.key, signature_def(def)));
  return w.data();
}

// ---- Promises of parse_signature_defs ----------------------------------------

void check_specs(const SignatureDef& def, const std::vector<TensorSpec>& specs, bool inputs) {
  check(std::is_sorted(specs.begin(), specs.end(), [](auto& a, auto& b) { return a.key < b.key; }),
        "specs not sorted by key");
  for (const TensorSpec& spec : specs) {
    const int dtype = spec.dtype;
    check(dtype == 0 || tfjni::is_known_dtype(dtype), "a dtype neither 0 nor one tfjni knows");
    check(!spec.unknown_rank || spec.shape.empty(), "dims beside an unknown rank");
    check(std::all_of(spec.shape.begin(), spec.shape.end(), [](int64_t d) { return d >= -1; }),
          "a dim below -1");
    const TensorSpec* found = inputs ? def.find_input(spec.key) : def.find_output(spec.key);
    check(found != nullptr && found->key == spec.key, "find_input/find_output misses a key");
    (void)tfjni::shape_string(spec.shape, spec.unknown_rank);
  }
}

// Signatures in an order that does not depend on how the sort broke ties
// (a key may appear twice in crafted bytes).
std::vector<std::pair<std::string, std::string>> canonical(const std::vector<SignatureDef>& defs) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const SignatureDef& def : defs) out.emplace_back(def.key, signature_def(def));
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<SignatureDef> defs;
  if (!succeeds(TF_DATA_LOSS, [&] { defs = tfjni::parse_signature_defs(input); })) return 0;

  check(std::is_sorted(defs.begin(), defs.end(), [](auto& a, auto& b) { return a.key < b.key; }),
        "signatures not sorted by key");
  for (const SignatureDef& def : defs) {
    check_specs(def, def.inputs, true);
    check_specs(def, def.outputs, false);
  }

  std::vector<SignatureDef> reparsed;
  check(succeeds(TF_DATA_LOSS, [&] { reparsed = tfjni::parse_signature_defs(meta_graph_def(defs)); }),
        "a written-back MetaGraphDef does not parse");
  check(canonical(reparsed) == canonical(defs), "signatures changed in a write/parse round trip");
  return 0;
}
