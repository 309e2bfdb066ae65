package io.tfjni.numpy;

import io.tfjni.DataType;
import java.util.HashMap;
import java.util.Map;

/**
 * TensorFlow's dtypes by enum value, as TensorFlow Python and NumPy name them: the {@code DT_}
 * name ({@code saved_model_cli show}), the Python name ({@code tf.float32}), and the .npy descr
 * that TensorFlow Python's NumPy array of that dtype has. The one table behind the .npy reader
 * and writer and the command line.
 */
public final class Dtypes {
  /** {@code descr}: null where NumPy has no array of that dtype. */
  private record Row(String proto, String python, String descr) {}

  /** Index = TensorFlow's enum value. */
  private static final Row[] ROWS = {
      new Row("INVALID", "invalid", null),
      new Row("FLOAT", "float32", "<f4"),
      new Row("DOUBLE", "float64", "<f8"),
      new Row("INT32", "int32", "<i4"),
      new Row("UINT8", "uint8", "|u1"),
      new Row("INT16", "int16", "<i2"),
      new Row("INT8", "int8", "|i1"),
      new Row("STRING", "string", "|O"),
      new Row("COMPLEX64", "complex64", "<c8"),
      new Row("INT64", "int64", "<i8"),
      new Row("BOOL", "bool", "|b1"),
      // The quantized types are one-field structured NumPy dtypes in TensorFlow Python.
      new Row("QINT8", "qint8", "[('qint8', '|i1')]"),
      new Row("QUINT8", "quint8", "[('quint8', '|u1')]"),
      new Row("QINT32", "qint32", "[('qint32', '<i4')]"),
      // ml_dtypes' types, which TensorFlow Python uses for these, report these descrs to NumPy.
      new Row("BFLOAT16", "bfloat16", "<V2"),
      new Row("QINT16", "qint16", "[('qint16', '<i2')]"),
      new Row("QUINT16", "quint16", "[('quint16', '<u2')]"),
      new Row("UINT16", "uint16", "<u2"),
      new Row("COMPLEX128", "complex128", "<c16"),
      new Row("HALF", "float16", "<f2"),
      new Row("RESOURCE", "resource", null),
      new Row("VARIANT", "variant", null),
      new Row("UINT32", "uint32", "<u4"),
      new Row("UINT64", "uint64", "<u8"),
      // The float8, float4 and sub-byte integer types are ml_dtypes' too, named alike; np.save
      // writes "<V1" for each (ml_dtypes 0.7.0, TensorFlow 2.21's), except float8_e5m2's "<f1".
      new Row("FLOAT8_E5M2", "float8_e5m2", "<f1"),
      new Row("FLOAT8_E4M3FN", "float8_e4m3fn", "<V1"),
      new Row("FLOAT8_E4M3FNUZ", "float8_e4m3fnuz", "<V1"),
      new Row("FLOAT8_E4M3B11FNUZ", "float8_e4m3b11fnuz", "<V1"),
      new Row("FLOAT8_E5M2FNUZ", "float8_e5m2fnuz", "<V1"),
      new Row("INT4", "int4", "<V1"),
      new Row("UINT4", "uint4", "<V1"),
      new Row("INT2", "int2", "<V1"),
      new Row("UINT2", "uint2", "<V1"),
      new Row("FLOAT4_E2M1FN", "float4_e2m1fn", "<V1")};

  /** Reference dtypes ({@code DT_FLOAT_REF}) are the value plus this. */
  private static final int REF_OFFSET = 100;

  /** A numeric typestr without byte order ("f4") to its dtype, for reading. */
  private static final Map<String, DataType> NUMERIC = new HashMap<>();
  /** A structured dtype's field name ("qint8") to its dtype, for reading. */
  private static final Map<String, DataType> QUANTIZED = new HashMap<>();

  static {
    for (DataType type : DataType.values()) {
      String descr = ROWS[type.code()].descr();
      if (descr == null) {
        continue;
      }
      if (descr.startsWith("[(")) {
        QUANTIZED.put(ROWS[type.code()].python(), type);
      } else if (descr.matches("[<|][fiucb]\\d+")) {
        NUMERIC.put(descr.substring(1), type);
      }
    }
  }

  private Dtypes() {}

  /**
   * The name of a dtype in TensorFlow's {@code types.proto}.
   *
   * @param code a {@code TF_DataType} value, or a reference type's (code + 100)
   * @return e.g. {@code "DT_FLOAT"}, {@code "DT_FLOAT_REF"}; an unknown value as its number
   */
  public static String protoName(int code) {
    if (code > REF_OFFSET && code - REF_OFFSET < ROWS.length) {
      return "DT_" + ROWS[code - REF_OFFSET].proto() + "_REF";
    }
    return code >= 0 && code < ROWS.length ? "DT_" + ROWS[code].proto() : Integer.toString(code);
  }

  /**
   * The name of a dtype in TensorFlow Python.
   *
   * @param code a {@code TF_DataType} value, or a reference type's (code + 100)
   * @return e.g. {@code "float32"}, as in {@code tf.float32}; an unknown value is
   *     {@code "dtype"} and its number
   */
  public static String pythonName(int code) {
    if (code > REF_OFFSET && code - REF_OFFSET < ROWS.length) {
      return ROWS[code - REF_OFFSET].python() + "_ref";
    }
    return code >= 0 && code < ROWS.length ? ROWS[code].python() : "dtype" + code;
  }

  /**
   * The name of a dtype in TensorFlow Python.
   *
   * @param type the type
   * @return e.g. {@code "float32"} for {@link DataType#FLOAT}
   */
  public static String pythonName(DataType type) {
    return pythonName(type.code());
  }

  /**
   * The descr of TensorFlow Python's NumPy array of this dtype: {@code "<f4"}, {@code "|O"} for
   * strings, the list literal {@code "[('qint8', '|i1')]"} for quantized types.
   *
   * @param type the type
   * @return the {@code .npy} header's descr
   * @throws IllegalArgumentException for a type no {@code .npy} file holds (e.g. RESOURCE)
   */
  public static String descr(DataType type) {
    String descr = ROWS[type.code()].descr();
    if (descr == null) {
      throw new IllegalArgumentException("a " + type + " tensor cannot be saved as .npy");
    }
    return descr;
  }

  /**
   * The dtype of one of NumPy's own numeric or bool types by its name ("float32", "int64",
   * "complex128", "bool"; "bool_" too), or null for any other name.
   *
   * @param name a NumPy type's name
   * @return its dtype, or null
   */
  public static DataType numpyNamed(String name) {
    String wanted = name.equals("bool_") ? "bool" : name;
    for (DataType type : NUMERIC.values()) {
      if (pythonName(type).equals(wanted)) {
        return type;
      }
    }
    return null;
  }

  /** The dtype of a numeric typestr without its byte order ("f4"), or null. */
  static DataType numeric(String typestr) {
    return NUMERIC.get(typestr);
  }

  /** The quantized dtype whose one-field structured NumPy dtype has this field name, or null. */
  static DataType quantized(String fieldName) {
    return QUANTIZED.get(fieldName);
  }
}
