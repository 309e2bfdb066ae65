package io.tfjni.cli;

/** TensorFlow's DataType enum names, as saved_model_cli and TensorFlow Python print them. */
final class Dtypes {
  /** Index = enum value: the {@code DT_*} suffix and the Python name ({@code tf.float32}). */
  private static final String[][] NAMES = {
      {"INVALID", "invalid"}, {"FLOAT", "float32"}, {"DOUBLE", "float64"}, {"INT32", "int32"},
      {"UINT8", "uint8"}, {"INT16", "int16"}, {"INT8", "int8"}, {"STRING", "string"},
      {"COMPLEX64", "complex64"}, {"INT64", "int64"}, {"BOOL", "bool"}, {"QINT8", "qint8"},
      {"QUINT8", "quint8"}, {"QINT32", "qint32"}, {"BFLOAT16", "bfloat16"},
      {"QINT16", "qint16"}, {"QUINT16", "quint16"}, {"UINT16", "uint16"},
      {"COMPLEX128", "complex128"}, {"HALF", "float16"}, {"RESOURCE", "resource"},
      {"VARIANT", "variant"}, {"UINT32", "uint32"}, {"UINT64", "uint64"},
      {"FLOAT8_E5M2", "float8_e5m2"}, {"FLOAT8_E4M3FN", "float8_e4m3fn"},
      {"FLOAT8_E4M3FNUZ", "float8_e4m3fnuz"}, {"FLOAT8_E4M3B11FNUZ", "float8_e4m3b11fnuz"},
      {"FLOAT8_E5M2FNUZ", "float8_e5m2fnuz"}, {"INT4", "int4"}, {"UINT4", "uint4"}};
  private static final int REF_OFFSET = 100;

  private Dtypes() {}

  /** E.g. "DT_FLOAT", "DT_FLOAT_REF"; an unknown value prints as its number. */
  static String protoName(int code) {
    if (code > REF_OFFSET && code - REF_OFFSET < NAMES.length) {
      return "DT_" + NAMES[code - REF_OFFSET][0] + "_REF";
    }
    return code >= 0 && code < NAMES.length ? "DT_" + NAMES[code][0] : Integer.toString(code);
  }

  /** E.g. "float32", as in {@code tf.float32}. */
  static String pythonName(int code) {
    if (code > REF_OFFSET && code - REF_OFFSET < NAMES.length) {
      return NAMES[code - REF_OFFSET][1] + "_ref";
    }
    return code >= 0 && code < NAMES.length ? NAMES[code][1] : "dtype" + code;
  }
}
