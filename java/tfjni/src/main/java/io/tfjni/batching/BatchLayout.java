package io.tfjni.batching;

import io.tfjni.DataType;
import io.tfjni.InvalidRowException;
import io.tfjni.Predictor;
import io.tfjni.RowSpec;
import io.tfjni.RunResult;
import io.tfjni.Tensor;
import io.tfjni.TensorSpec;
import io.tfjni.internal.ArrayBytes;
import io.tfjni.internal.CoreAccess;
import io.tfjni.internal.PackedStrings;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How a predictor's inputs and outputs are laid out along the batch dimension: which signatures
 * can be batched at all (every input and output batch-major, of fixed-size elements or strings),
 * whether a caller's rows fit, and the copies that concatenate rows into a batch (strings padded
 * with empty ones) and slice each caller's rows out of the outputs.
 */
final class BatchLayout {
  private static final CoreAccess CORE = CoreAccess.get();

  private final List<TensorSpec> inputs;
  private final List<TensorSpec> outputs;
  private final List<String> outputKeys;
  private final int[] inputRanks;
  /** Each input's row: its shape after the batch and what a row given as an array must be. */
  private final RowSpec[] inputRows;
  /** Every input's dimensions after the batch, one after another: a one-row request's shape. */
  private final long[] inputRowShape;

  /** @throws IllegalArgumentException naming the first input or output that is not batch-major */
  BatchLayout(Predictor predictor) {
    this.inputs = predictor.inputs();
    this.outputs = predictor.outputs();
    this.outputKeys = outputs.stream().map(TensorSpec::key).toList();
    this.inputRanks = new int[inputs.size()];
    this.inputRows = new RowSpec[inputs.size()];
    for (int i = 0; i < inputRows.length; i++) {
      checkBatchable(inputs.get(i), "input");
      inputRows[i] = RowSpec.of(inputs.get(i), "input");
      inputRanks[i] = inputRows[i].rank() + 1;
    }
    this.inputRowShape = new long[Arrays.stream(inputRanks).map(r -> r - 1).sum()];
    int at = 0;
    for (RowSpec row : inputRows) {
      System.arraycopy(row.shape(), 0, inputRowShape, at, row.rank());
      at += row.rank();
    }
    for (TensorSpec spec : outputs) {
      checkBatchable(spec, "output");
      if (!spec.hasUnknownRank()) {  // an output's rank may wait for the run
        RowSpec.of(spec, "output");
      }
    }
  }

  private static void checkBatchable(TensorSpec spec, String what) {
    if (!spec.dataType().isFixedSize() && spec.dataType() != DataType.STRING) {
      throw new IllegalArgumentException(what + " '" + spec.key() + "' is " + spec.dataType()
          + ": batching copies rows of fixed-size elements or strings only");
    }
  }

  /**
   * Checks a caller's tensors against the signature: the request they make, whose rows {@link
   * #copyRows} copies if they are to wait in the queue.
   *
   * @throws IllegalArgumentException saying which input does not fit, and why
   */
  QueuedRows rowsOf(Tensor[] tensors, int maxRows) {
    int rows = checkedRows(tensors, maxRows);
    long[] rowShape = new long[inputRowShape.length];
    int at = 0;
    for (Tensor tensor : tensors) {
      for (int d = 1; d < tensor.rank(); d++) {
        rowShape[at++] = tensor.dimension(d);
      }
    }
    return new QueuedRows(tensors.length, rows, rowShape);
  }

