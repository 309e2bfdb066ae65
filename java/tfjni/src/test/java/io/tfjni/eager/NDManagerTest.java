package io.tfjni.eager;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tfjni.DataType;
import io.tfjni.LiveObjects;
import io.tfjni.Predictor;
import io.tfjni.RunResult;
import io.tfjni.SavedModel;
import io.tfjni.SessionOptions;
import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import io.tfjni.TensorFlowException;
import io.tfjni.TestModels;
import io.tfjni.internal.NativeResource;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;

/**
 * NDManager scopes, the generic OpBuilder with every attribute kind, TensorFlow's errors through
 * it, and interop between eager arrays and SavedModel predictors.
 */
@ExtendWith(TestModels.NoLeaks.class)
class NDManagerTest {

  // ---------------------------------------------------------------------------------------------
  // Scopes.

  @Test
  void closingAManagerClosesItsArraysAndSubManagersAndFreesEverything() {
    LiveObjects before = TensorFlow.liveObjects();
    NDManager root = NDManager.newBaseManager();
    NDArray a = root.create(new float[] {1, 2, 3}, 3);
    NDArray b = a.mul(2);
    NDManager child = root.newSubManager();
    NDArray c = child.scalar(5);
    NDManager grandchild = child.newSubManager();
    NDArray d = grandchild.ones(DataType.INT64, 2, 2);
    assertSame(root, child.parent());
    assertSame(child, grandchild.parent());
    assertSame(root, b.getManager(), "results belong to the receiver's manager");
    assertEquals(before.tensorHandles() + 4, TensorFlow.liveObjects().tensorHandles());

    root.close();
    for (NDArray array : new NDArray[] {a, b, c, d}) {
      assertTrue(array.isClosed(), array + " is not closed");
    }
    assertTrue(child.isClosed());
    assertTrue(grandchild.isClosed());
    assertEquals(before, TensorFlow.liveObjects());
    root.close(); // idempotent
    a.close();
    assertEquals(before, TensorFlow.liveObjects());
  }

  @Test
  void aSubManagerClosesOnItsOwnAndItsParentGoesOn() {
    try (NDManager root = NDManager.newBaseManager()) {
      NDArray kept = root.create(new int[] {1, 2}, 2);
      long handles = TensorFlow.liveObjects().tensorHandles();
      try (NDManager step = root.newSubManager()) {
        NDArray inStep = step.scalar(3);
        NDArray sum = inStep.add(kept); // the result is the receiver's: the sub-manager's
        assertSame(step, sum.getManager());
        assertArrayEquals(new int[] {4, 5}, sum.toIntArray());
      }
      assertEquals(handles, TensorFlow.liveObjects().tensorHandles());
      assertFalse(kept.isClosed());
      assertArrayEquals(new int[] {2, 4}, kept.mul(2).toIntArray());
      NDManager again = root.newSubManager(); // still possible after a child closed
      again.close();
    }
  }

  @Test
  void closingAnArrayEarlyDetachesItFromItsManager() {
    LiveObjects before = TensorFlow.liveObjects();
    try (NDManager m = NDManager.newBaseManager()) {
      for (int i = 0; i < 100; i++) {
        try (NDArray x = m.arange(10); NDArray y = x.mul(x)) {
          assertEquals(285, y.sum().toIntArray()[0]); // sum() stays in m until m closes
        }
      }
    }
    assertEquals(before, TensorFlow.liveObjects());
  }

