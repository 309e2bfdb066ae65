package io.tfjni;

/** An error reported by TensorFlow (or by tfjni's native core), with TensorFlow's status code. */
public final class TensorFlowException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** TensorFlow's status codes (tensorflow/core/protobuf/error_codes.proto). */
  public enum Code {
    OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND, ALREADY_EXISTS,
    PERMISSION_DENIED, RESOURCE_EXHAUSTED, FAILED_PRECONDITION, ABORTED, OUT_OF_RANGE,
    UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS, UNAUTHENTICATED;

    static Code of(int value) {
      Code[] codes = values();
      return value >= 0 && value < codes.length ? codes[value] : UNKNOWN;
    }
  }

  private final Code code;
  private final String tensorFlowMessage;

  /** Called from native code. */
  TensorFlowException(int code, String message) {
    this(Code.of(code), message);
  }

  public TensorFlowException(Code code, String message) {
    super(code + ": " + message);
    this.code = code;
    this.tensorFlowMessage = message;
  }

  public Code code() {
    return code;
  }

  /** TensorFlow's message, without the code in front. */
  public String tensorFlowMessage() {
    return tensorFlowMessage;
  }
}
