package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One model from many threads: results equal serial runs, and closing a model, predictor or
 * input while other threads run never crashes the JVM (documented behaviour: close rejects new
 * runs with IllegalStateException and waits for the runs in flight).
 */
@ExtendWith(TestModels.NoLeaks.class)
class ConcurrencyTest {
  private static final int THREADS = 8;
  private static final int BATCHES = 16;
  private static final int RUNS_PER_THREAD = 40;


  private static float[][] randomImageBatches() {
    Random random = new Random(42);
    float[][] batches = new float[BATCHES][];
    for (int b = 0; b < BATCHES; b++) {
      int batch = 1 + b % 5;
      batches[b] = new float[batch * 64];
      for (int i = 0; i < batches[b].length; i++) {
        batches[b][i] = random.nextFloat();
      }
    }
    return batches;
  }

  private static float[] classify(Predictor predictor, float[] pixels, RunResult into) {
    try (Tensor images = Tensor.of(pixels, pixels.length / 64, 8, 8, 1)) {
      predictor.run(images, into);
      return into.get(0).toFloatArray();
    }
  }

  @Test
  void eightThreadsGiveTheSameResultsAsSerialRuns() throws Exception {
    float[][] batches = randomImageBatches();
    try (SavedModel model = SavedModel.load(TestModels.dir().resolve("digits"));
        Predictor predictor = model.predictor("serving_default")) {
      float[][] serial = new float[BATCHES][];
      try (RunResult result = predictor.newResult()) {
        for (int b = 0; b < BATCHES; b++) {
          serial[b] = classify(predictor, batches[b], result);
        }
      }
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      try {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Integer>> checked = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
          int thread = t;
          checked.add(pool.submit(() -> {
            start.await();
            int runs = 0;
            try (RunResult result = predictor.newResult()) {
              for (int i = 0; i < RUNS_PER_THREAD; i++) {
                int b = (thread * 7 + i) % BATCHES;
                if (i % 2 == 0) {
                  assertArrayEquals(serial[b], classify(predictor, batches[b], result), 1e-6f);
                } else {
                  try (Tensor images = Tensor.of(batches[b], batches[b].length / 64, 8, 8, 1);
                      RunResult mapResult = model.run(Map.of("images", images))) {
                    assertArrayEquals(serial[b], mapResult.get("output_0").toFloatArray(), 1e-6f);
                  }
                }
                runs++;
              }
            }
            return runs;
          }));
        }
        start.countDown();
        for (Future<Integer> f : checked) {
          assertEquals(RUNS_PER_THREAD, f.get(120, TimeUnit.SECONDS));
        }
      } finally {
        pool.shutdownNow();
      }
    }
  }

  @Test
  void closingTheModelWhileThreadsRunRejectsNewRunsAndWaitsForRunning() throws Exception {
    float[][] batches = randomImageBatches();
    float[][] serial = new float[BATCHES][];
    SavedModel model = SavedModel.load(TestModels.dir().resolve("digits"));
    Predictor predictor = model.predictor("serving_default");
    try (RunResult result = predictor.newResult()) {
      for (int b = 0; b < BATCHES; b++) {
        serial[b] = classify(predictor, batches[b], result);
      }
    }
    AtomicInteger completed = new AtomicInteger();
    AtomicInteger rejected = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    CountDownLatch running = new CountDownLatch(THREADS);
    List<Future<?>> workers = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      workers.add(pool.submit(() -> {
        try (RunResult result = predictor.newResult()) {
          for (int i = 0; ; i++) {
            int b = (thread + i) % BATCHES;
            float[] probs;
            try {
              probs = thread % 2 == 0 ? classify(predictor, batches[b], result)
                  : mapRun(model, batches[b]);
            } catch (IllegalStateException e) {
              assertTrue(e.getMessage().contains("closed"), e.getMessage());
              rejected.incrementAndGet();
              return null;
            }
            assertArrayEquals(serial[b], probs, 1e-6f);
            completed.incrementAndGet();
            if (i == 3) {
              running.countDown();
            }
          }
        }
      }));
    }
    assertTrue(running.await(120, TimeUnit.SECONDS));
    model.close();
    assertTrue(model.isClosed());
    assertTrue(predictor.isClosed(), "closing a model closes its predictors");
    for (Future<?> worker : workers) {
      worker.get(120, TimeUnit.SECONDS);
    }
    pool.shutdown();
    assertEquals(THREADS, rejected.get());
    assertTrue(completed.get() >= THREADS * 4);
    assertThrows(IllegalStateException.class, () -> model.predictor("serving_default"));
    model.close();
  }

  private static float[] mapRun(SavedModel model, float[] pixels) {
    try (Tensor images = Tensor.of(pixels, pixels.length / 64, 8, 8, 1);
        RunResult result = model.run(Map.of("images", images))) {
      return result.get("output_0").toFloatArray();
    }
  }

  @Test
  void closingAnInputTensorWhileAnotherThreadFeedsIt() throws Exception {
    try (SavedModel model = SavedModel.load(TestModels.dir().resolve("multi"));
        Predictor predictor = model.predictor("scale")) {
      Tensor x = Tensor.of(new float[] {1, 2, 3, 4, 5, 6}, 2, 3);
      CountDownLatch started = new CountDownLatch(1);
      ExecutorService pool = Executors.newSingleThreadExecutor();
      Future<Integer> runs = pool.submit(() -> {
        int n = 0;
        try (RunResult result = predictor.newResult()) {
          while (true) {
            try {
              predictor.run(x, result);
            } catch (IllegalStateException e) {
              return n;
            }
            assertArrayEquals(new float[] {2, 4, 6, 8, 10, 12},
                result.get("scaled").toFloatArray());
            n++;
            started.countDown();
          }
        }
      });
      assertTrue(started.await(60, TimeUnit.SECONDS));
      x.close();
      assertTrue(runs.get(60, TimeUnit.SECONDS) >= 1);
      pool.shutdown();
    }
  }

  @Test
  void closingAPredictorWhileThreadsRunIt() throws Exception {
    try (SavedModel model = SavedModel.load(TestModels.dir().resolve("multi"))) {
      Predictor predictor = model.predictor("add");
      ExecutorService pool = Executors.newFixedThreadPool(4);
      CountDownLatch started = new CountDownLatch(4);
      List<Future<?>> workers = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        workers.add(pool.submit(() -> {
          try (Tensor a = Tensor.of(new float[] {1, 2}, 2);
              Tensor b = Tensor.of(new float[] {3, 4}, 2);
              RunResult result = predictor.newResult()) {
            Tensor[] inputs = {a, b};
            while (true) {
              try {
                predictor.run(inputs, result);
              } catch (IllegalStateException e) {
                return null;
              }
              assertArrayEquals(new float[] {4, 6}, result.get(0).toFloatArray());
              started.countDown();
            }
          }
        }));
      }
      assertTrue(started.await(60, TimeUnit.SECONDS));
      predictor.close();
      for (Future<?> worker : workers) {
        worker.get(60, TimeUnit.SECONDS);
      }
      pool.shutdown();
      // The model is still usable through a new predictor.
      try (Predictor again = model.predictor("add");
          Tensor a = Tensor.of(new float[] {1}, 1);
          Tensor b = Tensor.of(new float[] {2}, 1);
          RunResult result = again.run(a, b)) {
        assertArrayEquals(new float[] {3}, result.get(0).toFloatArray());
      }
    }
  }
}
