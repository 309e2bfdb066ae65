package io.tfjni.cli;

import java.nio.charset.StandardCharsets;

/**
 * A reader of the protocol-buffer wire format over a byte array, for the few SavedModel fields the
 * CLI shows. Malformed input throws {@link IllegalArgumentException}; unknown fields are skipped.
 */
final class ProtoReader {
  static final int VARINT = 0;
  static final int FIXED64 = 1;
  static final int LENGTH_DELIMITED = 2;
  static final int START_GROUP = 3;
  static final int END_GROUP = 4;
  static final int FIXED32 = 5;

  private final byte[] buffer;
  private int position;
  private final int limit;
  private int tag;

  ProtoReader(byte[] buffer) {
    this(buffer, 0, buffer.length);
  }

  private ProtoReader(byte[] buffer, int offset, int limit) {
    this.buffer = buffer;
    this.position = offset;
    this.limit = limit;
  }

  /** Advances to the next field; false at the end of the message. */
  boolean next() {
    if (position >= limit) {
      return false;
    }
    long key = readVarint();
    if (key >>> 3 == 0 || key > 0xFFFFFFFFL) {
      throw new IllegalArgumentException("bad field key " + key + " at byte " + position);
    }
    tag = (int) key;
    return true;
  }

  int field() {
    return tag >>> 3;
  }

  int wireType() {
    return tag & 7;
  }

  long varint() {
    expect(VARINT);
    return readVarint();
  }

  boolean bool() {
    return varint() != 0;
  }

  String string() {
    int length = length();
    String value = new String(buffer, position, length, StandardCharsets.UTF_8);
    position += length;
    return value;
  }

  double fixed64AsDouble() {
    expect(FIXED64);
    require(8);
    long bits = 0;
    for (int i = 0; i < 8; i++) {
      bits |= (buffer[position + i] & 0xFFL) << (8 * i);
    }
    position += 8;
    return Double.longBitsToDouble(bits);
  }

  /** The embedded message of a length-delimited field. */
  ProtoReader message() {
    int length = length();
    ProtoReader nested = new ProtoReader(buffer, position, position + length);
    position += length;
    return nested;
  }

  /** The values of a repeated varint field, packed or not, passed to {@code sink} one by one. */
  void varints(java.util.function.LongConsumer sink) {
    if (wireType() == LENGTH_DELIMITED) {
      ProtoReader packed = message();
      while (packed.position < packed.limit) {
        sink.accept(packed.readVarint());
      }
    } else {
      sink.accept(varint());
    }
  }

  void skip() {
    switch (wireType()) {
      case VARINT:
        readVarint();
        break;
      case FIXED64:
        require(8);
        position += 8;
        break;
      case LENGTH_DELIMITED: {
        int length = length(); // reads the length's varint: advance only afterwards
        position += length;
        break;
      }
      case FIXED32:
        require(4);
        position += 4;
        break;
      case START_GROUP: {
        int group = field();
        while (true) {
          if (!next()) {
            throw new IllegalArgumentException("unterminated group " + group);
          }
          if (wireType() == END_GROUP) {
            if (field() != group) {
              throw new IllegalArgumentException("mismatched end of group " + field());
            }
            break;
          }
          skip();
        }
        break;
      }
      default:
        throw new IllegalArgumentException("bad wire type " + wireType() + " for field "
            + field());
    }
  }

  private int length() {
    expect(LENGTH_DELIMITED);
    long length = readVarint();
    if (length < 0 || length > limit - position) {
      throw new IllegalArgumentException("field " + field() + " of " + length
          + " bytes runs past its message");
    }
    return (int) length;
  }

  private void expect(int wireType) {
    if (wireType() != wireType) {
      throw new IllegalArgumentException("field " + field() + " has wire type " + wireType()
          + ", expected " + wireType);
    }
  }

  private void require(int bytes) {
    if (limit - position < bytes) {
      throw new IllegalArgumentException("truncated field " + field());
    }
  }

  private long readVarint() {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (position >= limit) {
        throw new IllegalArgumentException("truncated varint");
      }
      byte b = buffer[position++];
      value |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return value;
      }
    }
    throw new IllegalArgumentException("varint longer than 10 bytes");
  }
}
