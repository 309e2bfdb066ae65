package io.tfjni.numpy;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the pickle NumPy writes for an object array of {@code bytes} or {@code str} (what
 * TensorFlow Python returns for a string tensor), and nothing else.
 *
 * <p>This is not an unpickler: it runs the few opcodes of pickle protocols 2 to 5 that such a
 * pickle uses on a stack of plain values, and knows the few globals it calls by name
 * ({@code numpy.core.multiarray._reconstruct} or {@code numpy._core.multiarray._reconstruct},
 * {@code numpy.ndarray}, {@code numpy.dtype}, and {@code _codecs.encode} and {@code bytes}, with
 * which protocol 2 spells {@code bytes} objects). A "call" of one of them only builds a value describing it; nothing is
 * looked up or executed. Any other opcode or global, an argument of another form, a nested object
 * or a truncated stream is refused with an {@link IllegalArgumentException}. Every length is
 * checked against the bytes left, so nothing is allocated beyond the input's size.
 */
final class ObjectArrayPickle {
  /** The array's elements, in C order, and its shape. */
  record Result(long[] shape, byte[][] elements) {}

  private static final Set<String> RECONSTRUCT = Set.of("numpy.core.multiarray._reconstruct",
      "numpy._core.multiarray._reconstruct");

  // Values on the stack, besides Long, Boolean, String (str), byte[] (bytes) and NONE.
  private record Global(String name) {}

  private record Tuple(List<Object> items) {}

  /** A Python list; APPEND mutates it, as in Python (a memoized list is the same object). */
  private static final class PyList {
    final List<Object> items = new ArrayList<>();
  }

  private static final class DType {
    boolean stateSet;
  }

  private static final class NdArray {
    long[] shape;
    List<Object> elements;
  }

  private static final Object NONE = new Object() {
    @Override
    public String toString() {
      return "None";
    }
  };

  private static final Object MARK = new Object();

  private final ByteBuffer in;
  private final String name;
  private final List<Object> stack = new ArrayList<>();
  private final Map<Long, Object> memo = new HashMap<>();

  private ObjectArrayPickle(ByteBuffer in, String name) {
    this.in = in;
    this.name = name;
  }

  /** Reads the pickle in {@code in}'s remaining bytes; {@code name} names the file in errors. */
  static Result read(ByteBuffer in, String name) {
    try {
      return new ObjectArrayPickle(in.slice().order(ByteOrder.LITTLE_ENDIAN), name).run();
    } catch (BufferUnderflowException e) {
      throw Npy.unsupported(name, "the object array's pickle is refused: it is truncated");
    }
  }

