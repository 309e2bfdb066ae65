package io.tfjni;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs the named test classes on a JVM that Maven does not start (scripts/platforms/test-windows.sh: the
 * Windows JVM under Wine), printing every failure and a summary. Exits 0 only if tests ran and
 * every one passed: none failed, was aborted or was skipped. Each class's time is printed when it
 * ends (what a class adds to the run). What the JVM leaves out by
 * {@link TestModels#LEFT_OUT_MODELS_PROPERTY} is printed first, with its reasons.
 */
public final class ConsoleTests {
  private ConsoleTests() {}

  /**
   * Runs the test classes.
   *
   * @param args fully qualified names of test classes
   */
  public static void main(String[] args) {
    TestModels.leftOutModels().forEach((model, reason) -> System.out.println(
        "Left out: the cases and signatures of the test model " + model + ": " + reason));
    LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
        .selectors(Arrays.stream(args).map(DiscoverySelectors::selectClass).toList())
        .build();
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    LauncherFactory.create().execute(request, listener, new ClassTimes());
    TestExecutionSummary summary = listener.getSummary();
    PrintWriter out = new PrintWriter(System.out, true);
    summary.printFailuresTo(out, 30);
    summary.printTo(out);
    boolean passed = summary.getTestsSucceededCount() > 0 && summary.getTotalFailureCount() == 0
        && summary.getTestsAbortedCount() == 0 && summary.getTestsSkippedCount() == 0
        && summary.getContainersFailedCount() == 0;
    System.exit(passed ? 0 : 1);
  }

  /** Prints the seconds each test class took, when it ends. */
  private static final class ClassTimes implements TestExecutionListener {
    private final Map<String, Long> started = new HashMap<>();

    @Override
    public synchronized void executionStarted(TestIdentifier test) {
      test.getSource().filter(ClassSource.class::isInstance)
          .ifPresent(source -> started.put(test.getUniqueId(), System.nanoTime()));
    }

    @Override
    public synchronized void executionFinished(TestIdentifier test, TestExecutionResult result) {
      Long start = started.remove(test.getUniqueId());
      if (start != null) {
        String name = ((ClassSource) test.getSource().orElseThrow()).getClassName();
        System.out.printf("%s: %.1f s, %s%n", name, (System.nanoTime() - start) / 1e9,
            result.getStatus());
      }
    }
  }
}