  /**
   * Checks a caller's tensors against the signature without allocating (a caller running its own
   * rows makes no garbage): every input present, of its dtype and shape, with the same number of
   * rows, from 1 to {@code maxRows}.
   *
   * @return the number of rows
   * @throws IllegalArgumentException saying which input does not fit, and why
   */
  int checkedRows(Tensor[] tensors, int maxRows) {
    if (tensors.length != inputs.size()) {
      throw new IllegalArgumentException("expected " + inputs.size() + " inputs "
          + inputs.stream().map(TensorSpec::key).toList() + ", got " + tensors.length);
    }
    long rows = -1;
    for (int i = 0; i < tensors.length; i++) {
      TensorSpec spec = inputs.get(i);
      Tensor tensor = tensors[i];
      if (tensor == null) {
        throw new NullPointerException("input '" + spec.key() + "' is null");
      }
      if (tensor.dataType() != spec.dataType()) {
        throw new IllegalArgumentException("input '" + spec.key() + "' is " + tensor.dataType()
            + ", the signature wants " + spec.dataType());
      }
      if (!spec.accepts(tensor)) {  // the spec's first dimension is -1: any number of rows
        throw new IllegalArgumentException("input '" + spec.key() + "' has shape "
            + Arrays.toString(tensor.shape()) + ", the signature wants "
            + Arrays.toString(spec.shape()));
      }
      long tensorRows = tensor.dimension(0);
      if (rows != -1 && tensorRows != rows) {
        throw new IllegalArgumentException("input '" + spec.key() + "' has " + tensorRows
            + " rows, input '" + inputs.get(0).key() + "' " + rows);
      }
      rows = tensorRows;
    }
    if (rows < 1 || rows > maxRows) {
      throw new IllegalArgumentException("a request holds " + rows + " rows; it must hold 1 to "
          + maxRows + " (the maximum batch size)");
    }
    return (int) rows;
  }

  /** Copies the caller's tensors, checked by {@link #rowsOf}, into its request. */
  static void copyRows(Tensor[] tensors, QueuedRows request) {
    for (int i = 0; i < tensors.length; i++) {
      if (tensors[i].dataType() == DataType.STRING) {
        request.inputStrings[i] = CORE.packedStrings(tensors[i]);
      } else {
        ByteBuffer data = tensors[i].buffer();
        request.inputBytes[i] = new byte[data.remaining()];
        data.get(request.inputBytes[i]);
      }
    }
  }

  /**
   * Checks one row of every input, given as Java arrays in input order (each input's row
   * flattened in row-major order), against the signature ({@link RowSpec#checkArray}) and copies
   * it.
   *
   * @throws InvalidRowException saying which input's row does not fit, and why
   * @throws IllegalArgumentException for another number of inputs, or an input whose row has an
   *     unknown dimension
   */
  QueuedRows rowOf(Object[] arrays) {
    if (arrays.length != inputs.size()) {
      throw new IllegalArgumentException("expected " + inputs.size() + " inputs "
          + inputs.stream().map(TensorSpec::key).toList() + ", got " + arrays.length);
    }
    QueuedRows request = new QueuedRows(arrays.length, 1, inputRowShape);
    for (int i = 0; i < arrays.length; i++) {
      Object array = arrays[i];
      inputRows[i].checkArray(array);
      if (array instanceof String[] values) {
        request.inputStrings[i] = PackedStrings.ofUtf8(values);
      } else if (array instanceof byte[][] values) {
        request.inputStrings[i] = PackedStrings.of(values);
      } else {
        request.inputBytes[i] = ArrayBytes.of(array);
      }
    }
    return request;
  }

  /**
   * The batch's input tensors (close them): every request's rows one after another, then rows of
   * zeros (of empty strings) up to {@code paddedRows}.
   */
  Tensor[] concatenate(List<QueuedRows> batch, int paddedRows) {
    Tensor[] tensors = new Tensor[inputs.size()];
    try {
      for (int i = 0; i < tensors.length; i++) {
        long[] shape = prepend(paddedRows, batch.get(0).rowDimensions(i, inputRanks));
        if (inputs.get(i).dataType() == DataType.STRING) {
          tensors[i] = concatenateStrings(batch, i, shape);
          continue;
        }
        tensors[i] = Tensor.allocate(inputs.get(i).dataType(), shape);
        ByteBuffer into = tensors[i].buffer();
        for (QueuedRows request : batch) {
          into.put(request.inputBytes[i]);
        }
      }
      return tensors;
    } catch (RuntimeException | Error e) {
      closeAll(tensors);
      throw e;
    }
  }

