package io.tfjni;

import java.util.Arrays;
import java.util.Objects;

/**
 * An eager array: one native TensorFlow tensor handle, owned by an {@link NDManager}. Ops on it
 * run at once on the manager's {@link EagerContext} and return new arrays in the same manager.
 * Close it on its own, or let its manager close it.
 *
 * <p>Thread safety: an array may be read, and used as an input, from several threads; closing it
 * waits for the ops that use it.
 */
public final class NDArray extends NativeResource {
  private final NDManager manager;

  NDArray(NDManager manager, long handle) {
    super(handle);
    this.manager = manager;
    manager.attach(this);
  }

  public NDManager getManager() {
    return manager;
  }

  public DataType dataType() {
    long h = acquire();
    try {
      return DataType.fromCode(nativeDtype(h));
    } finally {
      release();
    }
  }

  public long[] shape() {
    long h = acquire();
    try {
      return nativeShape(h);
    } finally {
      release();
    }
  }

  public long size() {
    long n = 1;
    for (long d : shape()) {
      n *= d;
    }
    return n;
  }

  /** The device holding the value, e.g. "/job:localhost/replica:0/task:0/device:CPU:0". */
  public String device() {
    long h = acquire();
    try {
      return nativeDevice(h);
    } finally {
      release();
    }
  }

  /**
   * The value as a tensor the caller owns (close it), e.g. to feed a {@link Predictor}. In host
   * memory no copy is made.
   */
  public Tensor toTensor() {
    long h = acquire();
    try {
      return Tensor.adopt(nativeToTensor(h));
    } finally {
      release();
    }
  }

  /** A copy on another device, in the same manager. */
  public NDArray toDevice(String deviceName) {
    Objects.requireNonNull(deviceName, "deviceName");
    EagerContext context = manager.context();
    long ctx = context.acquire();
    try {
      long h = acquire();
      try {
        return new NDArray(manager, nativeCopyToDevice(ctx, h, deviceName));
      } finally {
        release();
      }
    } finally {
      context.release();
    }
  }

  public float[] toFloatArray() {
    try (Tensor t = toTensor()) {
      return t.toFloatArray();
    }
  }

  public double[] toDoubleArray() {
    try (Tensor t = toTensor()) {
      return t.toDoubleArray();
    }
  }

  public int[] toIntArray() {
    try (Tensor t = toTensor()) {
      return t.toIntArray();
    }
  }

  public long[] toLongArray() {
    try (Tensor t = toTensor()) {
      return t.toLongArray();
    }
  }

  public boolean[] toBooleanArray() {
    try (Tensor t = toTensor()) {
      return t.toBooleanArray();
    }
  }

  public byte[] toByteArray() {
    try (Tensor t = toTensor()) {
      return t.toByteArray();
    }
  }

  public short[] toShortArray() {
    try (Tensor t = toTensor()) {
      return t.toShortArray();
    }
  }

  public String[] toStringArray() {
    try (Tensor t = toTensor()) {
      return t.toStringArray();
    }
  }

  public byte[][] toBytesArray() {
    try (Tensor t = toTensor()) {
      return t.toBytesArray();
    }
  }

  @Override
  public String toString() {
    if (isClosed()) {
      return "NDArray(closed)";
    }
    return "NDArray(" + dataType() + ", " + Arrays.toString(shape()) + ")";
  }

  @Override
  void free(long handle) {
    manager.detach(this);
    nativeDelete(handle);
  }

  /** A builder for an op on this array's manager. */
  OpBuilder op(String opName) {
    return manager.opBuilder(opName);
  }

  static native long nativeFromTensor(long tensor);

  private static native long nativeToTensor(long handle);

  private static native int nativeDtype(long handle);

  private static native long[] nativeShape(long handle);

  private static native String nativeDevice(long handle);

  private static native long nativeCopyToDevice(long context, long handle, String device);

  static native void nativeDelete(long handle);
}
