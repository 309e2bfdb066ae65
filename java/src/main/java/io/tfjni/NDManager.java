package io.tfjni;

import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A scope for eager arrays. Every {@link NDArray} belongs to one manager; closing the manager
 * closes its sub-managers first, then its arrays, freeing their native memory at once. All
 * managers of a context share its thread pools.
 *
 * <p>Thread safety: arrays may be created in, and ops run on, one manager from several threads;
 * closing it while ops run waits for them.
 */
public final class NDManager implements AutoCloseable {
  private final EagerContext context;
  private final NDManager parent;
  private final Set<NDArray> arrays = ConcurrentHashMap.newKeySet();
  private final Set<NDManager> children = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  private NDManager(EagerContext context, NDManager parent) {
    this.context = context;
    this.parent = parent;
  }

  /** A root manager on the process-wide {@link EagerContext#shared()} context. */
  public static NDManager newBaseManager() {
    return new NDManager(EagerContext.shared(), null);
  }

  /** A root manager on a context of the caller's. */
  public static NDManager newBaseManager(EagerContext context) {
    return new NDManager(Objects.requireNonNull(context, "context"), null);
  }

  /** A child scope: closed with this manager, or earlier on its own. */
  public NDManager newSubManager() {
    NDManager child = new NDManager(context, this);
    children.add(child);
    if (closed) {
      children.remove(child);
      throw closedException();
    }
    return child;
  }

  public EagerContext context() {
    return context;
  }

  public NDManager parent() {
    return parent;
  }

  public boolean isClosed() {
    return closed;
  }

  /** A builder for any TensorFlow op by name, e.g. {@code opBuilder("MatMul")}. */
  public OpBuilder opBuilder(String opName) {
    checkOpen();
    return new OpBuilder(this, opName);
  }

  /** An array over a tensor's value; the tensor stays the caller's to close. No copy is made. */
  public NDArray from(Tensor tensor) {
    Objects.requireNonNull(tensor, "tensor");
    checkOpen();
    long t = tensor.acquire();
    try {
      return new NDArray(this, NDArray.nativeFromTensor(t));
    } finally {
      tensor.release();
    }
  }

  public NDArray create(float[] data, long... shape) {
    return fromNewTensor(Tensor.of(data, shape));
  }

  public NDArray create(double[] data, long... shape) {
    return fromNewTensor(Tensor.of(data, shape));
  }

  public NDArray create(int[] data, long... shape) {
    return fromNewTensor(Tensor.of(data, shape));
  }

  public NDArray create(long[] data, long... shape) {
    return fromNewTensor(Tensor.of(data, shape));
  }

  public NDArray create(boolean[] data, long... shape) {
    return fromNewTensor(Tensor.of(data, shape));
  }

  /** Any fixed-size type from a primitive array of matching width (see {@link Tensor#of}). */
  public NDArray create(DataType dataType, Object primitiveArray, long... shape) {
    return fromNewTensor(Tensor.of(dataType, primitiveArray, shape));
  }

  /** A STRING array of UTF-8 text. */
  public NDArray create(String[] values, long... shape) {
    return fromNewTensor(Tensor.ofStrings(values, shape));
  }

  /** A STRING array of arbitrary bytes. */
  public NDArray create(byte[][] values, long... shape) {
    return fromNewTensor(Tensor.ofBytes(values, shape));
  }

  public NDArray scalar(float value) {
    return create(new float[] {value});
  }

  public NDArray scalar(double value) {
    return create(new double[] {value});
  }

  public NDArray scalar(int value) {
    return create(new int[] {value});
  }

  public NDArray scalar(long value) {
    return create(new long[] {value});
  }

  public NDArray scalar(boolean value) {
    return create(new boolean[] {value});
  }

  public NDArray scalar(String value) {
    return create(new String[] {value});
  }

  /** Closes sub-managers, then arrays; idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (NDManager child : children) {
      child.close();
    }
    for (NDArray array : arrays) {
      array.close();
    }
    if (parent != null) {
      parent.children.remove(this);
    }
  }

  void attach(NDArray array) {
    arrays.add(array);
    if (closed) {
      array.close();
      throw closedException();
    }
  }

  void detach(NDArray array) {
    arrays.remove(array);
  }

  void checkOpen() {
    if (closed) {
      throw closedException();
    }
  }

  private NDArray fromNewTensor(Tensor tensor) {
    try (tensor) {
      return from(tensor);
    }
  }

  private static IllegalStateException closedException() {
    return new IllegalStateException("NDManager is closed");
  }
}
