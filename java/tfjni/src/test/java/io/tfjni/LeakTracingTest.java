package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.eager.NDArray;
import io.tfjni.eager.NDManager;
import io.tfjni.internal.LeakTracer;
import io.tfjni.internal.NativeResource;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Leak tracing: open objects are listed with the stack that created them, closed ones leave the
 * list, unreachable unclosed ones are reported, and with tracing off nothing is recorded.
 */
@ExtendWith(TestModels.NoLeaks.class)
class LeakTracingTest {
  @AfterEach
  void tracingOff() {
    // The rest of the suite runs untraced.
    TensorFlow.setLeakTracing(false);
  }

  /** The traced open objects created (directly or through tfjni) by a method of this class. */
  private static List<OpenObject> openFrom(String method) {
    List<OpenObject> found = new ArrayList<>();
    for (OpenObject object : TensorFlow.openObjects()) {
      for (StackTraceElement frame : object.creationStack()) {
        if (frame.getClassName().equals(LeakTracingTest.class.getName())
            && frame.getMethodName().equals(method)) {
          found.add(object);
          break;
        }
      }
    }
    return found;
  }

  private static List<String> kinds(List<OpenObject> objects) {
    return objects.stream().map(OpenObject::kind).sorted().toList();
  }

  @Test
  void anUnclosedTensorIsListedWithTheTestMethodInItsCreationStack() {
    TensorFlow.setLeakTracing(true);
    assertTrue(TensorFlow.leakTracing());
    Tensor leaked = Tensor.of(new float[] {1, 2}, 2);
    try {
      List<OpenObject> open = openFrom("anUnclosedTensorIsListedWithTheTestMethodInItsCreationStack");
      assertEquals(1, open.size(), String.valueOf(TensorFlow.openObjects()));
      OpenObject object = open.get(0);
      assertEquals("Tensor", object.kind());
      assertFalse(object.unreachable());
      // The tracer's own frames are trimmed: the stack starts in the class that made it.
      StackTraceElement top = object.creationStack().get(0);
      assertEquals(Tensor.class.getName(), top.getClassName(), object.toString());
      String text = object.toString();
      assertTrue(text.startsWith("Tensor#" + object.id() + " (open) created at"), text);
      assertTrue(text.contains("\tat io.tfjni.LeakTracingTest."
          + "anUnclosedTensorIsListedWithTheTestMethodInItsCreationStack(LeakTracingTest.java:"),
          text);

      ByteArrayOutputStream printed = new ByteArrayOutputStream();
      TensorFlow.printOpenObjects(new PrintStream(printed, true, StandardCharsets.UTF_8));
      String report = printed.toString(StandardCharsets.UTF_8);
      assertTrue(report.startsWith("tfjni: "), report);
      assertTrue(report.contains(text), report);
    } finally {
      leaked.close();
    }
    assertEquals(List.of(),
        openFrom("anUnclosedTensorIsListedWithTheTestMethodInItsCreationStack"));
  }

  @Test
  void closedObjectsLeaveTheList() {
    TensorFlow.setLeakTracing(true);
    String method = "closedObjectsLeaveTheList";
    SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
    Predictor scale = model.predictor("scale");
    Tensor x = Tensor.of(new float[] {1, 2, 3}, 1, 3);
    RunResult result = scale.run(x);
    NDManager manager = NDManager.newBaseManager();
    NDArray a = manager.create(new float[] {1, 2}, 2);
    NDArray sum = a.add(a);
    assertArrayEquals(new float[] {2, 4}, sum.toFloatArray());
    assertEquals(List.of("NDArray", "NDArray", "Predictor", "SavedModel", "Tensor", "Tensor",
        "Tensor"), kinds(openFrom(method)));

    result.close();
    x.close();
    assertEquals(List.of("NDArray", "NDArray", "Predictor", "SavedModel"),
        kinds(openFrom(method)));
    a.close();
    assertEquals(List.of("NDArray", "Predictor", "SavedModel"), kinds(openFrom(method)));
    manager.close();
    assertEquals(List.of("Predictor", "SavedModel"), kinds(openFrom(method)));
    // Closing the model closes its predictor.
    model.close();
    assertEquals(List.of(), openFrom(method));
  }

