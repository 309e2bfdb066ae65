package io.tfjni.batching;

import java.util.Arrays;
import java.util.Collection;
import java.util.stream.IntStream;

/**
 * The sizes a batch of rows is padded up to with rows of zeros, and the size a batch runs at: the
 * one rule behind a {@link BatchingPredictor}'s allowed batch sizes and the LiteRT runs of the
 * Flink functions and the Spark transformer, so that a batch smaller than a size converted for
 * LiteRT runs on LiteRT at that size.
 */
public final class PaddedBatchSizes {
  private PaddedBatchSizes() {}

  /**
   * The sizes to pad to when some batch sizes were converted for LiteRT (each one such a model
   * runs at, e.g. {@link io.tfjni.SavedModel#liteRtBatchSizes}): the converted sizes up to the
   * maximum batch size, then every size above the largest of them, which run as they are.
   *
   * @param converted the converted sizes, in any order
   * @param maxBatchSize the most rows a batch holds
   * @return the sizes, increasing, the last one {@code maxBatchSize}, as {@link
   *     BatchingPredictor.Builder#allowedBatchSizes} takes them; none if no converted size is
   *     within the maximum (then no batch is padded)
   */
  public static int[] forConverted(Collection<Integer> converted, int maxBatchSize) {
    int[] within = converted.stream().mapToInt(Integer::intValue)
        .filter(size -> size <= maxBatchSize).sorted().distinct().toArray();
    if (within.length == 0) {
      return within;
    }
    return IntStream.concat(Arrays.stream(within),
        IntStream.rangeClosed(within[within.length - 1] + 1, maxBatchSize)).toArray();
  }

  /**
   * The size a batch of {@code rows} runs at: the smallest allowed size that holds it.
   *
   * @param rows the batch's own rows
   * @param allowedBatchSizes increasing sizes; none: every batch runs at its own size
   * @return that size, or {@code rows} itself when none are set or none holds it
   */
  public static int paddedSize(int rows, int[] allowedBatchSizes) {
    for (int size : allowedBatchSizes) {
      if (size >= rows) {
        return size;
      }
    }
    return rows;
  }
}