  private static Tensor concatenateStrings(List<QueuedRows> batch, int input, long[] shape) {
    List<PackedStrings> parts = new ArrayList<>(batch.size());
    long elements = 0;
    for (QueuedRows request : batch) {
      parts.add(request.inputStrings[input]);
      elements += request.inputStrings[input].count();
    }
    int padding = Math.toIntExact(Tensor.elementCount(shape) - elements);
    return CORE.ofPackedStrings(PackedStrings.concatenate(parts, padding), shape);
  }

  /**
   * Each request's rows of every output, copied into tensors of its own (the caller's to close),
   * in batch order.
   *
   * @throws IllegalStateException if an output does not have {@code paddedRows} rows (a model
   *     whose output is not batch-major after all)
   */
  BatchedResult[] split(RunResult result, List<QueuedRows> batch, int paddedRows) {
    ByteBuffer[] outputBytes = new ByteBuffer[outputs.size()];
    PackedStrings[] outputStrings = new PackedStrings[outputs.size()];
    long[][] rowShapes = new long[outputs.size()][];
    for (int o = 0; o < outputBytes.length; o++) {
      Tensor output = result.get(o);
      long[] shape = output.shape();
      checkBatchMajor(o, shape, paddedRows);
      rowShapes[o] = Arrays.copyOfRange(shape, 1, shape.length);
      if (output.dataType() == DataType.STRING) {
        outputStrings[o] = CORE.packedStrings(output);  // every caller's, in one native call
      } else {
        outputBytes[o] = output.buffer();
      }
    }
    BatchedResult[] answers = new BatchedResult[batch.size()];
    try {
      int firstRow = 0;
      for (int r = 0; r < answers.length; r++) {
        int rows = batch.get(r).rows;
        Tensor[] own = new Tensor[outputBytes.length];
        answers[r] = new BatchedResult(outputKeys, own);
        for (int o = 0; o < own.length; o++) {
          long[] shape = prepend(rows, rowShapes[o]);
          if (outputStrings[o] != null) {
            int rowElements = outputStrings[o].count() / paddedRows;
            own[o] = CORE.ofPackedStrings(outputStrings[o].slice(firstRow * rowElements,
                (firstRow + rows) * rowElements), shape);
            continue;
          }
          int rowBytes = outputBytes[o].capacity() / paddedRows;
          own[o] = Tensor.allocate(outputs.get(o).dataType(), shape);
          own[o].buffer().put(outputBytes[o].slice(firstRow * rowBytes, rows * rowBytes));
        }
        firstRow += rows;
      }
      return answers;
    } catch (RuntimeException | Error e) {
      for (BatchedResult answer : answers) {
        if (answer != null) {
          answer.close();
        }
      }
      throw e;
    }
  }

  /**
   * A run's outputs handed to its one caller as they are (no copy): the result's tensors become
   * the caller's, so the result must not be closed after this returns.
   *
   * @throws IllegalStateException if an output does not have {@code rows} rows (a model whose
   *     output is not batch-major after all); the result is closed
   */
  BatchedResult handOver(RunResult result, int rows) {
    Tensor[] own = new Tensor[outputs.size()];
    for (int o = 0; o < own.length; o++) {
      own[o] = result.get(o);
      checkBatchMajor(o, own[o].shape(), rows);
    }
    return new BatchedResult(outputKeys, own);
  }

  private void checkBatchMajor(int output, long[] shape, int rows) {
    if (shape.length == 0 || shape[0] != rows) {
      throw new IllegalStateException("output '" + outputKeys.get(output) + "' has shape "
          + Arrays.toString(shape) + " for a batch of " + rows + " rows: it is not"
          + " batch-major, so it cannot be split between callers");
    }
  }

  private static long[] prepend(long first, long[] rest) {
    long[] shape = new long[rest.length + 1];
    shape[0] = first;
    System.arraycopy(rest, 0, shape, 1, rest.length);
    return shape;
  }

  static void closeAll(Tensor[] tensors) {
    for (Tensor tensor : tensors) {
      if (tensor != null) {
        tensor.close();
      }
    }
  }
}
