package io.tfjni.bench;

/**
 * One contender of {@link ModelBench} outside JMH: its shared model and one caller, set up (and
 * output-checked) as JMH would. Used by {@link RssProbe} and {@link CallLoop}.
 */
final class Contender implements AutoCloseable {
  private final AutoCloseable model;
  final Caller caller;

  private Contender(AutoCloseable model, Caller caller) {
    this.model = model;
    this.caller = caller;
  }

  static Contender open(String contender, String caseName) {
    return open(contender, caseName, "pooled");
  }

  /** {@code threading}: {@code pooled} or {@code caller}, as {@link CaseParam#threading}. */
  static Contender open(String contender, String caseName, String threading) {
    CaseParam.interOpThreads(threading);  // rejects an unknown one before loading anything
    switch (contender) {
      case "tfjniMap", "tfjniFast", "tfjniBatched" -> {
        TfjniModel model = new TfjniModel();
        model.caseName = caseName;
        model.threading = threading;
        model.open();
        if (contender.equals("tfjniBatched")) {
          TfjniModel.BatchedCaller caller = new TfjniModel.BatchedCaller();
          caller.setUp(model);
          return new Contender(model::close, caller);
        }
        if (contender.equals("tfjniMap")) {
          TfjniModel.MapCaller caller = new TfjniModel.MapCaller();
          caller.setUp(model);
          return new Contender(model::close, caller);
        }
        TfjniModel.FastCaller caller = new TfjniModel.FastCaller();
        caller.setUp(model);
        return new Contender(model::close, caller);
      }
      case "tfJava", "tfJavaRunner" -> {
        TfJavaModel model = new TfJavaModel();
        model.caseName = caseName;
        model.threading = threading;
        model.open();
        if (contender.equals("tfJava")) {
          TfJavaModel.FunctionCaller caller = new TfJavaModel.FunctionCaller();
          caller.setUp(model);
          return new Contender(model::close, caller);
        }
        TfJavaModel.RunnerCaller caller = new TfJavaModel.RunnerCaller();
        caller.setUp(model);
        return new Contender(model::close, caller);
      }
      case "tfjniDjl" -> {
        return openDjl("tfjni", caseName, threading);
      }
      case "djlTf" -> {
        return openDjl("djl", caseName, threading);
      }
      default -> throw new IllegalArgumentException("unknown contender '" + contender
          + "'; expected tfjniMap, tfjniFast, tfjniBatched, tfJava, tfJavaRunner, tfjniDjl or djlTf");
    }
  }

  /**
   * DJL's {@code Predictor.predict} ({@link DjlBench}) through {@code engine}: "tfjni"
   * (tfjni-djl) or "djl" (DJL's own TensorFlow engine), which must be on the class path (the
   * benchmarks jar leaves both out). Its threads come from the system properties both DJL engines
   * read, set here as bench-djl.sh sets them.
   */
  private static Contender openDjl(String engine, String caseName, String threading) {
    System.setProperty("ai.djl.tensorflow.num_intraop_threads",
        Integer.toString(CaseParam.INTRA_OP_THREADS));
    System.setProperty("ai.djl.tensorflow.num_interop_threads",
        Integer.toString(CaseParam.interOpThreads(threading)));
    DjlBench.Loaded model = new DjlBench.Loaded();
    model.caseName = caseName;
    model.engine = engine;
    DjlBench.Caller caller = new DjlBench.Caller();
    try {
      model.open();
      caller.setUp(model);
    } catch (Exception e) {
      model.close();
      throw new IllegalStateException("cannot open DJL's engine " + engine + " on " + caseName, e);
    }
    return new Contender(model::close, new Caller() {
      @Override
      public float call() {
        try {
          return caller.call();
        } catch (ai.djl.translate.TranslateException e) {
          throw new IllegalStateException(e);
        }
      }

      @Override
      public void close() {
        caller.close();
      }
    });
  }

  @Override
  public void close() {
    caller.close();
    try {
      model.close();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
