package io.tfjni.serving;

import io.tfjni.DataType;
import io.tfjni.Predictor;
import io.tfjni.RunResult;
import io.tfjni.SavedModel;
import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import io.tfjni.TensorSpec;
import io.tfjni.internal.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

/**
 * Measures the process's resident memory (VmRSS) through version swaps of one model: before
 * loading, serving the first version, during a swap (in the new version's warm-up, when an
 * availability-preserving swap holds both versions), and after each of N swaps, as a table. A
 * measurement, not a test (docs/SERVING.md gives the command).
 *
 * <p>Arguments: SAVED_MODEL_DIR [SWAPS=100] [AVAILABILITY_PRESERVING|RESOURCE_PRESERVING]
 * [RELEASE_FREED_MEMORY=true|false] (the builder's {@code releaseFreedMemory}).
 */
public final class SwapRss {
  private SwapRss() {}

  public static void main(String[] args) throws Exception {
    Path export = Path.of(args[0]);
    int swaps = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    SwapOrder order = args.length > 2 ? SwapOrder.valueOf(args[2])
        : SwapOrder.AVAILABILITY_PRESERVING;
    boolean release = args.length <= 3 || Boolean.parseBoolean(args[3]);
    Path base = Files.createTempDirectory("tfjni-swap-rss");
    try {
      TensorFlow.version();  // the libraries loaded: the baseline includes them
      System.out.printf("model %s, %d swaps, %s, releaseFreedMemory %s%n", export, swaps, order,
          release);
      print("before the first load", 0);
      VersionPublisher.publish(export, base, 1);
      long[] peakDuringSwap = {0};
      Warmup oneRun = version -> {
        runOnce(version.model());
        if (version.version() > 1) {
          peakDuringSwap[0] = Math.max(peakDuringSwap[0], rssKb());
          if (version.version() == 2) {
            print("during the first swap (version 2 warmed up, not yet serving)", 1);
          }
        }
      };
      try (VersionedModel model = VersionedModel.builder(base).pollInterval(Duration.ZERO)
          .swapOrder(order).releaseFreedMemory(release).warmup(oneRun).build()) {
        print("serving version 1", 1);
        for (int version = 2; version <= swaps + 1; version++) {
          VersionPublisher.publish(export, base, version);
          model.refresh();
          if (model.refresh().servingVersion() != version) {
            throw new IllegalStateException("version " + version + " not swapped in: "
                + model.status());
          }
          FileTrees.delete(base.resolve(Integer.toString(version - 1)));
          int done = version - 1;
          if (done == 1 || done == 10 || done == 25 || done == 50 || done % 100 == 0
              || done == swaps) {
            System.gc();
            print("after " + done + " swap" + (done > 1 ? "s" : ""), version);
          }
        }
      }
      System.gc();
      print("after close", 0);
      System.out.printf("highest VmRSS seen during a swap: %d MB; live native objects after"
          + " close: %d%n", peakDuringSwap[0] / 1024, TensorFlow.liveObjects().total());
    } finally {
      FileTrees.delete(base);
    }
  }

  /** One run of the first signature with zeros of its input's shape, batch 1. */
  private static void runOnce(SavedModel model) {
    Predictor predictor = model.predictor(model.signatures().get(0).key());
    TensorSpec input = predictor.inputs().get(0);
    long[] shape = input.shape();
    shape[0] = 1;
    long elements = 1;
    for (long d : shape) {
      elements *= d;
    }
    if (input.dataType() != DataType.FLOAT) {
      throw new IllegalArgumentException("SwapRss feeds FLOAT inputs, not " + input);
    }
    try (Tensor zeros = Tensor.of(new float[(int) elements], shape);
        RunResult result = predictor.run(zeros)) {
      result.get(0);
    } finally {
      predictor.close();
    }
  }

  private static void print(String when, int version) throws IOException {
    System.out.printf("%-66s VmRSS %5d MB  (serving version %d)%n", when, rssKb() / 1024,
        version);
  }

  static long rssKb() {
    try (Stream<String> lines = Files.lines(Path.of("/proc/self/status"))) {
      return lines.filter(line -> line.startsWith("VmRSS:"))
          .map(line -> Long.parseLong(line.replaceAll("[^0-9]", ""))).findFirst().orElse(-1L);
    } catch (IOException e) {
      return -1;
    }
  }
}
