package io.tfjni;

import java.io.PrintWriter;
import java.util.Arrays;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs the named test classes on a JVM that Maven does not start (scripts/test-windows.sh: the
 * Windows JVM under Wine), printing every failure and a summary. Exits 0 only if tests ran and
 * every one passed: none failed, was aborted or was skipped.
 */
public final class ConsoleTests {
  private ConsoleTests() {}

  /**
   * Runs the test classes.
   *
   * @param args fully qualified names of test classes
   */
  public static void main(String[] args) {
    LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
        .selectors(Arrays.stream(args).map(DiscoverySelectors::selectClass).toList())
        .build();
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    LauncherFactory.create().execute(request, listener);
    TestExecutionSummary summary = listener.getSummary();
    PrintWriter out = new PrintWriter(System.out, true);
    summary.printFailuresTo(out, 30);
    summary.printTo(out);
    boolean passed = summary.getTestsSucceededCount() > 0 && summary.getTotalFailureCount() == 0
        && summary.getTestsAbortedCount() == 0 && summary.getTestsSkippedCount() == 0
        && summary.getContainersFailedCount() == 0;
    System.exit(passed ? 0 : 1);
  }
}
