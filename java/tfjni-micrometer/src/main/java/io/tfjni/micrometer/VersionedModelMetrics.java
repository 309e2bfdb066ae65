package io.tfjni.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.tfjni.TensorFlowException;
import io.tfjni.serving.HistogramSnapshot;
import io.tfjni.serving.ServingMetrics;
import io.tfjni.serving.VersionedModel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Binds a {@link VersionedModel}'s metrics to a Micrometer {@link MeterRegistry}. Every meter is
 * tagged {@code model} (the model's {@linkplain VersionedModel#name() name}) and, per version,
 * {@code version}:
 *
 * <table>
 * <caption>The meters</caption>
 * <tr><th>Name</th><th>Type</th><th>Tags</th><th>Value</th></tr>
 * <tr><td>{@value #SERVING_VERSION}</td><td>gauge</td><td>model</td><td>the version new calls
 *     go to; -1 when none serves</td></tr>
 * <tr><td>{@value #SWAPS}</td><td>counter</td><td>model</td><td>swaps of the serving
 *     version</td></tr>
 * <tr><td>{@value #SOURCE_FAILURES}</td><td>counter</td><td>model</td><td>times the base
 *     directory offered nothing to serve</td></tr>
 * <tr><td>{@value #CALLS}</td><td>counter</td><td>model, version</td><td>calls that returned or
 *     failed</td></tr>
 * <tr><td>{@value #ROWS}</td><td>counter</td><td>model, version</td><td>rows of the calls that
 *     succeeded</td></tr>
 * <tr><td>{@value #ERRORS}</td><td>counter</td><td>model, version, code</td><td>failed calls by
 *     TensorFlow's code; {@value #OTHER_CODE} for failures without one</td></tr>
 * <tr><td>{@value #IN_FLIGHT}</td><td>gauge</td><td>model, version</td><td>calls running
 *     now</td></tr>
 * <tr><td>{@value #RUN}</td><td>function timer</td><td>model, version</td><td>each call's time,
 *     queueing included</td></tr>
 * <tr><td>{@value #QUEUE_WAIT}</td><td>function timer</td><td>model, version</td><td>each
 *     batching call's wait in the queue</td></tr>
 * <tr><td>{@value #RUN}.percentile, {@value #QUEUE_WAIT}.percentile</td><td>time
 *     gauge</td><td>model, version, phi (0.5, 0.99)</td><td>the bucket bound of that
 *     percentile</td></tr>
 * <tr><td>{@value #BATCHES}</td><td>counter</td><td>model, version</td><td>runs of the batching
 *     predictors</td></tr>
 * <tr><td>{@value #BATCH_ROWS}</td><td>counter</td><td>model, version</td><td>their
 *     rows</td></tr>
 * <tr><td>{@value #BATCH_SIZE_PERCENTILE}</td><td>gauge</td><td>model, version, phi</td><td>the
 *     bucket bound of that percentile of rows per run</td></tr>
 * <tr><td>{@value #LOADS}, {@value #LOAD_FAILURES}, {@value #UNLOADS}</td><td>counter</td>
 *     <td>model, version</td><td>loads (warm-up included), failed loads, unloads</td></tr>
 * <tr><td>{@value #LOAD_TIME}, {@value #WARM_UP_TIME}</td><td>time gauge</td><td>model,
 *     version</td><td>the last load's load and warm-up</td></tr>
 * <tr><td>{@value #LITERT}</td><td>gauge</td><td>model, version, signature,
 *     batch_size</td><td>1: this version runs the signature at this batch size on LiteRT
 *     ({@link ServingMetrics.Version#liteRtBatchSizes()}); sizes without the gauge run on
 *     TensorFlow</td></tr>
 * </table>
 *
 * <p>Why function meters: the library already counts every call, cumulatively and without a
 * lock ({@link VersionedModel#metrics()}). The meters here read those totals when the registry
 * publishes ({@link FunctionCounter}, {@link FunctionTimer}, gauges), rather than counting each
 * call a second time in Micrometer {@link io.micrometer.core.instrument.Counter}s: nothing is
 * added to the request path, nothing is counted twice or lost between two reads, a registry
 * bound late still sees the totals since the model was built, and a step registry gets correct
 * deltas (Micrometer turns a function counter's totals into each step's increase). Micrometer
 * cannot feed a {@link io.micrometer.core.instrument.Timer}'s histogram with counts already
 * bucketed, so the percentiles are gauges of the library's own (over the version's life, each
 * the upper bound of a power-of-two bucket); rates and means come from the function timers'
 * counts and sums.
 *
 * <p>Versions come and go: a version's meters are registered when this binder first finds the
 * version in the model's snapshot, which it reads at {@link #bindTo} and each time the registry
 * reads the {@value #SERVING_VERSION} gauge (every Prometheus scrape, every step publication);
 * an error code's counter likewise, the first time the code is seen, and a LiteRT gauge the
 * first time its signature and size are. Such a meter carries its
 * whole total from its first reading, and shows from the next publication at the latest. A
 * version the snapshot no longer holds (it keeps the loaded versions and the 16 most recent
 * others) has its meters removed.
 *
 * <pre>{@code
 * VersionedModel model = VersionedModel.builder(Path.of("/models/ranker")).build();
 * new VersionedModelMetrics(model).bindTo(registry);
 * }</pre>
 *
 * <p>Thread safety: bind from any thread; the meters may be read from any thread.
 */
public final class VersionedModelMetrics implements MeterBinder {
  /** The version new calls go to. */
  public static final String SERVING_VERSION = "tfjni.serving.version";
  /** Swaps of the serving version. */
  public static final String SWAPS = "tfjni.serving.swaps";
  /** Times the base directory offered nothing to serve. */
  public static final String SOURCE_FAILURES = "tfjni.serving.source.failures";
  /** Calls that returned or failed. */
  public static final String CALLS = "tfjni.serving.calls";
  /** Rows of the calls that succeeded. */
  public static final String ROWS = "tfjni.serving.rows";
  /** Failed calls, by code. */
  public static final String ERRORS = "tfjni.serving.errors";
  /** The {@code code} tag of failures without a TensorFlow code (a closed tensor, say). */
  public static final String OTHER_CODE = "OTHER";
  /** Calls running now. */
  public static final String IN_FLIGHT = "tfjni.serving.calls.in.flight";
  /** Each call's time, from the version's acquisition to the call's return. */
  public static final String RUN = "tfjni.serving.run";
  /** Each batching call's wait in its batching predictor's queue. */
  public static final String QUEUE_WAIT = "tfjni.serving.queue.wait";
  /** Runs of the version's batching predictors. */
  public static final String BATCHES = "tfjni.serving.batches";
  /** Rows of the batching predictors' runs. */
  public static final String BATCH_ROWS = "tfjni.serving.batch.rows";
  /** A percentile of rows per batching predictor run. */
  public static final String BATCH_SIZE_PERCENTILE = "tfjni.serving.batch.size.percentile";
  /** Loads, warm-up included. */
  public static final String LOADS = "tfjni.serving.loads";
  /** Failed loads, matches or warm-ups. */
  public static final String LOAD_FAILURES = "tfjni.serving.load.failures";
  /** Unloads. */
  public static final String UNLOADS = "tfjni.serving.unloads";
  /** The last load's time. */
  public static final String LOAD_TIME = "tfjni.serving.load.time";
  /** The last load's warm-up time. */
  public static final String WARM_UP_TIME = "tfjni.serving.warmup.time";
  /** A signature and batch size the version runs on LiteRT. */
  public static final String LITERT = "tfjni.serving.litert";

  private static final double[] PERCENTILES = {0.5, 0.99};

  private final VersionedModel model;
  private final Tags tags;

  /**
   * A binder of {@code model}'s metrics, tagged with its name.
   *
   * @param model the versioned model; the registry's meters keep it reachable, and read its
   *     final totals after it is closed
   */
  public VersionedModelMetrics(VersionedModel model) {
    this(model, Tags.empty());
  }

  /**
   * A binder of {@code model}'s metrics, tagged with its name and {@code tags}.
   *
   * @param model the versioned model; the registry's meters keep it reachable, and read its
   *     final totals after it is closed
   * @param tags tags every meter carries besides {@code model} and {@code version}
   */
  public VersionedModelMetrics(VersionedModel model, Iterable<Tag> tags) {
    this.model = Objects.requireNonNull(model, "model");
    this.tags = Tags.of(Objects.requireNonNull(tags, "tags")).and("model", model.name());
  }

  /**
   * Registers the model's meters, and those of every version its snapshot holds now.
   *
   * @param registry the registry
   */
  @Override
  public void bindTo(MeterRegistry registry) {
    new Binding(registry).bind();
  }

  /** The meters of one model in one registry, and the versions and codes they cover. */
  private final class Binding {
    private final MeterRegistry registry;
    private final Map<Long, BoundVersion> versions = new HashMap<>();

    Binding(MeterRegistry registry) {
      this.registry = Objects.requireNonNull(registry, "registry");
    }

    void bind() {
      Gauge.builder(SERVING_VERSION, model, m -> servingVersion())
          .description("the version new calls go to; -1 when none serves").tags(tags)
          .register(registry);
      FunctionCounter.builder(SWAPS, model, m -> m.metrics().swaps())
          .description("swaps of the serving version").tags(tags).register(registry);
      FunctionCounter.builder(SOURCE_FAILURES, model, m -> m.metrics().sourceFailures())
          .description("times the base directory offered nothing to serve").tags(tags)
          .register(registry);
      sync(model.metrics());
    }

    /** The serving version; registers the meters of versions and codes seen for the first time. */
    private double servingVersion() {
      ServingMetrics metrics = model.metrics();
      sync(metrics);
      return metrics.servingVersion();
    }

    private synchronized void sync(ServingMetrics metrics) {
      Set<Long> present = new HashSet<>();
      for (ServingMetrics.Version version : metrics.versions()) {
        present.add(version.version());
        versions.computeIfAbsent(version.version(), BoundVersion::new).sync(version);
      }
      versions.values().removeIf(bound -> {
        if (present.contains(bound.number)) {
          return false;
        }
        bound.meters.forEach(registry::remove);
        return true;
      });
    }

    /** The meters of one version. */
    private final class BoundVersion {
      final long number;
      final Tags versionTags;
      final List<Meter> meters = new ArrayList<>();
      final Set<String> codes = new HashSet<>();
      /** The signatures and batch sizes on LiteRT whose gauge is registered, as "key/size". */
      final Set<String> liteRt = new HashSet<>();

      BoundVersion(long number) {
        this.number = number;
        this.versionTags = tags.and("version", Long.toString(number));
        counter(CALLS, "calls that returned or failed", ServingMetrics.Version::calls);
        counter(ROWS, "rows of the calls that succeeded", ServingMetrics.Version::rows);
        gauge(IN_FLIGHT, "calls running now", ServingMetrics.Version::inFlight);
        histogram(RUN, "each call's time, queueing included", ServingMetrics.Version::runTime);
        histogram(QUEUE_WAIT, "each batching call's wait in the queue",
            ServingMetrics.Version::queueWait);
        counter(BATCHES, "runs of the batching predictors",
            v -> v.batchSizes().count());
        counter(BATCH_ROWS, "rows of the batching predictors' runs", v -> v.batchSizes().sum());
        for (double phi : PERCENTILES) {
          meters.add(Gauge.builder(BATCH_SIZE_PERCENTILE, model,
                  m -> read(m, v -> v.batchSizes().percentile(phi)))
              .description("the bucket bound of this percentile of rows per run")
              .tags(versionTags).tag("phi", Double.toString(phi)).register(registry));
        }
        counter(LOADS, "loads, warm-up included", ServingMetrics.Version::loads);
        counter(LOAD_FAILURES, "failed loads, matches or warm-ups",
            ServingMetrics.Version::failedLoads);
        counter(UNLOADS, "unloads", ServingMetrics.Version::unloads);
        timeGauge(LOAD_TIME, "the last load's time", v -> v.loadTime().toNanos());
        timeGauge(WARM_UP_TIME, "the last load's warm-up time", v -> v.warmUpTime().toNanos());
      }

      /** Registers the counters of error codes seen for the first time. */
      void sync(ServingMetrics.Version version) {
        for (TensorFlowException.Code code : version.errors().keySet()) {
          if (codes.add(code.name())) {
            errors(code.name(), v -> v.errors(code));
          }
        }
        if (version.otherFailures() > 0 && codes.add(OTHER_CODE)) {
          errors(OTHER_CODE, ServingMetrics.Version::otherFailures);
        }
        for (Map.Entry<String, List<Integer>> signature : version.liteRtBatchSizes().entrySet()) {
          for (int size : signature.getValue()) {
            if (liteRt.add(signature.getKey() + "/" + size)) {
              liteRtGauge(signature.getKey(), size);
            }
          }
        }
      }

      /** This version's value now; NaN once the snapshot no longer holds it. */
      private double read(VersionedModel m, ToDoubleFunction<ServingMetrics.Version> value) {
        return m.metrics().version(number).map(value::applyAsDouble).orElse(Double.NaN);
      }

      private void counter(String name, String description,
          ToDoubleFunction<ServingMetrics.Version> value) {
        meters.add(FunctionCounter.builder(name, model, m -> read(m, value))
            .description(description).tags(versionTags).register(registry));
      }

      private void errors(String code, ToDoubleFunction<ServingMetrics.Version> value) {
        meters.add(FunctionCounter.builder(ERRORS, model, m -> read(m, value))
            .description("failed calls by TensorFlow's code").tags(versionTags).tag("code", code)
            .register(registry));
      }

      private void liteRtGauge(String signatureKey, int batchSize) {
        meters.add(Gauge.builder(LITERT, model, m -> read(m, v -> v.liteRtBatchSizes()
                .getOrDefault(signatureKey, List.of()).contains(batchSize) ? 1 : 0))
            .description("1: this signature and batch size run on LiteRT").tags(versionTags)
            .tag("signature", signatureKey).tag("batch_size", Integer.toString(batchSize))
            .register(registry));
      }

      private void gauge(String name, String description,
          ToDoubleFunction<ServingMetrics.Version> value) {
        meters.add(Gauge.builder(name, model, m -> read(m, value)).description(description)
            .tags(versionTags).register(registry));
      }

      private void timeGauge(String name, String description,
          ToDoubleFunction<ServingMetrics.Version> nanos) {
        meters.add(TimeGauge.builder(name, model, TimeUnit.NANOSECONDS, m -> read(m, nanos))
            .description(description).tags(versionTags).register(registry));
      }

      /** A function timer over a histogram's count and sum, and its percentiles as gauges. */
      private void histogram(String name, String description,
          Function<ServingMetrics.Version, HistogramSnapshot> histogram) {
        meters.add(FunctionTimer.builder(name, model,
                m -> (long) read(m, v -> histogram.apply(v).count()),
                m -> read(m, v -> histogram.apply(v).sum().toNanos()), TimeUnit.NANOSECONDS)
            .description(description).tags(versionTags).register(registry));
        for (double phi : PERCENTILES) {
          meters.add(TimeGauge.builder(name + ".percentile", model, TimeUnit.NANOSECONDS,
                  m -> read(m, v -> histogram.apply(v).percentile(phi).toNanos()))
              .description("the bucket bound of this percentile of " + description)
              .tags(versionTags).tag("phi", Double.toString(phi)).register(registry));
        }
      }
    }
  }
}
