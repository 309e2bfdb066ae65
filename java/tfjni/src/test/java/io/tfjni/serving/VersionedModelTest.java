package io.tfjni.serving;

import static io.tfjni.serving.Exports.A;
import static io.tfjni.serving.Exports.B;
import static io.tfjni.serving.Exports.assertServes;
import static io.tfjni.serving.Exports.publish;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tfjni.SavedModel;
import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import io.tfjni.TensorFlowException;
import io.tfjni.TestModels;
import io.tfjni.batching.BatchedResult;
import io.tfjni.internal.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A versioned model over version directories copied from TensorFlow Python's exports A and B
 * (same signature, different answers), with polling off: each test calls refresh() itself.
 */
@ExtendWith(TestModels.NoLeaks.class)
class VersionedModelTest {
  @TempDir
  Path temp;
  Path base;
  final RecordingListener listener = new RecordingListener();

  @BeforeEach
  void makeBase() throws IOException {
    base = Files.createDirectory(temp.resolve("model"));
  }

  private VersionedModel.Builder builder() {
    return VersionedModel.builder(base).pollInterval(Duration.ZERO).listener(listener);
  }

  private static long liveModels() {
    return TensorFlow.liveObjects().savedModels();
  }

  /** A new version is loaded at the second poll that finds it unchanged. */
  private static ServingStatus refreshTwice(VersionedModel model) {
    model.refresh();
    return model.refresh();
  }

  @Test
  void loadsTheNewestVersion() {
    publish(base, 1, A);
    publish(base, 2, B);
    publish(base, 10, A);
    Exports.copyPart(base, 3, B, Set.of());
    try (VersionedModel model = builder().build()) {
      assertEquals(10, model.servingVersion(), "10 is newer than 2 and 3, not older (numbers)");
      assertEquals(List.of(10L), model.status().loadedVersions());
      assertServes(model.predictor(SavedModel.DEFAULT_SIGNATURE), A);
      assertEquals(List.of("load 10", "swap -1->10"), listener.events());
    }
  }

  @Test
  void ignoresNamesThatAreNotVersions() throws IOException {
    publish(base, 1, A);
    TestModels.copyTree(TestModels.modelPath(B), base.resolve("7.tmp"), Set.of());
    TestModels.copyTree(TestModels.modelPath(B), base.resolve("-8"), Set.of());
    Files.writeString(base.resolve("9"), "a file, not a directory");
    try (VersionedModel model = builder().build()) {
      assertEquals(1, model.servingVersion());
    }
  }

  @Test
  void latestTwoLoadsBothAndServesTheNewest() {
    publish(base, 1, A);
    publish(base, 2, B);
    publish(base, 3, A);
    try (VersionedModel model = builder().policy(VersionPolicy.latest(2)).build()) {
      assertEquals(List.of(2L, 3L), model.status().loadedVersions());
      assertEquals(3, model.servingVersion());
      assertServes(model.predictor(SavedModel.DEFAULT_SIGNATURE), A);
      try (VersionLease two = model.lease(2); Tensor x = Exports.row(1);
          var result = two.model().run(Map.of("x", x))) {
        Exports.assertAnswer(B, 1, result.get("y").toFloatArray());
      }
      assertThrows(VersionUnavailableException.class, () -> model.lease(1));

      publish(base, 4, B);
      assertEquals(List.of(3L, 4L), refreshTwice(model).loadedVersions());
      assertEquals(4, model.servingVersion());
    }
  }

  @Test
  void specificVersionsStayWhenNewerArrive() {
    publish(base, 1, A);
    publish(base, 2, B);
    publish(base, 3, B);
    try (VersionedModel model = builder().policy(VersionPolicy.specific(1, 3)).build()) {
      assertEquals(List.of(1L, 3L), model.status().loadedVersions());
      assertEquals(3, model.servingVersion());
      publish(base, 4, A);
      ServingStatus status = refreshTwice(model);
      assertEquals(List.of(1L, 3L), status.loadedVersions());
      assertEquals(3, status.servingVersion());
    }
    assertThrows(IllegalArgumentException.class, () -> VersionPolicy.specific());
    assertThrows(IllegalArgumentException.class, () -> VersionPolicy.latest(0));
  }

