package io.tfjni.eager;

import io.tfjni.DataType;
import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import io.tfjni.TensorFlowException;
import io.tfjni.internal.NativeResource;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Builds and runs any TensorFlow op eagerly, e.g.
 * {@code manager.opBuilder("MatMul").addInput(a).addInput(b).setAttr("transpose_b", true).build()}.
 * Attributes are encoded compactly and the op crosses JNI once, when built. Inputs must be of the
 * builder's context; outputs belong to the builder's manager. A builder runs one op: build it once.
 */
public final class OpBuilder {
  // Attribute kinds, as native/include/tfjni/eager_attrs.h reads them. javac -h copies these
  // constants into io_tfjni_OpBuilder.h, where the JNI layer checks them against the C++ enum.
  private static final int TYPE = 1;
  private static final int INT = 2;
  private static final int FLOAT = 3;
  private static final int BOOL = 4;
  private static final int STRING = 5;
  private static final int SHAPE = 6;
  private static final int TENSOR = 7;
  private static final int TYPE_LIST = 8;
  private static final int INT_LIST = 9;
  private static final int FLOAT_LIST = 10;
  private static final int BOOL_LIST = 11;
  private static final int STRING_LIST = 12;
  private static final int SHAPE_LIST = 13;
  /** The highest kind: keep it equal to the last one above. */
  private static final int LAST_KIND = SHAPE_LIST;

  private final NDManager manager;
  private final String opName;
  // The first two inputs have fields of their own and everything else is made on first use, so
  // that the common op (a few single inputs, no attributes) allocates nothing but the builder,
  // which the JIT can then keep off the heap as well.
  private NDArray input0;
  private NDArray input1;
  /** Every input beyond the first two, in order. */
  private List<NDArray> moreInputs;
  private int inputCount;
  /** One entry per input slot: -1 for a single input, n for a list of n; null while all single. */
  private int[] listLengths;
  private int slots;
  private LittleEndianWriter attrs;
  private int attrCount;
  private List<Tensor> attrTensors;
  private String device;
  private boolean built;

  OpBuilder(NDManager manager, String opName) {
    this.manager = manager;
    this.opName = Objects.requireNonNull(opName, "opName");
  }

  /**
   * Adds a single input, the op's next input argument.
   *
   * @param input an array of the builder's context (not closed: it stays the caller's)
   * @return this builder
   */
  public OpBuilder addInput(NDArray input) {
    Objects.requireNonNull(input, "input");
    addToInputs(input);
    addSlot(-1);
    return this;
  }

  /**
   * Adds a list input: one input argument made of several arrays (e.g. the values of ConcatV2
   * or Pack).
   *
   * @param list arrays of the builder's context (not closed: they stay the caller's)
   * @return this builder
   */
  public OpBuilder addInputList(List<NDArray> list) {
    Objects.requireNonNull(list, "list");
    for (NDArray input : list) {
      Objects.requireNonNull(input, "list element");
    }
    for (NDArray input : list) {
      addToInputs(input);
    }
    addSlot(list.size());
    return this;
  }

  /**
   * Adds a list input; see {@link #addInputList(List)}.
   *
   * @param list arrays of the builder's context (not closed: they stay the caller's)
   * @return this builder
   */
  public OpBuilder addInputList(NDArray... list) {
    return addInputList(Arrays.asList(list));
  }

  /**
   * Runs the op on this device rather than where TensorFlow places it.
   *
   * @param deviceName a device of the context, e.g. {@code "/device:CPU:0"}
   * @return this builder
   */
  public OpBuilder setDevice(String deviceName) {
    device = Objects.requireNonNull(deviceName, "deviceName");
    return this;
  }

  /**
   * Sets a type attribute.
   *
   * @param name the attribute's name in the op's definition
   * @param value its value
   * @return this builder
   */
  public OpBuilder setAttr(String name, DataType value) {
    begin(TYPE, name).putInt(Objects.requireNonNull(value, "value").code());
    return this;
  }

  /**
   * Sets an int attribute.
   *
   * @param name the attribute's name in the op's definition
   * @param value its value
   * @return this builder
   */
  public OpBuilder setAttr(String name, long value) {
    begin(INT, name).putLong(value);
    return this;
  }

