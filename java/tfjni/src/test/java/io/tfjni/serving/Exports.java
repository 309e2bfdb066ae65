package io.tfjni.serving;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.tfjni.Tensor;
import io.tfjni.TestModels;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;

/**
 * The exports the versioned-model tests serve (scripts/goldens/generate_models.py's VERSIONED_EXPORTS),
 * their rows and TensorFlow Python's outputs for them, and the writing of version directories.
 */
public final class Exports {
  /** y = x * [2, 3, 4] + 1. */
  public static final String A = "versioned_a";
  /** y = x * [-1, 0.5, 10] + [0, -2, 3]: another answer for every row. */
  public static final String B = "versioned_b";
  /** A's computation with its input renamed "features". */
  static final String RENAMED = "versioned_renamed";
  /** A's computation in float64. */
  static final String FLOAT64 = "versioned_float64";

  private Exports() {}

  /** Row {@code row} of the case's input, as a [1, 3] tensor (close it). */
  static Tensor row(int row) {
    return Tensor.of(inputRow(row), 1, 3);
  }

  /** Row {@code row} of the case's input: the same rows for every export. */
  public static float[] inputRow(int row) {
    return rows(A, "inputs", "x")[row];
  }

  public static int rowCount() {
    return rows(A, "inputs", "x").length;
  }

  /** TensorFlow Python's output for row {@code row} of an export. */
  public static float[] expected(String export, int row) {
    return rows(export, "outputs", "y")[row];
  }

  /** Asserts that {@code actual} is exactly {@code export}'s answer for the row. */
  static void assertAnswer(String export, int row, float[] actual) {
    assertArrayEquals(expected(export, row), actual, export + "'s answer for row " + row);
  }

  /** Asserts that {@code actual} is exactly one of two exports' answers for the row. */
  static void assertAnswerOfEither(String one, String other, int row, float[] actual) {
    if (!Arrays.equals(expected(one, row), actual)) {
      assertArrayEquals(expected(other, row), actual, "neither " + one + "'s answer for row "
          + row + " (" + Arrays.toString(expected(one, row)) + ") nor " + other + "'s");
    }
  }

  private static float[][] rows(String export, String side, String key) {
    JsonNode tensor = TestModels.testCase(export + "_rows").path("calls").get(0).path(side)
        .path(key);
    long[] shape = TestModels.shape(tensor);
    ByteBuffer data = ByteBuffer.wrap(TestModels.data(tensor)).order(ByteOrder.LITTLE_ENDIAN);
    float[][] rows = new float[(int) shape[0]][(int) shape[1]];
    for (float[] r : rows) {
      data.asFloatBuffer().get(r);
      data.position(data.position() + r.length * Float.BYTES);
    }
    return rows;
  }

  /** Writes {@code export} as version {@code version} under {@code base} as a writer should. */
  public static Path publish(Path base, long version, String export) {
    return VersionPublisher.publish(TestModels.modelPath(export), base, version);
  }

  /** Copies {@code export} straight into version {@code version}, less some top-level entries. */
  static Path copyPart(Path base, long version, String export, Set<String> leftOut) {
    Path target = base.resolve(Long.toString(version));
    TestModels.copyTree(TestModels.modelPath(export), target, leftOut);
    return target;
  }

  /** Copies the top-level entries of {@code export} that {@link #copyPart} left out. */
  static void copyRest(Path version, String export, Set<String> leftOut) {
    Path source = TestModels.modelPath(export);
    for (String entry : leftOut) {
      TestModels.copyTree(source.resolve(entry), version.resolve(entry), Set.of());
    }
  }

  /** Fails unless the predictor answers row 0 exactly as {@code export}. */
  static void assertServes(ServingPredictor predictor, String export) {
    for (int row = 0; row < rowCount(); row++) {
      try (Tensor x = row(row); var result = predictor.run(x)) {
        assertAnswer(export, row, result.get(0).toFloatArray());
      }
    }
  }
}