  @Test
  void aNewVersionIsSwappedInOnRefreshAndTheHeldPredictorFollows() {
    publish(base, 1, A);
    try (VersionedModel model = builder().build()) {
      ServingPredictor predictor = model.predictor(SavedModel.DEFAULT_SIGNATURE);
      assertServes(predictor, A);
      long before = liveModels();
      publish(base, 2, B);
      ServingStatus first = model.refresh();
      assertEquals(1, first.servingVersion(), "seen once: not loaded yet");
      assertEquals(List.of(2L), first.pendingVersions());
      ServingStatus second = model.refresh();
      assertEquals(2, second.servingVersion());
      assertEquals(List.of(), second.pendingVersions());
      assertServes(predictor, B);
      assertEquals(before, liveModels(), "version 1 closed: no call was in flight");
      assertEquals(List.of("load 1", "swap -1->1", "load 2", "swap 1->2", "unload 1"),
          listener.events());
    }
  }

  @Test
  void aVersionHeldByALeaseIsClosedWhenTheLeaseCloses() throws InterruptedException {
    publish(base, 1, A);
    CountDownLatch unloaded = new CountDownLatch(1);
    try (VersionedModel model = builder().listener(new ServingListener() {
      @Override
      public void onUnload(long version, Duration drainTime) {
        unloaded.countDown();
      }
    }).build()) {
      ServingPredictor predictor = model.predictor(SavedModel.DEFAULT_SIGNATURE);
      long before = liveModels();
      VersionLease lease = model.lease();
      publish(base, 2, B);
      refreshTwice(model);
      assertServes(predictor, B);
      assertEquals(before + 1, liveModels(), "version 1 stays loaded for the call in flight");
      try (Tensor x = Exports.row(2); var result = lease.model().run(Map.of("x", x))) {
        Exports.assertAnswer(A, 2, result.get("y").toFloatArray());
      }
      lease.close();
      lease.close();
      unloaded.await();
      assertEquals(before, liveModels(), "the last call out unloaded version 1");
      assertThrows(IllegalStateException.class, lease::model);
    }
  }

  @Test
  void corruptVersionsAreNeverSwappedInAndAreReported() throws IOException {
    publish(base, 1, A);
    try (VersionedModel model = builder().build()) {
      ServingPredictor predictor = model.predictor(SavedModel.DEFAULT_SIGNATURE);
      Path truncated = publish(base, 2, B).resolve("saved_model.pb");
      byte[] bytes = Files.readAllBytes(truncated);
      Files.write(truncated, java.util.Arrays.copyOf(bytes, bytes.length / 2));
      Path noVariables = publish(base, 3, B);
      FileTrees.deleteUnchecked(noVariables.resolve("variables"));
      listener.clear();

      ServingStatus status = refreshTwice(model);
      assertEquals(1, status.servingVersion());
      assertServes(predictor, A);
      assertEquals(List.of(1L), status.loadedVersions());
      assertEquals(List.of("failed 3 LOAD", "failed 2 LOAD"), listener.events(),
          "the newest first, then the next newest, each once");
      assertEquals(List.of(2L, 3L),
          status.failedVersions().stream().map(VersionFailure::version).toList());
      for (VersionFailure failure : status.failedVersions()) {
        assertTrue(failure.code().isPresent(), "TensorFlow's code: " + failure);
        assertTrue(failure.cause() instanceof TensorFlowException, failure.toString());
        assertEquals(failure.cause().getMessage(), failure.message());
      }
      assertEquals(2, status.lastFailure().orElseThrow().version());
      assertEquals(status.lastFailure(), model.lastFailure());

      model.refresh();
      assertEquals(List.of("failed 3 LOAD", "failed 2 LOAD"), listener.events(),
          "a failed version is not tried again while its directory is unchanged");

      Exports.copyRest(noVariables, B, Set.of("variables"));
      status = refreshTwice(model);
      assertEquals(3, status.servingVersion(), "repaired: loaded once complete");
      assertServes(predictor, B);
      assertEquals(List.of(2L),
          status.failedVersions().stream().map(VersionFailure::version).toList());
    }
  }

