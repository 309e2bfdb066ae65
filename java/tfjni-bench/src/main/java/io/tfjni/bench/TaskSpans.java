package io.tfjni.bench;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * When each Spark job and its tasks started and ended, to see where a job's cores sit idle:
 * before the first task starts, or after the first task ends while the last one runs.
 */
final class TaskSpans extends SparkListener {
  private long jobStart;
  private long jobEnd;
  private final List<long[]> tasks = new ArrayList<>();

  @Override
  public synchronized void onJobStart(SparkListenerJobStart start) {
    jobStart = start.time();
    tasks.clear();
  }

  @Override
  public synchronized void onJobEnd(SparkListenerJobEnd end) {
    jobEnd = end.time();
  }

  @Override
  public synchronized void onTaskEnd(SparkListenerTaskEnd end) {
    tasks.add(new long[] {end.taskInfo().launchTime(), end.taskInfo().finishTime()});
  }

  /** The last job's spans in ms: to the first task's start, between the tasks' ends, in all. */
  synchronized String describeLastJob() {
    long firstLaunch = Long.MAX_VALUE;
    long lastLaunch = 0;
    long firstFinish = Long.MAX_VALUE;
    long lastFinish = 0;
    for (long[] task : tasks) {
      firstLaunch = Math.min(firstLaunch, task[0]);
      lastLaunch = Math.max(lastLaunch, task[0]);
      firstFinish = Math.min(firstFinish, task[1]);
      lastFinish = Math.max(lastFinish, task[1]);
    }
    return String.format(java.util.Locale.ROOT, "job %d ms: %d tasks, first launched after %d ms,"
        + " last %d ms later; first ended %d ms before the last; job end %d ms after it",
        jobEnd - jobStart, tasks.size(), firstLaunch - jobStart, lastLaunch - firstLaunch,
        lastFinish - firstFinish, jobEnd - lastFinish);
  }
}
