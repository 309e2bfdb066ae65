package io.tfjni.bench;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * ONNX Runtime's Java binding as its documentation shows it: the process's
 * {@link OrtEnvironment}, an {@link OrtSession} whose {@link OrtSession.SessionOptions} set the
 * intra-op threads (everything else ONNX Runtime's defaults: all graph optimisations, sequential
 * execution, intra-op threads that spin while they wait for work), and an input
 * {@link OnnxTensor} made once over a direct buffer. The output is pinned: an {@link OnnxTensor}
 * over a direct buffer made once, which each run writes into (the run's {@code Result} is still
 * made and closed per call, as the API requires); each call copies it into an array made once.
 */
final class OrtCaller implements Caller {
  private final OrtSession.SessionOptions options;
  private final OrtSession session;
  private final OnnxTensor input;
  private final OnnxTensor pinnedOutput;
  private final FloatBuffer outputBuffer;
  private final Map<String, OnnxTensor> inputs;
  private final Map<String, OnnxTensor> outputs;
  private final float[] output;

  OrtCaller(BenchCase benchCase, Path onnx, int threads) throws OrtException {
    OrtEnvironment environment = OrtEnvironment.getEnvironment();
    options = new OrtSession.SessionOptions();
    OrtSession opened = null;
    OnnxTensor in = null;
    OnnxTensor pinned = null;
    try {
      options.setIntraOpNumThreads(threads);
      opened = environment.createSession(onnx.toString(), options);
      in = OnnxTensor.createTensor(environment, direct(benchCase.inputFloats().length)
          .put(benchCase.inputFloats()).rewind(), benchCase.inputShape());
      outputBuffer = direct(benchCase.outputElements());
      pinned = OnnxTensor.createTensor(environment, outputBuffer, benchCase.outputShape());
      inputs = Map.of(only(opened.getInputNames(), "input", onnx), in);
      outputs = Map.of(only(opened.getOutputNames(), "output", onnx), pinned);
    } catch (OrtException | RuntimeException e) {
      if (pinned != null) {
        pinned.close();
      }
      if (in != null) {
        in.close();
      }
      if (opened != null) {
        opened.close();
      }
      options.close();
      throw e;
    }
    session = opened;
    input = in;
    pinnedOutput = pinned;
    output = new float[benchCase.outputElements()];
  }

  @Override
  public float call() {
    try {
      // The Result holds the pinned output too, which closing it leaves open.
      session.run(inputs, outputs).close();
    } catch (OrtException e) {
      throw new IllegalStateException("ONNX Runtime's run failed", e);
    }
    outputBuffer.get(0, output);
    return output[0];
  }

  /** The output of the last call. */
  float[] output() {
    return output;
  }

  @Override
  public void close() {
    input.close();
    pinnedOutput.close();
    try {
      session.close();
    } catch (OrtException e) {
      throw new IllegalStateException(e);
    } finally {
      options.close();
    }
  }

  private static FloatBuffer direct(int floats) {
    return ByteBuffer.allocateDirect(floats * Float.BYTES).order(ByteOrder.nativeOrder())
        .asFloatBuffer();
  }

  /** The one name of a set the benchmark models have exactly one of. */
  private static String only(Set<String> names, String what, Path onnx) {
    if (names.size() != 1) {
      throw new IllegalArgumentException(onnx + " has " + names.size() + " " + what + "s "
          + names + ": the benchmark cases have one");
    }
    return names.iterator().next();
  }
}