  @Test
  void aHalfCopiedVersionIsNotLoadedUntilComplete() {
    publish(base, 1, A);
    try (VersionedModel model = builder().build()) {
      ServingPredictor predictor = model.predictor(SavedModel.DEFAULT_SIGNATURE);
      Set<String> rest = Set.of("variables", "fingerprint.pb");
      Path two = Exports.copyPart(base, 2, B, rest);
      listener.clear();
      ServingStatus status = model.refresh();
      assertEquals(List.of(2L), status.pendingVersions());
      assertEquals(1, status.servingVersion());

      Exports.copyRest(two, B, rest);
      status = model.refresh();
      assertEquals(1, status.servingVersion(), "it changed since the last poll: still copying");
      assertEquals(List.of(2L), status.pendingVersions());
      assertEquals(List.of(), listener.events(), "nothing tried, nothing failed");
      assertServes(predictor, A);

      status = model.refresh();
      assertEquals(2, status.servingVersion());
      assertServes(predictor, B);
      assertTrue(model.lastFailure().isEmpty(), "never loaded half-copied");
    }
  }

  @Test
  void aReadyMarkerKeepsAVersionOutUntilItIsWritten() throws IOException {
    publish(base, 1, A);
    Files.createFile(base.resolve("1").resolve("READY"));
    try (VersionedModel model = builder().readyMarker("READY").build()) {
      publish(base, 2, B);
      assertEquals(1, refreshTwice(model).servingVersion(), "no marker yet");
      Files.createFile(base.resolve("2").resolve("READY"));
      assertEquals(2, refreshTwice(model).servingVersion());
    }
  }

  @Test
  void removingTheServingVersionFallsBackToTheNewestLeft() {
    publish(base, 1, A);
    Path two = publish(base, 2, B);
    try (VersionedModel model = builder().build()) {
      ServingPredictor predictor = model.predictor(SavedModel.DEFAULT_SIGNATURE);
      assertServes(predictor, B);
      FileTrees.deleteUnchecked(two);
      listener.clear();
      ServingStatus status = model.refresh();
      assertEquals(1, status.servingVersion(), "as TensorFlow Serving: version 1 is loaded");
      assertEquals(List.of(1L), status.loadedVersions());
      assertServes(predictor, A);
      assertEquals(List.of("load 1", "swap 2->1", "unload 2"), listener.events());
    }
  }

  @Test
  void removingEveryVersionOrTheBaseKeepsTheLoadedVersionServing() {
    Path one = publish(base, 1, A);
    try (VersionedModel model = builder().build()) {
      ServingPredictor predictor = model.predictor(SavedModel.DEFAULT_SIGNATURE);
      FileTrees.deleteUnchecked(one);
      listener.clear();
      ServingStatus status = model.refresh();
      assertEquals(1, status.servingVersion());
      assertServes(predictor, A);
      VersionFailure failure = status.lastFailure().orElseThrow();
      assertEquals(VersionFailure.Stage.SOURCE, failure.stage());
      assertEquals(1, failure.version());
      assertTrue(failure.message().contains("holds no version")
          && failure.message().contains("keep serving"), failure.message());
      model.refresh();
      assertEquals(List.of("failed 1 SOURCE"), listener.events(), "reported once, not per poll");

      FileTrees.deleteUnchecked(base);
      status = model.refresh();
      assertEquals(1, status.servingVersion());
      assertServes(predictor, A);
      assertTrue(status.lastFailure().orElseThrow().message().contains("does not exist"),
          status.lastFailure().toString());
      assertEquals(List.of("failed 1 SOURCE", "failed 1 SOURCE"), listener.events());

      publish(mkdirs(base), 5, B);
      assertEquals(5, refreshTwice(model).servingVersion(), "serving resumes its course");
      assertServes(predictor, B);
    }
  }

