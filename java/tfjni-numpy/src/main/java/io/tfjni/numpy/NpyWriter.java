package io.tfjni.numpy;

import io.tfjni.DataType;
import io.tfjni.Tensor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes tensors as NumPy .npy files, byte for byte as TensorFlow Python's {@code
 * saved_model_cli run --outdir} does: {@code np.save(path, session.run(...))} with NumPy 2.
 *
 * <ul>
 *   <li>Fixed-size dtypes: a version 1.0 header (padded with spaces to a multiple of 64 bytes,
 *       with NumPy's spare room for growing the first axis), then the little-endian data. The
 *       dtype is the one TensorFlow Python gives the array: {@code <f4}, {@code |b1}, {@code <V2}
 *       for bfloat16, {@code [('qint8', '|i1')]} for qint8, ...
 *   <li>A string scalar: TensorFlow Python returns {@code bytes}, which NumPy saves as a 0-d
 *       {@code |S<n>} array.
 *   <li>Any other string tensor: TensorFlow Python returns an object array of {@code bytes}, which
 *       NumPy saves as a protocol 4 pickle of the array ({@code descr '|O'}). This class writes
 *       that pickle exactly as CPython's pickler does, including its framing and its memo
 *       (CPython shares one object for each empty or one-byte bytes value).
 * </ul>
 */
public final class NpyWriter {
  /** NumPy's alignment of the data after the header. */
  private static final int ARRAY_ALIGN = 64;
  /** NumPy's spare room in the header for a first dimension of up to this many digits. */
  private static final int GROWTH_AXIS_MAX_DIGITS = 21;

  private NpyWriter() {}

  /**
   * Writes {@code tensor} to {@code file} (replacing it) as saved_model_cli would.
   *
   * @param tensor the value (not closed: it stays the caller's)
   * @param file the .npy file to write
   * @throws IllegalArgumentException for a dtype no .npy file holds
   * @throws IOException if the file cannot be written
   */
  public static void write(Tensor tensor, Path file) throws IOException {
    try (OutputStream out = Files.newOutputStream(file)) {
      write(tensor, out);
    }
  }

  /**
   * Writes {@code tensor} as a .npy file's bytes, as saved_model_cli would.
   *
   * @param tensor the value (not closed: it stays the caller's)
   * @param out where the bytes go (not closed)
   * @throws IllegalArgumentException for a dtype no .npy file holds
   * @throws IOException if writing fails
   */
  public static void write(Tensor tensor, OutputStream out) throws IOException {
    DataType type = tensor.dataType();
    long[] shape = tensor.shape();
    if (type == DataType.STRING) {
      byte[][] values = tensor.toBytesArray();
      if (shape.length == 0) {
        byte[] value = values[0];
        byte[] padded = Arrays.copyOf(value, Math.max(1, value.length));
        out.write(header("'|S" + padded.length + "'", shape));
        out.write(padded);
      } else {
        out.write(header("'|O'", shape));
        out.write(pickleObjectArray(shape, values));
      }
      return;
    }
    out.write(header(descrRepr(type), shape));
    ByteBuffer buffer = tensor.buffer();
    byte[] data = new byte[buffer.remaining()];
    buffer.duplicate().get(data);
    if (ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN) {
      data = Npy.swapBytes(data, NpyArray.componentWidth(type));
    }
    out.write(data);
  }

  private static String descrRepr(DataType type) {
    String descr = Dtypes.descr(type);
    return descr.startsWith("[") ? descr : "'" + descr + "'";
  }

  /**
   * The .npy header NumPy 2 writes: magic, version, length, then the dict literal padded with
   * spaces and a newline so that the data starts at a multiple of 64 bytes.
   */
  static byte[] header(String descrRepr, long[] shape) {
    StringBuilder dict = new StringBuilder("{'descr': ").append(descrRepr)
        .append(", 'fortran_order': False, 'shape': ").append(tupleRepr(shape)).append(", }");
    if (shape.length > 0) {
      dict.append(" ".repeat(GROWTH_AXIS_MAX_DIGITS - Long.toString(shape[0]).length()));
    }
    byte[] text = dict.toString().getBytes(StandardCharsets.ISO_8859_1);
    int headerLength = text.length + 1;
    boolean version1 = true;
    int prefix = MAGIC_AND_VERSION + 2;
    int padding = ARRAY_ALIGN - ((prefix + headerLength) % ARRAY_ALIGN);
    int total = headerLength + padding;
    if (total > 65535) {
      version1 = false;
      prefix = MAGIC_AND_VERSION + 4;
      padding = ARRAY_ALIGN - ((prefix + headerLength) % ARRAY_ALIGN);
      total = headerLength + padding;
    }
    ByteBuffer out = ByteBuffer.allocate(prefix + total).order(ByteOrder.LITTLE_ENDIAN);
    out.put(Npy.MAGIC).put((byte) (version1 ? 1 : 2)).put((byte) 0);
    if (version1) {
      out.putShort((short) total);
    } else {
      out.putInt(total);
    }
    out.put(text);
    for (int i = 0; i < padding; i++) {
      out.put((byte) ' ');
    }
    out.put((byte) '\n');
    return out.array();
  }

  private static final int MAGIC_AND_VERSION = 8;

  private static String tupleRepr(long[] shape) {
    if (shape.length == 1) {
      return "(" + shape[0] + ",)";
    }
    StringBuilder sb = new StringBuilder("(");
    for (int i = 0; i < shape.length; i++) {
      sb.append(i > 0 ? ", " : "").append(shape[i]);
    }
    return sb.append(')').toString();
  }

  /**
   * What {@code pickle.dump(array, f, protocol=4)} writes for a NumPy 2 object array of {@code
   * bytes} with this shape (elements in C order), as TensorFlow Python creates it.
   */
  static byte[] pickleObjectArray(long[] shape, byte[][] elements) {
    Pickler p = new Pickler();
    p.proto();
    // ndarray.__reduce__: (_reconstruct, (ndarray, (0,), b'b'), state)
    p.save(() -> p.global("numpy._core.multiarray", "_reconstruct"));
    p.save(() -> {
      p.save(() -> p.global("numpy", "ndarray"));
      p.save(() -> p.tuple(List.of(() -> p.integer(0))));
      p.save(() -> p.singletonBytes((byte) 'b'));
      p.op(Pickler.TUPLE3);
      p.memoize();
    });
    p.op(Pickler.REDUCE);
    p.memoize();
    // state: (1, shape, dtype('O'), False, [elements])
    p.save(() -> {
      p.op(Pickler.MARK);
      p.save(() -> p.integer(1));
      p.save(() -> {
        List<Runnable> dims = new ArrayList<>();
        for (long d : shape) {
          dims.add(() -> p.integer(d));
        }
        p.tuple(dims);
      });
      p.save(() -> {
        // dtype.__reduce__: (dtype, ('O8', False, True), (3, '|', None, None, None, -1, -1, 63))
        p.save(() -> p.global("numpy", "dtype"));
        p.save(() -> {
          p.save(() -> p.string("O8"));
          p.save(() -> p.op(Pickler.NEWFALSE));
          p.save(() -> p.op(Pickler.NEWTRUE));
          p.op(Pickler.TUPLE3);
          p.memoize();
        });
        p.op(Pickler.REDUCE);
        p.memoize();
        p.save(() -> {
          p.op(Pickler.MARK);
          p.save(() -> p.integer(3));
          p.save(() -> p.string("|"));
          for (int i = 0; i < 3; i++) {
            p.save(() -> p.op(Pickler.NONE));
          }
          p.save(() -> p.integer(-1));
          p.save(() -> p.integer(-1));
          p.save(() -> p.integer(63));
          p.op(Pickler.TUPLE);
          p.memoize();
        });
        p.op(Pickler.BUILD);
      });
      p.save(() -> p.op(Pickler.NEWFALSE));
      p.save(() -> p.list(elements));
      p.op(Pickler.TUPLE);
      p.memoize();
    });
    p.op(Pickler.BUILD);
    return p.finish();
  }

  /**
   * Just enough of CPython's C pickler (protocol 4) for one object array: opcodes, the memo
   * (strings and one-byte or empty bytes are shared objects), and framing. CPython checks at the
   * start of every save whether the current frame has reached 64 KiB and commits it if so; bytes
   * values of 64 KiB or more are written outside any frame.
   */
  private static final class Pickler {
    static final int MARK = '(';
    static final int STOP = '.';
    static final int NONE = 'N';
    static final int REDUCE = 'R';
    static final int BUILD = 'b';
    static final int TUPLE = 't';
    static final int EMPTY_TUPLE = ')';
    static final int APPEND = 'a';
    static final int APPENDS = 'e';
    static final int EMPTY_LIST = ']';
    static final int BININT = 'J';
    static final int BININT1 = 'K';
    static final int BININT2 = 'M';
    static final int BINGET = 'h';
    static final int LONG_BINGET = 'j';
    static final int SHORT_BINBYTES = 'C';
    static final int BINBYTES = 'B';
    static final int PROTO = 0x80;
    static final int TUPLE1 = 0x85;
    static final int TUPLE2 = 0x86;
    static final int TUPLE3 = 0x87;
    static final int NEWTRUE = 0x88;
    static final int NEWFALSE = 0x89;
    static final int LONG1 = 0x8a;
    static final int SHORT_BINUNICODE = 0x8c;
    static final int BINUNICODE8 = 0x8d;
    static final int BINBYTES8 = 0x8e;
    static final int STACK_GLOBAL = 0x93;
    static final int MEMOIZE = 0x94;
    static final int FRAME = 0x95;
    static final int FRAME_SIZE_TARGET = 64 * 1024;
    static final int FRAME_SIZE_MIN = 4;
    static final int BATCH_SIZE = 1000;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private ByteArrayOutputStream frame;
    private boolean framing;
    private int memoSize;
    /** Memo ids of interned strings and of CPython's shared empty and one-byte bytes objects. */
    private final Map<String, Integer> memoStrings = new HashMap<>();
    private final Map<Integer, Integer> memoSingletons = new HashMap<>();

    void proto() {
      out.write(PROTO);
      out.write(4);
      framing = true;
    }

    /** One call of CPython's save(): the frame boundary check, then the object's opcodes. */
    void save(Runnable body) {
      if (framing && frame != null && frame.size() >= FRAME_SIZE_TARGET) {
        commitFrame();
      }
      body.run();
    }

    void op(int opcode) {
      write(new byte[] {(byte) opcode});
    }

    void memoize() {
      op(MEMOIZE);
      memoSize++;
    }

    void global(String module, String name) {
      save(() -> string(module));
      save(() -> string(name));
      op(STACK_GLOBAL);
      memoize();
    }

    void string(String value) {
      Integer id = memoStrings.get(value);
      if (id != null) {
        get(id);
        return;
      }
      byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
      if (utf8.length < 256) {
        write(new byte[] {(byte) SHORT_BINUNICODE, (byte) utf8.length});
      } else {
        write(concat(new byte[] {(byte) BINUNICODE8}, le(utf8.length, 8)));
      }
      write(utf8);
      memoStrings.put(value, memoSize);
      memoize();
    }

    void integer(long value) {
      if (value >= 0 && value <= 0xff) {
        write(new byte[] {(byte) BININT1, (byte) value});
      } else if (value >= 0 && value <= 0xffff) {
        write(new byte[] {(byte) BININT2, (byte) value, (byte) (value >> 8)});
      } else if (value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE) {
        write(concat(new byte[] {(byte) BININT}, le(value, 4)));
      } else {
        byte[] big = java.math.BigInteger.valueOf(value).toByteArray(); // big-endian, minimal
        byte[] little = new byte[big.length];
        for (int i = 0; i < big.length; i++) {
          little[i] = big[big.length - 1 - i];
        }
        write(new byte[] {(byte) LONG1, (byte) little.length});
        write(little);
      }
    }

    void tuple(List<Runnable> items) {
      if (items.isEmpty()) {
        op(EMPTY_TUPLE);
        return;
      }
      if (items.size() > 3) {
        op(MARK);
      }
      for (Runnable item : items) {
        save(item);
      }
      switch (items.size()) {
        case 1:
          op(TUPLE1);
          break;
        case 2:
          op(TUPLE2);
          break;
        case 3:
          op(TUPLE3);
          break;
        default:
          op(TUPLE);
      }
      memoize();
    }

    void singletonBytes(byte value) {
      bytes(new byte[] {value});
    }

    void bytes(byte[] value) {
      Integer key = null;
      if (value.length <= 1) {
        key = value.length == 0 ? -1 : value[0] & 0xff;
      }
      if (key != null && memoSingletons.containsKey(key)) {
        get(memoSingletons.get(key));
        return;
      }
      byte[] opHeader;
      if (value.length < 256) {
        opHeader = new byte[] {(byte) SHORT_BINBYTES, (byte) value.length};
      } else if (value.length <= 0xffffffffL) {
        opHeader = concat(new byte[] {(byte) BINBYTES}, le(value.length, 4));
      } else {
        opHeader = concat(new byte[] {(byte) BINBYTES8}, le(value.length, 8));
      }
      if (value.length >= FRAME_SIZE_TARGET) {
        // Large payloads bypass framing.
        commitFrame();
        out.writeBytes(opHeader);
        out.writeBytes(value);
      } else {
        write(opHeader);
        write(value);
      }
      if (key != null) {
        memoSingletons.put(key, memoSize);
      }
      memoize();
    }

    void list(byte[][] elements) {
      op(EMPTY_LIST);
      memoize();
      if (elements.length == 1) {
        save(() -> bytes(elements[0]));
        op(APPEND);
        return;
      }
      int total = 0;
      while (total < elements.length) {
        op(MARK);
        int batch = 0;
        while (total < elements.length) {
          byte[] element = elements[total];
          save(() -> bytes(element));
          total++;
          if (++batch == BATCH_SIZE) {
            break;
          }
        }
        op(APPENDS);
      }
    }

    private void get(int id) {
      if (id < 256) {
        write(new byte[] {(byte) BINGET, (byte) id});
      } else {
        write(concat(new byte[] {(byte) LONG_BINGET}, le(id, 4)));
      }
    }

    byte[] finish() {
      op(STOP);
      commitFrame();
      framing = false;
      return out.toByteArray();
    }

    private void write(byte[] bytes) {
      if (framing && frame == null) {
        frame = new ByteArrayOutputStream();
      }
      (frame != null ? frame : out).writeBytes(bytes);
    }

    private void commitFrame() {
      if (frame == null) {
        return;
      }
      if (frame.size() >= FRAME_SIZE_MIN) {
        out.write(FRAME);
        out.writeBytes(le(frame.size(), 8));
      }
      out.writeBytes(frame.toByteArray());
      frame = null;
    }

    private static byte[] le(long value, int width) {
      byte[] bytes = new byte[width];
      for (int i = 0; i < width; i++) {
        bytes[i] = (byte) (value >>> (8 * i));
      }
      return bytes;
    }

    private static byte[] concat(byte[] a, byte[] b) {
      byte[] both = Arrays.copyOf(a, a.length + b.length);
      System.arraycopy(b, 0, both, a.length, b.length);
      return both;
    }
  }
}
