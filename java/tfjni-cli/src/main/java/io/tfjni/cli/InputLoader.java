package io.tfjni.cli;

import io.tfjni.DataType;
import io.tfjni.Tensor;
import io.tfjni.TensorSpec;
import io.tfjni.numpy.Dtypes;
import io.tfjni.numpy.Half;
import io.tfjni.numpy.Npy;
import io.tfjni.numpy.NpyArray;
import io.tfjni.numpy.Npz;
import io.tfjni.numpy.NumpyExpression;
import io.tfjni.numpy.PythonLiteral;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns {@code --inputs 'x=a.npy;y=b.npz[arr]'} and {@code --input_exprs 'x=[[1,2]]'} into
 * tensors for a signature, checking every key, dtype and shape against it first.
 */
final class InputLoader {
  private static final Pattern FILE_WITH_NAME =
      Pattern.compile("([^=]+)=([^\\[\\]]+)\\[([^\\[\\]]+)\\]");
  private static final Pattern FILE = Pattern.compile("([^=]+)=([^\\[\\]]+)");

  /** One direct buffer's limit, less the room that aligning it takes. */
  private static final int MAX_TENSOR_BYTES = Integer.MAX_VALUE - 64;

  private InputLoader() {}

  /** One input before it becomes a tensor: an array from a file, or a parsed literal. */
  sealed interface Source permits FileSource, ExprSource {}

  record FileSource(Path file, String arrayName) implements Source {}

  record ExprSource(String expression) implements Source {}

  /** Parses both options into sources by input key; a key given twice is an error. */
  static Map<String, Source> parse(String inputs, String exprs) {
    Map<String, Source> sources = new LinkedHashMap<>();
    if (inputs != null) {
      for (String part : inputs.split(";")) {
        if (part.isEmpty()) {
          continue;
        }
        Matcher named = FILE_WITH_NAME.matcher(part);
        Matcher plain = FILE.matcher(part);
        if (named.matches()) {
          put(sources, named.group(1), new FileSource(Path.of(named.group(2)), named.group(3)));
        } else if (plain.matches()) {
          put(sources, plain.group(1), new FileSource(Path.of(plain.group(2)), null));
        } else {
          throw new CliException("--inputs: '" + part + "' is not KEY=FILE or KEY=FILE[NAME]");
        }
      }
    }
    if (exprs != null) {
      for (String part : splitOutsideQuotes(exprs)) {
        if (part.isBlank()) {
          continue;
        }
        int eq = part.indexOf('=');
        if (eq <= 0) {
          throw new CliException("--input_exprs: '" + part + "' is not KEY=EXPRESSION");
        }
        put(sources, part.substring(0, eq), new ExprSource(part.substring(eq + 1)));
      }
    }
    return sources;
  }

  private static void put(Map<String, Source> sources, String key, Source source) {
    if (sources.put(key, source) != null) {
      throw new CliException("input '" + key + "' is given more than once");
    }
  }