  @Test
  void useAfterCloseThrowsIllegalStateException() {
    NDManager m = NDManager.newBaseManager();
    NDArray a = m.create(new float[] {1, 2}, 2);
    NDArray closedArray = m.create(new float[] {3, 4}, 2);
    closedArray.close();
    closedArray.close(); // twice is fine
    assertThrows(IllegalStateException.class, closedArray::shape);
    assertThrows(IllegalStateException.class, closedArray::toFloatArray);
    assertThrows(IllegalStateException.class, closedArray::toTensor);
    assertThrows(IllegalStateException.class, closedArray::exp);
    assertThrows(IllegalStateException.class, () -> a.add(closedArray), "as an input");
    assertThrows(IllegalStateException.class,
        () -> m.opBuilder("Neg").addInput(closedArray).build());
    assertEquals("NDArray(closed)", closedArray.toString());

    m.close();
    m.close(); // twice is fine
    assertTrue(a.isClosed());
    assertThrows(IllegalStateException.class, a::exp);
    assertThrows(IllegalStateException.class, () -> m.scalar(1f));
    assertThrows(IllegalStateException.class, () -> m.zeros(DataType.FLOAT, 2));
    assertThrows(IllegalStateException.class, () -> m.opBuilder("NoOp"));
    assertThrows(IllegalStateException.class, m::newSubManager);
    try (NDManager other = NDManager.newBaseManager(); Tensor t = Tensor.scalar(1f)) {
      assertThrows(IllegalStateException.class, () -> m.from(t));
      NDArray x = other.from(t);
      assertThrows(IllegalStateException.class, () -> x.add(a), "a closed manager's array");
    }
  }

  @Test
  void aContextClosedBeforeItsManagersLivesUntilTheLastOneCloses() {
    // TensorFlow's tensor handles point at their context without keeping it alive: freeing the
    // context while arrays are open would leave them reading freed memory.
    long contextsBefore = TensorFlow.liveObjects().eagerContexts();
    EagerContext context = EagerContext.create(SessionOptions.defaults(), false,
        EagerContext.DevicePlacement.SILENT);
    NDManager first = NDManager.newBaseManager(context);
    NDManager second = NDManager.newBaseManager(context);
    NDManager sub = first.newSubManager();
    NDArray x = first.create(new float[] {1, 2}, 2);
    NDArray doubled = x.add(x);
    NDArray y = sub.create(new float[] {5}, 1);
    context.close();
    assertTrue(context.isClosed());
    assertEquals(contextsBefore + 1, TensorFlow.liveObjects().eagerContexts(),
        "the native context stays while managers on it are open");
    // Closed for new work...
    assertThrows(IllegalStateException.class, () -> x.add(x), "EagerContext is closed");
    assertThrows(IllegalStateException.class, () -> NDManager.newBaseManager(context));
    assertThrows(IllegalStateException.class, first::newSubManager);
    assertThrows(IllegalStateException.class, context::devices);
    // ...but what exists stays readable.
    assertArrayEquals(new float[] {2, 4}, doubled.toFloatArray());
    assertArrayEquals(new float[] {5}, y.toFloatArray());
    first.close();
    assertEquals(contextsBefore + 1, TensorFlow.liveObjects().eagerContexts());
    second.close();
    assertEquals(contextsBefore, TensorFlow.liveObjects().eagerContexts(),
        "the last manager frees the context");
    context.close();  // still idempotent
    assertEquals(contextsBefore, TensorFlow.liveObjects().eagerContexts());
  }

  @Test
  void aManagerClosingWhileAnotherThreadFreesOneOfItsArraysWaitsForIt() throws Exception {
    long contextsBefore = TensorFlow.liveObjects().eagerContexts();
    EagerContext context = EagerContext.create(SessionOptions.defaults(), false,
        EagerContext.DevicePlacement.SILENT);
    NDManager manager = NDManager.newBaseManager(context);
    NDArray x = manager.create(new float[] {1, 2}, 2).add(1f);
    context.close();
    NativeResource.acquire(x);  // a call in flight on x: closing x waits for it
    Thread closesArray = new Thread(x::close);
    Thread closesManager = new Thread(manager::close);
    try {
      closesArray.start();
      while (!x.isClosed()) {
        Thread.onSpinWait();
      }
      closesManager.start();
      // The closer either ends (the bug: it did not wait for x) or waits in NDManager.close
      // itself; its state and stack say which, without a clock.
      Thread.State state;
      do {
        Thread.onSpinWait();
        state = closesManager.getState();
      } while (state != Thread.State.TERMINATED
          && !(state == Thread.State.WAITING && waitsIn(closesManager, "close")));
      // x is closed but not yet freed: the manager must not release the context under it.
      assertEquals(Thread.State.WAITING, state,
          "the manager's close returned before x was freed");
      assertEquals(contextsBefore + 1, TensorFlow.liveObjects().eagerContexts());
    } finally {
      NativeResource.release(x);
    }
    closesArray.join(10_000);
    closesManager.join(10_000);
    assertFalse(closesManager.isAlive());
    assertEquals(contextsBefore, TensorFlow.liveObjects().eagerContexts());
  }

