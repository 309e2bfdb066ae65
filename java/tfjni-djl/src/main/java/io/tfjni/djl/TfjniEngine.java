package io.tfjni.djl;

import ai.djl.Device;
import ai.djl.Model;
import ai.djl.engine.Engine;
import ai.djl.engine.StandardCapabilities;
import ai.djl.ndarray.NDManager;
import ai.djl.nn.SymbolBlock;
import io.tfjni.SessionOptions;
import io.tfjni.TensorFlow;
import io.tfjni.eager.EagerContext;

/**
 * tfjni as DJL's "TensorFlow" engine. One instance per process, with one eager context whose
 * thread pools are sized by the system properties {@code ai.djl.tensorflow.num_interop_threads}
 * and {@code ai.djl.tensorflow.num_intraop_threads} (TensorFlow's defaults if unset); every
 * {@link NDManager} of the engine runs its ops on that context.
 *
 * <p>DJL's own TensorFlow engine registers under the same name. {@link #getImplementation()} (and
 * {@link #toString()}) say which one runs: {@code Engine.getEngine("TensorFlow") instanceof
 * TfjniEngine} is true only for this one.
 */
public final class TfjniEngine extends Engine {
  /** The name DJL code checks, e.g. for HWC images in NDImageUtils. */
  /** The engine's name: DJL's TensorFlow engine's, so a model asking for it gets this one. */
  public static final String ENGINE_NAME = "TensorFlow";
  /** The rank of DJL's own TensorFlow engine: the same default-engine choice as it. */
  static final int RANK = 3;
  /** The system property setting TensorFlow's inter-op thread count, as DJL's engine reads it. */
  public static final String INTEROP_THREADS = "ai.djl.tensorflow.num_interop_threads";
  /** The system property setting TensorFlow's intra-op thread count, as DJL's engine reads it. */
  public static final String INTRAOP_THREADS = "ai.djl.tensorflow.num_intraop_threads";
  /**
   * "false" resizes images without half-pixel centres, as TensorFlow 1's {@code resize_bilinear}
   * and DJL's own TensorFlow engine do; by default they are on, as in {@code tf.image.resize}
   * and PyTorch. Read at each resize.
   */
  public static final String RESIZE_HALF_PIXEL_CENTERS = "tfjni.djl.resize.halfPixelCenters";

  /** Guards {@link #instance}; private so that no user code can hold it. */
  private static final Object LOCK = new Object();
  private static volatile TfjniEngine instance;
  /** The engine while its system manager is made (DJL's manager constructor asks for it). */
  private static TfjniEngine constructing;

  private final EagerContext context;
  private final io.tfjni.eager.NDManager arrays;
  /** Guards the seed and {@link #randomDraws}. */
  private final Object randomLock = new Object();
  /** Random ops drawn since the seed was set: with the seed, the seed of a stateless random op. */
  private long randomDraws;
  private TfjniNDManager systemManager;

  private TfjniEngine() {
    TensorFlow.load();
    this.context = EagerContext.create(threadOptions(SessionOptions.defaults()), false,
        EagerContext.DevicePlacement.SILENT);
    this.arrays = io.tfjni.eager.NDManager.newBaseManager(context);
  }

  /**
   * The engine, created with its eager context on first use.
   *
   * @return the one engine of this JVM (never closed: it lives as long as the process)
   */
  public static TfjniEngine getInstance() {
    TfjniEngine engine = instance;
    if (engine == null) {
      synchronized (LOCK) {
        engine = instance;
        if (engine == null) {
          engine = new TfjniEngine();
          constructing = engine;
          try {
            engine.systemManager = TfjniNDManager.newSystemManager();
          } finally {
            constructing = null;
          }
          instance = engine;
        }
      }
    }
    return engine;
  }

  /** The engine, also while it is being made (for its managers' constructors). */
  static TfjniEngine peek() {
    TfjniEngine engine = instance;
    if (engine != null) {
      return engine;
    }
    synchronized (LOCK) {
      return constructing != null ? constructing : getInstance();
    }
  }

