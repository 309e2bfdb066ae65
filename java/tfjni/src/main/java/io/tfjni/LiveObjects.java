package io.tfjni;

/**
 * How many native objects tfjni holds right now, by kind. A count that does not return to where
 * it was is a leak: something was not closed.
 */
public record LiveObjects(
    long tensors, long graphs, long sessions, long savedModels, long graphModels, long runners,
    long eagerContexts, long tensorHandles, long liteRtModels, long tensorBytes) {

  /** Number of kinds counted natively, in the order of the native ObjectKind enum. */
  static final int KINDS = 9;

  static LiveObjects of(long[] counts) {
    return new LiveObjects(counts[0], counts[1], counts[2], counts[3], counts[4], counts[5],
        counts[6], counts[7], counts[8], counts[KINDS]);
  }

  /**
   * All live native objects of every kind.
   *
   * @return the sum of the counts
   */
  public long total() {
    return tensors + graphs + sessions + savedModels + graphModels + runners + eagerContexts
        + tensorHandles + liteRtModels;
  }
}
