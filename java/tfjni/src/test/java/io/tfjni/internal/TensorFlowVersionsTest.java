package io.tfjni.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TensorFlowVersionsTest {
  @Test
  void minorVersionsCompareAsNumbers() {
    assertTrue(TensorFlowVersions.atLeast("2.20.0", 2, 20));
    assertTrue(TensorFlowVersions.atLeast("2.21.0", 2, 20));
    assertTrue(TensorFlowVersions.atLeast("3.0.0", 2, 20));
    assertFalse(TensorFlowVersions.atLeast("2.19.1", 2, 20));
    assertFalse(TensorFlowVersions.atLeast("2.9.0", 2, 20));
    assertFalse(TensorFlowVersions.atLeast("1.21.0", 2, 20));
  }

  @Test
  void preReleasesCountAsTheirRelease() {
    assertTrue(TensorFlowVersions.atLeast("2.20.0-rc0", 2, 20));
    assertTrue(TensorFlowVersions.atLeast("2.20-rc1", 2, 20));
  }

  @Test
  void anythingElseIsNotNewer() {
    assertFalse(TensorFlowVersions.atLeast("", 2, 0));
    assertFalse(TensorFlowVersions.atLeast("2", 2, 0));
    assertFalse(TensorFlowVersions.atLeast("two.twenty", 2, 0));
  }
}
