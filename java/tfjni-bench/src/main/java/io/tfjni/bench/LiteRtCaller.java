package io.tfjni.bench;

import io.tfjni.LiteRtModel;
import io.tfjni.Predictor;
import io.tfjni.RunResult;
import io.tfjni.Tensor;
import java.nio.file.Path;

/**
 * LiteRT through tfjni ({@link LiteRtModel}, XNNPACK on the CPU): a model compiled with its own
 * threads, a prepared predictor, an input tensor and a result made once; each call runs the
 * predictor into the reused result and copies the output into an array made once.
 */
final class LiteRtCaller implements Caller {
  private final LiteRtModel model;
  private final Predictor predictor;
  private final Tensor input;
  private final RunResult result;
  private final float[] output;

  LiteRtCaller(BenchCase benchCase, Path tflite, int threads) {
    model = LiteRtModel.load(tflite, threads);
    try {
      predictor = model.predictor(benchCase.signature());
      input = Tensor.of(benchCase.inputFloats(), benchCase.inputShape());
      result = predictor.newResult();
    } catch (RuntimeException e) {
      model.close();
      throw e;
    }
    output = new float[benchCase.outputElements()];
  }

  @Override
  public float call() {
    predictor.run(input, result);
    result.get(0).copyTo(output);
    return output[0];
  }

  /** The output of the last call. */
  float[] output() {
    return output;
  }

  @Override
  public void close() {
    result.close();
    input.close();
    model.close();  // closes the predictor too
  }
}
