package io.tfjni.numpy;

import io.tfjni.DataType;
import io.tfjni.Tensor;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads NumPy .npy files: every numeric dtype and bool (any byte order, C or Fortran order), byte
 * strings ({@code S}), unicode strings ({@code U}, stored as UTF-8 in the tensor) and raw void
 * data ({@code V}, e.g. bfloat16). Object arrays ({@code O}) are pickles: only the pickle of an
 * array of {@code bytes} or {@code str} objects is read (see {@link ObjectArrayPickle}). Writing
 * is {@link NpyWriter}; .npz archives are {@link Npz}.
 */
public final class Npy {
  static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
  /** Arrays are read into a Java byte array. */
  static final long MAX_BYTES = Integer.MAX_VALUE - 64;

  private Npy() {}

  /**
   * Reads a .npy file into a new tensor of its default dtype.
   *
   * @param file the file
   * @return a new tensor, owned by the caller: close it
   * @throws IllegalArgumentException if the file is malformed or holds a dtype tfjni cannot hold
   * @throws IOException if the file cannot be read ({@link java.nio.file.NoSuchFileException} if
   *     it does not exist)
   */
  public static Tensor read(Path file) throws IOException {
    return readArray(file).toTensor();
  }

  /**
   * Reads a .npy file.
   *
   * @param file the file
   * @return the array, in Java memory (nothing to close)
   * @throws IllegalArgumentException if the file is malformed, unsupported or too large
   * @throws IOException if the file cannot be read ({@link java.nio.file.NoSuchFileException} if
   *     it does not exist)
   */
  public static NpyArray readArray(Path file) throws IOException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new NoSuchFileException(file.toString(), null, "no such file");
    } catch (OutOfMemoryError e) {
      throw new IllegalArgumentException(file + " is too large to read", e);
    }
    return parse(bytes, file.toString());
  }

  /**
   * Parses the bytes of a .npy file.
   *
   * @param bytes the file's content
   * @param name what error messages call it (a path, say)
   * @return the array, in Java memory (nothing to close)
   * @throws IllegalArgumentException if the bytes are no .npy file tfjni can read
   */
  public static NpyArray parse(byte[] bytes, String name) {
    ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    try {
      byte[] magic = new byte[MAGIC.length];
      if (in.remaining() < MAGIC.length + 2) {
        throw malformed(name, "not a .npy file (too short)");
      }
      in.get(magic);
      if (!Arrays.equals(magic, MAGIC)) {
        throw malformed(name, "not a .npy file (bad magic)");
      }
      int major = in.get();
      int minor = in.get();
      if (major < 1 || major > 3 || minor != 0) {
        throw malformed(name, "unsupported format version " + major + "." + minor);
      }
      long headerLength = major == 1 ? Short.toUnsignedInt(in.getShort())
          : Integer.toUnsignedLong(in.getInt());
      if (headerLength > in.remaining()) {
        throw malformed(name, "truncated header");
      }
      byte[] headerBytes = new byte[(int) headerLength];
      in.get(headerBytes);
      String header = major == 3 ? decodeUtf8(headerBytes, name)
          : new String(headerBytes, StandardCharsets.ISO_8859_1);
      Map<String, Object> dict = parseHeader(header, name);
      long[] shape = shapeOf(dict.get("shape"), name);
      Object fortran = dict.get("fortran_order");
      if (!(fortran instanceof Boolean)) {
        throw malformed(name, "header has no fortran_order True/False: " + header.trim());
      }
      return body(dict.get("descr"), shape, (Boolean) fortran, in, name, header);
    } catch (java.nio.BufferUnderflowException e) {
      throw malformed(name, "truncated file");
    }
  }

  private static NpyArray body(Object descrValue, long[] shape, boolean fortran, ByteBuffer in,
      String name, String header) {
    if (descrValue instanceof List<?> fields) {
      return structured(fields, shape, fortran, in, name);
    }
    if (!(descrValue instanceof String descr)) {
      throw malformed(name, "header has no descr: " + header.trim());
    }
    if (descr.length() < 2) {
      throw malformed(name, "bad descr '" + descr + "'");
    }
    char order = descr.charAt(0);
    if ("<>|=".indexOf(order) < 0) {
      // NumPy also accepts a descr without byte order, e.g. 'f4' meaning native.
      order = '=';
      descr = "=" + descr;
    }
    boolean bigEndian = order == '>'
        || (order == '=' && ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN);
    String code = descr.substring(1);
    char kind = code.charAt(0);
    if (kind == 'M' || kind == 'm') {
      throw unsupported(name, "dtype '" + descr + "' (datetime) has no TensorFlow equivalent");
    }
    int size = kind == 'O' ? 0 : itemSize(code.substring(1), descr, name);
    long count = Tensor.elementCount(shape);
    switch (kind) {
      case 'O': {
        // NumPy pickles object arrays; only an array of bytes or str objects is read.
        ObjectArrayPickle.Result pickled = ObjectArrayPickle.read(in, name);
        if (!Arrays.equals(pickled.shape(), shape)) {
          throw malformed(name, "the header's shape " + Arrays.toString(shape)
              + " is not the pickled array's " + Arrays.toString(pickled.shape()));
        }
        return NpyArray.ofStrings(descr, shape, pickled.elements());
      }
      case 'S':
      case 'a':
      case 'U': {
        if (kind == 'U' && size > Integer.MAX_VALUE / 4) {
          throw malformed(name, "dtype '" + descr + "' is too wide");
        }
        int width = kind == 'U' ? size * 4 : size;
        byte[] data = elementBytes(in, count, width, name);
        if (fortran) {
          data = fortranToC(data, shape, width);
        }
        return NpyArray.ofStrings(descr, shape, strings(data, count, width, kind == 'U',
            bigEndian, name));
      }
      case 'V': {
        if (size == 0) {
          throw malformed(name, "zero-width void dtype '" + descr + "'");
        }
        byte[] data = elementBytes(in, count, size, name);
        return NpyArray.ofRaw(descr, size, shape, fortran ? fortranToC(data, shape, size) : data);
      }
      default: {
        DataType type = Dtypes.numeric(code);
        if (type == null) {
          throw unsupported(name, "dtype '" + descr + "' has no TensorFlow equivalent");
        }
        return numeric(descr, type, shape, fortran, bigEndian, in, name);
      }
    }
  }

  private static NpyArray numeric(String descr, DataType type, long[] shape, boolean fortran,
      boolean bigEndian, ByteBuffer in, String name) {
    long count = Tensor.elementCount(shape);
    byte[] data = elementBytes(in, count, type.byteSize(), name);
    int component = NpyArray.componentWidth(type);
    if (bigEndian && component > 1) {
      data = swapBytes(data, component);
    }
    if (fortran) {
      data = fortranToC(data, shape, type.byteSize());
    }
    if (type == DataType.BOOL) {
      for (int i = 0; i < data.length; i++) {
        data[i] = data[i] != 0 ? (byte) 1 : 0;
      }
    }
    return NpyArray.ofData(descr, type, shape, data);
  }

  /** A one-field structured dtype: how TensorFlow Python saves qint8 and friends. */
  private static NpyArray structured(List<?> fields, long[] shape, boolean fortran, ByteBuffer in,
      String name) {
    if (fields.size() == 1 && fields.get(0) instanceof List<?> field && field.size() == 2
        && field.get(0) instanceof String fieldName && field.get(1) instanceof String typestr) {
      DataType type = Dtypes.quantized(fieldName);
      DataType base = typestr.length() > 1 ? Dtypes.numeric(typestr.substring(1)) : null;
      if (type != null && base != null && base.byteSize() == type.byteSize()) {
        boolean bigEndian = typestr.charAt(0) == '>';
        return numeric("[('" + fieldName + "', '" + typestr + "')]", type, shape, fortran,
            bigEndian, in, name);
      }
    }
    throw unsupported(name, "structured dtype " + fields + " has no TensorFlow equivalent");
  }

  private static int itemSize(String digits, String descr, String name) {
    if (digits.isEmpty()) {
      return 0;
    }
    try {
      int size = Integer.parseInt(digits);
      if (size < 0) {
        throw new NumberFormatException();
      }
      return size;
    } catch (NumberFormatException e) {
      throw malformed(name, "bad dtype '" + descr + "'");
    }
  }

  private static byte[] elementBytes(ByteBuffer in, long count, int width, String name) {
    long bytes;
    try {
      bytes = Math.multiplyExact(count, (long) width);
    } catch (ArithmeticException e) {
      throw malformed(name, "shape too large");
    }
    if (bytes > MAX_BYTES) {
      throw malformed(name, "array of " + bytes + " bytes is larger than tfjni reads (2 GiB)");
    }
    if (in.remaining() != bytes) {
      throw malformed(name, "expected " + bytes + " data bytes after the header, found "
          + in.remaining());
    }
    byte[] data = new byte[(int) bytes];
    in.get(data);
    return data;
  }

  private static byte[][] strings(byte[] data, long count, int width, boolean unicode,
      boolean bigEndian, String name) {
    byte[][] values = new byte[(int) count][];
    for (int i = 0; i < values.length; i++) {
      int start = i * width;
      if (!unicode) {
        int end = start + width;
        while (end > start && data[end - 1] == 0) {
          end--;
        }
        values[i] = Arrays.copyOfRange(data, start, end);
        continue;
      }
      ByteBuffer element = ByteBuffer.wrap(data, start, width)
          .order(bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
      int[] codePoints = new int[width / 4];
      int length = 0;
      for (int k = 0; k < codePoints.length; k++) {
        int cp = element.getInt();
        codePoints[k] = cp;
        if (cp != 0) {
          length = k + 1;
        }
      }
      for (int k = 0; k < length; k++) {
        int cp = codePoints[k];
        if (cp < 0 || cp > Character.MAX_CODE_POINT
            || (cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE)) {
          throw malformed(name, "string " + i + " holds an invalid code point U+"
              + Integer.toHexString(cp).toUpperCase(java.util.Locale.ROOT));
        }
      }
      values[i] = new String(codePoints, 0, length).getBytes(StandardCharsets.UTF_8);
    }
    return values;
  }

  /** Reorders elements stored column-major into row-major order. */
  static byte[] fortranToC(byte[] data, long[] shape, int width) {
    int rank = shape.length;
    if (rank < 2 || data.length == 0) {
      return data;
    }
    long[] fortranStrides = new long[rank];
    long stride = 1;
    for (int d = 0; d < rank; d++) {
      fortranStrides[d] = stride;
      stride *= shape[d];
    }
    byte[] out = new byte[data.length];
    long[] index = new long[rank];
    long source = 0;
    int count = data.length / width;
    for (int i = 0; i < count; i++) {
      System.arraycopy(data, (int) (source * width), out, i * width, width);
      for (int d = rank - 1; d >= 0; d--) {
        index[d]++;
        source += fortranStrides[d];
        if (index[d] < shape[d]) {
          break;
        }
        source -= fortranStrides[d] * shape[d];
        index[d] = 0;
      }
    }
    return out;
  }

  static byte[] swapBytes(byte[] bytes, int width) {
    byte[] swapped = new byte[bytes.length];
    for (int i = 0; i + width <= bytes.length; i += width) {
      for (int j = 0; j < width; j++) {
        swapped[i + j] = bytes[i + width - 1 - j];
      }
    }
    return swapped;
  }

  private static long[] shapeOf(Object value, String name) {
    if (!(value instanceof List<?> dims)) {
      throw malformed(name, "header has no shape tuple");
    }
    long[] shape = new long[dims.size()];
    for (int i = 0; i < shape.length; i++) {
      if (!(dims.get(i) instanceof BigInteger dim) || dim.signum() < 0 || dim.bitLength() > 63) {
        throw malformed(name, "bad shape " + dims);
      }
      shape[i] = dim.longValueExact();
    }
    try {
      Tensor.elementCount(shape);
    } catch (IllegalArgumentException e) {
      throw malformed(name, "shape " + dims + " has too many elements");
    }
    return shape;
  }

  private static String decodeUtf8(byte[] bytes, String name) {
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      throw malformed(name, "header is not UTF-8");
    }
  }

  /** Parses the header: a Python dict literal of strings, booleans, ints, tuples and lists. */
  static Map<String, Object> parseHeader(String header, String name) {
    Object value;
    try {
      value = PythonLiteral.parseNpyHeader(header.trim());
    } catch (IllegalArgumentException e) {
      throw malformed(name, "bad header (" + e.getMessage() + ")");
    }
    if (!(value instanceof Map<?, ?> map)) {
      throw malformed(name, "header is not a Python dict: " + header.trim());
    }
    Map<String, Object> result = new LinkedHashMap<>();
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      if (entry.getKey() instanceof String key) {
        result.put(key, entry.getValue());
      }
    }
    return result;
  }

  static IllegalArgumentException malformed(String name, String why) {
    return new IllegalArgumentException("malformed .npy file " + name + ": " + why);
  }

  static IllegalArgumentException unsupported(String name, String why) {
    return new IllegalArgumentException("unsupported .npy file " + name + ": " + why);
  }
}
