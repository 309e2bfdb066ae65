#!/usr/bin/env python3
"""Writes the hand-made seeds of the fuzz corpora: native/fuzz/corpus/<target>/seed-*.

usage: make_seeds.py MODELS_DIR   (the generated test models: scripts/common.sh models_dir)

Real inputs where there are any (the MetaGraphDefs of the test models, the
ConfigProtos TensorFlow Python wrote for the manifest), and one input per case
of each target otherwise. Files named regression-* are never touched. Needs no
TensorFlow: the protocol-buffer bytes are walked and written by hand.
"""
import base64
import json
import pathlib
import struct
import sys

CORPUS = pathlib.Path(__file__).resolve().parent / "corpus"


# ---- Protocol-buffer wire format ---------------------------------------------

def varint(value):
    value &= (1 << 64) - 1
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def read_varint(data, pos):
    value, shift = 0, 0
    while True:
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, pos


def fields(data):
    """(number, wire type, encoded field) for every field of a message."""
    pos = 0
    while pos < len(data):
        start = pos
        key, pos = read_varint(data, pos)
        kind = key & 7
        if kind == 0:
            _, pos = read_varint(data, pos)
        elif kind == 1:
            pos += 8
        elif kind == 5:
            pos += 4
        elif kind == 2:
            length, pos = read_varint(data, pos)
            pos += length
        else:
            raise ValueError("wire type %d in a test model" % kind)
        yield key >> 3, kind, data[start:pos]


def payload(field):
    """The bytes of a length-delimited field, without its key and length."""
    _, pos = read_varint(field, 0)
    _, pos = read_varint(field, pos)
    return field[pos:]


def length_delimited(number, value):
    return varint(number << 3 | 2) + varint(len(value)) + value


# ---- FuzzedDataProvider inputs ---------------------------------------------------
# FuzzedDataProvider takes integers and booleans from the end of the input (the
# last byte first, most significant first) and strings from the front.

class Provided:
    def __init__(self):
        self.front = b""
        self.taken_from_end = b""

    def integral(self, value, size, minimum):
        offset = value - minimum
        self.taken_from_end += offset.to_bytes(size, "big")

    def byte_in_range(self, value, minimum=0):
        self.integral(value, 1, minimum)

    def boolean(self, value):
        self.byte_in_range(1 if value else 0)

    def string(self, value):
        # ConsumeRandomLengthString ends a string at a backslash followed by
        # another character, and reads two backslashes as one.
        self.front += value.replace(b"\\", b"\\\\") + b"\\n"

    def rest(self, value):
        self.front += value

    def data(self):
        return self.front + self.taken_from_end[::-1]


def config_input(raw, settings):
    """An input of session_config_fuzz: `settings` as in SessionConfig, then raw bytes."""
    p = Provided()
    for key in ("intra", "inter"):
        p.boolean(key in settings)
        if key in settings:
            p.integral(settings[key], 4, -2**31)
    for key in ("per_session", "soft_placement", "allow_growth"):
        p.boolean(key in settings)
        if key in settings:
            p.boolean(settings[key])
    p.boolean("fraction" in settings)
    if "fraction" in settings:
        p.integral(struct.unpack("<Q", struct.pack("<d", settings["fraction"]))[0], 8, 0)
    p.boolean("devices" in settings)
    if "devices" in settings:
        p.string(settings["devices"])
    pools = settings.get("pools", [])
    p.byte_in_range(len(pools))
    for threads, name in pools:
        p.integral(threads, 4, -2**31)
        p.string(name)
    p.rest(raw)
    return p.data()


def dims_of(p, dims):
    p.byte_in_range(len(dims))
    for d in dims:
        small = 0 <= d <= 4
        p.boolean(small)
        if small:
            p.byte_in_range(d)
        else:
            p.integral(d, 8, -2**63)


def tensor_input(mode, dims, dtype=1, strings=(), data=b"", length=0, aligned=True):
    """An input of tensor_fuzz: mode 0 sizes, 1 strings, 2 copies, 3 wraps."""
    p = Provided()
    p.byte_in_range(mode)
    if mode in (0, 2, 3):
        p.byte_in_range(dtype, 1)
    dims_of(p, dims)
    if mode == 1:
        p.byte_in_range(len(strings))
        for s in strings:
            p.string(s)
    elif mode == 2:
        p.string(data)
    elif mode == 3:
        p.integral(length, 2, 0)  # a range of 0..256 takes two bytes
        p.boolean(aligned)
    return p.data()


# ---- The compact attribute encoding of eager_attrs.h ---------------------------

KINDS = {name: code for code, name in enumerate(
    ["type", "int", "float", "bool", "string", "shape", "tensor", "type_list", "int_list",
     "float_list", "bool_list", "string_list", "shape_list"], start=1)}


def enc_string(value):
    return struct.pack("<I", len(value)) + value


def enc_shape(shape):
    if shape is None:
        return struct.pack("<i", -1)
    return struct.pack("<i", len(shape)) + b"".join(struct.pack("<q", d) for d in shape)


def enc_value(kind, value):
    scalar = {"type": "<i", "int": "<q", "float": "<f", "bool": "<B", "tensor": "<i"}
    if kind in scalar:
        return struct.pack(scalar[kind], value)
    if kind == "string":
        return enc_string(value)
    if kind == "shape":
        return enc_shape(value)
    element = kind[: -len("_list")]
    return struct.pack("<I", len(value)) + b"".join(enc_value(element, v) for v in value)


