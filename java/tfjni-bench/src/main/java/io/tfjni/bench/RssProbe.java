package io.tfjni.bench;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * Makes many calls through one contender in this JVM and prints, at each checkpoint, one JSON line
 * with the process's resident set size (VmRSS), the Java heap in use, the number of garbage
 * collections so far, and the bytes the calling thread allocated inside the calls so far
 * ({@code call_alloc_bytes}: the set-up and the printing are not counted; JMH's own bytes never
 * are, so this is the exact allocation of the contender's calls). Run by {@code scripts/bench/bench-java.sh rss CONTENDER CASE CALLS,CALLS,...},
 * always in a fresh JVM: one binding per process.
 *
 * <p>Usage: {@code RssProbe tfjniMap|tfjniFast|tfJava|tfJavaRunner CASE N1,N2,...} (cumulative
 * call counts, increasing). The benchmark models come from {@code -Dtfjni.bench.models}.
 */
public final class RssProbe {
  /** Keeps each call's result alive so the loop cannot be optimised away. */
  private static volatile float sink;

  private RssProbe() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 3) {
      System.err.println("usage: RssProbe tfjniMap|tfjniFast|tfJava|tfJavaRunner CASE N1,N2,...");
      System.exit(2);
    }
    String contender = args[0];
    String caseName = args[1];
    long[] checkpoints = parseCheckpoints(args[2]);
    com.sun.management.ThreadMXBean thread =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    try (Contender probe = Contender.open(contender, caseName)) {
      long done = 0;
      long callBytes = 0;
      float acc = 0;
      for (long checkpoint : checkpoints) {
        long before = thread.getCurrentThreadAllocatedBytes();
        for (; done < checkpoint; done++) {
          acc += probe.caller.call();
        }
        callBytes += thread.getCurrentThreadAllocatedBytes() - before;
        sink = acc;
        System.out.println(String.format(Locale.ROOT,
            "{\"contender\":\"%s\",\"case\":\"%s\",\"calls\":%d,\"rss_kb\":%d,"
                + "\"heap_used_bytes\":%d,\"gc_count\":%d,\"call_alloc_bytes\":%d}",
            contender, caseName, done, rssKb(), heapUsedBytes(), gcCount(), callBytes));
        System.out.flush();
      }
    }
  }

  private static long[] parseCheckpoints(String list) {
    long[] counts;
    try {
      counts = Arrays.stream(list.split(",")).map(String::trim).mapToLong(Long::parseLong)
          .toArray();
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("calls must be comma-separated counts, got " + list);
    }
    for (int i = 0; i < counts.length; i++) {
      if (counts[i] <= 0 || (i > 0 && counts[i] <= counts[i - 1])) {
        throw new IllegalArgumentException("calls must be positive and increasing, got " + list);
      }
    }
    return counts;
  }

  /** VmRSS of this process from /proc/self/status, in kB. */
  static long rssKb() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.substring(6).trim().split("\\s+")[0]);
      }
    }
    throw new IOException("no VmRSS in /proc/self/status");
  }

  static long heapUsedBytes() {
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  static long gcCount() {
    long count = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      count += Math.max(0, gc.getCollectionCount());
    }
    return count;
  }
}
