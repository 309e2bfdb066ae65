package io.tfjni;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads NumPy .npy files (little-endian or byte-sized numeric and bool arrays, C order). */
public final class Npy {
  private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
  private static final Map<String, DataType> DTYPES = Map.ofEntries(
      Map.entry("f2", DataType.HALF), Map.entry("f4", DataType.FLOAT),
      Map.entry("f8", DataType.DOUBLE), Map.entry("i1", DataType.INT8),
      Map.entry("i2", DataType.INT16), Map.entry("i4", DataType.INT32),
      Map.entry("i8", DataType.INT64), Map.entry("u1", DataType.UINT8),
      Map.entry("u2", DataType.UINT16), Map.entry("u4", DataType.UINT32),
      Map.entry("u8", DataType.UINT64), Map.entry("b1", DataType.BOOL),
      Map.entry("c8", DataType.COMPLEX64), Map.entry("c16", DataType.COMPLEX128));
  private static final Pattern DESCR = Pattern.compile("'descr':\\s*'([<>|=])([a-z]\\d+)'");
  private static final Pattern FORTRAN = Pattern.compile("'fortran_order':\\s*(True|False)");
  private static final Pattern SHAPE = Pattern.compile("'shape':\\s*\\(([^)]*)\\)");

  private Npy() {}

  /** Reads a .npy file into a new tensor (close it). */
  public static Tensor read(Path file) throws IOException {
    return parse(ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN),
        file.toString());
  }

  static Tensor parse(ByteBuffer in, String name) {
    try {
      byte[] magic = new byte[MAGIC.length];
      in.get(magic);
      if (!java.util.Arrays.equals(magic, MAGIC)) {
        throw malformed(name, "not a .npy file (bad magic)");
      }
      int major = in.get();
      in.get();
      long headerLength = major == 1 ? Short.toUnsignedInt(in.getShort())
          : Integer.toUnsignedLong(in.getInt());
      if (major < 1 || major > 3 || headerLength > in.remaining()) {
        throw malformed(name, "unsupported version " + major + " or truncated header");
      }
      byte[] headerBytes = new byte[(int) headerLength];
      in.get(headerBytes);
      String header = new String(headerBytes, StandardCharsets.ISO_8859_1);
      Matcher descr = DESCR.matcher(header);
      Matcher fortran = FORTRAN.matcher(header);
      Matcher shapeMatch = SHAPE.matcher(header);
      if (!descr.find() || !fortran.find() || !shapeMatch.find()) {
        throw malformed(name, "header lacks descr, fortran_order or shape: " + header.trim());
      }
      DataType type = DTYPES.get(descr.group(2));
      if (type == null) {
        throw malformed(name, "unsupported dtype '" + descr.group(1) + descr.group(2) + "'");
      }
      if (descr.group(1).equals(">") && type.byteSize() > 1) {
        throw malformed(name, "big-endian data is not supported");
      }
      if (fortran.group(1).equals("True")) {
        throw malformed(name, "Fortran-ordered arrays are not supported");
      }
      long[] shape = parseShape(shapeMatch.group(1), name);
      long bytes = Math.multiplyExact(Tensor.checkedElementCount(shape), (long) type.byteSize());
      if (in.remaining() != bytes) {
        throw malformed(name, "expected " + bytes + " data bytes, found " + in.remaining());
      }
      return Tensor.of(type, in.slice(), shape);
    } catch (java.nio.BufferUnderflowException e) {
      throw malformed(name, "truncated file");
    } catch (ArithmeticException e) {
      throw malformed(name, "shape too large");
    }
  }

  private static long[] parseShape(String text, String name) {
    String trimmed = text.trim();
    if (trimmed.isEmpty()) {
      return new long[0];
    }
    String[] parts = trimmed.split(",");
    int rank = parts[parts.length - 1].isBlank() ? parts.length - 1 : parts.length;
    long[] shape = new long[rank];
    for (int i = 0; i < rank; i++) {
      try {
        shape[i] = Long.parseLong(parts[i].trim().replace("L", ""));
      } catch (NumberFormatException e) {
        throw malformed(name, "bad shape (" + text + ")");
      }
    }
    return shape;
  }

  private static IllegalArgumentException malformed(String name, String why) {
    return new IllegalArgumentException("malformed .npy file " + name + ": " + why);
  }
}
