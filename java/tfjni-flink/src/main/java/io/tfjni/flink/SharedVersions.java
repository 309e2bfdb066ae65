package io.tfjni.flink;

import io.tfjni.RowSpec;
import io.tfjni.SessionOptions;
import io.tfjni.ThreadPools;
import io.tfjni.serving.ServingBatchingPredictor;
import io.tfjni.serving.ServingPredictor;
import io.tfjni.serving.VersionLease;
import io.tfjni.serving.VersionedModel;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The JVM's versioned models: one {@link VersionedModel} per settings, following its base
 * directory's versions, with one batching predictor that every subtask of the JVM queues on;
 * closed when the last subtask holding it lets go.
 */
final class SharedVersions {
  /** A versioned model, its batching predictor, its rows' layouts and how many hold it. */
  static final class Held {
    final VersionedModel model;
    final ServingBatchingPredictor batcher;
    final List<RowSpec> inputs;
    final List<RowSpec> outputs;
    private int holders;

    private Held(VersionedModel model, ServingBatchingPredictor batcher, List<RowSpec> inputs,
        List<RowSpec> outputs) {
      this.model = model;
      this.batcher = batcher;
      this.inputs = inputs;
      this.outputs = outputs;
    }
  }

  private static final Map<ModelSettings, Held> HELD = new HashMap<>();

  private SharedVersions() {}

  /**
   * Holds the versioned model of {@code settings}, building it (and loading its serving version)
   * if no subtask of this JVM holds it; release it with {@link #release}.
   *
   * @throws RuntimeException the core's, if no version can serve the signature; nothing is left
   *     open then
   */
  static synchronized Held acquire(ModelSettings settings) {
    Held held = HELD.get(settings);
    if (held == null) {
      held = open(settings);
      HELD.put(settings, held);
    }
    held.holders++;
    return held;
  }

  /** Lets go of the model of {@code settings}: the last holder closes it. */
  static synchronized void release(ModelSettings settings) {
    Held held = HELD.get(settings);
    if (held != null && --held.holders == 0) {
      HELD.remove(settings);
      held.model.close();
    }
  }

  private static Held open(ModelSettings settings) {
    SessionOptions options = SessionOptions.defaults();
    ThreadPools.intraOpThreads(options, settings.intraOpThreads());
    ThreadPools.interOpThreads(options, settings.interOpThreads());
    options.preferLiteRt(settings.liteRtThreads());
    VersionedModel model = VersionedModel.builder(Path.of(settings.modelPath()))
        .tags(settings.tags().toArray(new String[0])).sessionOptions(options)
        .pollInterval(settings.versionPollInterval()).build();
    try {
      List<String> inputKeys = settings.inputKeys();
      if (inputKeys.isEmpty()) {  // every input of the signature, in the order of their keys
        try (VersionLease serving = model.lease()) {
          inputKeys = serving.model().signature(settings.signatureKey()).inputKeys();
        }
      }
      // Held for the rows' layouts.
      ServingPredictor layouts = model.predictor(settings.signatureKey(), inputKeys,
          settings.outputKeys());
      ServingBatchingPredictor batcher = model.batchingPredictor(settings.signatureKey(),
          inputKeys, settings.outputKeys(),
          // The async operators' capacities bound the rows in flight, as for OperatorBatcher.
          builder -> builder.maxBatchSize(settings.maxBatchSize()).maxDelay(settings.maxDelay())
              .unboundedQueue().threadName("tfjni-batching " + model.name()));
      return new Held(model, batcher, SubtaskModel.arrayRows(layouts.inputs(), "input"),
          SubtaskModel.arrayRows(layouts.outputs(), "output"));
    } catch (RuntimeException e) {
      model.close();
      throw e;
    }
  }
}
