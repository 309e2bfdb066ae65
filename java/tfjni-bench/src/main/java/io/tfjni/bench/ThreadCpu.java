package io.tfjni.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * CPU time of every thread of this process (Java's and TensorFlow's native ones alike), from
 * Linux's /proc/self/task, so a measurement can say which threads spent it. Empty elsewhere.
 */
final class ThreadCpu {
  /** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux). */
  private static final double TICK_MILLIS = 10;

  private final Map<Long, String> names = new HashMap<>();
  private final Map<Long, Long> ticks = new HashMap<>();

  private ThreadCpu() {}

  /** Every thread's name and CPU ticks now. */
  static ThreadCpu snapshot() {
    ThreadCpu snapshot = new ThreadCpu();
    try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
      tasks.forEach(task -> {
        try {
          String stat = Files.readString(task.resolve("stat"));
          int close = stat.lastIndexOf(')');
          String name = stat.substring(stat.indexOf('(') + 1, close);
          String[] fields = stat.substring(close + 2).split(" ");
          // After the name: state is field 3 of stat(5); utime and stime are fields 14 and 15.
          long used = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
          long id = Long.parseLong(task.getFileName().toString());
          snapshot.names.put(id, name);
          snapshot.ticks.put(id, used);
        } catch (IOException | RuntimeException e) {
          // the thread ended while being read: it counts as nothing
        }
      });
    } catch (IOException e) {
      return snapshot;
    }
    return snapshot;
  }

  /**
   * CPU milliseconds per row spent since {@code before}, by thread group: the name with its
   * digits dropped (Spark's "Executor task launch worker-0" and "-1" are one group).
   */
  Map<String, Double> millisPerRowSince(ThreadCpu before, int rows) {
    Map<String, Double> groups = new TreeMap<>();
    ticks.forEach((id, now) -> {
      long spent = now - before.ticks.getOrDefault(id, 0L);
      if (spent > 0) {
        String group = names.get(id).replaceAll("[0-9]+", "#");
        groups.merge(group, spent * TICK_MILLIS / rows, Double::sum);
      }
    });
    return groups;
  }

  /** The JIT compilers' share of {@code groups} (HotSpot names them "C1/C2 CompilerThread"). */
  static double compilerMillis(Map<String, Double> groups) {
    return groups.entrySet().stream().filter(e -> e.getKey().contains("CompilerThre"))
        .mapToDouble(Map.Entry::getValue).sum();
  }
}
