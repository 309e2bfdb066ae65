package io.tfjni.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The runtime comparison's agreement rule, against differences worked out by hand. */
class AgreementTest {
  @Test
  void theToleranceIsAFractionOfTheOutputsLargestMagnitude() {
    // Largest |expected| 4: 1e-3 of it allows 0.004; element 1 is off by 0.003, element 2 by 0.
    float[] expected = {1f, -4f, 0.5f};
    Agreement within = Agreement.of(expected, new float[] {1f, -4.003f, 0.5f}, 1e-3);
    assertTrue(within.agrees());
    assertEquals(0.004, within.allowed(), 1e-12);
    assertEquals(0.003, within.maxAbsDifference(), 1e-6);
    // Off by 0.005 on the smallest value: beyond 0.004, though tiny next to the scale of element 1.
    Agreement beyond = Agreement.of(expected, new float[] {1f, -4f, 0.505f}, 1e-3);
    assertFalse(beyond.agrees());
    assertEquals("[2] = 0.505, TensorFlow Python gives 0.5", beyond.worst());
  }

  @Test
  void logitsNear1e11AreHeldToTheirOwnScale() {
    // A fixed absolute bound such as 1e-4 would pass any answer here.
    float[] expected = {1e-11f, -2e-11f};
    assertTrue(Agreement.of(expected, new float[] {1.00001e-11f, -2e-11f}, 1e-3).agrees());
    assertFalse(Agreement.of(expected, new float[] {0f, 0f}, 1e-3).agrees());
  }

  @Test
  void aNanOrAMissingValueDisagrees() {
    float[] expected = {1f, 2f};
    Agreement nan = Agreement.of(expected, new float[] {1f, Float.NaN}, 1e-3);
    assertFalse(nan.agrees());
    assertEquals("[1] = NaN, TensorFlow Python gives 2.0", nan.worst());
    Agreement shorter = Agreement.of(expected, new float[] {1f}, 1e-3);
    assertFalse(shorter.agrees());
    assertEquals("1 output values, expected 2", shorter.worst());
  }
}
