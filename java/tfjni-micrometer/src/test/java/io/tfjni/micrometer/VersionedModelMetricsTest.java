package io.tfjni.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tfjni.SavedModel;
import io.tfjni.SessionOptions;
import io.tfjni.Tensor;
import io.tfjni.TensorFlowException;
import io.tfjni.TestModels;
import io.tfjni.serving.ServingBatchingPredictor;
import io.tfjni.serving.ServingPredictor;
import io.tfjni.serving.VersionPublisher;
import io.tfjni.serving.VersionedModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The binder against Micrometer's own registries: every value is computed from the calls, the
 * failures and the swap each test makes (polling off: the tests call refresh()).
 */
@ExtendWith(TestModels.NoLeaks.class)
class VersionedModelMetricsTest {
  /** Calls of one row, calls of two rows, failed calls, and one batch of 1 + 2 rows. */
  private static final int ONE_ROW_CALLS = 3;
  private static final int TWO_ROW_CALLS = 2;
  private static final int FAILED_CALLS = 2;
  private static final long CALLS = ONE_ROW_CALLS + TWO_ROW_CALLS + FAILED_CALLS + 2;
  private static final long ROWS = ONE_ROW_CALLS + 2 * TWO_ROW_CALLS + 1 + 2;

  @TempDir
  Path temp;
  Path base;

  @BeforeEach
  void makeBase() throws IOException {
    base = Files.createDirectory(temp.resolve("ranker"));
    ModelBase.publish(base, 1, ModelBase.A);
  }

  private VersionedModel build() {
    return VersionedModel.builder(base).pollInterval(Duration.ZERO).build();
  }