  private Result run() {
    if (remaining() < 2 || u8() != 0x80) {
      throw refused("it does not start with a pickle protocol 2-5 header");
    }
    int protocol = u8();
    if (protocol < 2 || protocol > 5) {
      throw refused("pickle protocol " + protocol + " (NumPy writes 2 to 5)");
    }
    while (true) {
      if (remaining() == 0) {
        throw refused("the pickle is truncated (no STOP)");
      }
      int op = u8();
      switch (op) {
        case '.' -> { // STOP
          if (remaining() != 0) {
            throw refused(remaining() + " bytes after the pickle's end");
          }
          return result(pop());
        }
        case 0x95 -> { // FRAME: a length prefix we only check
          long length = in.getLong();
          if (length < 0 || length > remaining()) {
            throw refused("a pickle frame of " + Long.toUnsignedString(length)
                + " bytes is longer than the rest of the file");
          }
        }
        case 'c' -> push(new Global(qualified(line(), line()))); // GLOBAL
        case 0x93 -> { // STACK_GLOBAL
          Object attribute = pop();
          Object module = pop();
          if (!(module instanceof String m) || !(attribute instanceof String a)) {
            throw refused("STACK_GLOBAL needs two strings");
          }
          push(new Global(qualified(m, a)));
        }
        case 'q' -> memo.put((long) u8(), peek()); // BINPUT
        case 'r' -> memo.put(Integer.toUnsignedLong(in.getInt()), peek()); // LONG_BINPUT
        case 0x94 -> memo.put((long) memo.size(), peek()); // MEMOIZE
        case 'h' -> push(recall(u8())); // BINGET
        case 'j' -> push(recall(Integer.toUnsignedLong(in.getInt()))); // LONG_BINGET
        case '(' -> stack.add(MARK);
        case ')' -> push(new Tuple(List.of()));
        case 0x85 -> push(tuple(1));
        case 0x86 -> push(tuple(2));
        case 0x87 -> push(tuple(3));
        case 't' -> push(new Tuple(popToMark()));
        case ']' -> push(new PyList());
        case 'a' -> { // APPEND
          Object item = pop();
          list(peek()).items.add(item);
        }
        case 'e' -> { // APPENDS
          List<Object> items = popToMark();
          list(peek()).items.addAll(items);
        }
        case 'K' -> push((long) u8()); // BININT1
        case 'M' -> push((long) Short.toUnsignedInt(in.getShort())); // BININT2
        case 'J' -> push((long) in.getInt()); // BININT
        case 0x8a -> push(long1()); // LONG1
        case 'N' -> push(NONE);
        case 0x88 -> push(Boolean.TRUE);
        case 0x89 -> push(Boolean.FALSE);
        case 0x8c -> push(utf8(bytes(u8()))); // SHORT_BINUNICODE
        case 'X' -> push(utf8(bytes(Integer.toUnsignedLong(in.getInt())))); // BINUNICODE
        case 0x8d -> push(utf8(bytes(in.getLong()))); // BINUNICODE8
        case 'C' -> push(bytes(u8())); // SHORT_BINBYTES
        case 'B' -> push(bytes(Integer.toUnsignedLong(in.getInt()))); // BINBYTES
        case 0x8e -> push(bytes(in.getLong())); // BINBYTES8
        case 'R' -> { // REDUCE
          Object args = pop();
          push(call(pop(), args));
        }
        case 'b' -> { // BUILD
          Object state = pop();
          build(peek(), state);
        }
        default -> throw refused(String.format("pickle opcode 0x%02x at byte %d is not part of"
            + " a NumPy object array of bytes or str", op, in.position() - 1));
      }
    }
  }

  // -------------------------------------------------------------------- the known globals

  private String qualified(String module, String attribute) {
    String qualified = module + "." + attribute;
    if (RECONSTRUCT.contains(qualified) || qualified.equals("numpy.ndarray")
        || qualified.equals("numpy.dtype") || qualified.equals("_codecs.encode")
        || qualified.equals("__builtin__.bytes") || qualified.equals("builtins.bytes")) {
      return qualified;
    }
    throw refused("the pickle refers to " + qualified + "; only a NumPy array of bytes or str"
        + " objects is read");
  }

  /** What calling the global would return, as a description; nothing runs. */
  private Object call(Object callable, Object argsValue) {
    if (!(callable instanceof Global global) || !(argsValue instanceof Tuple tuple)) {
      throw refused("REDUCE of " + describe(callable) + " on " + describe(argsValue));
    }
    List<Object> args = tuple.items();
    switch (global.name()) {
      case "_codecs.encode" -> {
        // Protocol 2 has no bytes opcode: bytes are encode(str_of_latin1_chars, 'latin1').
        if (args.size() == 2 && args.get(0) instanceof String text
            && "latin1".equals(args.get(1))) {
          byte[] out = new byte[text.length()];
          for (int i = 0; i < out.length; i++) {
            char ch = text.charAt(i);
            if (ch > 0xff) {
              throw refused("_codecs.encode of a character beyond latin-1");
            }
            out[i] = (byte) ch;
          }
          return out;
        }
      }
      case "__builtin__.bytes", "builtins.bytes" -> {
        // Protocol 2 writes b'' as bytes().
        if (args.isEmpty()) {
          return new byte[0];
        }
      }
      case "numpy.dtype" -> {
        if (args.size() == 3 && "O8".equals(args.get(0)) && Boolean.FALSE.equals(args.get(1))
            && Boolean.TRUE.equals(args.get(2))) {
          return new DType();
        }
      }
      default -> {
        if (RECONSTRUCT.contains(global.name()) && args.size() == 3
            && args.get(0) instanceof Global type && type.name().equals("numpy.ndarray")
            && args.get(1) instanceof Tuple zero && zero.items().equals(List.of(0L))
            && args.get(2) instanceof byte[] code && Arrays.equals(code, new byte[] {'b'})) {
          return new NdArray();
        }
      }
    }
    throw refused("the pickle calls " + global.name() + " with arguments NumPy does not write: "
        + describe(argsValue));
  }