  /**
   * Applies the thread-count system properties, if set, to {@code options}; a value that is not
   * a valid count is an IllegalArgumentException naming the property.
   */
  static SessionOptions threadOptions(SessionOptions options) {
    Integer inter = threadProperty(INTEROP_THREADS);
    Integer intra = threadProperty(INTRAOP_THREADS);
    try {
      if (inter != null) {
        options.interOpThreads(inter);
      }
      if (intra != null) {
        options.intraOpThreads(intra);
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("the system properties " + INTEROP_THREADS + "="
          + inter + " / " + INTRAOP_THREADS + "=" + intra + " are not valid thread counts: "
          + e.getMessage(), e);
    }
    return options;
  }

  private static Integer threadProperty(String name) {
    String text = System.getProperty(name);
    if (text == null || text.isBlank()) {
      return null;
    }
    try {
      return Integer.valueOf(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("the system property " + name
          + " must be an integer thread count, got '" + text + "'", e);
    }
  }

  /**
   * Seeds the random operations and restarts their stream, as DJL's PyTorch engine does: after
   * {@code setRandomSeed(s)} the same sequence of random calls gives the same numbers.
   *
   * @param seed the seed of the random operations from now on
   */
  @Override
  public void setRandomSeed(int seed) {
    synchronized (randomLock) {
      super.setRandomSeed(seed);
      randomDraws = 0;
    }
  }

  /**
   * The seed pair of the next stateless random op: the engine's seed (the clock if none is set)
   * and the number of the draw since.
   */
  long[] nextRandomSeed() {
    synchronized (randomLock) {
      Integer seed = getSeed();
      return new long[] {seed == null ? System.nanoTime() : seed, ++randomDraws};
    }
  }

  /**
   * Which TensorFlow engine this is.
   *
   * @return {@code "tfjni VERSION (libtensorflow PATH)"}: tfjni's version and the file
   *     libtensorflow was loaded from ({@link #getVersion()} is TensorFlow's version)
   */
  public String getImplementation() {
    return "tfjni " + TensorFlow.tfjniVersion() + " (libtensorflow " + TensorFlow.libraryPath()
        + ")";
  }

  /**
   * The eager context all of this engine's arrays run on.
   *
   * @return the engine's context, owned by the engine (do not close it)
   */
  public EagerContext getEagerContext() {
    return context;
  }

  /** The tfjni manager owning every native array of this engine. */
  io.tfjni.eager.NDManager arrays() {
    return arrays;
  }

  TfjniNDManager systemManager() {
    return systemManager;
  }

  @Override
  public Engine getAlternativeEngine() {
    return null;
  }

  @Override
  public String getEngineName() {
    return ENGINE_NAME;
  }

  @Override
  public int getRank() {
    return RANK;
  }

  /** TensorFlow's version, as DJL's TensorFlow engine reports it. */
  @Override
  public String getVersion() {
    return TensorFlow.version();
  }

  @Override
  public boolean hasCapability(String capability) {
    if (StandardCapabilities.CUDA.equals(capability)) {
      return context.devices().stream().anyMatch(d -> d.toUpperCase().contains("GPU"));
    }
    return StandardCapabilities.MKL.equals(capability);
  }

  @Override
  public SymbolBlock newSymbolBlock(NDManager manager) {
    throw new UnsupportedOperationException(
        "a TensorFlow SymbolBlock comes from a loaded model; there is no empty one");
  }

  @Override
  public Model newModel(String name, Device device) {
    return new TfjniModel(name, device, this);
  }

  @Override
  public NDManager newBaseManager() {
    return systemManager.newSubManager();
  }

  @Override
  public NDManager newBaseManager(Device device) {
    return systemManager.newSubManager(device);
  }

  @Override
  public String toString() {
    return ENGINE_NAME + ':' + getVersion() + ", " + getImplementation();
  }
}
