package io.tfjni;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Which thread ran an op, seen without timing. An op that reads {@link #THREAD_STAT} (the
 * {@code thread_probe} model's {@code read_file} signature, or an eager {@code ReadFile}) opens it
 * on whichever thread runs it, and the kernel fills the line's first field with that thread's
 * id; the calling thread reads the same file for its own id.
 */
public final class ThreadProbe {
  public static final String THREAD_STAT = "/proc/thread-self/stat";

  /** The thread that called the op and the one that ran it. */
  public record Observed(long caller, long ranOp) {
    public boolean onCaller() {
      return caller == ranOp;
    }
  }

  private ThreadProbe() {}

  /** The thread id at the start of a /proc/PID/task/TID/stat line. */
  public static long threadIdIn(String stat) {
    return Long.parseLong(stat.substring(0, stat.indexOf(' ')));
  }

  /** This thread's id, as the kernel gives it to this thread. */
  public static long myThreadId() {
    try {
      return threadIdIn(Files.readString(Path.of(THREAD_STAT), StandardCharsets.US_ASCII));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs the op here: {@code runOp} returns the stat line the op read. */
  public static Observed observe(Callable<String> runOp) throws Exception {
    long me = myThreadId();
    return new Observed(me, threadIdIn(runOp.call()));
  }

  /**
   * As {@link #observe}, on a fresh thread, so that the calling thread is neither the test's nor
   * the one that loaded the model.
   */
  public static Observed onNewThread(Callable<String> runOp) throws InterruptedException {
    AtomicReference<Observed> seen = new AtomicReference<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread caller = new Thread(() -> {
      try {
        seen.set(observe(runOp));
      } catch (Throwable t) {
        failure.set(t);
      }
    }, "thread-probe-caller");
    caller.start();
    caller.join();
    if (failure.get() != null) {
      throw new AssertionError("the probe failed", failure.get());
    }
    return seen.get();
  }
}
