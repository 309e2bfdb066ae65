package io.tfjni.flink;

/** The exception of a record that cannot feed the model, in the words every function uses. */
final class InvalidRecordError {
  /** A record shown in a message is cut to this many characters. */
  private static final int RECORD_CHARS = 200;

  private InvalidRecordError() {}

  /**
   * "tfjni-flink: field 'pixels' (input 'images') of record 5 of subtask 0 ((5, [...])) has 63
   * elements; expected ...".
   *
   * @param field the kind of field and its name, e.g. {@code field 'pixels'}
   * @param record the kind of record, e.g. {@code record} or {@code row}
   * @param shown the record as text; cut to {@value #RECORD_CHARS} characters
   * @param remedy the policy that would let the job go on
   */
  static IllegalArgumentException of(String field, String inputKey, String record, long number,
      int subtask, String shown, String problem, String expected, String remedy) {
    if (shown.length() > RECORD_CHARS) {
      shown = shown.substring(0, RECORD_CHARS) + "...";
    }
    return new IllegalArgumentException("tfjni-flink: " + field + " (input '" + inputKey + "') of "
        + record + " " + number + " of subtask " + subtask + " (" + shown + ") " + problem
        + "; expected " + expected + ". Set invalidRecords to " + remedy + " to go on past such "
        + record + "s");
  }
}
