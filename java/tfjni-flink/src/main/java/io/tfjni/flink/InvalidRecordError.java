package io.tfjni.flink;

import io.tfjni.InvalidRows;
import java.util.List;

/** The exception of a record that cannot feed the model, in the words every function uses. */
final class InvalidRecordError {
  /** A record shown in a message is cut to this many characters. */
  private static final int RECORD_CHARS = 200;

  private InvalidRecordError() {}

  /**
   * The core's wording ({@link InvalidRows#error}) of a record that cannot feed the model:
   * "tfjni-flink: field 'pixels' (input 'images') of record 5 of subtask 0 ((5, [...])): has 63
   * elements; expected ... . Set invalidRecords to SKIP to go on past such records".
   *
   * @param field the kind of field and its name, e.g. {@code field 'pixels'}
   * @param record the kind of record, e.g. {@code record} or {@code row}
   * @param shown the record as text; cut to {@value #RECORD_CHARS} characters
   * @param option the setting that changes the policy, as the function's user names it
   * @param policies the policies the function takes: those but ERROR are the remedies
   */
  static IllegalArgumentException of(String field, String inputKey, String record, long number,
      int subtask, String shown, String problem, String expected, String option,
      List<InvalidRecords> policies) {
    if (shown.length() > RECORD_CHARS) {
      shown = shown.substring(0, RECORD_CHARS) + "...";
    }
    return InvalidRows.error("tfjni-flink: " + field + " (input '" + inputKey + "') of " + record
        + " " + number + " of subtask " + subtask + " (" + shown + ")", problem, expected, option,
        policies.stream().filter(p -> p != InvalidRecords.ERROR).map(Enum::name).toList(), record);
  }
}
