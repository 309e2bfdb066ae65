package io.tfjni.serving;

import static io.tfjni.serving.Exports.A;
import static io.tfjni.serving.Exports.B;
import static io.tfjni.serving.Exports.publish;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tfjni.SavedModel;
import io.tfjni.Tensor;
import io.tfjni.TestModels;
import io.tfjni.batching.BatchedResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The flight recorder events of a versioned model, read back from a recording written to a file:
 * under JFR's default settings (what {@code jcmd PID JFR.start} uses) and with runs enabled.
 */
@ExtendWith(TestModels.NoLeaks.class)
class ServingEventsTest {
  @TempDir
  Path temp;
  Path base;

  @BeforeEach
  void makeBase() throws IOException {
    base = Files.createDirectory(temp.resolve("model"));
  }

  /**
   * Serves version 1, fails to load a truncated version 3, swaps to 2, runs twice, closes; returns
   * the serving events recorded meanwhile, in order.
   */
  private List<RecordedEvent> serveAndRecord(Recording recording) throws IOException {
    publish(base, 1, A);
    recording.start();
    try (VersionedModel model = VersionedModel.builder(base).name("events")
        .pollInterval(Duration.ZERO).build()) {
      ServingPredictor predictor = model.predictor(SavedModel.DEFAULT_SIGNATURE);
      publish(base, 2, B);
      Path truncated = publish(base, 3, B).resolve("saved_model.pb");
      Files.write(truncated, Arrays.copyOf(Files.readAllBytes(truncated), 10));
      model.refresh();
      model.refresh();
      for (int i = 0; i < 2; i++) {
        try (Tensor x = Tensor.of(new float[6], 2, 3)) {
          predictor.run(x).close();
        }
      }
    }
    recording.stop();
    Path file = temp.resolve("serving.jfr");
    recording.dump(file);
    recording.close();
    return RecordingFile.readAllEvents(file).stream()
        .filter(e -> e.getEventType().getName().startsWith("io.tfjni.serving."))
        .sorted((x, y) -> x.getStartTime().compareTo(y.getStartTime()))
        .toList();
  }

  private static String describe(RecordedEvent event) {
    String name = event.getEventType().getName().substring("io.tfjni.serving.".length());
    return switch (name) {
      case "Load", "Unload" -> name + " " + event.getLong("version");
      case "LoadFailed" -> name + " " + event.getLong("version") + " " + event.getString("stage");
      case "Swap" -> name + " " + event.getLong("previousVersion") + "->"
          + event.getLong("newVersion");
      case "Run" -> name + " " + event.getLong("version") + " rows " + event.getLong("rows")
          + " error '" + event.getString("error") + "'";
      default -> name;
    };
  }

  private static List<String> describeAll(List<RecordedEvent> events) {
    for (RecordedEvent event : events) {
      assertEquals("events", event.getString("model"));
    }
    return events.stream().map(ServingEventsTest::describe).toList();
  }

  @Test
  void defaultSettingsRecordLoadsSwapsAndUnloadsButNotRuns()
      throws IOException, ParseException {
    // The recording starts before the model is built: its first load and swap are in it.
    List<RecordedEvent> events = serveAndRecord(
        new Recording(Configuration.getConfiguration("default")));
    assertEquals(List.of("Load 1", "Swap -1->1", "LoadFailed 3 LOAD", "Load 2", "Swap 1->2",
        "Unload 1", "Unload 2"), describeAll(events));
  }

  @Test
  void runEventsWhenEnabled() throws IOException {
    // A recording without settings takes each event's own default: on, but Run off.
    Recording recording = new Recording();
    recording.enable(ServingEvents.RUN);
    List<String> events = describeAll(serveAndRecord(recording));
    assertEquals(List.of("Load 1", "Swap -1->1", "LoadFailed 3 LOAD", "Load 2", "Swap 1->2",
        "Unload 1", "Run 2 rows 2 error ''", "Run 2 rows 2 error ''", "Unload 2"), events);
  }

  /**
   * Batch events, on by name only: a batching predictor's full batch of two callers' rows, under
   * JFR's default settings and with the batch event enabled.
   */
  @Test
  void batchEventsWhenEnabled() throws IOException, ParseException {
    publish(base, 1, A);
    assertEquals(List.of(), batchEvents(new Recording(Configuration.getConfiguration("default"))),
        "off in the default settings");
    Recording enabled = new Recording();
    enabled.enable(ServingEvents.BATCH);
    assertEquals(List.of("Batch 1 callers 2 rows 3 failed false"), batchEvents(enabled));
  }

  private List<String> batchEvents(Recording recording) throws IOException {
    recording.start();
    try (VersionedModel model = VersionedModel.builder(base).name("events")
        .pollInterval(Duration.ZERO).build();
        Tensor one = Exports.row(1);
        Tensor two = Tensor.of(new float[6], 2, 3)) {
      // A delay no test outlasts: the batch runs when its rows reach the maximum of 3.
      ServingBatchingPredictor batcher = model.batchingPredictor(SavedModel.DEFAULT_SIGNATURE,
          List.of("x"), List.of(), options -> options.maxBatchSize(3)
              .maxDelay(Duration.ofHours(1)));
      CompletableFuture<BatchedResult> first = batcher.submit(one);
      CompletableFuture<BatchedResult> second = batcher.submit(two);
      first.join().close();
      second.join().close();
    }
    recording.stop();
    Path file = temp.resolve("batches.jfr");
    recording.dump(file);
    recording.close();
    return RecordingFile.readAllEvents(file).stream()
        .filter(e -> e.getEventType().getName().equals(ServingEvents.BATCH))
        .peek(e -> assertEquals("events", e.getString("model")))
        .map(e -> "Batch " + e.getLong("version") + " callers " + e.getInt("callers") + " rows "
            + e.getInt("rows") + " failed " + e.getBoolean("failed"))
        .toList();
  }
}