  @Test
  void aReusedResultsOutputsAreListedOnceWhileFilled() {
    TensorFlow.setLeakTracing(true);
    String method = "aReusedResultsOutputsAreListedOnceWhileFilled";
    try (SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
        Predictor scale = model.predictor("scale");
        Tensor x = Tensor.of(new float[] {1, 2, 3}, 1, 3)) {
      RunResult result = scale.newResult();
      try {
        // Empty holders own no native object: not listed.
        assertEquals(List.of("Predictor", "SavedModel", "Tensor"), kinds(openFrom(method)));
        List<Long> ids = null;
        for (int run = 0; run < 3; run++) {
          scale.run(x, result);
          assertEquals(6f, result.get("total").toFloatArray()[0]);
          List<OpenObject> outputs = openFrom(method).stream()
              .filter(o -> o.kind().equals("Tensor") && o.creationStack().stream()
                  .anyMatch(f -> f.getMethodName().equals("newResult")))
              .toList();
          // Two outputs, each listed once however often it was refilled, with the same identity.
          assertEquals(2, outputs.size(), String.valueOf(outputs));
          List<Long> now = outputs.stream().map(OpenObject::id).toList();
          if (ids != null) {
            assertEquals(ids, now);
          }
          ids = now;
        }
        // A failed run leaves the holders empty: no longer listed.
        try (Tensor wrong = Tensor.of(new float[] {1, 2}, 1, 2)) {
          TensorFlowException e =
              assertThrows(TensorFlowException.class, () -> scale.run(wrong, result));
          assertEquals(TensorFlowException.Code.INVALID_ARGUMENT, e.code());
        }
        assertEquals(List.of("Predictor", "SavedModel", "Tensor"), kinds(openFrom(method)));
        scale.run(x, result);
        assertEquals(5, openFrom(method).size());
      } finally {
        result.close();
      }
      assertEquals(List.of("Predictor", "SavedModel", "Tensor"), kinds(openFrom(method)));
    }
    assertEquals(List.of(), openFrom(method));
  }

  /** Makes a tensor, keeps only its handle, and lets the Java object become unreachable. */
  private static long leakATensor() {
    Tensor tensor = Tensor.of(new float[] {7}, 1);
    long handle = NativeResource.acquire(tensor);
    NativeResource.release(tensor);
    return handle;
  }

