package io.tfjni.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a little-endian float32 .npy file (what generate_bench_models.py writes for inputs and
 * expected outputs). Independent of tfjni's own reader so that the TensorFlow Java fork loads no
 * tfjni class at all.
 */
record NpyFloats(long[] shape, float[] values) {
  private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
  private static final Pattern DESCR = Pattern.compile("'descr'\\s*:\\s*'([^']*)'");
  private static final Pattern FORTRAN = Pattern.compile("'fortran_order'\\s*:\\s*(True|False)");
  private static final Pattern SHAPE = Pattern.compile("'shape'\\s*:\\s*\\(([^)]*)\\)");

  static NpyFloats read(Path file) throws IOException {
    ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
    byte[] magic = new byte[MAGIC.length];
    in.get(magic);
    if (!Arrays.equals(magic, MAGIC)) {
      throw new IOException(file + " is not a .npy file");
    }
    int major = in.get();
    in.get();
    int headerLength = major == 1 ? Short.toUnsignedInt(in.getShort()) : in.getInt();
    byte[] header = new byte[headerLength];
    in.get(header);
    String dict = new String(header, StandardCharsets.ISO_8859_1);
    String descr = group(DESCR, dict, file);
    if (!descr.equals("<f4")) {
      throw new IOException(file + " holds dtype " + descr + ", the benchmark reads float32 only");
    }
    if (group(FORTRAN, dict, file).equals("True")) {
      throw new IOException(file + " is in Fortran order");
    }
    long[] shape = Arrays.stream(group(SHAPE, dict, file).split(","))
        .map(String::trim).filter(s -> !s.isEmpty()).mapToLong(Long::parseLong).toArray();
    long count = Arrays.stream(shape).reduce(1, Math::multiplyExact);
    if (in.remaining() != count * Float.BYTES) {
      throw new IOException(file + ": shape " + Arrays.toString(shape) + " needs "
          + count * Float.BYTES + " bytes of data, found " + in.remaining());
    }
    float[] values = new float[Math.toIntExact(count)];
    in.asFloatBuffer().get(values);
    return new NpyFloats(shape, values);
  }

  private static String group(Pattern pattern, String dict, Path file) throws IOException {
    Matcher m = pattern.matcher(dict);
    if (!m.find()) {
      throw new IOException(file + ": no " + pattern + " in the header " + dict.trim());
    }
    return m.group(1);
  }
}
