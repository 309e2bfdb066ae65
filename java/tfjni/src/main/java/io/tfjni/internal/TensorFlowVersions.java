package io.tfjni.internal;

/** Reads TensorFlow's version strings ({@code TF_Version()}: "2.21.0", "2.19.0-rc0"). */
public final class TensorFlowVersions {
  private TensorFlowVersions() {}

  /**
   * Whether {@code version} is {@code major.minor} or newer; false for a string that does not
   * start with two dot-separated numbers.
   */
  public static boolean atLeast(String version, int major, int minor) {
    String[] parts = version.split("[.-]", 3);
    if (parts.length < 2) {
      return false;
    }
    try {
      int hasMajor = Integer.parseInt(parts[0]);
      int hasMinor = Integer.parseInt(parts[1]);
      return hasMajor > major || (hasMajor == major && hasMinor >= minor);
    } catch (NumberFormatException notANumber) {
      return false;
    }
  }
}
