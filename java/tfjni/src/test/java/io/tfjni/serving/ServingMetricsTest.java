package io.tfjni.serving;

import static io.tfjni.serving.Exports.A;
import static io.tfjni.serving.Exports.B;
import static io.tfjni.serving.Exports.publish;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.AllocationTest;
import io.tfjni.SavedModel;
import io.tfjni.Tensor;
import io.tfjni.TensorFlowException;
import io.tfjni.TestModels;
import io.tfjni.batching.BatchedResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A versioned model's metrics against the calls, failures and swaps each test makes itself
 * (polling off: each test calls refresh()).
 */
@ExtendWith(TestModels.NoLeaks.class)
class ServingMetricsTest {
  @TempDir
  Path temp;
  Path base;

  @BeforeEach
  void makeBase() throws IOException {
    base = Files.createDirectory(temp.resolve("model"));
  }

  private VersionedModel build() {
    return VersionedModel.builder(base).pollInterval(Duration.ZERO).build();
  }

  private static ServingMetrics.Version version(ServingMetrics metrics, long number) {
    return metrics.version(number).orElseThrow(() -> new AssertionError("no version " + number
        + " in " + metrics));
  }

  /** Runs {@code times} calls of a [rows, 3] input; returns the rows run. */
  private static long run(ServingPredictor predictor, int times, int rows) {
    for (int i = 0; i < times; i++) {
      try (Tensor x = Tensor.of(new float[rows * 3], rows, 3); var result = predictor.run(x)) {
        assertEquals(rows, result.get(0).shape()[0]);
      }
    }
    return (long) times * rows;
  }