  /** The calls the constants count, on the serving version. */
  private static void makeCalls(VersionedModel model) {
    ServingPredictor predictor = model.predictor(SavedModel.DEFAULT_SIGNATURE);
    for (int i = 0; i < ONE_ROW_CALLS + TWO_ROW_CALLS; i++) {
      int rows = i < ONE_ROW_CALLS ? 1 : 2;
      try (Tensor x = Tensor.of(new float[rows * 3], rows, 3)) {
        predictor.run(x).close();
      }
    }
    try (Tensor fourColumns = Tensor.of(new float[4], 1, 4)) {
      for (int i = 0; i < FAILED_CALLS; i++) {
        TensorFlowException e = assertThrows(TensorFlowException.class,
            () -> predictor.run(fourColumns).close());
        assertEquals(TensorFlowException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
      }
    }
    // A delay no test outlasts: the batch runs when its rows reach the maximum of 3.
    ServingBatchingPredictor batcher = model.batchingPredictor(SavedModel.DEFAULT_SIGNATURE,
        List.of("x"), List.of(), options -> options.maxBatchSize(3).maxDelay(Duration.ofHours(1)));
    // Blocking calls, counted before they return: one on another thread, one on this.
    ExecutorService other = Executors.newSingleThreadExecutor();
    try (Tensor x1 = Tensor.of(new float[3], 1, 3); Tensor x2 = Tensor.of(new float[6], 2, 3)) {
      Future<?> first = other.submit(() -> batcher.predict(x1).close());
      batcher.predict(x2).close();
      first.get();
    } catch (InterruptedException | ExecutionException e) {
      throw new AssertionError(e);
    } finally {
      other.shutdown();
    }
  }

  private static Tags version(String number) {
    return Tags.of("model", "ranker", "version", number);
  }

  private static double counter(MeterRegistry registry, String name, Tags tags) {
    FunctionCounter counter = registry.find(name).tags(tags).functionCounter();
    assertTrue(counter != null, "no counter " + name + " " + tags + " in "
        + registry.getMeters().stream().map(m -> m.getId().toString()).toList());
    return counter.count();
  }

  private static double gauge(MeterRegistry registry, String name, Tags tags) {
    Gauge gauge = registry.find(name).tags(tags).gauge();
    assertTrue(gauge != null, "no gauge " + name + " " + tags);
    return gauge.value();
  }

  @Test
  void countersTimersAndGaugesHoldTheTotalsOfTheCallsMade() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (VersionedModel model = build()) {
      new VersionedModelMetrics(model).bindTo(registry);
      makeCalls(model);
      Tags one = version("1");
      assertNull(registry.find(VersionedModelMetrics.ERRORS).functionCounter(),
          "no error code seen yet by the binder");
      assertEquals(1, gauge(registry, VersionedModelMetrics.SERVING_VERSION,
          Tags.of("model", "ranker")));  // a read, as a publication makes: finds the new code

      assertEquals(CALLS, counter(registry, VersionedModelMetrics.CALLS, one));
      assertEquals(CALLS, counter(registry, VersionedModelMetrics.CALLS, one),
          "a second read counts nothing again");
      assertEquals(ROWS, counter(registry, VersionedModelMetrics.ROWS, one));
      assertEquals(FAILED_CALLS, counter(registry, VersionedModelMetrics.ERRORS,
          one.and("code", "INVALID_ARGUMENT")));
      FunctionTimer run = registry.find(VersionedModelMetrics.RUN).tags(one).functionTimer();
      assertEquals(CALLS, run.count());
      assertTrue(run.totalTime(TimeUnit.NANOSECONDS) > 0, "run time " + run.totalTime(
          TimeUnit.NANOSECONDS));
      FunctionTimer queueWait = registry.find(VersionedModelMetrics.QUEUE_WAIT).tags(one)
          .functionTimer();
      assertEquals(2, queueWait.count(), "the two batching calls");
      assertTrue(queueWait.totalTime(TimeUnit.NANOSECONDS)
          <= run.totalTime(TimeUnit.NANOSECONDS), "a wait is part of its call's run time");
      TimeGauge runP99 = registry.find(VersionedModelMetrics.RUN + ".percentile")
          .tags(one.and("phi", "0.99")).timeGauge();
      assertTrue(runP99.value(TimeUnit.NANOSECONDS) > 0, "p99 " + runP99.value());
      assertEquals(1, counter(registry, VersionedModelMetrics.BATCHES, one));
      assertEquals(1 + 2, counter(registry, VersionedModelMetrics.BATCH_ROWS, one));
      assertEquals(4, gauge(registry, VersionedModelMetrics.BATCH_SIZE_PERCENTILE,
          one.and("phi", "0.5")), "3 rows: the bucket (2, 4]");
      assertEquals(0, gauge(registry, VersionedModelMetrics.IN_FLIGHT, one));
      assertEquals(1, counter(registry, VersionedModelMetrics.LOADS, one));
      assertEquals(0, counter(registry, VersionedModelMetrics.LOAD_FAILURES, one));
      assertEquals(0, counter(registry, VersionedModelMetrics.UNLOADS, one));
      assertTrue(registry.find(VersionedModelMetrics.LOAD_TIME).tags(one).timeGauge()
          .value(TimeUnit.NANOSECONDS) > 0, "a load takes time");
      assertEquals(1, counter(registry, VersionedModelMetrics.SWAPS, Tags.of("model", "ranker")),
          "the first version's arrival");

      ModelBase.publish(base, 2, ModelBase.B);
      model.refresh();  // finds version 2; the next scan, finding it unchanged, loads it
      model.refresh();
      assertEquals(2, gauge(registry, VersionedModelMetrics.SERVING_VERSION,
          Tags.of("model", "ranker")));
      try (Tensor x = Tensor.of(new float[3], 1, 3)) {
        model.predictor(SavedModel.DEFAULT_SIGNATURE).run(x).close();
      }
      assertEquals(1, counter(registry, VersionedModelMetrics.CALLS, version("2")));
      assertEquals(CALLS, counter(registry, VersionedModelMetrics.CALLS, one),
          "version 1 keeps its total");
      assertEquals(1, counter(registry, VersionedModelMetrics.UNLOADS, one));
      assertEquals(2, counter(registry, VersionedModelMetrics.SWAPS, Tags.of("model", "ranker")));
    }
  }

  /** A Prometheus scrape's samples: series (name and sorted labels, as scraped) to value. */
  private static Map<String, Double> samples(String scrape) {
    Map<String, Double> samples = new HashMap<>();
    for (String line : scrape.split("\n")) {
      if (!line.isBlank() && !line.startsWith("#")) {
        int space = line.lastIndexOf(' ');
        samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
      }
    }
    return samples;
  }

