package io.tfjni.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import io.tfjni.LiveObjects;
import io.tfjni.TensorFlow;
import org.junit.jupiter.api.Test;

class EngineTest {

  @Test
  void registeredUnderTensorFlowAndSaysWhichImplementation() {
    Engine engine = Engine.getEngine("TensorFlow");
    assertInstanceOf(TfjniEngine.class, engine);
    assertEquals("TensorFlow", Engine.getDefaultEngineName());
    assertEquals(TensorFlow.version(), engine.getVersion());
    assertTrue(((TfjniEngine) engine).getImplementation().startsWith("tfjni "));
    assertTrue(engine.toString().contains("tfjni"));
  }

  @Test
  void closingAManagerFreesEveryArrayItMade() {
    long before = TensorFlow.liveObjects().tensorHandles();
    NDManager manager = NDManager.newBaseManager();
    NDManager child = manager.newSubManager();
    NDArray a = manager.create(new float[] {1, 2, 3});
    NDArray b = child.arange(3f);
    a.add(b).mul(2).sum();
    child.zeros(new Shape(2, 2), DataType.INT64);
    assertTrue(TensorFlow.liveObjects().tensorHandles() >= before + 6);
    manager.close();
    assertEquals(before, TensorFlow.liveObjects().tensorHandles());
    assertTrue(a.isReleased());
    assertTrue(b.isReleased());
    assertThrows(IllegalStateException.class, a::getShape);
  }

  @Test
  void attachMovesAnArrayToAnotherManager() {
    long before = TensorFlow.liveObjects().tensorHandles();
    try (NDManager keeper = NDManager.newBaseManager()) {
      NDArray kept;
      try (NDManager scratch = NDManager.newBaseManager()) {
        kept = scratch.create(new int[] {4, 5}).mul(3);
        kept.attach(keeper);
      }
      assertArrayEquals(new int[] {12, 15}, kept.toIntArray());
    }
    assertEquals(before, TensorFlow.liveObjects().tensorHandles());
  }

  /** A temporary attach returns the array to its manager when the temporary one closes. */
  @Test
  void tempAttachLendsAnArrayAndGivesItBack() {
    LiveObjects before = TensorFlow.liveObjects();
    try (NDManager owner = NDManager.newBaseManager()) {
      NDArray lent = owner.create(new float[] {1, 2});
      try (NDManager borrower = NDManager.newBaseManager()) {
        lent.tempAttach(borrower);
        assertEquals(borrower, lent.getManager());
        // Made while the owner has a lent-out array: still the owner's.
        NDArray made = owner.create(new float[] {3});
        assertEquals(owner, made.getManager());
      }
      assertEquals(owner, lent.getManager());
      assertArrayEquals(new float[] {1, 2}, lent.toFloatArray());
      NDArray moved = owner.create(new float[] {4});
      try (NDManager other = NDManager.newBaseManager()) {
        moved.attach(other);
      }
      assertTrue(moved.isReleased(), "closed with the manager it moved to");
      assertTrue(!lent.isReleased());
      // Re-attached where it is lent, an array stays lent (DJL's BaseNDManager does the same).
      NDArray relent = owner.create(new float[] {5});
      try (NDManager borrower = NDManager.newBaseManager()) {
        relent.tempAttach(borrower);
        relent.attach(borrower);
      }
      assertEquals(owner, relent.getManager());
      assertArrayEquals(new float[] {5}, relent.toFloatArray());
      // Detached while lent, it is not given back: the caller owns it now.
      NDArray taken = owner.create(new float[] {6});
      try (NDManager borrower = NDManager.newBaseManager()) {
        taken.tempAttach(borrower);
        taken.detach();
      }
      assertTrue(taken.getManager() != owner, "not returned to " + owner);
      taken.close();
    }
    assertEquals(before, TensorFlow.liveObjects());
  }

  /** No array joins a closed or capped manager, and none is leaked trying. */
  @Test
  void closedAndCappedManagersRefuseNewArraysWithoutLeaking() {
    LiveObjects before = TensorFlow.liveObjects();
    NDManager closed = NDManager.newBaseManager();
    closed.close();
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> closed.create(new float[] {1}));
    assertTrue(e.getMessage().contains("closed"), e.getMessage());
    assertEquals(before, TensorFlow.liveObjects(), "after a create on a closed manager");
    try (NDManager capped = NDManager.newBaseManager()) {
      NDArray a = capped.create(new float[] {2});
      capped.cap();
      e = assertThrows(IllegalStateException.class, () -> a.add(1));
      assertTrue(e.getMessage().contains("capped"), e.getMessage());
    }
    assertEquals(before, TensorFlow.liveObjects(), "after an op on a capped manager");
  }

  @Test
  void inPlaceOpsReplaceTheValueWithoutLeaking() {
    try (NDManager manager = NDManager.newBaseManager()) {
      NDArray a = manager.create(new float[] {1, 2, 3});
      NDArray ones = manager.create(new float[] {1, 1, 1});
      LiveObjects before = TensorFlow.liveObjects();  // two tensors (see TfjniNDArray)
      a.addi(1).muli(2).subi(ones);
      // a holds one eager array now, its tensor freed by the first replacement; the operand made
      // its eager array for the op. Nothing else is left.
      assertEquals(before.tensors() - 1, TensorFlow.liveObjects().tensors());
      assertEquals(before.tensorHandles() + 2, TensorFlow.liveObjects().tensorHandles());
      assertArrayEquals(new float[] {3, 5, 7}, a.toFloatArray());
    }
  }
  @Test
  void toPrimitiveArraysCopyTheValuesAndCheckTheType() {
    long before = TensorFlow.liveObjects().tensorHandles();
    try (NDManager manager = NDManager.newBaseManager()) {
      // 2 * [1.5, -2, 3] and [7, 8] + 1, computed by TensorFlow, read back without a byte buffer.
      assertArrayEquals(new float[] {3, -4, 6},
          manager.create(new float[] {1.5f, -2, 3}).mul(2).toFloatArray());
      assertArrayEquals(new double[] {3, -4, 6},
          manager.create(new double[] {1.5, -2, 3}).mul(2).toDoubleArray());
      assertArrayEquals(new int[] {8, 9}, manager.create(new int[] {7, 8}).add(1).toIntArray());
      assertArrayEquals(new long[] {8, 9}, manager.create(new long[] {7, 8}).add(1).toLongArray());
      // Half floats are widened (0.5 and -2 are exact in float16).
      assertArrayEquals(new float[] {0.5f, -2},
          manager.create(new float[] {0.5f, -2}).toType(DataType.FLOAT16, false).toFloatArray());
      NDArray ints = manager.create(new int[] {1});
      IllegalStateException e = assertThrows(IllegalStateException.class, ints::toFloatArray);
      assertTrue(e.getMessage().contains("INT32") || e.getMessage().contains("int32"),
          e.getMessage());
      assertThrows(IllegalStateException.class, ints::toLongArray);
      assertThrows(IllegalStateException.class, manager.create(new float[] {1})::toIntArray);
      assertThrows(IllegalStateException.class, manager.create(new float[] {1})::toDoubleArray);
    }
    assertEquals(before, TensorFlow.liveObjects().tensorHandles());
  }
}
