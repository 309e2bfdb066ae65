package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
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
  void otherThreadSettingsAreAnotherModel() {
    ModelCache cache = new ModelCache("test", Duration.ZERO);
    try (ModelCache.Lease shared = cache.acquire(DIGITS);
        ModelCache.Lease ownPool = cache.acquire(
            new ModelCache.Key(DIGITS.path(), DIGITS.tags(), 0, 2))) {
      assertNotSame(shared.model(), ownPool.model());
    }
  }
}
