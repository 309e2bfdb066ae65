package io.tfjni.cli;

/**
 * A mistake in what the user asked for (a bad argument, a missing file, a dtype mismatch): the
 * CLI prints its message as one line, without a stack trace, and exits with {@link #USAGE}.
 */
final class CliException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Exit status for bad arguments and inputs. */
  static final int USAGE = 2;
  /** Exit status for failures while doing the work (TensorFlow errors, I/O errors). */
  static final int FAILURE = 1;

  private final int exitCode;

  CliException(String message) {
    this(message, USAGE);
  }

  CliException(String message, int exitCode) {
    super(message);
    this.exitCode = exitCode;
  }

  int exitCode() {
    return exitCode;
  }
}