  /** True if the innermost io.tfjni frame of {@code thread}'s stack is NDManager.{@code method}. */
  private static boolean waitsIn(Thread thread, String method) {
    for (StackTraceElement frame : thread.getStackTrace()) {
      if (frame.getClassName().startsWith("io.tfjni.")) {
        return frame.getClassName().equals(NDManager.class.getName())
            && frame.getMethodName().equals(method);
      }
    }
    return false;
  }

  @Test
  void managersClosedFirstFreeTheContextWhenItCloses() {
    long contextsBefore = TensorFlow.liveObjects().eagerContexts();
    EagerContext context = EagerContext.create(SessionOptions.defaults(), false,
        EagerContext.DevicePlacement.SILENT);
    try (NDManager m = NDManager.newBaseManager(context)) {
      assertArrayEquals(new float[] {3}, m.create(new float[] {1}, 1).add(2f).toFloatArray());
    }
    assertEquals(contextsBefore + 1, TensorFlow.liveObjects().eagerContexts());
    context.close();
    assertEquals(contextsBefore, TensorFlow.liveObjects().eagerContexts());
  }

  @Test
  void arraysOfTwoContextsMeetInOneOp() {
    try (EagerContext c1 = EagerContext.create(SessionOptions.defaults(), false,
            EagerContext.DevicePlacement.SILENT);
        EagerContext c2 = EagerContext.create(SessionOptions.defaults(), false,
            EagerContext.DevicePlacement.SILENT);
        NDManager m1 = NDManager.newBaseManager(c1);
        NDManager m2 = NDManager.newBaseManager(c2)) {
      NDArray x = m1.create(new float[] {1, 2}, 2);
      NDArray y = m2.create(new float[] {10, 20}, 2);
      // The op runs on the receiver's context; the result belongs to the receiver's manager.
      NDArray sum = x.add(y);
      assertSame(m1, sum.getManager());
      assertArrayEquals(new float[] {11, 22}, sum.toFloatArray());
      assertArrayEquals(new float[] {11, 22}, y.add(x).toFloatArray());
    }
  }

  @Test
  void aBuilderWhoseManagerClosedDoesNotRun() {
    LiveObjects before = TensorFlow.liveObjects();
    NDManager m = NDManager.newBaseManager();
    try (NDManager other = NDManager.newBaseManager()) {
      NDArray x = other.create(new float[] {1, 2, 3, 4}, 4);
      OpBuilder split = m.opBuilder("Split").addInput(other.scalar(0)).addInput(x)
          .setAttr("num_split", 2L);
      m.close();
      assertThrows(IllegalStateException.class, split::buildAll);
    }
    assertEquals(before, TensorFlow.liveObjects());
  }

  @Test
  void refillingATensorAfterFromNeverChangesTheArrayOrItsResults() {
    try (NDManager m = NDManager.newBaseManager();
        Tensor t = Tensor.of(new float[] {1, 2, 3, 4}, 4)) {
      NDArray a = m.from(t);
      NDArray view = a.reshape(2, 2); // TensorFlow forwards the buffer: no copy of its own
      try (Tensor out = view.toTensor()) {
        t.buffer().putFloat(0, 99f);
        assertArrayEquals(new float[] {1, 2, 3, 4}, a.toFloatArray());
        assertArrayEquals(new float[] {1, 2, 3, 4}, view.toFloatArray());
        assertArrayEquals(new float[] {1, 2, 3, 4}, out.toFloatArray());
      }
      assertArrayEquals(new float[] {99, 2, 3, 4}, m.from(t).toFloatArray());
    }
  }