  @Test
  void anUnreachableUnclosedTensorIsReportedWithItsCreationStack() throws Exception {
    Logger logger = Logger.getLogger(LeakTracer.LOGGER);
    ConcurrentLinkedQueue<LogRecord> records = new ConcurrentLinkedQueue<>();
    Handler capture = new Handler() {
      @Override
      public void publish(LogRecord record) {
        records.add(record);
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    logger.addHandler(capture);
    logger.setUseParentHandlers(false);
    TensorFlow.setLeakTracing(true);
    long handle = leakATensor();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (records.isEmpty() && System.nanoTime() < deadline) {
        System.gc();
        Thread.sleep(20);
      }
      assertEquals(1, records.size(), "expected one leak report");
      LogRecord record = records.peek();
      assertEquals(java.util.logging.Level.WARNING, record.getLevel());
      assertTrue(record.getMessage().startsWith("tfjni leak: Tensor#"), record.getMessage());
      assertTrue(record.getMessage().contains("without close()"), record.getMessage());
      StackTraceElement[] stack = record.getThrown().getStackTrace();
      assertEquals(Tensor.class.getName(), stack[0].getClassName());
      assertTrue(List.of(stack).stream().anyMatch(f -> f.getMethodName().equals("leakATensor")),
          List.of(stack).toString());

      // Still listed, now as unreachable: its native memory was not freed.
      List<OpenObject> open = openFrom("leakATensor");
      assertEquals(1, open.size(), String.valueOf(open));
      assertTrue(open.get(0).unreachable());
      assertTrue(open.get(0).toString().contains("(unreachable, never closed)"));
      assertTrue(record.getMessage().startsWith("tfjni leak: Tensor#" + open.get(0).id() + " "));
    } finally {
      logger.removeHandler(capture);
      logger.setUseParentHandlers(true);
      // Free what the test leaked on purpose: take the handle over and close it.
      Tensor.adopt(handle).close();
    }
  }

  @Test
  void tracingOffRecordsNothing() {
    assertFalse(TensorFlow.leakTracing());
    String method = "tracingOffRecordsNothing";
    int before = TensorFlow.openObjects().size();
    try (SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
        Predictor scale = model.predictor("scale");
        Tensor x = Tensor.of(new float[] {1, 2, 3}, 1, 3);
        RunResult result = scale.run(x);
        NDManager manager = NDManager.newBaseManager()) {
      NDArray doubled = manager.from(result.get("scaled")).mul(2f);
      assertArrayEquals(new float[] {4, 8, 12}, doubled.toFloatArray());
      assertEquals(before, TensorFlow.openObjects().size());
      assertEquals(List.of(), openFrom(method));

      // Turned on now, tracing sees only what is made from now on.
      TensorFlow.setLeakTracing(true);
      try (Tensor traced = Tensor.scalar(1f)) {
        scale.run(x, result);
        assertEquals(List.of("Tensor"), kinds(openFrom(method)));
        assertNotEquals(0, traced.byteSize());
      }
    }
    assertEquals(List.of(), openFrom(method));
  }

  @Test
  void withTracingOffAReusedRunAllocatesNothing() {
    assertFalse(TensorFlow.leakTracing());
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long self = Thread.currentThread().getId();
    try (SavedModel model = SavedModel.load(TestModels.modelPath("multi"));
        Predictor scale = model.predictor("scale");
        Tensor x = Tensor.of(new float[] {1, 2, 3}, 1, 3);
        RunResult result = scale.newResult()) {
      float[] total = new float[1];
      for (int i = 0; i < 20_000; i++) {
        scale.run(x, result);  // warm up: JIT-compile the path
      }
      int runs = 2_000;
      long start = threads.getThreadAllocatedBytes(self);
      for (int i = 0; i < runs; i++) {
        scale.run(x, result).get(1).copyTo(total);
      }
      long allocated = threads.getThreadAllocatedBytes(self) - start;
      assertEquals(6f, total[0]);
      // Less than one byte a run: no per-run object (the smallest is 16 bytes).
      assertTrue(allocated < runs, allocated + " bytes allocated over " + runs + " runs");
    }
  }

  @Test
  void propertyOrEnvironmentVariableTurnsTracingOn() {
    assertTrue(LeakTracer.enabledBy("true", null));
    assertTrue(LeakTracer.enabledBy("TRUE", null));
    assertTrue(LeakTracer.enabledBy(null, "1"));
    assertTrue(LeakTracer.enabledBy("", "1"));
    assertTrue(LeakTracer.enabledBy(null, "true"));
    assertFalse(LeakTracer.enabledBy(null, null));
    assertFalse(LeakTracer.enabledBy("false", "1"), "the property wins");
    assertFalse(LeakTracer.enabledBy(null, "0"));
    assertFalse(LeakTracer.enabledBy("yes please", null));
  }

  private static String runProbe(List<String> jvmOptions, Map<String, String> env)
      throws Exception {
    ChildJvm.Outcome outcome = ChildJvm.run(jvmOptions, LeakTracingProbe.class, List.of(),
        List.of(LeakTracer.ENV), env);
    assertEquals(0, outcome.exitCode(), outcome.output());
    return outcome.output();
  }

  @Test
  void aFreshJvmTracesWhenTheEnvironmentVariableOrPropertySaysSo() throws Exception {
    String traced = "tfjni: 1 traced object open" + System.lineSeparator() + "Tensor#1 (open)";
    String frame = "\tat io.tfjni.LeakTracingProbe.leakOne(LeakTracingProbe.java:";
    String closed = "tfjni: 0 traced objects open" + System.lineSeparator();

    String env = runProbe(List.of(), Map.of(LeakTracer.ENV, "1"));
    assertTrue(env.contains(traced) && env.contains(frame) && env.endsWith(closed), env);
    String property = runProbe(List.of("-Dtfjni.leakTracing=true"), Map.of());
    assertTrue(property.contains(traced) && property.contains(frame), property);

    String off = "tfjni: 0 traced objects open (leak tracing is off)" + System.lineSeparator();
    for (String output : List.of(runProbe(List.of(), Map.of()),
        runProbe(List.of("-Dtfjni.leakTracing=false"), Map.of(LeakTracer.ENV, "1")))) {
      assertTrue(output.endsWith(off + off) && !output.contains("Tensor#"), output);
    }
  }
}
