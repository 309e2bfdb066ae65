package io.tfjni;

/** An error reported by TensorFlow (or by tfjni's native core), with TensorFlow's status code. */
public final class TensorFlowException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * TensorFlow's status codes (tensorflow/core/protobuf/error_codes.proto), in their numeric
   * order; the proto documents when TensorFlow uses each.
   */
  public enum Code {
    /** 0: not an error. */
    OK,
    /** 1: the operation was cancelled (a run's cancellation, a closed session). */
    CANCELLED,
    /** 2: an error TensorFlow gave no other code, or a code tfjni does not know. */
    UNKNOWN,
    /** 3: the caller passed a bad argument (a wrong shape, type or name). */
    INVALID_ARGUMENT,
    /** 4: a deadline ran out before the operation finished (a run's timeout). */
    DEADLINE_EXCEEDED,
    /** 5: something asked for was not found (a file, an op, a tensor). */
    NOT_FOUND,
    /** 6: something to be created exists already. */
    ALREADY_EXISTS,
    /** 7: the caller may not do this. */
    PERMISSION_DENIED,
    /** 8: memory or another resource ran out. */
    RESOURCE_EXHAUSTED,
    /** 9: the system is not in a state the operation needs (e.g. another TensorFlow version). */
    FAILED_PRECONDITION,
    /** 10: the operation was aborted, e.g. by a concurrency conflict. */
    ABORTED,
    /** 11: a value was past the valid range (an index, the end of input). */
    OUT_OF_RANGE,
    /** 12: the operation is not implemented or supported here (a kernel for this device). */
    UNIMPLEMENTED,
    /** 13: an invariant of TensorFlow (or of tfjni's native core) was broken. */
    INTERNAL,
    /** 14: the service is unavailable for now; a retry may succeed. */
    UNAVAILABLE,
    /** 15: data was lost or corrupted. */
    DATA_LOSS,
    /** 16: the caller has no valid credentials. */
    UNAUTHENTICATED;

    static Code of(int value) {
      Code[] codes = values();
      return value >= 0 && value < codes.length ? codes[value] : UNKNOWN;
    }
  }

  /** TensorFlow's status code. */
  private final Code code;
  /** TensorFlow's message, without the code. */
  private final String tensorFlowMessage;

  /** Called from native code. */
  TensorFlowException(int code, String message) {
    this(Code.of(code), message);
  }

  /**
   * An error with TensorFlow's code and message.
   *
   * @param code TensorFlow's status code
   * @param message TensorFlow's message; {@link #getMessage()} is it with the code in front
   */
  public TensorFlowException(Code code, String message) {
    super(code + ": " + message);
    this.code = code;
    this.tensorFlowMessage = message;
  }

  /**
   * TensorFlow's status code.
   *
   * @return the code, e.g. {@link Code#INVALID_ARGUMENT}
   */
  public Code code() {
    return code;
  }

  /**
   * TensorFlow's message, without the code in front.
   *
   * @return the message as TensorFlow (or tfjni's native core) wrote it
   */
  public String tensorFlowMessage() {
    return tensorFlowMessage;
  }
}