  /**
   * Sets a float attribute.
   *
   * @param name the attribute's name in the op's definition
   * @param value its value
   * @return this builder
   */
  public OpBuilder setAttr(String name, float value) {
    begin(FLOAT, name).putFloat(value);
    return this;
  }

  /**
   * Sets a bool attribute.
   *
   * @param name the attribute's name in the op's definition
   * @param value its value
   * @return this builder
   */
  public OpBuilder setAttr(String name, boolean value) {
    begin(BOOL, name).putByte(value ? 1 : 0);
    return this;
  }

  /**
   * Sets a string attribute.
   *
   * @param name the attribute's name in the op's definition
   * @param value its value
   * @return this builder
   */
  public OpBuilder setAttr(String name, String value) {
    begin(STRING, name).putString(Objects.requireNonNull(value, "value"));
    return this;
  }

  /**
   * Sets a tensor-valued attribute (e.g. Const's {@code value}).
   *
   * @param name the attribute's name in the op's definition
   * @param value its value (not closed: it stays the caller's; keep it open until the op is built)
   * @return this builder
   */
  public OpBuilder setAttr(String name, Tensor value) {
    Objects.requireNonNull(value, "value");
    if (attrTensors == null) {
      attrTensors = new ArrayList<>();
    }
    begin(TENSOR, name).putInt(attrTensors.size());
    attrTensors.add(value);
    return this;
  }

  /**
   * Sets a list of types attribute.
   *
   * @param name the attribute's name in the op's definition
   * @param values its values, in order
   * @return this builder
   */
  public OpBuilder setAttr(String name, DataType[] values) {
    begin(TYPE_LIST, name).putInt(values.length);
    for (DataType t : values) {
      attrs.putInt(Objects.requireNonNull(t, "type").code());
    }
    return this;
  }

  /**
   * Sets a list of ints attribute.
   *
   * @param name the attribute's name in the op's definition
   * @param values its values, in order
   * @return this builder
   */
  public OpBuilder setAttr(String name, long[] values) {
    begin(INT_LIST, name).putInt(values.length);
    for (long v : values) {
      attrs.putLong(v);
    }
    return this;
  }

  /**
   * Sets a list of floats attribute.
   *
   * @param name the attribute's name in the op's definition
   * @param values its values, in order
   * @return this builder
   */
  public OpBuilder setAttr(String name, float[] values) {
    begin(FLOAT_LIST, name).putInt(values.length);
    for (float v : values) {
      attrs.putFloat(v);
    }
    return this;
  }

  /**
   * Sets a list of bools attribute.
   *
   * @param name the attribute's name in the op's definition
   * @param values its values, in order
   * @return this builder
   */
  public OpBuilder setAttr(String name, boolean[] values) {
    begin(BOOL_LIST, name).putInt(values.length);
    for (boolean v : values) {
      attrs.putByte(v ? 1 : 0);
    }
    return this;
  }

  /**
   * Sets a list of strings attribute.
   *
   * @param name the attribute's name in the op's definition
   * @param values its values, in order
   * @return this builder
   */
  public OpBuilder setAttr(String name, String[] values) {
    begin(STRING_LIST, name).putInt(values.length);
    for (String v : values) {
      attrs.putString(Objects.requireNonNull(v, "value"));
    }
    return this;
  }

  /**
   * Sets a shape attribute.
   *
   * @param name the attribute's name in the op's definition
   * @param dims the dimensions, -1 for an unknown one; null for an unknown rank
   * @return this builder
   */
  public OpBuilder setAttrShape(String name, long[] dims) {
    begin(SHAPE, name);
    putShape(dims);
    return this;
  }

  /**
   * Sets a list-of-shapes attribute.
   *
   * @param name the attribute's name in the op's definition
   * @param shapes the shapes, each as for {@link #setAttrShape}
   * @return this builder
   */
  public OpBuilder setAttrShapeList(String name, long[][] shapes) {
    begin(SHAPE_LIST, name).putInt(shapes.length);
    for (long[] dims : shapes) {
      putShape(dims);
    }
    return this;
  }