  private static Path mkdirs(Path dir) {
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void startingWithNothingToServeRefusesCallsUntilAVersionArrives() {
    try (VersionedModel model = builder().build()) {
      assertEquals(VersionedModel.NO_VERSION, model.servingVersion());
      VersionUnavailableException e = assertThrows(VersionUnavailableException.class,
          () -> model.predictor(SavedModel.DEFAULT_SIGNATURE));
      TestModels.assertMentions(e, "no version", "holds no version");
      assertThrows(VersionUnavailableException.class, model::lease);
      publish(base, 1, A);
      assertEquals(1, refreshTwice(model).servingVersion());
      assertServes(model.predictor(SavedModel.DEFAULT_SIGNATURE), A);
    }
  }

  @Test
  void aVersionWhoseSignatureCannotFeedTheHeldPredictorIsRefused() {
    publish(base, 1, A);
    try (VersionedModel model = builder().build()) {
      ServingPredictor predictor = model.predictor(SavedModel.DEFAULT_SIGNATURE);
      publish(base, 2, Exports.RENAMED);
      publish(base, 3, Exports.FLOAT64);
      ServingStatus status = refreshTwice(model);
      assertEquals(1, status.servingVersion());
      assertServes(predictor, A);
      List<VersionFailure> failures = status.failedVersions();
      assertEquals(2, failures.size(), failures.toString());
      VersionFailure renamed = failures.get(0);
      assertEquals(VersionFailure.Stage.SIGNATURE, renamed.stage());
      TestModels.assertMentions(renamed.cause(), "version 2", "version 1",
          "[features: FLOAT [-1, 3]]", "[x: FLOAT [-1, 3]]");
      VersionFailure float64 = failures.get(1);
      assertEquals(VersionFailure.Stage.SIGNATURE, float64.stage());
      TestModels.assertMentions(float64.cause(), "version 3", "version 1",
          "input 'x' is DOUBLE, was FLOAT", "[x: DOUBLE [-1, 3]]", "[x: FLOAT [-1, 3]]");
    }
  }

  @Test
  void aPredictorAnotherLoadedVersionCannotServeIsRefused() {
    publish(base, 1, Exports.RENAMED);
    publish(base, 2, A);
    try (VersionedModel model = builder().policy(VersionPolicy.latest(2)).build()) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> model.predictor(SavedModel.DEFAULT_SIGNATURE));
      TestModels.assertMentions(e, "version 1", "version 2", "features");
    }
  }

  @Test
  void theWarmupRunsBeforeTrafficAndAFailingOneKeepsTheVersionOut() {
    publish(base, 1, A);
    List<String> warmed = new ArrayList<>();
    Warmup rowsOfOurOwn = version -> {
      try (Tensor x = Exports.row(3);
          var result = version.model().run(Map.of("x", x))) {
        warmed.add(version.version() + ":" + result.get("y").toFloatArray()[0]);
      }
    };
    Warmup refusesVersionTwo = version -> {
      if (version.version() == 2) {
        throw new TensorFlowException(TensorFlowException.Code.DATA_LOSS, "bad warm-up record");
      }
    };
    try (VersionedModel model =
        builder().warmup(rowsOfOurOwn.andThen(refusesVersionTwo)).build()) {
      ServingPredictor predictor = model.predictor(SavedModel.DEFAULT_SIGNATURE);
      assertEquals(List.of("1:" + Exports.expected(A, 3)[0]), warmed);
      publish(base, 2, B);
      ServingStatus status = refreshTwice(model);
      assertEquals(1, status.servingVersion());
      assertServes(predictor, A);
      VersionFailure failure = status.lastFailure().orElseThrow();
      assertEquals(VersionFailure.Stage.WARM_UP, failure.stage());
      assertEquals(TensorFlowException.Code.DATA_LOSS, failure.code().orElseThrow());
      assertEquals(List.of("1:" + Exports.expected(A, 3)[0], "2:" + Exports.expected(B, 3)[0]),
          warmed, "version 2 was warmed up (and answered as B) before it was refused");
    }
  }

  /**
   * By default a version replays the warm-up file TensorFlow Python wrote for it; one whose file
   * is damaged, or whose requests it cannot run, never serves, and the failure names the record.
   */
  @Test
  void tensorFlowServingsWarmupFileIsReplayedAndABadOneKeepsTheVersionOut() throws IOException {
    Path dtypes = TestModels.modelPath("dtypes");
    TestModels.copyTree(dtypes, base.resolve("1"), Set.of());
    try (VersionedModel model = builder().build()) {
      assertEquals(1, model.servingVersion());

      Path damaged = base.resolve("2");
      TestModels.copyTree(dtypes, damaged, Set.of());
      byte[] file = Files.readAllBytes(damaged.resolve(WarmupRequests.FILE));
      file[20] ^= 1;  // inside record 0's data: its CRC no longer matches
      Files.write(damaged.resolve(WarmupRequests.FILE), file);
      ServingStatus status = refreshTwice(model);
      assertEquals(1, status.servingVersion());
      VersionFailure failure = status.lastFailure().orElseThrow();
      assertEquals(2, failure.version());
      assertEquals(VersionFailure.Stage.WARM_UP, failure.stage());
      assertEquals(TensorFlowException.Code.DATA_LOSS, failure.code().orElseThrow());
      TestModels.assertMentions(failure.cause(), "record 0");

      Path foreign = publish(base, 3, A);
      Files.createDirectories(foreign.resolve(WarmupRequests.FILE).getParent());
      Files.copy(dtypes.resolve(WarmupRequests.FILE), foreign.resolve(WarmupRequests.FILE));
      status = refreshTwice(model);
      assertEquals(1, status.servingVersion());
      failure = status.lastFailure().orElseThrow();
      assertEquals(3, failure.version());
      assertEquals(VersionFailure.Stage.WARM_UP, failure.stage());
      TestModels.assertMentions(failure.cause(), "warm-up record 0");
    }
    assertEquals(List.of("load 1", "swap -1->1", "failed 2 WARM_UP", "failed 3 WARM_UP",
        "unload 1"), listener.events());
  }

  @Test
  void availabilityPreservingKeepsServingWhileTheNextVersionLoads() {
    publish(base, 1, A);
    AtomicReference<String> seenDuringWarmup = new AtomicReference<>();
    AtomicReference<ServingPredictor> held = new AtomicReference<>();
    long before = liveModels();
    Warmup probe = version -> {
      if (held.get() != null) {
        try (Tensor x = Exports.row(0); var result = held.get().run(x)) {
          seenDuringWarmup.set(result.get(0).toFloatArray()[0] + " with "
              + (liveModels() - before) + " models");
        }
      }
    };
    try (VersionedModel model = builder().warmup(probe).build()) {
      held.set(model.predictor(SavedModel.DEFAULT_SIGNATURE));
      publish(base, 2, B);
      assertEquals(2, refreshTwice(model).servingVersion());
      assertEquals(Exports.expected(A, 0)[0] + " with 2 models", seenDuringWarmup.get(),
          "version 1 answered while version 2 warmed up: both loaded");
    }
  }

  @Test
  void resourcePreservingUnloadsFirstAndCallsMeanwhileAreRefused() {
    publish(base, 1, A);
    AtomicReference<String> seenDuringWarmup = new AtomicReference<>();
    AtomicReference<ServingPredictor> held = new AtomicReference<>();
    long before = liveModels();
    Warmup probe = version -> {
      if (held.get() != null) {
        try (Tensor x = Exports.row(0)) {
          VersionUnavailableException e =
              assertThrows(VersionUnavailableException.class, () -> held.get().run(x));
          seenDuringWarmup.set(e.getMessage() + " with " + (liveModels() - before) + " models");
        }
      }
    };
    try (VersionedModel model =
        builder().swapOrder(SwapOrder.RESOURCE_PRESERVING).warmup(probe).build()) {
      held.set(model.predictor(SavedModel.DEFAULT_SIGNATURE));
      publish(base, 2, B);
      listener.clear();
      assertEquals(2, refreshTwice(model).servingVersion());
      assertServes(held.get(), B);
      assertTrue(seenDuringWarmup.get().endsWith(" with 1 models"), seenDuringWarmup.get());
      TestModels.assertMentions(new Exception(seenDuringWarmup.get()), "version 1 was unloaded");
      assertEquals(List.of("swap 1->-1", "unload 1", "load 2", "swap -1->2"), listener.events());
    }
  }

  @Test
  void resourcePreservingLoadsThePreviousVersionAgainWhenTheNewOneFails() {
    publish(base, 1, A);
    try (VersionedModel model = builder().swapOrder(SwapOrder.RESOURCE_PRESERVING).build()) {
      ServingPredictor predictor = model.predictor(SavedModel.DEFAULT_SIGNATURE);
      FileTrees.deleteUnchecked(publish(base, 2, B).resolve("variables"));
      listener.clear();
      ServingStatus status = refreshTwice(model);
      assertEquals(1, status.servingVersion());
      assertServes(predictor, A);
      assertEquals(List.of("swap 1->-1", "unload 1", "failed 2 LOAD", "load 1", "swap -1->1"),
          listener.events());
    }
  }

  @Test
  void aBatchingPredictorFollowsTheSwaps() throws Exception {
    publish(base, 1, A);
    try (VersionedModel model = builder().build()) {
      ServingBatchingPredictor batcher = model.batchingPredictor(SavedModel.DEFAULT_SIGNATURE,
          List.of("x"), List.of(), options -> options.maxBatchSize(4));
      CompletableFuture<BatchedResult> queuedOnOne;
      try (Tensor x = Exports.row(4); BatchedResult result = batcher.predict(x)) {
        Exports.assertAnswer(A, 4, result.get(0).toFloatArray());
        queuedOnOne = batcher.submit(x);
      }
      publish(base, 2, B);
      refreshTwice(model);
      try (BatchedResult result = queuedOnOne.get()) {
        Exports.assertAnswer(A, 4, result.get(0).toFloatArray());
      }
      try (BatchedResult result = batcher.predictRow((Object) new float[] {4, 4.5f, -8})) {
        Exports.assertAnswer(B, 4, result.get(0).toFloatArray());
      }
    }
  }

  @Test
  void closeWaitsForTheCallsInFlight() throws InterruptedException {
    publish(base, 1, A);
    VersionedModel model = builder().build();
    VersionLease inFlight = model.lease();
    Thread closer = new Thread(model::close, "closer");
    closer.start();
    Thread.State state;
    do {
      Thread.onSpinWait();
      state = closer.getState();
    } while (state != Thread.State.WAITING && state != Thread.State.TERMINATED);
    assertEquals(Thread.State.WAITING, state, "close() returned with a call in flight");
    assertThrows(IllegalStateException.class, model::lease, "new calls are refused at once");
    try (Tensor x = Exports.row(6); var result = inFlight.model().run(Map.of("x", x))) {
      Exports.assertAnswer(A, 6, result.get("y").toFloatArray());
    }
    inFlight.close();
    closer.join();
    assertTrue(model.status().closed());
  }

  @Test
  void closeRefusesEverythingAfterAndTwiceIsOnce() {
    publish(base, 1, A);
    VersionedModel model = builder().build();
    ServingPredictor predictor = model.predictor(SavedModel.DEFAULT_SIGNATURE);
    ServingBatchingPredictor batcher = model.batchingPredictor(SavedModel.DEFAULT_SIGNATURE,
        List.of("x"), List.of(), options -> { });
    model.close();
    model.close();
    assertTrue(model.status().closed());
    assertEquals(VersionedModel.NO_VERSION, model.servingVersion());
    try (Tensor x = Exports.row(0)) {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> predictor.run(x));
      TestModels.assertMentions(e, "is closed");
      assertThrows(IllegalStateException.class, () -> batcher.predict(x));
      assertThrows(IllegalStateException.class, () -> batcher.submit(x));
    }
    assertThrows(IllegalStateException.class, model::refresh);
    assertThrows(IllegalStateException.class, model::lease);
    assertThrows(IllegalStateException.class, () -> model.lease(1));
    assertThrows(IllegalStateException.class,
        () -> model.predictor(SavedModel.DEFAULT_SIGNATURE));
    assertFalse(model.status().loadedVersions().contains(1L));
  }
}