  @Test
  void shareUsesAWritableTensorsMemoryWithoutACopyAndOutlivesTheTensor() {
    LiveObjects before = TensorFlow.liveObjects();
    try (NDManager m = NDManager.newBaseManager()) {
      Tensor t = Tensor.of(new float[] {1, 2, 3, 4}, 4);
      NDArray a = m.share(t);
      // No copy: a write the caller promised not to make shows through the array.
      t.buffer().putFloat(0, 7f);
      assertArrayEquals(new float[] {7, 2, 3, 4}, a.toFloatArray());
      t.close();
      assertEquals(before.tensors(), TensorFlow.liveObjects().tensors(), "the tensor is freed");
      // The array keeps the memory alive after the tensor is closed.
      assertArrayEquals(new float[] {14, 4, 6, 8}, a.mul(2f).toFloatArray());
      assertThrows(IllegalStateException.class, () -> m.share(t), "a closed tensor");
      assertThrows(NullPointerException.class, () -> m.share(null));
    }
    assertEquals(before, TensorFlow.liveObjects());
    try (Tensor t = Tensor.scalar(1f)) {
      NDManager closed = NDManager.newBaseManager();
      closed.close();
      assertThrows(IllegalStateException.class, () -> closed.share(t), "a closed manager");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The generic builder: every attribute kind, on real ops.

  @Test
  void typeIntFloatBoolAndStringAttributes() {
    try (NDManager m = NDManager.newBaseManager()) {
      NDArray x = m.create(new float[] {-2.5f, 1.75f, 3f}, 3);
      // type: Cast's DstT.
      NDArray cast = m.opBuilder("Cast").addInput(x).setAttr("DstT", DataType.INT32).build();
      assertArrayEquals(new int[] {-2, 1, 3}, cast.toIntArray());
      // int: Pack's axis (N and T are inferred from the list input).
      NDArray packed = m.opBuilder("Pack").addInputList(x, x).setAttr("axis", 1L).build();
      assertArrayEquals(new long[] {3, 2}, packed.shape());
      // float: LeakyRelu's alpha.
      NDArray leaky = m.opBuilder("LeakyRelu").addInput(x).setAttr("alpha", 0.5f).build();
      assertArrayEquals(new float[] {-1.25f, 1.75f, 3f}, leaky.toFloatArray());
      // bool: MatMul's transpose_b.
      NDArray row = x.reshape(1, 3);
      NDArray dot = m.opBuilder("MatMul").addInput(row).addInput(row)
          .setAttr("transpose_b", true).build();
      assertArrayEquals(new float[] {2.5f * 2.5f + 1.75f * 1.75f + 9f}, dot.toFloatArray());
      // string: StringJoin's separator.
      NDArray joined = m.opBuilder("StringJoin")
          .addInputList(m.create(new String[] {"a", "b"}, 2), m.scalar("z"))
          .setAttr("separator", "--").build();
      assertArrayEquals(new String[] {"a--z", "b--z"}, joined.toStringArray());
    }
  }

  @Test
  void shapeAttributes() {
    try (NDManager m = NDManager.newBaseManager()) {
      NDArray x = m.zeros(DataType.FLOAT, 2, 3);
      // EnsureShape: a partial shape passes, a different one is TensorFlow's error.
      NDArray same = m.opBuilder("EnsureShape").addInput(x).setAttrShape("shape", new long[] {-1, 3})
          .build();
      assertArrayEquals(new long[] {2, 3}, same.shape());
      m.opBuilder("EnsureShape").addInput(x).setAttrShape("shape", null).build(); // unknown rank
      TensorFlowException e = assertThrows(TensorFlowException.class,
          () -> m.opBuilder("EnsureShape").addInput(x).setAttrShape("shape", new long[] {3})
              .build());
      assertEquals(TensorFlowException.Code.INVALID_ARGUMENT, e.code());
      assertTrue(e.getMessage().contains("Shape of tensor"), e.getMessage());
    }
  }

  @Test
  void tensorAttribute() {
    try (NDManager m = NDManager.newBaseManager();
        Tensor value = Tensor.of(new long[] {7, -8, 9}, 3)) {
      NDArray constant = m.opBuilder("Const").setAttr("value", value)
          .setAttr("dtype", DataType.INT64).build();
      assertArrayEquals(new long[] {7, -8, 9}, constant.toLongArray());
      assertFalse(value.isClosed(), "the tensor stays the caller's");
    }
  }

  @Test
  void listAttributesOfIntFloatAndString() {
    try (NDManager m = NDManager.newBaseManager()) {
      // list(int): Squeeze's squeeze_dims.
      NDArray x = m.zeros(DataType.FLOAT, 1, 2, 1);
      NDArray squeezed = m.opBuilder("Squeeze").addInput(x).setAttr("squeeze_dims", new long[] {0})
          .build();
      assertArrayEquals(new long[] {2, 1}, squeezed.shape());
      // list(float): Bucketize's boundaries.
      NDArray values = m.create(new float[] {-1, 0, 5, 10, 100}, 5);
      NDArray buckets = m.opBuilder("Bucketize").addInput(values)
          .setAttr("boundaries", new float[] {0, 10, 50}).build();
      assertArrayEquals(new int[] {0, 1, 1, 2, 3}, buckets.toIntArray());
      // list(string): RaggedTensorToTensor's row_partition_types, turning split()'s ragged
      // result into a padded dense one.
      NDArray[] ragged = m.create(new String[] {"a b c", "", "d e"}, 3).split(" ");
      NDArray dense = m.opBuilder("RaggedTensorToTensor").addInput(m.scalar(-1L))
          .addInput(ragged[0]).addInput(m.scalar("-"))
          .addInputList(ragged[1]).setAttr("row_partition_types", new String[] {"ROW_SPLITS"})
          .build();
      assertArrayEquals(new long[] {3, 3}, dense.shape());
      // Like Python's str.split, an explicit separator makes "" one empty piece.
      assertArrayEquals(new String[] {"a", "b", "c", "", "-", "-", "d", "e", "-"},
          dense.toStringArray());
    }
  }

  @Test
  void listAttributesOfTypeAndShape() {
    try (NDManager m = NDManager.newBaseManager()) {
      NDArray a = m.create(new float[] {1.5f, 2.5f}, 2);
      NDArray b = m.scalar("text");
      // list(shape): TensorDataset's output_shapes; list(type) + list(shape):
      // DatasetToSingleElement's output_types and output_shapes (not inferred from inputs).
      NDArray dataset = m.opBuilder("TensorDataset").addInputList(a, b)
          .setAttrShapeList("output_shapes", new long[][] {{2}, {}}).build();
      assertEquals(DataType.VARIANT, dataset.dataType());
      NDArray[] components = m.opBuilder("DatasetToSingleElement").addInput(dataset)
          .setAttr("output_types", new DataType[] {DataType.FLOAT, DataType.STRING})
          .setAttrShapeList("output_shapes", new long[][] {{-1}, {}}).buildAll();
      assertEquals(2, components.length);
      assertArrayEquals(new float[] {1.5f, 2.5f}, components[0].toFloatArray());
      assertArrayEquals(new String[] {"text"}, components[1].toStringArray());
      // A type list that does not match the dataset is TensorFlow's error.
      TensorFlowException e = assertThrows(TensorFlowException.class,
          () -> m.opBuilder("DatasetToSingleElement").addInput(dataset)
              .setAttr("output_types", new DataType[] {DataType.INT32, DataType.STRING})
              .setAttrShapeList("output_shapes", new long[][] {{-1}, {}}).buildAll());
      assertEquals(TensorFlowException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
      // Set on IdentityN, where TensorFlow also infers it from the inputs (which then win).
      NDArray[] same = m.opBuilder("IdentityN").addInputList(a, b)
          .setAttr("T", new DataType[] {DataType.FLOAT, DataType.STRING}).buildAll();
      assertArrayEquals(new String[] {"text"}, same[1].toStringArray());
    }
  }

  @Test
  void boolListAttributeReachesTensorFlow() {
    // No kernel of the CPU build takes a list(bool); TensorFlow's type check on another op's
    // attribute shows that the encoded list arrives as a list(bool).
    try (NDManager m = NDManager.newBaseManager()) {
      NDArray x = m.eye(2);
      TensorFlowException e = assertThrows(TensorFlowException.class,
          () -> m.opBuilder("MatMul").addInput(x).addInput(x)
              .setAttr("transpose_a", new boolean[] {true, false}).build());
      assertEquals(TensorFlowException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
      assertTrue(e.getMessage().contains("list(bool)"), e.getMessage());
    }
  }

  @Test
  void multipleOutputsAndListInputs() {
    try (NDManager m = NDManager.newBaseManager()) {
      NDArray x = m.arange(6);
      NDArray[] parts = m.opBuilder("Split").addInput(m.scalar(0)).addInput(x)
          .setAttr("num_split", 3L).buildAll();
      assertEquals(3, parts.length);
      assertArrayEquals(new int[] {4, 5}, parts[2].toIntArray());
      NDArray joined = m.opBuilder("ConcatV2").addInputList(parts[2], parts[0])
          .addInput(m.scalar(0)).build();
      assertArrayEquals(new int[] {4, 5, 0, 1}, joined.toIntArray());
      NDArray padded = m.opBuilder("Pad").addInput(parts[0])
          .addInput(m.create(new int[] {1, 2}, 1, 2)).build();
      assertArrayEquals(new int[] {0, 0, 1, 0, 0}, padded.toIntArray());
      NDArray transposed = m.opBuilder("Transpose").addInput(x.reshape(2, 3))
          .addInput(m.create(new int[] {1, 0}, 2)).build();
      assertArrayEquals(new int[] {0, 3, 1, 4, 2, 5}, transposed.toIntArray());
      NDArray filled = m.opBuilder("Fill").addInput(m.create(new long[] {2, 2}, 2))
          .addInput(m.scalar(true)).build();
      assertArrayEquals(new boolean[] {true, true, true, true}, filled.toBooleanArray());

      long handles = TensorFlow.liveObjects().tensorHandles();
      OpBuilder split = m.opBuilder("Split").addInput(m.scalar(0)).addInput(x)
          .setAttr("num_split", 2L);
      IllegalStateException e = assertThrows(IllegalStateException.class, split::build);
      assertTrue(e.getMessage().contains("buildAll"), e.getMessage());
      assertEquals(handles + 1, TensorFlow.liveObjects().tensorHandles(),
          "build() of a two-output op must close both outputs (only the axis scalar stays)");
      assertThrows(IllegalStateException.class, split::buildAll, "a builder runs once");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // TensorFlow's errors through the builder: a TensorFlowException with its code and message;
  // nothing crashes, nothing leaks (NoLeaks checks after each test).

  @Test
  void unknownOpName() {
    try (NDManager m = NDManager.newBaseManager()) {
      NDArray x = m.scalar(1f);
      assertTensorFlowError(TensorFlowException.Code.NOT_FOUND, "NoSuchOp",
          () -> m.opBuilder("NoSuchOp").addInput(x).build());
    }
  }

  @Test
  void wrongAttributeType() {
    try (NDManager m = NDManager.newBaseManager()) {
      NDArray x = m.eye(2);
      assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT, "transpose_a",
          () -> m.opBuilder("MatMul").addInput(x).addInput(x).setAttr("transpose_a", 1L).build());
      assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT, "DstT",
          () -> m.opBuilder("Cast").addInput(x).setAttr("DstT", "float").build());
    }
  }

  @Test
  void wrongInputDtype() {
    try (NDManager m = NDManager.newBaseManager()) {
      NDArray floats = m.create(new float[] {1, 2}, 2);
      NDArray ints = m.create(new int[] {1, 2}, 2);
      assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT, "int32",
          () -> floats.add(ints));
      assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT, "LogicalNot",
          floats::logicalNot);
    }
  }

  @Test
  void missingRequiredAttribute() {
    try (NDManager m = NDManager.newBaseManager()) {
      NDArray x = m.create(new float[] {1, 2}, 2);
      NDArray axis = m.scalar(0);
      // TensorFlow's code for an attribute missing from the NodeDef is NOT_FOUND.
      assertTensorFlowError(TensorFlowException.Code.NOT_FOUND, "No attr named 'DstT'",
          () -> m.opBuilder("Cast").addInput(x).build());
      assertTensorFlowError(TensorFlowException.Code.NOT_FOUND, "No attr named 'num_split'",
          () -> m.opBuilder("Split").addInput(axis).addInput(x).buildAll());
    }
  }

  @Test
  void tooFewInputs() {
    try (NDManager m = NDManager.newBaseManager()) {
      NDArray x = m.create(new float[] {1, 2}, 2);
      // TensorFlow words this differently once AddV2's kernel is cached ("expected 2 inputs, got
      // 1") than before ("... do not match 1 inputs specified"): accept either.
      TensorFlowException e = assertThrows(TensorFlowException.class,
          () -> m.opBuilder("AddV2").addInput(x).build());
      assertEquals(TensorFlowException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
      assertTrue(e.tensorFlowMessage().contains("do not match 1 inputs specified")
          || e.tensorFlowMessage().contains("expected 2 inputs, got 1"), e.getMessage());
      // No inputs: nothing to infer T from, so no kernel matches.
      assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT, "'T' not in NodeDef",
          () -> m.opBuilder("MatMul").build());
    }
  }

  @Test
  void badValuesAreTensorFlowErrors() {
    try (NDManager m = NDManager.newBaseManager()) {
      NDArray x = m.create(new float[] {1, 2, 3, 4, 5, 6}, 2, 3);
      NDArray range = m.arange(3);
      NDArray text = m.create(new String[] {"12", "x"}, 2);
      assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT, "reshape",
          () -> x.reshape(4, 2));
      assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT, "Matrix size-incompatible",
          () -> x.matMul(x));
      assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT, "Integer division by zero",
          () -> range.div(0));
      assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT, null,
          () -> x.sum(new int[] {2}, false));
      assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT, "StringToNumber",
          () -> text.toNumber(DataType.INT32));
      assertTensorFlowError(TensorFlowException.Code.INVALID_ARGUMENT, null,
          () -> m.decodePng(new byte[] {1, 2, 3}, 3));
      assertThrows(IllegalArgumentException.class, () -> x.softmax(2));
      assertThrows(IllegalArgumentException.class, () -> x.resize(2, 2, ResizeMethod.BILINEAR));
      assertThrows(IllegalArgumentException.class, () -> x.logicalXor(x));
      assertThrows(IllegalArgumentException.class, () -> x.convertImageDtype(DataType.STRING));
      assertThrows(IllegalArgumentException.class,
          () -> m.randomUniform(new long[] {1}, 0, 1, DataType.FLOAT, 2));
    }
  }

  @Test
  void moreOutputsThanTheNativeSideHasRoomForIsAnError() {
    try (NDManager m = NDManager.newBaseManager()) {
      NDArray x = m.arange(2000);
      assertEquals(1000, x.split(1000, 0).length);
      TensorFlowException e = assertThrows(TensorFlowException.class, () -> x.split(2000, 0));
      assertEquals(TensorFlowException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
    }
  }

  @Test
  void opsRunOnOneManagerFromSeveralThreads() throws Exception {
    try (NDManager m = NDManager.newBaseManager()) {
      NDArray x = m.arange(1f, 101f, 1f);
      Thread[] threads = new Thread[4];
      Throwable[] failures = new Throwable[threads.length];
      for (int t = 0; t < threads.length; t++) {
        int id = t;
        threads[t] = new Thread(() -> {
          try {
            for (int i = 0; i < 200; i++) {
              try (NDManager step = m.newSubManager()) {
                // The receiver is the step's scalar: results go to the step, closed each time.
                float sum = step.scalar((float) id).mul(x).sum().toFloatArray()[0];
                assertEquals(5050f * id, sum);
              }
            }
          } catch (Throwable e) {
            failures[id] = e;
          }
        });
        threads[t].start();
      }
      for (Thread thread : threads) {
        thread.join();
      }
      for (Throwable failure : failures) {
        if (failure != null) {
          throw new AssertionError(failure);
        }
      }
    }
  }

  private static void assertTensorFlowError(TensorFlowException.Code code, String fragment,
      Executable call) {
    LiveObjects before = TensorFlow.liveObjects();
    TensorFlowException e = assertThrows(TensorFlowException.class, call);
    assertEquals(code, e.code(), e.getMessage());
    if (fragment != null) {
      assertTrue(e.tensorFlowMessage().contains(fragment),
          "expected '" + fragment + "' in: " + e.tensorFlowMessage());
    }
    assertEquals(before.tensorHandles(), TensorFlow.liveObjects().tensorHandles(),
        "a failed op left arrays behind: " + e.getMessage());
  }

  // ---------------------------------------------------------------------------------------------
  // Interop with SavedModel predictors, checked against the models manifest (multi's `scale`
  // signature: scaled = 2x, total = sum(x)).

  @Test
  void anEagerResultFeedsAPredictorAndItsOutputsFeedEagerOps() {
    JsonNode call = TestModels.testCase("multi_scale").path("calls").get(0);
    JsonNode xJson = call.path("inputs").path("x");
    try (SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
        Predictor scale = model.predictor("scale", List.of("x"),
            List.of("scaled", "total"));
        NDManager m = NDManager.newBaseManager();
        Tensor xTensor = TestModels.tensor(xJson)) {
      // Eager -> predictor: x rebuilt eagerly (flattened and reshaped), fed through toTensor().
      NDArray x = m.from(xTensor).flatten().reshape(TestModels.shape(xJson));
      try (Tensor fed = x.toTensor(); RunResult result = scale.run(fed)) {
        TestModels.assertTensor(call.path("outputs").path("scaled"), result.get(0), false,
            "scaled");
        TestModels.assertTensor(call.path("outputs").path("total"), result.get(1), false,
            "total");
      }

      // Predictor -> eager: outputs wrapped with from(tensor) outlive the RunResult.
      NDArray scaled;
      NDArray total;
      try (RunResult result = scale.run(xTensor)) {
        scaled = m.from(result.get("scaled"));
        total = m.from(result.get("total"));
      }
      try (Tensor halved = scaled.div(2).toTensor()) {
        TestModels.assertTensor(xJson, halved, true, "scaled / 2");
      }
      try (Tensor sum = x.sum().toTensor()) {
        TestModels.assertTensor(call.path("outputs").path("total"), sum, false, "eager sum");
      }
      try (Tensor t = total.toTensor()) {
        TestModels.assertTensor(call.path("outputs").path("total"), t, false, "total");
      }
    }
  }

  @Test
  void anArrayOverAReusedResultKeepsItsValueWhenTheResultIsRefilled() {
    try (SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
        Predictor add = model.predictor("add", List.of("a", "b"), List.of("sum"));
        RunResult result = add.newResult();
        NDManager m = NDManager.newBaseManager();
        Tensor a = Tensor.of(new float[] {1, 2}, 2);
        Tensor b = Tensor.of(new float[] {10, 20}, 2)) {
      add.run(new Tensor[] {a, b}, result);
      NDArray first = m.from(result.get(0));
      add.run(new Tensor[] {b, b}, result);
      assertArrayEquals(new float[] {20, 40}, result.get(0).toFloatArray());
      assertArrayEquals(new float[] {11, 22}, first.toFloatArray());
    }
  }
}
