package io.tfjni.numpy;

import java.nio.charset.StandardCharsets;

/** Test support: .npy files written by hand, byte by byte, for readers' edge cases. */
public final class NpyFiles {
  private NpyFiles() {}

  /** A version 1.0 .npy file with the header dict's {@code descr} and {@code shape} as given. */
  public static byte[] npy(String descr, String shape, byte[] data) {
    String header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape
        + ", }";
    int total = 10 + header.length() + 1;
    header += " ".repeat((64 - total % 64) % 64) + "\n";
    byte[] h = header.getBytes(StandardCharsets.ISO_8859_1);
    byte[] out = new byte[10 + h.length + data.length];
    byte[] magic = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (byte) h.length,
        (byte) (h.length >> 8)};
    System.arraycopy(magic, 0, out, 0, 10);
    System.arraycopy(h, 0, out, 10, h.length);
    System.arraycopy(data, 0, out, 10 + h.length, data.length);
    return out;
  }
}
