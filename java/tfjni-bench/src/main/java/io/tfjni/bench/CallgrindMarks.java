package io.tfjni.bench;

/**
 * Callgrind's client requests, from native/bench/callgrind_marks.cpp: they zero and dump the
 * counters of every thread when the process runs under valgrind, and do nothing otherwise.
 */
final class CallgrindMarks {
  private CallgrindMarks() {}

  /** Loads the library named by {@code -Dtfjni.bench.callgrindMarks}. */
  static void load() {
    String path = System.getProperty("tfjni.bench.callgrindMarks");
    if (path == null) {
      throw new IllegalStateException("set -Dtfjni.bench.callgrindMarks to libcallgrind_marks.so");
    }
    System.load(path);
  }

  static native void zero();

  /** Dumps the counters as the part described "measured". */
  static native void dump();
}
