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
public final class GraphModel extends Model {
  private GraphModel(long handle) {
    super(handle);
  }

  public static GraphModel load(Path graphDef) {
    return load(graphDef, SessionOptions.defaults());
  }

  public static GraphModel load(Path graphDef, SessionOptions options) {
    Objects.requireNonNull(graphDef, "graphDef");
    Objects.requireNonNull(options, "options");
    NativeLibrary.ensureLoaded();
    ThreadPools.started(options);
    return new GraphModel(nativeLoad(graphDef.toString(), options.scalars(),
        options.visibleDevices(), options.rawConfig(), options.poolThreads(),
        options.poolNames()));
  }

  /** A predictor feeding and fetching graph tensors by name ("op:index", or "op" for index 0). */
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
