package io.tfjni.internal;

import io.tfjni.Device;
import io.tfjni.Predictor;
import io.tfjni.RunResult;
import io.tfjni.SessionOptions;
import io.tfjni.Tensor;
import java.util.List;

/**
 * What the library's packages outside {@code io.tfjni} (eager ops, batching) need of its core
 * classes and users must not reach: adopting a native tensor, a tensor's packed strings, the
 * native encoding of session options. {@code io.tfjni} installs the one implementation when
 * {@link Tensor} is initialized; {@link #get()} makes sure it has been.
 */
public abstract class CoreAccess {
  private static volatile CoreAccess installed;

  /**
   * Installs the implementation; only {@code io.tfjni} calls it, once.
   *
   * @param access the implementation
   * @throws IllegalStateException if one is installed already
   */
  public static synchronized void install(CoreAccess access) {
    if (installed != null) {
      throw new IllegalStateException("the core's access is installed already");
    }
    installed = access;
  }

  /**
   * The implementation, initializing {@link Tensor} (which installs it) on first use.
   *
   * @return the core's access
   */
  public static CoreAccess get() {
    CoreAccess access = installed;
    if (access == null) {
      try {
        Class.forName(Tensor.class.getName(), true, CoreAccess.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e);
      }
      access = installed;
    }
    return access;
  }

  /** Takes ownership of a native tensor made elsewhere in tfjni (an eager result). */
  public abstract Tensor adopt(long handle);

  /**
   * The predictor a result belongs to.
   *
   * @throws IllegalStateException if the result is closed
   */
  public abstract Predictor ownerOf(RunResult result);

  /**
   * Makes {@code outputs} (one per output, of the result's dtypes) the result's outputs, freeing
   * the ones it held: the result takes their native tensors and the given objects are left
   * empty.
   */
  public abstract void refill(RunResult result, Tensor[] outputs);

  /** Whether the caller may write the tensor's memory (it made it; not a run's output). */
  public abstract boolean isWritable(Tensor tensor);

  /** A string tensor's elements, in one native call. */
  public abstract PackedStrings packedStrings(Tensor tensor);

  /** A string tensor of {@code shape} holding {@code strings}. */
  public abstract Tensor ofPackedStrings(PackedStrings strings, long... shape);

  /** Devices in the JNI layer's encoding, decoded. */
  public abstract List<Device> decodeDevices(byte[] encoded);

  /** Session options in the JNI layer's encoding. */
  public abstract NativeSessionOptions encode(SessionOptions options);

  /**
   * Records that a native context with these options starts: TensorFlow sizes its intra-op pool
   * once per process.
   */
  public abstract void threadPoolsStarted(SessionOptions options);

  /**
   * Session options as the JNI layer reads them.
   *
   * @param scalars the numeric settings, by position
   * @param visibleDevices the GPU devices visible, or null
   * @param rawConfig a serialized ConfigProto given by the user, or null
   * @param poolThreads the threads of each named inter-op pool
   * @param poolNames the named inter-op pools
   * @param runsOnCallerThread whether ops run on the calling thread (inter-op -1)
   */
  public record NativeSessionOptions(long[] scalars, String visibleDevices, byte[] rawConfig,
      int[] poolThreads, String[] poolNames, boolean runsOnCallerThread) {}
}
