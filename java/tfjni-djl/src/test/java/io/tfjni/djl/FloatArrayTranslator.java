package io.tfjni.djl;

import ai.djl.ndarray.NDList;
import ai.djl.ndarray.types.Shape;
import ai.djl.translate.Batchifier;
import ai.djl.translate.StackBatchifier;
import ai.djl.translate.Translator;
import ai.djl.translate.TranslatorContext;

/**
 * A {@code float[]} in, as one array of the given shape, and the single output's values out,
 * batched by DJL's {@link StackBatchifier}: the translator a DJL user writes for a plain model.
 */
final class FloatArrayTranslator implements Translator<float[], float[]> {
  private final Shape shape;

  FloatArrayTranslator(Shape shape) {
    this.shape = shape;
  }

  @Override
  public NDList processInput(TranslatorContext ctx, float[] values) {
    return new NDList(ctx.getNDManager().create(values, shape));
  }

  @Override
  public float[] processOutput(TranslatorContext ctx, NDList list) {
    return list.singletonOrThrow().toFloatArray();
  }

  @Override
  public Batchifier getBatchifier() {
    return new StackBatchifier();
  }
}
