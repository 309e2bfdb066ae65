package io.tfjni;

import io.tfjni.internal.NativeLibrary;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A LiteRT model (a {@code .tflite} file, e.g. written by TensorFlow's {@code
 * tf.lite.TFLiteConverter}) compiled for the CPU, where LiteRT runs it with XNNPACK. Its
 * signatures use the same {@link Signature} and {@link TensorSpec} types as a {@link SavedModel}'s,
 * and its {@link #predictor(String) predictors} the same {@link Predictor} and {@link RunResult}
 * contract: prepared once, outputs refilled, closing frees at once and waits for runs in flight.
 * Inputs reach LiteRT without a copy (64-byte aligned tensors, as tfjni makes them) and outputs
 * are written straight into tfjni tensors.
 *
 * <p>LiteRT's runtime library is not part of tfjni: it is opened at the first load, from the
 * system property {@value NativeLibrary#LITERT_LIBRARY_PROPERTY} or else the environment variable
 * {@value NativeLibrary#LITERT_LIBRARY_ENV} (the path of {@code libLiteRtRuntimeCApi.so} from
 * PyPI's {@code ai-edge-litert} 1.4.0), else from LiteRT's runtime artifact on the class path
 * ({@code io.tfjni:tfjni-litert:1.4.0} with the platform's classifier), extracted once into the
 * per-user cache as TensorFlow's is. Shapes are static: a converted model takes one batch size.
 *
 * <p>Thread safety: predictors may be run from many threads at once; the runs of one model take
 * turns (LiteRT's compiled model is one interpreter). Load a model per concurrent caller for
 * parallel runs, or raise its threads.
 */
public final class LiteRtModel extends Model {
  private final List<Signature> signatures;

  private LiteRtModel(long handle) {
    super(handle);
    this.signatures = Signature.decodeAll(nativeSignatures(handle));
  }

  /**
   * Loads a {@code .tflite} file and compiles it for the CPU.
   *
   * @param tflite the model file
   * @param threads the CPU threads LiteRT (XNNPACK) uses for each run, at least 1
   * @return the model, owned by the caller: close it, which closes its predictors
   * @throws NullPointerException if {@code tflite} is null
   * @throws IllegalArgumentException if {@code threads} is below 1
   * @throws IllegalStateException if LiteRT's runtime library is neither configured nor on the
   *     class path
   * @throws UnsatisfiedLinkError if LiteRT's runtime artifact on the class path is for another
   *     platform, is there twice or is damaged
   * @throws TensorFlowException {@code NOT_FOUND} for a missing file, {@code FAILED_PRECONDITION}
   *     if the runtime library cannot be opened, and LiteRT's status for a file it cannot load or
   *     compile (a damaged file, an op the runtime lacks)
   */
  public static LiteRtModel load(Path tflite, int threads) {
    Objects.requireNonNull(tflite, "tflite");
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1, got " + threads);
    }
    String library = NativeLibrary.liteRtLibrary();
    NativeLibrary.ensureLoaded();
    long handle = nativeLoad(library, tflite.toString(), threads);
    try {
      return new LiteRtModel(handle);
    } catch (RuntimeException | Error e) {
      nativeDelete(handle);
      throw e;
    }
  }

  /**
   * Every signature of the model. A converted model's signature keys are the SavedModel's; the
   * method name is empty, and each spec's tensor name is its key.
   *
   * @return the signatures, in the model's order, inputs and outputs in the order a run takes
   *     and returns them
   */
  public List<Signature> signatures() {
    return signatures;
  }

  /**
   * One signature.
   *
   * @param key the signature's key
   * @return the signature
   * @throws IllegalArgumentException if there is no such signature (the message lists them)
   */
  public Signature signature(String key) {
    return Signature.byKey(signatures, key);
  }

  /**
   * A predictor feeding every input and fetching every output of a signature, in the order of
   * {@link Signature#inputs()} and {@link Signature#outputs()}. Inputs must have exactly the
   * spec's data type and (static) shape.
   *
   * @param signatureKey the signature's key
   * @return the predictor, owned by this model (closed with it; closing it earlier frees it)
   * @throws IllegalArgumentException if there is no such signature
   * @throws IllegalStateException if the model is closed
   * @throws TensorFlowException {@code UNIMPLEMENTED} if an input or output has a type tfjni
   *     cannot exchange with LiteRT (strings)
   */
  public Predictor predictor(String signatureKey) {
    signature(signatureKey);
    return Predictor.forLiteRt(this, signatureKey);
  }

  @Override
  void freeModel(long handle) {
    nativeDelete(handle);
  }

  private static native long nativeLoad(String library, String tflite, int threads);

  private static native byte[] nativeSignatures(long handle);

  /** A native predictor (a prepared run) for {@link Predictor}. */
  static native long nativePredictor(long handle, String signatureKey);

  private static native void nativeDelete(long handle);
}
