package io.tfjni.serving;

import io.tfjni.Tensor;
import java.util.concurrent.CompletableFuture;

/**
 * How a serving predictor's call holds the serving version and is counted: the version is
 * acquired before the call and released when it ends (for a submitted call, when its future
 * completes), and the version's metrics count the call in flight, then its run time and its
 * rows, or its failure.
 */
final class ServingCalls {
  private ServingCalls() {}

  /**
   * A call on a loaded version. It is given its predictor and arguments rather than capturing
   * them, so that a call allocates nothing here whether or not the JIT inlines it.
   */
  @FunctionalInterface
  interface Call<P, A, T> {
    T on(LoadedVersion version, P predictor, A arguments);
  }

  /**
   * Runs {@code call} on {@code model}'s serving version and returns what it returns.
   *
   * @param counted the call's input tensors, whose rows are counted if it returns; null for a
   *     call of one row given as Java arrays
   */
  static <P, A, T> T call(VersionedModel model, Tensor[] counted, P predictor, A arguments,
      Call<P, A, T> call) {
    LoadedVersion version = model.acquireServing();
    long started = version.metrics.callStarted();
    Throwable failure = null;
    try {
      return call.on(version, predictor, arguments);
    } catch (RuntimeException | Error e) {
      failure = e;
      throw e;
    } finally {
      if (counted == null) {
        version.metrics.callEnded(started, 1, failure);
      } else {
        version.metrics.callEnded(started, counted, failure);
      }
      version.release();
    }
  }

  /**
   * Submits a call with {@code submit} on {@code model}'s serving version and returns its
   * future; the version stays held until the future completes.
   *
   * @param counted the call's input tensors, whose rows are counted when the call is submitted
   *     (the caller may close them after that); null for a call of one row given as Java arrays
   */
  static <P, A, T> CompletableFuture<T> submit(VersionedModel model, Tensor[] counted,
      P predictor, A arguments, Call<P, A, CompletableFuture<T>> submit) {
    LoadedVersion version = model.acquireServing();
    long started = version.metrics.callStarted();
    CompletableFuture<T> answer;
    long rows;
    try {
      answer = submit.on(version, predictor, arguments);
      rows = counted == null ? 1 : VersionMetrics.rowsOf(counted);
    } catch (RuntimeException | Error e) {
      version.metrics.callEnded(started, 0, e);
      version.release();
      throw e;
    }
    answer.whenComplete((result, failure) -> {
      version.metrics.callEnded(started, rows, failure);
      version.release();
    });
    return answer;
  }
}
