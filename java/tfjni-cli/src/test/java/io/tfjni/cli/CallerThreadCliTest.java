package io.tfjni.cli;

import static io.tfjni.ThreadProbe.THREAD_STAT;
import static io.tfjni.ThreadProbe.myThreadId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.TestModels;
import io.tfjni.TestProcesses.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --run_on_caller_thread} and {@code --inter_op_threads -1} of {@code run} and
 * {@code bench}. {@code run} executes in this JVM on the test's thread, so the thread_probe model
 * (tf.io.read_file of /proc/thread-self/stat: the stat line of the thread that ran the op) tells
 * whether the op ran on it; no timing is involved.
 */
@ExtendWith(TestModels.NoLeaks.class)
class CallerThreadCliTest {
  /** NumPy prints the scalar bytes output as b'TID (NAME) STATE ...'. */
  private static final Pattern PRINTED_TID = Pattern.compile("b'(\\d+) ");

  private static String probe() {
    return TestModels.dir().resolve("thread_probe").toString();
  }

  /** Runs the probe through {@code tfjni run} in this thread; the id of the thread that ran it. */
  private static long threadThatRanTheOp(String... threadOptions) {
    List<String> args = new ArrayList<>(List.of("run", "--dir", probe(), "--signature_def",
        "read_file", "--input_exprs", "path=\"" + THREAD_STAT + "\""));
    args.addAll(Arrays.asList(threadOptions));
    Outcome outcome = CliTestSupport.inProcess(args.toArray(new String[0]));
    assertEquals(0, outcome.exitCode(), outcome.toString());
    Matcher m = PRINTED_TID.matcher(outcome.out());
    assertTrue(m.find(), outcome.out());
    return Long.parseLong(m.group(1));
  }

  @Test
  void runOnCallerThreadRunsTheOpOnTheCallingThread() {
    long me = myThreadId();
    assertEquals(me, threadThatRanTheOp("--run_on_caller_thread"));
    assertEquals(me, threadThatRanTheOp("--inter_op_threads", "-1", "--intra_op_threads", "2"));
    assertEquals(me, threadThatRanTheOp("--run-on-caller-thread", "--inter-op-threads", "-1"));
  }

  /** The control: with an inter-op pool the op runs on one of its threads. */
  @Test
  void pooledRunRunsTheOpOnAnotherThread() {
    assertNotEquals(myThreadId(), threadThatRanTheOp("--inter_op_threads", "2"));
  }

  @Test
  void benchAcceptsAndReportsCallerThread(@TempDir Path dir) throws IOException {
    Path json = dir.resolve("bench.json");
    for (List<String> option : List.of(List.of("--run_on_caller_thread"),
        List.of("--inter_op_threads", "-1"))) {
      List<String> args = new ArrayList<>(List.of("bench", "--dir", probe(), "--signature_def",
          "read_file", "--input_exprs", "path=\"" + THREAD_STAT + "\"", "--iterations", "3",
          "--threads", "1,2", "--progress", "none", "--intra_op_threads", "1", "--json",
          json.toString()));
      args.addAll(option);
      Outcome outcome = CliTestSupport.inProcess(args.toArray(new String[0]));
      assertEquals(0, outcome.exitCode(), outcome.toString());
      assertTrue(outcome.out().contains(
          "session threads: intra-op 1, inter-op -1 (ops on the calling thread)"), outcome.out());
      assertTrue(Files.readString(json).contains("\"inter_op_threads\": -1"),
          Files.readString(json));
    }
  }

  @Test
  void badThreadOptionsGiveOneLine() {
    for (String command : List.of("run", "bench")) {
      assertOneLineError(List.of("--inter_op_threads must be >= 0", "or -1", "got -2"),
          command, "--inter_op_threads", "-2");
      assertOneLineError(List.of("--intra_op_threads must be >= 0", "got -1"),
          command, "--intra_op_threads", "-1");
      assertOneLineError(List.of("--run_on_caller_thread means --inter_op_threads -1",
          "--inter_op_threads 2"), command, "--run_on_caller_thread", "--inter_op_threads", "2");
    }
  }

  private static void assertOneLineError(List<String> fragments, String command,
      String... options) {
    List<String> args = new ArrayList<>(List.of(command, "--dir", probe(), "--signature_def",
        "read_file", "--input_exprs", "path=\"" + THREAD_STAT + "\""));
    args.addAll(Arrays.asList(options));
    Outcome outcome = CliTestSupport.inProcess(args.toArray(new String[0]));
    assertEquals(CliException.USAGE, outcome.exitCode(), outcome.toString());
    List<String> lines = outcome.errLines();
    assertEquals(1, lines.size(), outcome.toString());
    for (String fragment : fragments) {
      assertTrue(lines.get(0).contains(fragment), "'" + fragment + "' in: " + lines.get(0));
    }
  }
}
