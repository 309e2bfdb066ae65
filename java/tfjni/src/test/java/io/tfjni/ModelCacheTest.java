package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** One model per key for every lease; closed with the last lease, or when evicted after use. */
@ExtendWith(TestModels.NoLeaks.class)
class ModelCacheTest {
  private static final ModelCache.Key DIGITS =
      new ModelCache.Key(TestModels.modelPath("digits"), List.of("serve"), 0, 0);

  private static long liveModels() {
    return TensorFlow.liveObjects().savedModels();
  }

  @Test
  void withNoIdleTimeTheLastLeaseClosesTheModel() {
    ModelCache cache = new ModelCache("test", Duration.ZERO);
    long before = liveModels();
    ModelCache.Lease first = cache.acquire(DIGITS);
    ModelCache.Lease second = cache.acquire(DIGITS);
    assertSame(first.model(), second.model());
    assertEquals(before + 1, liveModels(), "two leases, one model");
    first.close();
    first.close();  // idempotent: the second lease still holds the model
    assertEquals(before + 1, liveModels());
    second.close();
    assertEquals(before, liveModels(), "the last lease closed it");
    assertThrows(IllegalStateException.class, second::model);
  }

  @Test
  void withAnIdleTimeAnUnusedModelStaysUntilEvicted() {
    ModelCache cache = new ModelCache("test", Duration.ofHours(1));
    long before = liveModels();
    SavedModel model;
    try (ModelCache.Lease lease = cache.acquire(DIGITS)) {
      model = lease.model();
    }
    assertEquals(before + 1, liveModels(), "kept for the next user");
    try (ModelCache.Lease again = cache.acquire(DIGITS)) {
      assertSame(model, again.model(), "the next user finds it loaded");
    }
    assertEquals(1, cache.evictUnused());
    assertEquals(before, liveModels());
  }

  @Test
  void theScheduledEvictionClosesAModelUnusedForTheIdleTime() {
    AtomicLong now = new AtomicLong();
    List<Runnable> tasks = new ArrayList<>();
    List<Long> periods = new ArrayList<>();
    ModelCache cache = new ModelCache("test", Duration.ofMinutes(1), now::get,
        (task, periodNanos) -> {
          tasks.add(task);
          periods.add(periodNanos);
        });
    long before = liveModels();
    SavedModel model;
    try (ModelCache.Lease lease = cache.acquire(DIGITS)) {
      model = lease.model();
    }
    assertEquals(List.of(Duration.ofSeconds(30).toNanos()), periods, "every half idle time");
    now.set(Duration.ofSeconds(59).toNanos());
    tasks.get(0).run();
    assertFalse(model.isClosed(), "unused for 59 s of 60");
    try (ModelCache.Lease again = cache.acquire(DIGITS)) {
      assertSame(model, again.model());
      now.set(Duration.ofSeconds(200).toNanos());
      tasks.get(0).run();
      assertFalse(model.isClosed(), "a leased model is never evicted");
    }
    now.set(Duration.ofSeconds(259).toNanos());
    tasks.get(0).run();
    assertFalse(model.isClosed(), "unused for 59 s since its last lease");
    now.set(Duration.ofSeconds(260).toNanos());
    tasks.get(0).run();
    assertTrue(model.isClosed(), "unused for the idle time");
    assertEquals(before, liveModels());
    assertEquals(1, tasks.size(), "scheduled once");
  }

  @Test
  void otherThreadSettingsAreAnotherModel() {
    ModelCache cache = new ModelCache("test", Duration.ZERO);
    try (ModelCache.Lease shared = cache.acquire(DIGITS);
        ModelCache.Lease ownPool = cache.acquire(
            new ModelCache.Key(DIGITS.path(), DIGITS.tags(), 0, 2))) {
      assertNotSame(shared.model(), ownPool.model());
    }
  }
}
