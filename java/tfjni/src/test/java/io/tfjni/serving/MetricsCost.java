package io.tfjni.serving;

import io.tfjni.Predictor;
import io.tfjni.SavedModel;
import io.tfjni.Tensor;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import jdk.jfr.Recording;

/**
 * Measures what the metrics add to a call: the two clock reads alone, the recording alone (ns
 * and bytes allocated per call, with the flight recorder's run event off, then on), and a
 * model's run through a {@link ServingPredictor} (version acquisition and metrics) against the
 * same version's own {@link Predictor}. Medians of rounds, one line each. A measurement, not a
 * test (docs/SERVING.md gives the command).
 *
 * <p>Arguments: SAVED_MODEL_DIR [ROUNDS=5].
 */
public final class MetricsCost {
  private static final int RECORD_CALLS = 2_000_000;
  private static final int RUN_CALLS = 20_000;

  private MetricsCost() {}

  public static void main(String[] args) throws Exception {
    Path export = Path.of(args[0]);
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    try (Tensor x = Tensor.of(new float[] {1, 2, 3}, 1, 3)) {
      Tensor[] inputs = {x};
      VersionMetrics metrics = new VersionMetrics("cost", 1);
      long[] sink = new long[1];
      double[] clockNs = new double[rounds];
      for (int round = 0; round < rounds; round++) {
        clockNs[round] = perCall(() -> sink[0] += System.nanoTime() - System.nanoTime(),
            RECORD_CALLS);
      }
      System.out.printf("two System.nanoTime() alone:       median %.1f ns/call %s%n",
          median(clockNs), Arrays.toString(round(clockNs)));
      System.out.printf("recording only, JFR run event off: %s%n", recordCost(metrics, inputs,
          rounds));
      try (Recording recording = new Recording()) {
        recording.enable(ServingEvents.RUN);
        recording.setToDisk(false);
        recording.start();
        System.out.printf("recording only, JFR run event on:  %s%n", recordCost(metrics, inputs,
            rounds));
      }
      Path base = Files.createTempDirectory("metrics-cost");
      Path version = Files.createSymbolicLink(base.resolve("1"), export.toAbsolutePath());
      try (VersionedModel model = VersionedModel.builder(base).pollInterval(Duration.ZERO)
          .build(); VersionLease lease = model.lease();
          Predictor raw = lease.model().predictor(SavedModel.DEFAULT_SIGNATURE)) {
        ServingPredictor serving = model.predictor(SavedModel.DEFAULT_SIGNATURE);
        double[] rawNs = new double[rounds];
        double[] servingNs = new double[rounds];
        for (int round = 0; round < rounds; round++) {  // paired: one of each per round
          rawNs[round] = perCall(() -> raw.run(inputs).close(), RUN_CALLS);
          servingNs[round] = perCall(() -> serving.run(inputs).close(), RUN_CALLS);
        }
        System.out.printf("model run, own Predictor:          median %.0f ns/call %s%n",
            median(rawNs), Arrays.toString(round(rawNs)));
        System.out.printf("model run, ServingPredictor:       median %.0f ns/call %s%n",
            median(servingNs), Arrays.toString(round(servingNs)));
      }
      Files.delete(version);
      Files.delete(base);
    }
  }

  private static String recordCost(VersionMetrics metrics, Tensor[] inputs, int rounds) {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long thread = Thread.currentThread().getId();
    double[] ns = new double[rounds];
    double[] bytes = new double[rounds];
    for (int round = 0; round < rounds; round++) {
      long allocatedBefore = threads.getThreadAllocatedBytes(thread);
      ns[round] = perCall(() -> {
        long started = metrics.callStarted();
        metrics.callEnded(started, inputs, null);
      }, RECORD_CALLS);
      bytes[round] = (threads.getThreadAllocatedBytes(thread) - allocatedBefore)
          / (double) RECORD_CALLS;
    }
    return String.format("median %.1f ns/call %s, %.2f bytes/call (last round)", median(ns),
        Arrays.toString(round(ns)), bytes[rounds - 1]);
  }

  private static double perCall(Runnable call, int calls) {
    long start = System.nanoTime();
    for (int i = 0; i < calls; i++) {
      call.run();
    }
    return (System.nanoTime() - start) / (double) calls;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static double[] round(double[] values) {
    return Arrays.stream(values).map(v -> Math.round(v * 10) / 10.0).toArray();
  }
}
