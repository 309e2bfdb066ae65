package io.tfjni;

import io.tfjni.internal.NativeLibrary;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A frozen GraphDef (a binary .pb with weights as constants) imported into its own session. Run
 * it through {@link #predictor(List, List)} with graph tensor names such as "x:0".
 *
 * <p>Thread safety and closing behave as for {@link SavedModel}.
 */
public final class GraphModel extends SessionModel {
  private GraphModel(long handle) {
    super(handle);
  }

  /**
   * Loads a frozen GraphDef with TensorFlow's default session settings.
   *
   * @param graphDef the binary GraphDef file (e.g. {@code model.pb})
   * @return the model, owned by the caller: close it, which closes its predictors
   * @throws NullPointerException if an argument is null
   * @throws TensorFlowException TensorFlow's error if the file is missing ({@code NOT_FOUND}) or
   *     is no GraphDef TensorFlow can import
   */
  public static GraphModel load(Path graphDef) {
    return load(graphDef, SessionOptions.defaults());
  }

  /**
   * Loads a frozen GraphDef.
   *
   * @param graphDef the binary GraphDef file (e.g. {@code model.pb})
   * @param options the session's settings (threads, devices, a ConfigProto)
   * @return the model, owned by the caller: close it, which closes its predictors
   * @throws NullPointerException if an argument is null
   * @throws TensorFlowException TensorFlow's error if the file is missing ({@code NOT_FOUND}) or
   *     is no GraphDef TensorFlow can import
   */
  public static GraphModel load(Path graphDef, SessionOptions options) {
    Objects.requireNonNull(graphDef, "graphDef");
    Objects.requireNonNull(options, "options");
    NativeLibrary.ensureLoaded();
    ThreadPools.started(options);
    return new GraphModel(nativeLoad(graphDef.toString(), options.scalars(),
        options.visibleDevices(), options.rawConfig(), options.poolThreads(),
        options.poolNames()));
  }

  /**
   * A predictor feeding and fetching graph tensors by name ({@code "op:index"}, or {@code "op"}
   * for index 0).
   *
   * @param inputNames the tensors fed, in the order the predictor's runs take them
   * @param outputNames the tensors fetched, in order
   * @return the predictor, owned by this model (closed with it; closing it earlier frees it)
   * @throws IllegalStateException if the model is closed
   * @throws TensorFlowException {@code INVALID_ARGUMENT} if a name is malformed or names no tensor
   *     of the graph (the message names it)
   */
  public Predictor predictor(List<String> inputNames, List<String> outputNames) {
    Objects.requireNonNull(inputNames, "inputNames");
    Objects.requireNonNull(outputNames, "outputNames");
    return Predictor.forTensors(this, inputNames, outputNames);
  }

  @Override
  void freeModel(long handle) {
    nativeDelete(handle);
  }

  private static native long nativeLoad(String path, long[] scalars, String visibleDevices,
      byte[] rawConfig, int[] poolThreads, String[] poolNames);

  private static native void nativeDelete(long handle);

  @Override
  byte[] encodedDevices(long handle) {
    return nativeDevices(handle);
  }

  private static native byte[] nativeDevices(long handle);
}
