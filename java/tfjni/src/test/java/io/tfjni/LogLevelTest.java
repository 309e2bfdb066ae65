package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.ChildJvm.Outcome;
import io.tfjni.internal.NativeLibrary;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * TensorFlow's minimum log level, set through tfjni before libtensorflow loads: each case is a
 * fresh JVM (TensorFlow reads TF_CPP_MIN_LOG_LEVEL once), which loads the multi model and runs it.
 * Loading a SavedModel logs INFO lines ("Reading SavedModel from: ...") through TensorFlow's own
 * logging, the lines TF_CPP_MIN_LOG_LEVEL governs.
 */
class LogLevelTest {
  private static final String INFO_LINE = "Reading SavedModel from";

  /** The parent's own settings must not reach a child. */
  private static final List<String> UNSET = List.of(NativeLibrary.TF_LOG_LEVEL_ENV,
      NativeLibrary.LOG_LEVEL_ENV);

  private static Outcome probe(List<String> jvmOptions, Map<String, String> env)
      throws Exception {
    Outcome outcome = ChildJvm.run(jvmOptions, LoadProbe.class,
        List.of(TestModels.dir().toString()), UNSET, env);
    return outcome;
  }

  private static void assertRan(Outcome outcome) {
    assertEquals(0, outcome.exitCode(), outcome.output());
    assertTrue(outcome.output().contains("sum=11.0,22.0"), outcome.output());
  }

  @Test
  void withoutASettingTensorFlowLogsItsInfoLines() throws Exception {
    Outcome outcome = probe(List.of(), Map.of());
    assertRan(outcome);
    assertTrue(outcome.output().contains(INFO_LINE), outcome.output());
  }

  @Test
  void theSystemPropertyOrTheEnvironmentVariableReachesTensorFlow() throws Exception {
    Outcome property = probe(List.of("-D" + NativeLibrary.LOG_LEVEL_PROPERTY + "=1"), Map.of());
    assertRan(property);
    assertFalse(property.output().contains(INFO_LINE), property.output());
    Outcome env = probe(List.of(), Map.of(NativeLibrary.LOG_LEVEL_ENV, "2"));
    assertRan(env);
    assertFalse(env.output().contains(INFO_LINE), env.output());
  }

  @Test
  void theUsersOwnTfCppMinLogLevelWins() throws Exception {
    Outcome outcome = probe(List.of("-D" + NativeLibrary.LOG_LEVEL_PROPERTY + "=2"),
        Map.of(NativeLibrary.TF_LOG_LEVEL_ENV, "0"));
    assertRan(outcome);
    assertTrue(outcome.output().contains(INFO_LINE), outcome.output());
  }

  @Test
  void aBadLevelIsAnUnsatisfiedLinkErrorNamingTheLevels() throws Exception {
    Outcome outcome = probe(List.of(), Map.of(NativeLibrary.LOG_LEVEL_ENV, "verbose"));
    assertEquals(3, outcome.exitCode(), outcome.output());
    assertTrue(outcome.output().contains("error=tfjni: environment variable TFJNI_LOG_LEVEL is"
        + " 'verbose'; TensorFlow's log levels are 0 (everything), 1 (no INFO)"), outcome.output());
  }
}