  @Test
  void countsCallsRowsAndFailuresByCode() {
    publish(base, 1, A);
    long rows;
    int calls;
    VersionedModel model = build();
    try {
      ServingPredictor predictor = model.predictor(SavedModel.DEFAULT_SIGNATURE);
      rows = run(predictor, 5, 1) + run(predictor, 3, 2);
      calls = 5 + 3;
      try (Tensor fourColumns = Tensor.of(new float[4], 1, 4)) {
        for (int i = 0; i < 2; i++) {
          TensorFlowException e = assertThrows(TensorFlowException.class,
              () -> predictor.run(fourColumns).close());
          assertEquals(TensorFlowException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
        }
      }
      Tensor closed = Exports.row(0);
      closed.close();
      assertThrows(IllegalStateException.class, () -> predictor.run(closed).close());
      calls += 2 + 1;

      ServingBatchingPredictor batcher = model.batchingPredictor(SavedModel.DEFAULT_SIGNATURE,
          List.of("x"), List.of(), options -> options.maxBatchSize(4));
      CompletableFuture<BatchedResult> submitted;
      try (Tensor one = Exports.row(1); Tensor two = Tensor.of(new float[6], 2, 3)) {
        batcher.predict(one).close();
        batcher.predictRow((Object) new float[] {1, 2, 3}).close();
        submitted = batcher.submit(two);
      }
      submitted.join().close();
      calls += 3;
      rows += 1 + 1 + 2;

      ServingMetrics.Version one = version(model.metrics(), 1);
      assertEquals(2, one.errors(TensorFlowException.Code.INVALID_ARGUMENT));
      assertEquals(Map.of(TensorFlowException.Code.INVALID_ARGUMENT, 2L), one.errors());
      assertEquals(1, one.otherFailures());
    } finally {
      // Waits for the submitted call's release of its version, which follows its count.
      model.close();
    }
    ServingMetrics.Version one = version(model.metrics(), 1);
    assertEquals(calls, one.calls());
    assertEquals(rows, one.rows());
    assertEquals(one.calls(), one.runTime().count(), "every call has a run time");
    assertEquals(0, one.inFlight());
    assertEquals(1, one.loads());
    assertEquals(1, one.unloads(), "closing the model unloads it");
    assertEquals(0, one.failedLoads());
    assertTrue(one.loadTime().toNanos() > 0, one.toString());
  }

  @Test
  void aSnapshotAfterSwapsShowsEveryVersion() throws IOException {
    publish(base, 1, A);
    try (VersionedModel model = build()) {
      ServingPredictor predictor = model.predictor(SavedModel.DEFAULT_SIGNATURE);
      run(predictor, 3, 1);
      publish(base, 2, B);
      Path truncated = publish(base, 3, B).resolve("saved_model.pb");
      Files.write(truncated, Arrays.copyOf(Files.readAllBytes(truncated), 10));
      model.refresh();
      model.refresh();
      assertEquals(2, model.servingVersion(), "3 failed to load, 2 serves");
      run(predictor, 4, 2);

      ServingMetrics metrics = model.metrics();
      assertEquals(2, metrics.servingVersion());
      assertEquals(2, metrics.swaps(), "none to 1, then 1 to 2");
      assertEquals(List.of(1L, 2L, 3L),
          metrics.versions().stream().map(ServingMetrics.Version::version).toList());
      ServingMetrics.Version one = version(metrics, 1);
      ServingMetrics.Version two = version(metrics, 2);
      ServingMetrics.Version three = version(metrics, 3);
      assertEquals(List.of(3L, 3L, 1L, 1L), List.of(one.calls(), one.rows(), one.loads(),
          one.unloads()));
      assertEquals(List.of(4L, 8L, 1L, 0L), List.of(two.calls(), two.rows(), two.loads(),
          two.unloads()));
      assertEquals(List.of(0L, 1L, 0L), List.of(three.calls(), three.failedLoads(),
          three.loads()));
    }
  }

  @Test
  void countsEachBatchingCallsQueueWaitAndEachRunsRows() {
    publish(base, 1, A);
    VersionedModel model = build();
    try {
      // A delay no test outlasts: each batch runs when its rows reach the maximum of 4.
      ServingBatchingPredictor fullBatches = model.batchingPredictor(
          SavedModel.DEFAULT_SIGNATURE, List.of("x"), List.of(),
          options -> options.maxBatchSize(4).maxDelay(Duration.ofHours(1)));
      List<CompletableFuture<BatchedResult>> answers = new ArrayList<>();
      try (Tensor one = Exports.row(1); Tensor two = Tensor.of(new float[6], 2, 3)) {
        for (int i = 0; i < 4; i++) {
          answers.add(fullBatches.submit(one));  // the first batch: 4 callers' 4 rows
        }
        answers.add(fullBatches.submit(two));  // the second: 2 + 1 + 1 rows of 3 callers
        answers.add(fullBatches.submit(one));
        answers.add(fullBatches.submit(one));
      }
      answers.forEach(answer -> answer.join().close());
      ServingBatchingPredictor noDelay = model.batchingPredictor(SavedModel.DEFAULT_SIGNATURE,
          List.of("x"), List.of(), options -> { });
      try (Tensor one = Exports.row(2)) {
        noDelay.predict(one).close();  // a run of 1 row: alone on this thread or a batch of one
      }
    } finally {
      // Waits for the submitted calls' release of their version, which follows their count.
      model.close();
    }
    ServingMetrics.Version one = version(model.metrics(), 1);
    SizeHistogramSnapshot sizes = one.batchSizes();
    assertEquals(3, sizes.count(), "three runs: " + sizes);
    assertEquals(4 + 4 + 1, sizes.sum());
    assertEquals(2, sizes.bucketCount(2), "two runs of 4 rows: the bucket (2, 4]");
    assertEquals(1, sizes.bucketCount(0), "one run of 1 row");
    assertEquals(4, sizes.p50());
    HistogramSnapshot waits = one.queueWait();
    assertEquals(4 + 3 + 1, waits.count(), "a wait per call whose rows ran");
    assertEquals(one.calls(), waits.count(), "every call here is a batching call");
    assertTrue(waits.sum().compareTo(one.runTime().sum()) <= 0,
        "a call's wait is part of its run time: waits " + waits + ", runs " + one.runTime());
  }

  /**
   * What a batching predictor tells a version's metrics of each run allocates nothing: the queue
   * wait and batch size histograms, and the flight recorder's batch event while it is off (no
   * event object is made then, compiled or not).
   */
  @Test
  void recordingARunAllocatesNothing() {
    VersionMetrics metrics = new VersionMetrics("allocation", 1);
    long bytes = AllocationTest.fewestBytesAllocated(() -> {
      metrics.onCallerStarted(3_000);  // [2, 4) µs
      metrics.onRun(1, 5, 10_000, false);  // (4, 8] rows
    }, 3);
    assertEquals(0, bytes, "bytes allocated by recording runs");
    ServingMetrics.Version counted = metrics.snapshot();
    assertEquals(counted.queueWait().count(), counted.queueWait().bucketCount(2));
    assertEquals(counted.batchSizes().count(), counted.batchSizes().bucketCount(3));
    assertEquals(5 * counted.batchSizes().count(), counted.batchSizes().sum());
  }
}
