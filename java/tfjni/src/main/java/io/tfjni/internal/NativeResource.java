package io.tfjni.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * Owns one native object through a {@code long} handle. Calls that use the handle bracket it with
 * {@link #acquire()} / {@link #release()}; {@link #close()} rejects new calls at once, waits for
 * those in flight, then frees the native object. So closing from one thread while another runs
 * never frees memory in use. Acquire and release allocate nothing.
 */
public abstract class NativeResource implements AutoCloseable {
  private static final long CLOSED = Long.MIN_VALUE;
  private static final VarHandle STATE;

  static {
    try {
      STATE = MethodHandles.lookup().findVarHandle(NativeResource.class, "state", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** The CLOSED bit, plus the number of calls in flight. */
  private volatile long state;

  /**
   * The thread closing this object, parked until the calls in flight drain. Parking instead of
   * {@code wait()} on this object keeps a user's own {@code synchronized (resource)} from ever
   * stalling {@code close()}, and needs no lock object per resource.
   */
  private volatile Thread closer;

  private long handle;

  /** Where this object was created, if leak tracing was on then (see {@link LeakTracer}). */
  private final LeakTracer.Trace trace;

  protected NativeResource(long handle) {
    this.handle = handle;
    if (handle == 0) {
      state = CLOSED;
    }
    trace = LeakTracer.enabled() ? LeakTracer.track(this, handle != 0) : null;
  }

  /** Marks a call in flight and returns the handle; throws if closed. */
  protected final long acquire() {
    long s;
    do {
      s = state;
      if (s < 0) {
        throw new IllegalStateException(getClass().getSimpleName() + " is closed");
      }
    } while (!STATE.weakCompareAndSet(this, s, s + 1));
    return handle;
  }

  protected final void release() {
    long s = (long) STATE.getAndAdd(this, -1L) - 1;
    if (s == CLOSED) {
      // The last call out. The closer publishes itself before it checks the state, so either it
      // sees CLOSED or this read sees it.
      Thread waiting = closer;
      if (waiting != null) {
        LockSupport.unpark(waiting);
      }
    }
  }

  /**
   * Whether {@code close()} was called.
   *
   * @return true once the object is closed (or closing): further calls on it throw
   *     {@link IllegalStateException}
   */
  public final boolean isClosed() {
    return state < 0;
  }

  /** Idempotent: the first call waits for calls in flight and frees the native object. */
  @Override
  public void close() {
    long h = closeAndTake();
    if (h != 0) {
      free(h);
    }
  }

  /** Closes without freeing and hands the native object to the caller (0 if already closed). */
  protected final long closeAndTake() {
    long s;
    do {
      s = state;
      if (s < 0) {
        return 0;
      }
    } while (!STATE.compareAndSet(this, s, s | CLOSED));
    if (state != CLOSED) {
      closer = Thread.currentThread();
      boolean interrupted = false;
      while (state != CLOSED) {
        LockSupport.park(this);
        interrupted |= Thread.interrupted();  // keep waiting: freeing under a call would crash
      }
      closer = null;
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    long h = handle;
    handle = 0;
    if (trace != null) {
      LeakTracer.closed(trace);
    }
    return h;
  }

  /** Gives a closed object a new native object (result holders reuse their tensors). */
  protected final void reopen(long newHandle) {
    if (state != CLOSED || newHandle == 0) {
      throw new IllegalStateException("reopen needs a closed object and a live handle");
    }
    handle = newHandle;
    if (trace != null) {
      LeakTracer.reopened(trace);  // before it can be closed again
    }
    state = 0;
  }

  /**
   * {@link #acquire()} on another object, for the library's classes in other packages that call
   * into a resource they do not extend (a predictor into its input tensors, an op into its inputs).
   */
  public static long acquire(NativeResource resource) {
    return resource.acquire();
  }

  /** {@link #release()} on another object; pairs with {@link #acquire(NativeResource)}. */
  public static void release(NativeResource resource) {
    resource.release();
  }

  /**
   * Frees the native object; called once, with no call in flight.
   *
   * @param handle the native object's handle
   */
  protected abstract void free(long handle);
}
