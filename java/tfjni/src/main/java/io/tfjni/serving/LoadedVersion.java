package io.tfjni.serving;

import io.tfjni.Predictor;
import io.tfjni.SavedModel;
import io.tfjni.Tensor;
import io.tfjni.batching.BatchingPredictor;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * One loaded version: its model, the predictors and batching predictors prepared on it for the
 * {@link ServingPredictor}s and {@link ServingBatchingPredictor}s of its {@link VersionedModel}
 * (with LiteRT's for the batch sizes converted, if the model prefers LiteRT),
 * and a count of the calls in flight on it. Once retired it takes no new call; when its last call
 * returns (or at once, if none is in flight) it is drained, and its owner closes it.
 */
final class LoadedVersion {
  /** The top bit of {@link #state}: retired, no new call. The rest counts calls in flight. */
  private static final long RETIRED = Long.MIN_VALUE;

  final long version;
  final Path directory;
  final SavedModel model;
  /** Written by the calls of its serving predictors; detached when the version closes. */
  final VersionMetrics metrics;
  private final Map<PredictorContract, Prepared> predictors = new ConcurrentHashMap<>();
  private final Map<ServingBatchingPredictor, BatchingPredictor> batchers =
      new ConcurrentHashMap<>();
  private final AtomicLong state = new AtomicLong();
  private final CountDownLatch drained = new CountDownLatch(1);
  private final AtomicBoolean closing = new AtomicBoolean();
  private final CountDownLatch closed = new CountDownLatch(1);
  /** Runs once, on the thread that drains the version; null: whoever waits closes it. */
  private volatile Consumer<LoadedVersion> whenDrained;
  private volatile long retiredAtNanos;

  LoadedVersion(long version, Path directory, SavedModel model, VersionMetrics metrics) {
    this.version = version;
    this.directory = directory;
    this.model = model;
    this.metrics = metrics;
    metrics.attach();
  }

  /**
   * A contract's TensorFlow predictor and the LiteRT predictors of the sizes converted
   * ({@link SavedModel#liteRtPredictors}), ascending; the same in arrays, looked up per call.
   */
  private record Prepared(Predictor tensorFlow, Map<Integer, Predictor> liteRt, int[] sizes,
      Predictor[] bySize) {
    static Prepared of(Predictor tensorFlow, Map<Integer, Predictor> liteRt) {
      int[] sizes = liteRt.keySet().stream().mapToInt(Integer::intValue).sorted().toArray();
      Predictor[] bySize = new Predictor[sizes.length];
      for (int i = 0; i < sizes.length; i++) {
        bySize[i] = liteRt.get(sizes[i]);
      }
      return new Prepared(tensorFlow, liteRt, sizes, bySize);
    }
  }

  /**
   * Keeps {@code predictor} for {@code contract}, with the LiteRT predictors of its signature's
   * converted sizes if the contract feeds and fetches what they do, and tells the metrics.
   */
  void addPredictor(PredictorContract contract, Predictor predictor) {
    Map<Integer, Predictor> liteRt = model.liteRtPredictors(contract.signatureKey,
        contract.inputKeys, contract.outputKeys);
    predictors.put(contract, Prepared.of(predictor, liteRt));
    if (!liteRt.isEmpty()) {
      metrics.servesOnLiteRt(contract.signatureKey, liteRt.keySet());
    }
  }

  boolean hasPredictor(PredictorContract contract) {
    return predictors.containsKey(contract);
  }

  /** The TensorFlow predictor prepared for {@code contract}; the caller holds this version. */
  Predictor predictor(PredictorContract contract) {
    return prepared(contract).tensorFlow();
  }

  /**
   * The predictor for a run of {@code inputs}: LiteRT's if one was prepared for their batch size
   * (the first dimension of the first input that has one), else TensorFlow's. Allocates nothing.
   */
  Predictor predictor(PredictorContract contract, Tensor[] inputs) {
    Prepared prepared = prepared(contract);
    if (prepared.sizes().length > 0) {
      for (Tensor input : inputs) {
        if (input.rank() > 0) {
          long rows = input.dimension(0);
          for (int i = 0; i < prepared.sizes().length; i++) {
            if (prepared.sizes()[i] == rows) {
              return prepared.bySize()[i];
            }
          }
          break;
        }
      }
    }
    return prepared.tensorFlow();
  }

  /** The LiteRT predictors prepared for {@code contract}, by batch size; empty if none. */
  Map<Integer, Predictor> liteRtPredictors(PredictorContract contract) {
    return prepared(contract).liteRt();
  }

  private Prepared prepared(PredictorContract contract) {
    Prepared prepared = predictors.get(contract);
    if (prepared == null) {
      throw new IllegalStateException("no predictor prepared on version " + version);
    }
    return prepared;
  }

  void addBatcher(ServingBatchingPredictor owner, BatchingPredictor batcher) {
    batchers.put(owner, batcher);
  }

  boolean hasBatcher(ServingBatchingPredictor owner) {
    return batchers.containsKey(owner);
  }

  /** The batching predictor built for {@code owner}; the caller holds this version acquired. */
  BatchingPredictor batcher(ServingBatchingPredictor owner) {
    BatchingPredictor batcher = batchers.get(owner);
    if (batcher == null) {
      throw new IllegalStateException("no batching predictor built on version " + version);
    }
    return batcher;
  }

  /** Counts a call in flight, unless the version is retired. Allocates nothing. */
  boolean tryAcquire() {
    long s;
    do {
      s = state.get();
      if (s < 0) {
        return false;
      }
    } while (!state.weakCompareAndSetVolatile(s, s + 1));
    return true;
  }

  void release() {
    if (state.decrementAndGet() == RETIRED) {
      onDrained();
    }
  }

  /**
   * Takes no new call from now on. {@code then} (null: nothing) runs once the calls in flight
   * have returned, on the thread of the last one, or on this thread if none is in flight.
   */
  void retire(Consumer<LoadedVersion> then) {
    whenDrained = then;
    retiredAtNanos = System.nanoTime();
    if (state.getAndUpdate(s -> s | RETIRED) == 0) {
      onDrained();
    }
  }

  private void onDrained() {
    drained.countDown();
    Consumer<LoadedVersion> then = whenDrained;
    if (then != null) {
      then.accept(this);
    }
  }

  /** Waits until the calls in flight have returned; the version must be retired. */
  void awaitDrained() {
    await(drained);
  }

  private static void await(CountDownLatch latch) {
    boolean interrupted = false;
    while (true) {
      try {
        latch.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;  // keep waiting: closing under a call would fail that call
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  long retiredAtNanos() {
    return retiredAtNanos;
  }

  /**
   * Closes the batching predictors, then the model (and so its predictors). Only the first call
   * closes; a later one waits until that close is done. Returns whether this call closed it.
   */
  boolean close() {
    if (!closing.compareAndSet(false, true)) {
      await(closed);
      return false;
    }
    try {
      batchers.values().forEach(BatchingPredictor::close);
    } finally {
      try {
        model.close();
      } finally {
        metrics.detach();
        closed.countDown();
      }
    }
    return true;
  }
}