  /**
   * Runs an op with exactly one output.
   *
   * @return the output, owned by the builder's manager (closed with it; closing it earlier
   *     frees it)
   * @throws IllegalStateException if the builder already ran, the op has other than one output,
   *     or the manager or context is closed
   * @throws TensorFlowException TensorFlow's error if the op fails (an unknown op, a bad attribute
   *     or input)
   */
  public NDArray build() {
    if (attrCount == 0 && listLengths == null && inputCount <= 2 && device == null) {
      if (built) {
        throw new IllegalStateException("this OpBuilder already ran " + opName);
      }
      built = true;
      return executePlain(manager, opName, input0, input1, inputCount);
    }
    NDArray[] outputs = buildAll();
    if (outputs.length != 1) {
      for (NDArray output : outputs) {
        output.close();
      }
      throw new IllegalStateException(opName + " has " + outputs.length
          + " outputs; use buildAll()");
    }
    return outputs[0];
  }

  /**
   * {@link #build()} of an op with no attributes, no device and at most two single inputs: one
   * native call with plain arguments, returning the output's handle. Static, so that the builder
   * does not escape even where the JIT keeps this call: it can then live in registers.
   */
  private static NDArray executePlain(NDManager manager, String opName, NDArray input0,
      NDArray input1, int inputCount) {
    EagerContext context = manager.context();
    manager.checkOpen();
    long ctx = NativeResource.acquire(context);
    try {
      int held = 0;
      try {
        long handle0 = 0;
        long handle1 = 0;
        if (inputCount > 0) {
          handle0 = NativeResource.acquire(input0);
          held = 1;
        }
        if (inputCount > 1) {
          handle1 = NativeResource.acquire(input1);
          held = 2;
        }
        long output = nativeExecuteOne(ctx, opName, handle0, handle1, inputCount);
        if (output <= 0) {
          throw new IllegalStateException(opName + " has " + -output + " outputs; use buildAll()");
        }
        // Wrapped while the context is held: an output deleted because the manager closed
        // meanwhile must not outlive its native context.
        return new NDArray(manager, output);
      } finally {
        if (held > 1) {
          NativeResource.release(input1);
        }
        if (held > 0) {
          NativeResource.release(input0);
        }
      }
    } finally {
      NativeResource.release(context);
    }
  }

  /**
   * Runs the op and returns every output (list outputs flattened).
   *
   * @return the outputs, owned by the builder's manager (closed with it; closing one earlier
   *     frees it)
   * @throws IllegalStateException if the builder already ran, or the manager or context is closed
   * @throws TensorFlowException TensorFlow's error if the op fails (an unknown op, a bad attribute
   *     or input)
   */
  public NDArray[] buildAll() {
    if (built) {
      throw new IllegalStateException("this OpBuilder already ran " + opName);
    }
    built = true;
    EagerContext context = manager.context();
    manager.checkOpen();
    List<NDArray> inputs = inputs();
    List<Tensor> tensors = attrTensors != null ? attrTensors : List.of();
    long[] inputHandles = new long[inputs.size()];
    long[] tensorHandles = new long[tensors.size()];
    int inputsHeld = 0;
    int tensorsHeld = 0;
    NDArray[] arrays;
    long ctx = NativeResource.acquire(context);
    try {
      for (; inputsHeld < inputHandles.length; inputsHeld++) {
        inputHandles[inputsHeld] = NativeResource.acquire(inputs.get(inputsHeld));
      }
      for (; tensorsHeld < tensorHandles.length; tensorsHeld++) {
        tensorHandles[tensorsHeld] = NativeResource.acquire(tensors.get(tensorsHeld));
      }
      long[] outputs = nativeExecute(ctx, opName, device, inputHandles, slotLengths(),
          attrs != null ? attrs.toByteArray(attrCount) : new byte[4], tensorHandles);
      // Wrapped while the context is held: outputs deleted because the manager closed meanwhile
      // must not outlive their native context.
      arrays = new NDArray[outputs.length];
      for (int i = 0; i < outputs.length; i++) {
        try {
          arrays[i] = new NDArray(manager, outputs[i]);
        } catch (IllegalStateException closedMeanwhile) {
          for (int j = i + 1; j < outputs.length; j++) {
            NDArray.nativeDelete(outputs[j]);
          }
          throw closedMeanwhile;
        }
      }
    } finally {
      for (int i = 0; i < tensorsHeld; i++) {
        NativeResource.release(tensors.get(i));
      }
      for (int i = 0; i < inputsHeld; i++) {
        NativeResource.release(inputs.get(i));
      }
      NativeResource.release(context);
    }
    return arrays;
  }

