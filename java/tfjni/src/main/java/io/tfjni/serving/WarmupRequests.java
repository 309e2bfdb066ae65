package io.tfjni.serving;

import io.tfjni.DataType;
import io.tfjni.Predictor;
import io.tfjni.SavedModel;
import io.tfjni.Tensor;
import io.tfjni.TensorFlowException;
import io.tfjni.internal.NativeLibrary;
import io.tfjni.internal.SpecDecoder;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * TensorFlow Serving's warm-up file: {@value #FILE} in a SavedModel directory, a TFRecord file of
 * {@code PredictionLog} records whose {@code PredictRequest}s a server runs before a model version
 * takes traffic, so that the first real call does not pay for TensorFlow's lazy initialisation.
 *
 * <p>The file is parsed in native code with TensorFlow Serving's limits: at most {@value
 * #MAX_RECORDS} records, each a {@code predict_log}. Every error names the record (its index in the
 * file, 0 for the first) and is a {@link TensorFlowException}: {@code DATA_LOSS} for a damaged
 * record (CRC, truncation, malformed protocol buffer), {@code INVALID_ARGUMENT} for a tensor that
 * cannot be built or too many records, {@code UNIMPLEMENTED} for a classify, regress,
 * multi-inference, session-run or streamed log.
 */
public final class WarmupRequests {
  /** The warm-up file's path inside a SavedModel directory. */
  public static final String FILE = "assets.extra/tf_serving_warmup_requests";
  /** The most records a warm-up file may hold (TensorFlow Serving's limit). */
  public static final int MAX_RECORDS = 1000;

  private WarmupRequests() {}

  /**
   * One {@code PredictRequest} of a warm-up file. Closing it closes its input tensors.
   *
   * @param recordIndex the record's index in the file, 0 for the first
   * @param signatureKey the signature to run ({@code serving_default} when the request names none)
   * @param inputs the request's inputs by key, in the file's order (unmodifiable)
   * @param outputFilter the outputs to fetch; empty for every output (unmodifiable)
   */
  public record Request(int recordIndex, String signatureKey, Map<String, Tensor> inputs,
      List<String> outputFilter) implements AutoCloseable {
    @Override
    public void close() {
      inputs.values().forEach(Tensor::close);
    }
  }

  /**
   * Reads every request of a warm-up file. Records whose {@code PredictionLog} holds no log are
   * skipped, as TensorFlow Serving skips them.
   *
   * @param file the warm-up file
   * @return the requests in file order, owned by the caller: close each
   * @throws TensorFlowException NOT_FOUND if the file does not exist, or as the class describes
   */
  public static List<Request> read(Path file) {
    Objects.requireNonNull(file, "file");
    NativeLibrary.ensureLoaded();
    return decode(nativeRead(file.toString()));
  }

  /**
   * Runs every request of a SavedModel's warm-up file once; see {@link #replay(SavedModel, Path,
   * int)}.
   *
   * @param model the model loaded from {@code exportDir}
   * @param exportDir the SavedModel directory holding {@value #FILE}
   * @return the number of requests in the file (0 without a file)
   */
  public static int replay(SavedModel model, Path exportDir) {
    return replay(model, exportDir, 1);
  }

  /**
   * Runs every request of the warm-up file in {@code exportDir} on {@code model}, each {@code
   * iterations} times (TensorFlow Serving's {@code num_request_iterations}), fetching the
   * request's output filter (every output when it is empty), and closes every tensor it made. A
   * model without a warm-up file has nothing to replay: TensorFlow Serving treats the file as
   * optional. The file is read completely before the first run, so a damaged file runs nothing.
   *
   * @param model the model loaded from {@code exportDir}
   * @param exportDir the SavedModel directory holding {@value #FILE}
   * @param iterations how many times each request runs, at least 1
   * @return the number of requests in the file (0 without a file)
   * @throws TensorFlowException if the file cannot be read (as the class describes) or a run
   *     fails; the message names the record
   * @throws IllegalArgumentException if {@code iterations} is below 1, or a request names a
   *     signature, input or output the model does not have (the message names the record)
   */
  public static int replay(SavedModel model, Path exportDir, int iterations) {
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(exportDir, "exportDir");
    if (iterations < 1) {
      throw new IllegalArgumentException("iterations must be at least 1, got " + iterations);
    }
    Path file = exportDir.resolve(FILE);
    if (!Files.exists(file)) {
      return 0;
    }
    List<Request> requests = read(file);
    try {
      for (Request request : requests) {
        run(model, request, iterations);
      }
      return requests.size();
    } finally {
      requests.forEach(Request::close);
    }
  }

  private static void run(SavedModel model, Request request, int iterations) {
    List<String> inputKeys = List.copyOf(request.inputs().keySet());
    Tensor[] inputs = request.inputs().values().toArray(new Tensor[0]);
    try (Predictor predictor =
        model.predictor(request.signatureKey(), inputKeys, request.outputFilter())) {
      for (int i = 0; i < iterations; i++) {
        predictor.run(inputs).close();  // only the run matters: its outputs are freed at once
      }
    } catch (TensorFlowException e) {
      throw new TensorFlowException(e.code(), where(request) + e.tensorFlowMessage());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where(request) + e.getMessage(), e);
    }
  }

  private static String where(Request request) {
    return "warm-up record " + request.recordIndex() + " (signature \"" + request.signatureKey()
        + "\"): ";
  }

  /** Reads nativeRead's encoding (io_tfjni_serving_WarmupRequests.cpp). */
  private static List<Request> decode(byte[] encoded) {
    SpecDecoder in = new SpecDecoder(encoded);
    int count = in.readInt();
    List<Request> requests = new ArrayList<>(count);
    try {
      for (int r = 0; r < count; r++) {
        int recordIndex = in.readInt();
        String signatureKey = in.readString();
        List<String> outputFilter = new ArrayList<>();
        for (int n = in.readInt(); n > 0; n--) {
          outputFilter.add(in.readString());
        }
        Map<String, Tensor> inputs = new LinkedHashMap<>();
        Request request = new Request(recordIndex, signatureKey,
            Collections.unmodifiableMap(inputs), Collections.unmodifiableList(outputFilter));
        requests.add(request);  // from here on closed with the others if a later one fails
        for (int n = in.readInt(); n > 0; n--) {
          String name = in.readString();
          inputs.put(name, readTensor(in));
        }
      }
      return requests;
    } catch (RuntimeException | Error e) {
      requests.forEach(Request::close);
      throw e;
    }
  }

  private static Tensor readTensor(SpecDecoder in) {
    DataType dataType = DataType.fromCode(in.readInt());
    long[] shape = new long[in.readInt()];
    for (int d = 0; d < shape.length; d++) {
      shape[d] = in.readLong();
    }
    if (dataType == DataType.STRING) {
      byte[][] values = new byte[Math.toIntExact(Tensor.elementCount(shape))][];
      for (int i = 0; i < values.length; i++) {
        values[i] = in.readBytes();
      }
      return Tensor.ofBytes(values, shape);
    }
    // The tensor's bytes are little-endian: native order on every platform tfjni runs on.
    return Tensor.of(dataType, ByteBuffer.wrap(in.readBytes()), shape);
  }

  private static native byte[] nativeRead(String path);
}
