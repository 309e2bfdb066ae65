package io.tfjni.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The C API floor in this JVM: native/bench/floor_loop_jni.cpp (library {@code
 * build/bench/libfloor_loop.so}, named by {@code -Dtfjni.bench.floorLoop}) opens the case's model
 * through TensorFlow's C API alone and loops the floor's call ({@code TF_SessionRun}, copy of the
 * output, {@code TF_DeleteTensor}) in C++ on the calling thread. It runs on the libtensorflow that
 * tfjni loaded, never a second copy: {@link #open} loads tfjni first and checks
 * {@code /proc/self/maps}.
 */
final class FloorLoop implements AutoCloseable {
  static final String LIBRARY_PROPERTY = "tfjni.bench.floorLoop";
  /** The libraries that must be mapped from one file each. */
  private static final List<String> TENSORFLOW_LIBRARIES =
      List.of("libtensorflow_cc.so.2", "libtensorflow_framework.so.2");

  private static boolean loaded;

  private final BenchCase benchCase;
  private long model;

  private FloorLoop(BenchCase benchCase, long model) {
    this.benchCase = benchCase;
    this.model = model;
  }

  /** Loads the case's model (tag serve) with the given thread pools. */
  static FloorLoop open(BenchCase benchCase, int intraOpThreads, int interOpThreads) {
    loadLibrary();
    return new FloorLoop(benchCase, openModel(BenchCase.modelsDir().toString(), benchCase.name(),
        intraOpThreads, interOpThreads));
  }

  /** A thread's loop: its own input and output buffer; the output is checked once here. */
  SliceLoop newThreadLoop() {
    if (model == 0) {
      throw new IllegalStateException("the floor's model is closed");
    }
    long thread = openThread(model);
    float[] output = new float[benchCase.outputElements()];
    try {
      callOnce(thread, output);
      benchCase.check("c_api", output);
    } catch (RuntimeException e) {
      closeThread(thread);
      throw e;
    }
    return new SliceLoop() {
      private long handle = thread;

      @Override
      public long run(long durationNanos, long[] latencies) {
        if (handle == 0) {
          throw new IllegalStateException("the floor's thread loop is closed");
        }
        return FloorLoop.run(handle, durationNanos, latencies);
      }

      @Override
      public void close() {
        closeThread(handle);
        handle = 0;
      }
    };
  }

  /** Close every thread loop first. */
  @Override
  public void close() {
    closeModel(model);
    model = 0;
  }

  private static synchronized void loadLibrary() {
    if (loaded) {
      return;
    }
    String path = System.getProperty(LIBRARY_PROPERTY);
    if (path == null || path.isEmpty()) {
      throw new IllegalStateException("set -D" + LIBRARY_PROPERTY + " to libfloor_loop.so");
    }
    // tfjni loads libtensorflow from -Dtfjni.tensorflow.dir; the floor binds to it by soname.
    String tfjniVersion = io.tfjni.TensorFlow.version();
    System.load(path);
    String floorVersion = tensorFlowVersion();
    if (!floorVersion.equals(tfjniVersion)) {
      throw new IllegalStateException("the floor runs TensorFlow " + floorVersion + ", tfjni "
          + tfjniVersion);
    }
    for (String library : TENSORFLOW_LIBRARIES) {
      Set<String> copies = mappedFiles(library);
      if (copies.size() != 1) {
        throw new IllegalStateException("expected one " + library + " in this process, found "
            + copies);
      }
      System.err.println("# the floor and tfjni share " + copies.iterator().next());
    }
    loaded = true;
  }

  /** The distinct files named {@code library} that this process has mapped. */
  static Set<String> mappedFiles(String library) {
    try {
      Set<String> files = new TreeSet<>();
      for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
        int slash = line.indexOf('/');
        if (slash >= 0 && line.endsWith("/" + library)) {
          files.add(line.substring(slash));
        }
      }
      return files;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * CPU time of all of this process's threads in ns ({@code CLOCK_PROCESS_CPUTIME_ID}: the JVM's
   * own process CPU time counts 10 ms clock ticks). Only after {@link #open}.
   */
  static native long processCpuNanos();

  private static native String tensorFlowVersion();

  private static native long openModel(String modelsDir, String caseName, int intraOpThreads,
      int interOpThreads);

  private static native void closeModel(long model);

  private static native long openThread(long model);

  private static native void closeThread(long thread);

  private static native void callOnce(long thread, float[] into);

  private static native long run(long thread, long durationNanos, long[] latencies);
}