  private void build(Object target, Object stateValue) {
    if (!(stateValue instanceof Tuple tuple)) {
      throw refused("BUILD with " + describe(stateValue));
    }
    List<Object> state = tuple.items();
    if (target instanceof DType dtype && !dtype.stateSet && state.size() == 8
        && Long.valueOf(3).equals(state.get(0)) && "|".equals(state.get(1))) {
      dtype.stateSet = true;
      return;
    }
    if (target instanceof NdArray array && array.shape == null && state.size() == 5
        && Long.valueOf(1).equals(state.get(0)) && state.get(1) instanceof Tuple dims
        && state.get(2) instanceof DType dtype && dtype.stateSet
        && state.get(3) instanceof Boolean && state.get(4) instanceof PyList elements) {
      // The element list is in C order whatever the fortran flag (NumPy iterates in C order).
      array.shape = shape(dims.items());
      array.elements = elements.items;
      return;
    }
    throw refused("BUILD of " + describe(target) + " with a state NumPy does not write: "
        + describe(stateValue));
  }

  private long[] shape(List<Object> dims) {
    long[] shape = new long[dims.size()];
    for (int i = 0; i < shape.length; i++) {
      if (!(dims.get(i) instanceof Long dim) || dim < 0) {
        throw refused("bad shape in the pickle: " + dims);
      }
      shape[i] = dim;
    }
    return shape;
  }

  private Result result(Object value) {
    if (!stack.isEmpty()) {
      throw refused("values left on the pickle's stack");
    }
    if (!(value instanceof NdArray array) || array.shape == null) {
      throw refused("the pickle is not a NumPy array but " + describe(value));
    }
    long count = 1;
    try {
      for (long dim : array.shape) {
        count = Math.multiplyExact(count, dim);
      }
    } catch (ArithmeticException e) {
      count = -1;
    }
    if (count != array.elements.size()) {
      throw refused("shape " + Arrays.toString(array.shape) + " does not match the "
          + array.elements.size() + " elements in the pickle");
    }
    byte[][] elements = new byte[array.elements.size()][];
    boolean allBytes = true;
    boolean allStr = true;
    long total = 0;
    for (int i = 0; i < elements.length; i++) {
      Object element = array.elements.get(i);
      if (element instanceof byte[] b) {
        elements[i] = b;  // shared when memoized, as in Python; readers copy
        allStr = false;
      } else if (element instanceof String s) {
        elements[i] = s.getBytes(StandardCharsets.UTF_8);
        allBytes = false;
      } else {
        throw refused("element " + i + " of the object array is " + describe(element)
            + ", not bytes or str");
      }
      // A memoized element may be repeated for two bytes each: bound what that can add up to.
      total += elements[i].length;
      if (total > Npy.MAX_BYTES) {
        throw refused("its strings add up to more than tfjni reads (2 GiB)");
      }
    }
    if (!allBytes && !allStr) {
      throw refused("the object array mixes bytes and str elements");
    }
    return new Result(array.shape, elements);
  }

