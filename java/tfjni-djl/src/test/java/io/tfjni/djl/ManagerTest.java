package io.tfjni.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.ndarray.NDManager;
import io.tfjni.TensorFlow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A test with a fresh {@link NDManager} per test method; closing it must free every tensor handle
 * and tensor the test made, temporaries of composite operations included.
 */
abstract class ManagerTest {
  protected NDManager manager;
  private long handlesBefore;
  private long tensorsBefore;

  @BeforeEach
  void openManager() {
    handlesBefore = TensorFlow.liveObjects().tensorHandles();
    tensorsBefore = TensorFlow.liveObjects().tensors();
    manager = NDManager.newBaseManager();
  }

  @AfterEach
  void closeManager() {
    manager.close();
    assertEquals(handlesBefore, TensorFlow.liveObjects().tensorHandles(), "handles left");
    // Arrays made from Java data hold tensors (see TfjniNDArray).
    assertEquals(tensorsBefore, TensorFlow.liveObjects().tensors(), "tensors left");
  }
}
