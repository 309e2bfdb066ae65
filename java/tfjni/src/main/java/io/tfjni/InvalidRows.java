package io.tfjni;

import java.util.List;
import java.util.function.Supplier;

/**
 * What a job that feeds many rows to a model does with a row that cannot feed it (an {@link
 * InvalidRowException}): fail, drop the row, or keep it without outputs. The Spark transformer's
 * {@code handleInvalid} and the Flink functions' invalid-records settings are this policy, and
 * {@link #error} words the failure for all of them.
 */
public enum InvalidRows {
  /** Fails, with a message naming the row, what is wrong with it and what was expected. */
  ERROR,
  /** Drops the row: it has no outputs. */
  SKIP,
  /** Keeps the row, with null outputs. */
  KEEP;

  /**
   * Applies this policy to a row that cannot feed the model.
   *
   * @param error makes the exception to fail with; called under {@link #ERROR} only
   * @return true to keep the row ({@link #KEEP}), false to drop it ({@link #SKIP})
   * @throws RuntimeException {@code error}'s exception, under {@link #ERROR}
   */
  public boolean keeps(Supplier<? extends RuntimeException> error) {
    if (this == ERROR) {
      throw error.get();
    }
    return this == KEEP;
  }

  /**
   * The exception a bad row fails with under {@link #ERROR}: {@code WHERE: PROBLEM; expected
   * EXPECTED. Set OPTION to ALTERNATIVE or ALTERNATIVE to go on past such ROWs}.
   *
   * @param where the job, the column and input, and the row, e.g. {@code tfjni-spark: column
   *     'pixels' (input 'images'), row 1 of partition 0}
   * @param problem what is wrong with the row ({@link InvalidRowException#problem()})
   * @param expected what a row of the input must be, in the words of the caller's API
   * @param option the setting that changes this policy, as its user names it
   * @param alternatives the option's other values, spelled as the option takes them
   * @param row what the caller calls a row ({@code row}, {@code record})
   * @return the exception to throw
   */
  public static IllegalArgumentException error(String where, String problem, String expected,
      String option, List<String> alternatives, String row) {
    return new IllegalArgumentException(where + ": " + problem + "; expected " + expected
        + ". Set " + option + " to " + String.join(" or ", alternatives) + " to go on past such "
        + row + "s");
  }
}
