package io.tfjni.serving;

import io.tfjni.RunResult;
import io.tfjni.Tensor;
import io.tfjni.TensorSpec;
import java.util.List;

/**
 * A predictor that follows a {@link VersionedModel}'s swaps: each run goes to the version serving
 * when it starts (acquire that version, run the predictor prepared on it, release). A run in
 * flight during a swap finishes on its version; the next run goes to the new one. Held for the
 * versioned model's life and owned by it (nothing to close). A version whose signature cannot
 * feed it is never swapped in (see {@link VersionFailure.Stage#SIGNATURE}).
 *
 * <p>On a version loaded with {@link io.tfjni.SessionOptions#preferLiteRt(int)}, a run whose
 * batch size was converted runs on LiteRT if this predictor feeds every input and fetches every
 * output in key order ({@link io.tfjni.SavedModel#liteRtPredictors}); {@link
 * ServingMetrics.Version#liteRtBatchSizes()} shows where.
 *
 * <p>Thread safety: run it from any number of threads.
 */
public final class ServingPredictor {
  private final VersionedModel owner;
  private final PredictorContract contract;

  ServingPredictor(VersionedModel owner, PredictorContract contract) {
    this.owner = owner;
    this.contract = contract;
  }

  PredictorContract contract() {
    return contract;
  }

  /**
   * What each input must look like, as on the version this predictor was made on.
   *
   * @return the inputs' specs, in the order {@link #run} takes them
   */
  public List<TensorSpec> inputs() {
    return contract.inputs();
  }

  /**
   * The outputs fetched, as on the version this predictor was made on.
   *
   * @return the outputs' specs, in the order a result holds them
   */
  public List<TensorSpec> outputs() {
    return contract.outputs();
  }

  /**
   * Runs once on the serving version into a new result (the result is bound to that version's
   * predictor, so a reused {@link RunResult} is not offered: successive runs may reach different
   * versions).
   *
   * @param inputs the inputs, as {@link #inputs()} (not closed: they stay the caller's)
   * @return the outputs, owned by the caller: close it
   * @throws IllegalArgumentException if the inputs do not match {@link #inputs()}
   * @throws IllegalStateException if the versioned model is closed
   * @throws VersionUnavailableException if no version serves at the moment
   * @throws io.tfjni.TensorFlowException TensorFlow's error if the run fails
   */
  public RunResult run(Tensor... inputs) {
    return ServingCalls.call(owner, inputs, contract, inputs,
        (version, contract, in) -> version.predictor(contract, in).run(in));
  }

  /**
   * Runs once, as {@link #run}, and says which version answered.
   *
   * @param inputs the inputs, as {@link #inputs()} (not closed: they stay the caller's)
   * @return the version and the outputs; close the outputs
   * @throws IllegalArgumentException if the inputs do not match {@link #inputs()}
   * @throws IllegalStateException if the versioned model is closed
   * @throws VersionUnavailableException if no version serves at the moment
   * @throws io.tfjni.TensorFlowException TensorFlow's error if the run fails
   */
  public VersionedResult runVersioned(Tensor... inputs) {
    return ServingCalls.call(owner, inputs, contract, inputs, (version, contract, in) ->
        new VersionedResult(version.version, version.predictor(contract, in).run(in)));
  }

  /**
   * A run's outputs and the version that produced them.
   *
   * @param version the version that ran
   * @param result its outputs, owned by the caller: close it
   */
  public record VersionedResult(long version, RunResult result) implements AutoCloseable {
    @Override
    public void close() {
      result.close();
    }
  }
}
