package io.tfjni;

import io.tfjni.batching.BatchingPredictor;

/**
 * A row that cannot feed its input: the input's key and what is wrong with the row, such as
 * {@code has 63 elements} or {@code has 2.5 at element 1, not an INT32 (not a whole number)}.
 * {@link RowSpec} throws it, and so do {@link BatchingPredictor#submitRow} and {@link
 * BatchingPredictor#predictRow} through it; a caller that goes on past bad rows ({@link
 * InvalidRows}) catches it and words its own message from {@link #problem()}.
 *
 * <p>It carries no stack trace: it stands for bad data, found once per bad row, and its message
 * says where the row went wrong.
 */
public final class InvalidRowException extends IllegalArgumentException {
  private static final long serialVersionUID = 1;

  /** The signature input's key. */
  private final String inputKey;
  /** What is wrong with the row. */
  private final String problem;

  /**
   * A row of input {@code inputKey} that cannot feed it, for the reason {@code problem}; its
   * message is {@code input 'KEY' PROBLEM}.
   *
   * @param inputKey the signature input's key
   * @param problem what is wrong, worded to follow the input's name ({@code is null})
   */
  public InvalidRowException(String inputKey, String problem) {
    super("input '" + inputKey + "' " + problem, null);
    this.inputKey = inputKey;
    this.problem = problem;
  }

  /**
   * The input's key.
   *
   * @return the key of the signature input the row was meant for
   */
  public String inputKey() {
    return inputKey;
  }

  /**
   * What is wrong with the row, without the input's name.
   *
   * @return the reason, such as {@code has 63 elements}
   */
  public String problem() {
    return problem;
  }

  /** No stack trace: see the class comment. */
  @Override
  public synchronized Throwable fillInStackTrace() {
    return this;
  }
}