  // -------------------------------------------------------------------- stack and bytes

  private void push(Object value) {
    stack.add(value);
  }

  private Object pop() {
    if (stack.isEmpty() || stack.get(stack.size() - 1) == MARK) {
      throw refused("the pickle's stack underflows");
    }
    return stack.remove(stack.size() - 1);
  }

  private Object peek() {
    if (stack.isEmpty() || stack.get(stack.size() - 1) == MARK) {
      throw refused("the pickle's stack underflows");
    }
    return stack.get(stack.size() - 1);
  }

  private List<Object> popToMark() {
    int mark = stack.lastIndexOf(MARK);
    if (mark < 0) {
      throw refused("no MARK in the pickle");
    }
    List<Object> items = new ArrayList<>(stack.subList(mark + 1, stack.size()));
    stack.subList(mark, stack.size()).clear();
    return items;
  }

  private Tuple tuple(int n) {
    Object[] items = new Object[n];
    for (int i = n - 1; i >= 0; i--) {
      items[i] = pop();
    }
    return new Tuple(Arrays.asList(items));
  }

  private PyList list(Object value) {
    if (value instanceof PyList list) {
      return list;
    }
    throw refused("APPEND to " + describe(value));
  }

  private Object recall(long index) {
    Object value = memo.get(index);
    if (value == null) {
      throw refused("the pickle recalls memo entry " + index + ", which was never stored");
    }
    return value;
  }

  private int remaining() {
    return in.remaining();
  }

  private int u8() {
    return Byte.toUnsignedInt(in.get());
  }

  private byte[] bytes(long length) {
    if (length < 0 || length > remaining()) {
      throw refused("a pickled string declares " + Long.toUnsignedString(length)
          + " bytes, more than the " + remaining() + " left in the file");
    }
    byte[] out = new byte[(int) length];
    in.get(out);
    return out;
  }

  /** LONG1: a little-endian two's-complement integer of up to 8 bytes (NumPy's shapes). */
  private long long1() {
    int n = u8();
    if (n > 8) {
      throw refused("an integer of " + n + " bytes in the pickle");
    }
    byte[] b = bytes(n);
    long value = 0;
    for (int i = n - 1; i >= 0; i--) {
      value = (value << 8) | (b[i] & 0xff);
    }
    if (n > 0 && n < 8 && b[n - 1] < 0) {
      value -= 1L << (8 * n);  // sign-extend
    }
    return value;
  }

  /** A text line of GLOBAL (protocol 0 syntax, ASCII names). */
  private String line() {
    StringBuilder out = new StringBuilder();
    while (true) {
      if (remaining() == 0 || out.length() > 256) {
        throw refused("a GLOBAL name is truncated or too long");
      }
      int ch = u8();
      if (ch == '\n') {
        return out.toString();
      }
      out.append((char) ch);
    }
  }

  private String utf8(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw refused("a pickled str is not valid UTF-8 (lone surrogates cannot be a tensor's"
          + " UTF-8 text)");
    }
  }

  private static String describe(Object value) {
    if (value instanceof byte[]) {
      return "bytes";
    }
    if (value instanceof String) {
      return "str";
    }
    if (value instanceof Global g) {
      return g.name();
    }
    if (value instanceof Tuple t) {
      List<String> items = new ArrayList<>();
      t.items().forEach(item -> items.add(item instanceof Long || item instanceof Boolean
          || item == NONE ? String.valueOf(item) : describe(item)));
      return "(" + String.join(", ", items) + ")";
    }
    if (value instanceof PyList) {
      return "a list";
    }
    if (value instanceof DType) {
      return "numpy.dtype";
    }
    if (value instanceof NdArray) {
      return "numpy.ndarray";
    }
    return String.valueOf(value);
  }

  private IllegalArgumentException refused(String why) {
    return Npy.unsupported(name, "the object array's pickle is refused: " + why);
  }
}