  private void addToInputs(NDArray input) {
    if (inputCount == 0) {
      input0 = input;
    } else if (inputCount == 1) {
      input1 = input;
    } else {
      if (moreInputs == null) {
        moreInputs = new ArrayList<>();
      }
      moreInputs.add(input);
    }
    inputCount++;
  }

  /** Every input, in order. */
  private List<NDArray> inputs() {
    List<NDArray> all = new ArrayList<>(inputCount);
    if (inputCount > 0) {
      all.add(input0);
    }
    if (inputCount > 1) {
      all.add(input1);
    }
    if (moreInputs != null) {
      all.addAll(moreInputs);
    }
    return all;
  }

  /** Single-input slots stay implicit until a list input needs the array. */
  private void addSlot(int length) {
    if (listLengths == null) {
      if (length < 0) {
        slots++;
        return;
      }
      listLengths = new int[Math.max(4, slots * 2)];
      Arrays.fill(listLengths, 0, slots, -1);
    }
    if (slots == listLengths.length) {
      listLengths = Arrays.copyOf(listLengths, slots * 2);
    }
    listLengths[slots++] = length;
  }

  /** The length of each input slot, as nativeExecute reads them. */
  private int[] slotLengths() {
    if (listLengths == null) {
      int[] singles = new int[slots];
      Arrays.fill(singles, -1);
      return singles;
    }
    return Arrays.copyOf(listLengths, slots);
  }

  private LittleEndianWriter begin(int kind, String name) {
    Objects.requireNonNull(name, "attribute name");
    if (attrs == null) {
      attrs = new LittleEndianWriter();
    }
    attrCount++;
    return attrs.putByte(kind).putString(name);
  }

  private void putShape(long[] dims) {
    if (dims == null) {
      attrs.putInt(-1);
      return;
    }
    attrs.putInt(dims.length);
    for (long d : dims) {
      attrs.putLong(d);
    }
  }

  /** A growable little-endian byte buffer. */
  private static final class LittleEndianWriter {
    private byte[] bytes = new byte[64];
    private int size;

    LittleEndianWriter putByte(int value) {
      ensure(1);
      bytes[size++] = (byte) value;
      return this;
    }

    LittleEndianWriter putInt(int value) {
      ensure(4);
      for (int i = 0; i < 4; i++) {
        bytes[size++] = (byte) (value >>> (8 * i));
      }
      return this;
    }

    LittleEndianWriter putLong(long value) {
      ensure(8);
      for (int i = 0; i < 8; i++) {
        bytes[size++] = (byte) (value >>> (8 * i));
      }
      return this;
    }

    LittleEndianWriter putFloat(float value) {
      return putInt(Float.floatToRawIntBits(value));
    }

    LittleEndianWriter putString(String value) {
      byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
      putInt(utf8.length);
      ensure(utf8.length);
      System.arraycopy(utf8, 0, bytes, size, utf8.length);
      size += utf8.length;
      return this;
    }

    /** The attribute count followed by the attributes. */
    byte[] toByteArray(int count) {
      byte[] out = new byte[4 + size];
      for (int i = 0; i < 4; i++) {
        out[i] = (byte) (count >>> (8 * i));
      }
      System.arraycopy(bytes, 0, out, 4, size);
      return out;
    }

    private void ensure(int more) {
      if (size + more > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
      }
    }
  }

  private static native long nativeExecuteOne(long context, String opName, long input0,
      long input1, int inputCount);

  private static native long[] nativeExecute(long context, String opName, String device,
      long[] inputs, int[] listLengths, byte[] attrs, long[] attrTensors);
}