  /** A series as the Prometheus text format writes it: its labels sorted by name. */
  private static String series(String name, String... labels) {
    Map<String, String> sorted = new TreeMap<>();
    for (int i = 0; i < labels.length; i += 2) {
      sorted.put(labels[i], labels[i + 1]);
    }
    StringBuilder text = new StringBuilder(name).append('{');
    sorted.forEach((key, value) -> text.append(key).append("=\"").append(value).append("\","));
    text.setLength(text.length() - 1);
    return text.append('}').toString();
  }

  /**
   * The LiteRT gauge: digits, converted to LiteRT at batch 1 and 4 (scripts/goldens/litert_convert.py),
   * served preferring LiteRT, has a gauge of 1 per size its serving predictor runs on LiteRT and
   * none for another size; served without the preference, none at all.
   */
  @Test
  void aGaugeShowsEachBatchSizeServedByLiteRt() throws IOException {
    for (int threads : new int[] {1, 0}) {
      Path digits = Files.createDirectory(temp.resolve("digits-" + threads));
      VersionPublisher.publish(TestModels.modelPath("digits"), digits, 1);
      VersionedModel model = VersionedModel.builder(digits).pollInterval(Duration.ZERO)
          .sessionOptions(SessionOptions.defaults().preferLiteRt(threads)).build();
      try {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new VersionedModelMetrics(model).bindTo(registry);
        model.predictor(SavedModel.DEFAULT_SIGNATURE);
        Tags one = Tags.of("model", model.name(), "version", "1", "signature",
            "serving_default");
        gauge(registry, VersionedModelMetrics.SERVING_VERSION, Tags.of("model", model.name()));
        if (threads == 0) {
          assertEquals(List.of(), registry.find(VersionedModelMetrics.LITERT).gauges());
          continue;
        }
        assertEquals(1, gauge(registry, VersionedModelMetrics.LITERT, one.and("batch_size", "1")));
        assertEquals(1, gauge(registry, VersionedModelMetrics.LITERT, one.and("batch_size", "4")));
        assertEquals(2, registry.find(VersionedModelMetrics.LITERT).gauges().size());
      } finally {
        model.close();
      }
    }
  }

  @Test
  void aPrometheusScrapeHoldsTheSeriesWithTheirTotals() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try (VersionedModel model = build()) {
      new VersionedModelMetrics(model).bindTo(registry);
      makeCalls(model);
      registry.scrape();  // finds the error code, as a scrape after the first failure does
      String scrape = registry.scrape();
      Map<String, Double> samples = samples(scrape);
      String[] one = {"model", "ranker", "version", "1"};
      Map<String, Double> expected = new TreeMap<>();
      expected.put(series("tfjni_serving_version", "model", "ranker"), 1.0);
      expected.put(series("tfjni_serving_swaps_total", "model", "ranker"), 1.0);
      expected.put(series("tfjni_serving_calls_total", one), (double) CALLS);
      expected.put(series("tfjni_serving_rows_total", one), (double) ROWS);
      expected.put(series("tfjni_serving_errors_total", "code", "INVALID_ARGUMENT", "model",
          "ranker", "version", "1"), (double) FAILED_CALLS);
      expected.put(series("tfjni_serving_run_seconds_count", one), (double) CALLS);
      expected.put(series("tfjni_serving_queue_wait_seconds_count", one), 2.0);
      expected.put(series("tfjni_serving_batches_total", one), 1.0);
      expected.put(series("tfjni_serving_batch_rows_total", one), 3.0);
      expected.put(series("tfjni_serving_batch_size_percentile", "model", "ranker", "phi", "0.5",
          "version", "1"), 4.0);
      expected.put(series("tfjni_serving_calls_in_flight", one), 0.0);
      expected.put(series("tfjni_serving_loads_total", one), 1.0);
      expected.put(series("tfjni_serving_unloads_total", one), 0.0);
      Map<String, Double> scraped = new TreeMap<>();
      expected.keySet().forEach(key -> scraped.put(key, samples.get(key)));
      assertEquals(expected, scraped, scrape);
      assertTrue(samples.get(series("tfjni_serving_run_seconds_sum", one)) > 0, scrape);
      assertTrue(samples.get(series("tfjni_serving_run_percentile_seconds", "model", "ranker",
          "phi", "0.99", "version", "1")) > 0, scrape);
    }
  }
}