def attrs(*entries):
    out = struct.pack("<I", len(entries))
    for kind, name, value in entries:
        out += struct.pack("<B", KINDS[kind]) + enc_string(name) + enc_value(kind, value)
    return out


# ---- Seeds of each target ----------------------------------------------------------

def meta_graphs(models_dir):
    """Each test model's MetaGraphDefs, cut down to what the SignatureDef reader
    looks at (signature_def = 5) and the saver_def (3) SavedModel::load checks."""
    for saved_model in sorted(models_dir.glob("*/saved_model.pb")):
        for number, _, field in fields(saved_model.read_bytes()):
            if number != 2:  # SavedModel.meta_graphs
                continue
            kept = b"".join(f for n, _, f in fields(payload(field)) if n in (3, 5))
            yield saved_model.parent.name, kept


def config_protos(models_dir):
    manifest = json.loads((models_dir / "manifest.json").read_text())
    for proto in manifest["config_protos"]:
        yield proto["name"], base64.b64decode(proto["bytes"])


def tfrecords(data):
    """The data of each record of a TFRecord file (uint64 length, uint32 CRC, data, uint32 CRC)."""
    pos = 0
    while pos < len(data):
        length = struct.unpack_from("<Q", data, pos)[0]
        yield data[pos + 12:pos + 12 + length]
        pos += 12 + length + 4


def warmup_inputs(models_dir):
    """Inputs of warmup_fuzz: the warm-up file TensorFlow Python wrote (first byte 0: a whole
    file), and some of its records alone (first byte 1: the target frames them)."""
    manifest = json.loads((models_dir / "manifest.json").read_text())
    warmup = manifest["warmup"]
    data = (models_dir / warmup["file"]).read_bytes()
    yield "python-file", b"\x00" + data
    for record, entry in zip(tfrecords(data), warmup["records"]):
        if entry["encoding"] in ("tensor_content", "float_val repeated", "string_val", "scomplex_val"):
            yield "record-" + entry["encoding"].replace(" ", "-"), b"\x01" + record


def seeds(models_dir):
    every_wire_type = (varint(1 << 3 | 0) + varint(150) + varint(2 << 3 | 1) + struct.pack("<d", -0.1)
                       + varint(3 << 3 | 5) + struct.pack("<f", 1.5)
                       + length_delimited(4, length_delimited(1, b"nested") + varint(2 << 3) + varint(2**64 - 1))
                       + varint(0x1FFFFFFF << 3) + varint(7))
    yield "wire_format_fuzz", "every-wire-type", every_wire_type
    configs = dict(config_protos(models_dir))
    yield "wire_format_fuzz", "config-everything", configs["everything"]

    for model, meta_graph in meta_graphs(models_dir):
        yield "signature_fuzz", "meta-graph-" + model, meta_graph
        if model == "shapes":
            yield "wire_format_fuzz", "meta-graph-" + model, meta_graph

    for name, raw in configs.items():
        yield "session_config_fuzz", "raw-" + name, config_input(raw, {})
    yield "session_config_fuzz", "typed-everything", config_input(b"", {
        "intra": 4, "inter": 2, "per_session": True, "soft_placement": True, "allow_growth": True,
        "fraction": 0.25, "devices": b"0,1", "pools": [(4, b"pool_a"), (0, b"")]})
    yield "session_config_fuzz", "typed-over-raw", config_input(configs["everything"], {
        "intra": 0, "soft_placement": False, "fraction": 0.0, "pools": [(2, b"")]})
    yield "session_config_fuzz", "negative-threads", config_input(b"", {"inter": -1})

    yield "tensor_fuzz", "sizes-overflow", tensor_input(0, [2**62, 4], dtype=2)
    yield "tensor_fuzz", "strings-2x2", tensor_input(1, [2, 2], strings=[
        b"", b"short", b"a string longer than twenty-two bytes", b"nul\0inside"])
    yield "tensor_fuzz", "copies-float-2x3", tensor_input(2, [2, 3], dtype=1, data=bytes(range(24)))
    yield "tensor_fuzz", "wraps-misaligned", tensor_input(3, [4], dtype=3, length=16, aligned=False)

    for name, data in warmup_inputs(models_dir):
        yield "warmup_fuzz", name, data

    yield "eager_attrs_fuzz", "every-kind", attrs(
        ("type", b"T", 1), ("int", b"N", -3), ("float", b"alpha", 0.5), ("bool", b"flag", 1),
        ("string", b"s", b"a\0b"), ("shape", b"shape", [2, -1]), ("shape", b"any", None),
        ("tensor", b"value", 1), ("type_list", b"Tlist", [1, 7, 9]), ("int_list", b"ints", [0, -1, 2**40]),
        ("float_list", b"floats", [1.0, -0.0]), ("bool_list", b"bools", [0, 1, 2]),
        ("string_list", b"strings", [b"", b"x" * 30]), ("shape_list", b"shapes", [[], None, [3, 0]]))
    yield "eager_attrs_fuzz", "empty-lists", attrs(
        ("type_list", b"a", []), ("int_list", b"b", []), ("float_list", b"c", []), ("bool_list", b"d", []),
        ("string_list", b"e", []), ("shape_list", b"f", []))
    yield "eager_attrs_fuzz", "missing-tensor", attrs(("tensor", b"value", 2))


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    models_dir = pathlib.Path(argv[1])
    for target, name, data in seeds(models_dir):
        directory = CORPUS / target
        directory.mkdir(parents=True, exist_ok=True)
        (directory / ("seed-" + name)).write_bytes(data)
        print("%-20s seed-%-36s %6d bytes" % (target, name, len(data)))


if __name__ == "__main__":
    main(sys.argv)
