package io.tfjni.djl;

import ai.djl.Device;
import ai.djl.Model;
import ai.djl.inference.Predictor;
import ai.djl.metric.Metrics;
import ai.djl.metric.Unit;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.nn.Block;
import ai.djl.translate.TranslateException;
import ai.djl.translate.Translator;
import ai.djl.translate.TranslatorContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * DJL's {@link Predictor} with one translator context kept for the predictor's life instead of a
 * new one per call. DJL's makes a context and an {@code NDManager} per predict (a unique id
 * string, three maps, an attach to and a detach from the predictor's manager); this one empties
 * its context's manager after each predict, which closes what the call created just as closing
 * it would. Everything else is DJL's: the translator's calls in the same order, the same metrics,
 * the same exceptions. A call that finds the context busy (a second thread sharing the predictor,
 * or a translator predicting from inside a predict) runs with a context of its own, as in DJL.
 */
final class TfjniPredictor<I, O> extends Predictor<I, O> {
  private final AtomicBoolean contextBusy = new AtomicBoolean();
  /** Made at the first predict; replaced if something closed its manager. */
  private KeptContext context;

  TfjniPredictor(Model model, Translator<I, O> translator, Device device) {
    super(model, translator, device, false);
  }

  @Override
  public List<O> batchPredict(List<I> inputs) throws TranslateException {
    if (!contextBusy.compareAndSet(false, true)) {
      return super.batchPredict(inputs);
    }
    try {
      if (context == null || !context.scope.isOpen()) {
        context = new KeptContext(newScope());
      }
      try {
        return predictIn(context, inputs);
      } finally {
        context.release();
      }
    } finally {
      contextBusy.set(false);
    }
  }

  /**
   * The context's manager (the predictor's manager is a TfjniNDManager: the model's makes only
   * those); once the predictor or its model is closed a TranslateException saying which, where
   * DJL's predict gives only the manager's "cannot attach".
   */
  private TfjniNDManager newScope() throws TranslateException {
    if (!model.getNDManager().isOpen()) {
      throw new TranslateException(
          "cannot predict: the model \"" + model.getName() + "\" is closed");
    }
    if (!manager.isOpen()) {
      throw new TranslateException("cannot predict: the predictor is closed");
    }
    try {
      return (TfjniNDManager) manager.newSubManager();
    } catch (IllegalStateException e) {
      throw new TranslateException(e);
    }
  }

  @SuppressWarnings("PMD.AvoidRethrowingException")
  private List<O> predictIn(TranslatorContext ctx, List<I> inputs) throws TranslateException {
    try {
      if (!prepared) {
        translator.prepare(ctx);
        prepared = true;
      }
      if (translator.getBatchifier() == null) {
        List<O> outputs = new ArrayList<>(inputs.size());
        for (I input : inputs) {
          long begin = System.nanoTime();
          timestamp = begin;
          NDList in = translator.processInput(ctx, input);
          recordSince("Preprocess", 1);
          NDList out = predictInternal(ctx, in);
          recordSince("Inference", 1);
          outputs.add(translator.processOutput(ctx, out));
          recordPostprocess(begin, 1);
        }
        return outputs;
      }
      int batchSize = inputs.size();
      long begin = System.nanoTime();
      timestamp = begin;
      NDList in = translator.batchProcessInput(ctx, inputs);
      recordSince("Preprocess", batchSize);
      NDList out = predictInternal(ctx, in);
      recordSince("Inference", batchSize);
      List<O> outputs = translator.batchProcessOutput(ctx, out);
      recordPostprocess(begin, batchSize);
      return outputs;
    } catch (TranslateException e) {
      throw e;
    } catch (Exception e) {
      throw new TranslateException(e);
    }
  }

  /** DJL's per-stage metric: microseconds per input since the previous stage ended. */
  private void recordSince(String stage, int batchSize) {
    if (metrics != null) {
      long now = System.nanoTime();
      record(stage, now - timestamp, batchSize);
      timestamp = now;
    }
  }

  /** The last stage, then the whole prediction (per batch, as DJL reports it). */
  private void recordPostprocess(long begin, int batchSize) {
    if (metrics != null) {
      long now = System.nanoTime();
      record("Postprocess", now - timestamp, batchSize);
      record("Prediction", now - begin, 1);
      timestamp = now;
    }
  }

  private void record(String name, long nanos, int batchSize) {
    metrics.addMetric(name, nanos / 1000 / batchSize, Unit.MICROSECONDS, dimension);
  }

  /** The context a predict runs in; its manager is emptied, not closed, after each predict. */
  private final class KeptContext implements TranslatorContext {
    private final TfjniNDManager scope;
    private Map<String, Object> attachments;

    KeptContext(TfjniNDManager scope) {
      this.scope = scope;
      scope.setName("predictor ctx");
    }

    /** Frees what the predict made and forgets its attachments, as closing a context does. */
    void release() {
      if (attachments != null) {
        attachments.clear();
      }
      if (!scope.releaseAll()) {
        scope.close();
      }
    }

    @Override
    public Model getModel() {
      return model;
    }

    @Override
    public NDManager getNDManager() {
      return scope;
    }

    @Override
    public NDManager getPredictorManager() {
      return manager;
    }

    @Override
    public Block getBlock() {
      return model.getBlock();
    }

    @Override
    public Metrics getMetrics() {
      return metrics;
    }

    @Override
    public Object getAttachment(String key) {
      return attachments == null ? null : attachments.get(key);
    }

    @Override
    public void setAttachment(String key, Object value) {
      if (attachments == null) {
        attachments = new ConcurrentHashMap<>();
      }
      attachments.put(key, value);
    }

    /** A translator closing its context ends this one; the next predict makes another. */
    @Override
    public void close() {
      scope.close();
    }
  }
}
