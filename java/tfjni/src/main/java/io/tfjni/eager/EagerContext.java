package io.tfjni.eager;

import io.tfjni.Device;
import io.tfjni.SessionOptions;
import io.tfjni.TensorFlow;
import io.tfjni.TensorFlowException;
import io.tfjni.ThreadPools;
import io.tfjni.internal.CoreAccess;
import io.tfjni.internal.NativeLibrary;
import io.tfjni.internal.NativeResource;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * TensorFlow's eager runtime: thread pools and devices for eager ops. One context is meant to
 * serve a whole application; every {@link NDManager} made with it shares its thread pools (there
 * is no pool per manager). {@link #shared()} is the process-wide default.
 *
 * <p>Thread safety: ops may run on a context from any number of threads. Closing a context waits
 * for ops in flight and rejects new ones; its native context is freed once every manager made
 * with it is closed too (arrays made with it stay readable until then).
 */
// Its base lives in io.tfjni.internal, which is not exported: users see its public methods only.
@SuppressWarnings("exports")
public final class EagerContext extends NativeResource {
  /** TensorFlow's device placement policies (TFE_ContextDevicePlacementPolicy). */
  public enum DevicePlacement {
    /** Inputs on the wrong device are an error. */
    EXPLICIT,
    /** Copy inputs to the op's device, with a warning. */
    WARN,
    /** Copy inputs to the op's device silently (TensorFlow's default). */
    SILENT,
    /** Silently copy int32 inputs only. */
    SILENT_FOR_INT32
  }

  /** Guards {@link #shared}; private, so that no user code can hold it. */
  private static final Object SHARED_LOCK = new Object();
  private static EagerContext shared;

  /**
   * One hold while the context is open plus one per open {@link NDManager} on it. The native
   * object is deleted only when the count reaches zero: closing a context whose arrays are still
   * open rejects new ops at once but deletes it after the last of its managers closes. (The C++
   * core's tensor handles also keep their context alive, so this count is a second guard.)
   */
  private final AtomicInteger holds = new AtomicInteger(1);
  private final long nativeHandle;

  private EagerContext(long handle) {
    super(handle);
    this.nativeHandle = handle;
  }

  /**
   * The process-wide context with TensorFlow's defaults; created on first use, never closed. It is
   * synchronous: each op runs on the thread that calls it and has finished when the call returns
   * (the caller-thread execution a pre- and post-processing pipeline wants; an op's own
   * parallelism uses TensorFlow's intra-op pool, sized to the cores).
   *
   * @return the shared context (do not close it: closing it throws)
   */
  public static EagerContext shared() {
    synchronized (SHARED_LOCK) {
      if (shared == null) {
        shared = create(SessionOptions.defaults(), false, DevicePlacement.SILENT);
      }
      return shared;
    }
  }

  /**
   * A context of its own: thread pools and GPU options from {@code options}, async dispatch (ops
   * return before they finish and run on the context's executor thread; errors surface when a
   * result is read) and a placement policy.
   *
   * <p>A synchronous context runs each op on the calling thread whatever the inter-op setting;
   * {@link SessionOptions#runOnCallerThread()} states it and is rejected with {@code async}
   * ({@code IllegalArgumentException}). Ops that call a function (e.g. {@code PartitionedCall})
   * run the function's body on the context's inter-op pool (TensorFlow Python 2.18 does so even
   * with inter-op -1).
   *
   * @param options thread pools and GPU options of the context
   * @param async true for asynchronous dispatch
   * @param placement what to do with an input on another device than the op's
   * @return the context, owned by the caller: close it after every manager and array of it
   * @throws IllegalArgumentException for {@code async} with
   *     {@link SessionOptions#runOnCallerThread()}
   * @throws TensorFlowException TensorFlow's error if it refuses the options
   */
  public static EagerContext create(SessionOptions options, boolean async,
      DevicePlacement placement) {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(placement, "placement");
    CoreAccess core = CoreAccess.get();
    CoreAccess.NativeSessionOptions encoded = core.encode(options);
    if (async && encoded.runsOnCallerThread()) {
      throw new IllegalArgumentException("runOnCallerThread() (inter-op threads -1) needs a"
          + " synchronous context: an async one runs ops on its executor thread");
    }
    NativeLibrary.ensureLoaded();
    core.threadPoolsStarted(options);
    return new EagerContext(nativeCreate(encoded.scalars(), encoded.visibleDevices(),
        encoded.rawConfig(), encoded.poolThreads(), encoded.poolNames(), async,
        placement.ordinal()));
  }

  /**
   * Full names of the devices ops can run on.
   *
   * @return the names, e.g. {@code "/job:localhost/replica:0/task:0/device:CPU:0"}
   * @throws IllegalStateException if the context is closed
   */
  public List<String> devices() {
    long h = acquire();
    try {
      return List.of(nativeDevices(h));
    } finally {
      release();
    }
  }

  /**
   * The devices ops can run on, with type and memory (TensorFlow's list of the context's devices).
   *
   * @return the devices, in TensorFlow's order
   * @throws IllegalStateException if the context is closed
   */
  public List<Device> listDevices() {
    long h = acquire();
    try {
      return CoreAccess.get().decodeDevices(nativeDeviceInfos(h));
    } finally {
      release();
    }
  }

  @Override
  public void close() {
    synchronized (SHARED_LOCK) {
      if (this == shared) {
        throw new IllegalStateException("the shared context lives as long as the process");
      }
    }
    super.close();
  }

  /** A manager is made on this context; throws if it is closed. */
  void hold() {
    acquire();  // while acquired, close() cannot drop the context's own hold
    try {
      holds.incrementAndGet();
    } finally {
      release();
    }
  }

  /** A manager closed, or the context itself: the last one frees the native context. */
  void unhold() {
    if (holds.decrementAndGet() == 0) {
      nativeDelete(nativeHandle);
    }
  }

  @Override
  protected void free(long handle) {
    unhold();
  }

  private static native long nativeCreate(long[] scalars, String visibleDevices, byte[] rawConfig,
      int[] poolThreads, String[] poolNames, boolean async, int placement);

  private static native String[] nativeDevices(long handle);

  private static native void nativeDelete(long handle);

  private static native byte[] nativeDeviceInfos(long handle);
}
