package io.tfjni.flink;

/** What a record that cannot feed the model (a null, a wrong type or length) does. */
public enum InvalidRecords {
  /** Fails the job with an exception naming the field, the record and what was expected. */
  ERROR,
  /** Drops the record: it has no output (the async function, the SQL table function). */
  SKIP,
  /**
   * Keeps the record with a null prediction (the SQL functions): the scalar function returns
   * null, the table function one row of nulls.
   */
  KEEP
}