  /** Splits on ';' except inside quotes, so that string literals may hold ';'. */
  static List<String> splitOutsideQuotes(String text) {
    List<String> parts = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    char quote = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quote != 0) {
        current.append(c);
        if (c == '\\' && i + 1 < text.length()) {
          current.append(text.charAt(++i));
        } else if (c == quote) {
          quote = 0;
        }
      } else if (c == ';') {
        parts.add(current.toString());
        current.setLength(0);
      } else {
        if (c == '\'' || c == '"') {
          quote = c;
        }
        current.append(c);
      }
    }
    parts.add(current.toString());
    return parts;
  }

  /** What an input must be: its dtype and dims (-1 unknown), or null dims for unknown rank. */
  record Spec(DataType dataType, long[] shape) {
    String describe() {
      return Dtypes.pythonName(dataType) + " " + (shape == null ? "of any shape"
          : Arrays.toString(shape).replace("-1", "?"));
    }

    boolean accepts(long[] actual) {
      return new TensorSpec("", "", dataType, shape).accepts(actual);
    }
  }

  static Spec spec(SavedModelInfo.TensorInfo info) {
    DataType type;
    try {
      type = DataType.fromCode(info.dtype());
    } catch (IllegalArgumentException e) {
      throw new CliException("the signature has an input of dtype " + Dtypes.protoName(info.dtype())
          + ", which tfjni cannot feed");
    }
    return new Spec(type, info.shape());
  }

  /**
   * Loads every input of {@code signature} from {@code sources} into new tensors (close them),
   * by input key in key order. Unknown or missing keys and any dtype or shape mismatch are
   * {@link CliException}s; nothing is left open when one is thrown.
   */
  static Map<String, Tensor> load(SavedModelInfo.SignatureInfo signature,
      Map<String, Source> sources) {
    for (String key : sources.keySet()) {
      if (!signature.inputs().containsKey(key)) {
        throw new CliException("'" + key + "' is not an input of signature '" + signature.key()
            + "'; its inputs are " + SavedModelInfo.quoteAll(signature.inputs().keySet()));
      }
    }
    List<String> missing = new ArrayList<>();
    for (String key : signature.inputs().keySet()) {
      if (!sources.containsKey(key)) {
        missing.add(key);
      }
    }
    if (!missing.isEmpty()) {
      throw new CliException("no value for input" + (missing.size() > 1 ? "s " : " ")
          + SavedModelInfo.quoteAll(missing) + " of signature '" + signature.key()
          + "' (its inputs are " + SavedModelInfo.quoteAll(signature.inputs().keySet())
          + "): give " + (missing.size() > 1 ? "them" : "it") + " with --inputs or --input_exprs");
    }
    Map<String, Tensor> tensors = new TreeMap<>();
    try {
      for (Map.Entry<String, SavedModelInfo.TensorInfo> input : signature.inputs().entrySet()) {
        String key = input.getKey();
        Spec spec = spec(input.getValue());
        Source source = sources.get(key);
        Tensor tensor = source instanceof FileSource file ? fromFile(key, file, spec)
            : fromExpression(key, ((ExprSource) source).expression(), spec);
        tensors.put(key, tensor);
      }
      return tensors;
    } catch (RuntimeException | Error e) {
      tensors.values().forEach(Tensor::close);
      throw e;
    }
  }

  static NpyArray readArray(String key, FileSource source) {
    Path file = source.file();
    try {
      if (!Files.exists(file)) {
        throw new CliException("input '" + key + "': no file " + file);
      }
      if (Npz.isNpz(file)) {
        String name = source.arrayName();
        if (name == null) {
          List<String> names = Npz.names(file);
          if (names.size() != 1) {
            throw new CliException("input '" + key + "': " + file + " holds " + names.size()
                + " arrays " + names + "; name one, e.g. " + key + "=" + file + "["
                + (names.isEmpty() ? "NAME" : names.get(0)) + "]");
          }
          name = names.get(0);
        }
        return Npz.read(file, name);
      }
      if (source.arrayName() != null) {
        throw new CliException("input '" + key + "': " + file + " is a .npy file, which holds one"
            + " array; [" + source.arrayName() + "] names an array of a .npz file");
      }
      return Npy.readArray(file);
    } catch (NoSuchFileException e) {
      throw new CliException("input '" + key + "': no file " + file);
    } catch (IOException e) {
      throw new CliException("input '" + key + "': cannot read " + file + ": " + e.getMessage());
    } catch (IllegalArgumentException e) {
      throw new CliException("input '" + key + "': " + e.getMessage());
    }
  }

  private static Tensor fromFile(String key, FileSource source, Spec spec) {
    NpyArray array = readArray(key, source);
    String where = source.file() + (source.arrayName() != null ? "[" + source.arrayName() + "]"
        : "");
    if (!array.convertsTo(spec.dataType())) {
      throw new CliException("input '" + key + "': " + where + " holds " + array.describe()
          + ", but the signature wants " + spec.describe());
    }
    if (!spec.accepts(array.shape())) {
      throw new CliException("input '" + key + "': " + where + " has shape "
          + Arrays.toString(array.shape()) + ", but the signature wants " + spec.describe());
    }
    return array.toTensor(spec.dataType());
  }

  /**
   * An expression of --input_exprs (a literal, or a NumPy constructor) as a tensor of the
   * signature's dtype. Without dtype=, its values take that dtype as a literal's do; with one,
   * the dtype must be the signature's, as a .npy file's must.
   */
  static Tensor fromExpression(String key, String expression, Spec spec) {
    Object value;
    try {
      value = NumpyExpression.parse(expression);
    } catch (IllegalArgumentException e) {
      throw new CliException("--input_exprs: input '" + key + "': cannot parse the expression: "
          + e.getMessage());
    }
    long[] shape;
    List<Object> leaves;
    if (value instanceof NumpyExpression.Array array) {
      if (array.dtype() != null && array.dtype() != spec.dataType()) {
        throw new CliException("--input_exprs: input '" + key + "' has dtype "
            + Dtypes.pythonName(array.dtype()) + ", but the signature wants " + spec.describe());
      }
      shape = array.shape();
      leaves = array.elements();
    } else {
      List<Long> dims = new ArrayList<>();
      leaves = new ArrayList<>();
      shapeOf(key, value, 0, dims, leaves);
      shape = dims.stream().mapToLong(Long::longValue).toArray();
    }
    if (!spec.accepts(shape)) {
      throw new CliException("--input_exprs: input '" + key + "' has shape "
          + Arrays.toString(shape) + ", but the signature wants " + spec.describe());
    }
    try {
      return tensor(spec.dataType(), shape, leaves);
    } catch (IllegalArgumentException e) {
      throw new CliException("--input_exprs: input '" + key + "': " + e.getMessage());
    }
  }

  /** Walks nested lists: their dims must be rectangular, as NumPy requires. */
  private static void shapeOf(String key, Object value, int depth, List<Long> dims,
      List<Object> leaves) {
    if (value instanceof List<?> list) {
      if (dims.size() == depth) {
        if (!leaves.isEmpty()) {
          throw ragged(key);
        }
        dims.add((long) list.size());
      } else if (dims.size() < depth || dims.get(depth) != list.size()) {
        throw ragged(key);
      }
      for (Object item : list) {
        shapeOf(key, item, depth + 1, dims, leaves);
      }
      if (list.isEmpty() && dims.size() > depth + 1) {
        throw ragged(key);
      }
    } else {
      if (value instanceof Map<?, ?>) {
        throw new CliException("--input_exprs: input '" + key + "': a dict has no tensor value");
      }
      if (dims.size() != depth) {
        throw ragged(key);
      }
      leaves.add(value);
    }
  }

  private static CliException ragged(String key) {
    return new CliException("--input_exprs: input '" + key + "' is ragged: nested lists must"
        + " all have the same length at each depth");
  }

  /** Converts literal values to one dtype the way NumPy would, refusing lossy conversions. */
  static Tensor tensor(DataType type, long[] shape, List<Object> values) {
    int n = values.size();
    if (type == DataType.STRING) {
      byte[][] strings = new byte[n][];
      for (int i = 0; i < n; i++) {
        Object v = values.get(i);
        if (v instanceof String s) {
          strings[i] = s.getBytes(StandardCharsets.UTF_8);
        } else if (v instanceof byte[] b) {
          strings[i] = b;
        } else {
          throw new IllegalArgumentException(describe(v) + " is not a string, and the signature"
              + " wants strings");
        }
      }
      return Tensor.ofBytes(strings, shape);
    }
    if (!type.isFixedSize()) {
      throw new IllegalArgumentException("cannot make a " + type + " tensor from a literal");
    }
    if ((long) n * type.byteSize() > MAX_TENSOR_BYTES) {
      throw new IllegalArgumentException(n + " elements of " + Dtypes.pythonName(type)
          + " are more than the " + MAX_TENSOR_BYTES + " bytes an expression may fill");
    }
    ByteBuffer data = Tensor.allocateAlignedBuffer(n * type.byteSize())
        .order(ByteOrder.nativeOrder());
    for (int i = 0; i < n; i++) {
      put(data, type, values.get(i));
    }
    data.flip();
    return Tensor.of(type, data, shape);
  }

  private static void put(ByteBuffer data, DataType type, Object v) {
    switch (type) {
      case FLOAT:
        data.putFloat((float) real(v, type));
        break;
      case DOUBLE:
        data.putDouble(real(v, type));
        break;
      case HALF:
        data.putShort(Half.fromDouble(real(v, type)));
        break;
      case BFLOAT16:
        data.putShort(Half.bfloat16FromDouble(real(v, type)));
        break;
      case COMPLEX64:
      case COMPLEX128: {
        double re;
        double im;
        if (v instanceof PythonLiteral.Complex c) {
          re = c.real();
          im = c.imag();
        } else {
          re = real(v, type);
          im = 0;
        }
        if (type == DataType.COMPLEX64) {
          data.putFloat((float) re).putFloat((float) im);
        } else {
          data.putDouble(re).putDouble(im);
        }
        break;
      }
      case BOOL:
        if (v instanceof Boolean b) {
          data.put((byte) (b ? 1 : 0));
        } else if (v instanceof BigInteger || v instanceof Double) {
          data.put((byte) (real(v, type) != 0 ? 1 : 0));
        } else {
          throw new IllegalArgumentException(describe(v) + " is not a bool");
        }
        break;
      case INT8:
        data.put((byte) integer(v, type, -128, 127));
        break;
      case UINT8:
        data.put((byte) integer(v, type, 0, 255));
        break;
      case INT16:
        data.putShort((short) integer(v, type, Short.MIN_VALUE, Short.MAX_VALUE));
        break;
      case UINT16:
        data.putShort((short) integer(v, type, 0, 65535));
        break;
      case INT32:
        data.putInt((int) integer(v, type, Integer.MIN_VALUE, Integer.MAX_VALUE));
        break;
      case UINT32:
        data.putInt((int) integer(v, type, 0, 0xffffffffL));
        break;
      case INT64:
        data.putLong(integer(v, type, Long.MIN_VALUE, Long.MAX_VALUE));
        break;
      case UINT64: {
        BigInteger value = exactInteger(v, type);
        if (value.signum() < 0 || value.bitLength() > 64) {
          throw new IllegalArgumentException(value + " is out of range for uint64");
        }
        data.putLong(value.longValue());
        break;
      }
      default:
        throw new IllegalArgumentException("cannot make a " + Dtypes.pythonName(type)
            + " tensor from a literal");
    }
  }

  private static double real(Object v, DataType type) {
    if (v instanceof Double d) {
      return d;
    }
    if (v instanceof BigInteger i) {
      return i.doubleValue();
    }
    if (v instanceof Boolean b) {
      return b ? 1 : 0;
    }
    throw new IllegalArgumentException(describe(v) + " is not a number, and the signature wants "
        + Dtypes.pythonName(type));
  }

  private static long integer(Object v, DataType type, long min, long max) {
    BigInteger value = exactInteger(v, type);
    if (value.compareTo(BigInteger.valueOf(min)) < 0
        || value.compareTo(BigInteger.valueOf(max)) > 0) {
      throw new IllegalArgumentException(value + " is out of range for " + Dtypes.pythonName(type));
    }
    return value.longValue();
  }

  private static BigInteger exactInteger(Object v, DataType type) {
    if (v instanceof BigInteger i) {
      return i;
    }
    if (v instanceof Boolean b) {
      return b ? BigInteger.ONE : BigInteger.ZERO;
    }
    if (v instanceof Double d) {
      if (Double.isFinite(d) && d == Math.rint(d)) {
        return new java.math.BigDecimal(d).toBigIntegerExact();
      }
      throw new IllegalArgumentException(Py.floatRepr(d) + " is not a whole number,"
          + " and the signature wants " + Dtypes.pythonName(type));
    }
    throw new IllegalArgumentException(describe(v) + " is not an integer, and the signature wants "
        + Dtypes.pythonName(type));
  }

  private static String describe(Object v) {
    if (v instanceof String s) {
      return Py.repr(s);
    }
    if (v instanceof byte[] b) {
      return Py.repr(b);
    }
    if (v instanceof Boolean b) {
      return b ? "True" : "False";
    }
    if (v instanceof Double d) {
      return Py.floatRepr(d);
    }
    if (v instanceof PythonLiteral.Complex c) {
      return "(" + Py.floatRepr(c.real()) + "+" + Py.floatRepr(c.imag())
          + "j)";
    }
    return String.valueOf(v);
  }
}
