package io.tfjni.serving;

import static io.tfjni.serving.Exports.A;
import static io.tfjni.serving.Exports.B;
import static io.tfjni.serving.Exports.assertServes;
import static io.tfjni.serving.Exports.publish;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tfjni.LiveObjects;
import io.tfjni.SavedModel;
import io.tfjni.TensorFlow;
import io.tfjni.TestModels;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A versioned model hands the memory an unloaded version freed back to the system right after
 * each unload (TensorFlow.releaseFreeMemory(), by default), and never with
 * releaseFreedMemory(false). The release is observed through the builder's seam, which records
 * the live native objects at each release: a release after the unload sees the version's
 * objects gone.
 */
@ExtendWith(TestModels.NoLeaks.class)
class FreedMemoryReleaseTest {
  @TempDir
  Path base;
  /** The live native objects at each release, in order. */
  final List<LiveObjects> releases = new ArrayList<>();

  private VersionedModel build(boolean release) {
    return VersionedModel.builder(base).pollInterval(Duration.ZERO).releaseFreedMemory(release)
        .freedMemoryRelease(() -> releases.add(TensorFlow.liveObjects())).build();
  }

  /**
   * Serves version 1, swaps to version 2 (version 1 unloaded), closes (version 2 unloaded);
   * returns the live objects while only version 2 was loaded.
   */
  private LiveObjects swapAndClose(boolean release) {
    LiveObjects before = TensorFlow.liveObjects();
    publish(base, 1, A);
    LiveObjects onlyVersion2;
    try (VersionedModel model = build(release)) {
      ServingPredictor predictor = model.predictor(SavedModel.DEFAULT_SIGNATURE);
      assertServes(predictor, A);
      publish(base, 2, B);
      model.refresh();
      model.refresh();
      assertEquals(2, model.servingVersion(), model.status().toString());
      assertEquals(List.of(2L), model.status().loadedVersions());
      assertServes(predictor, B);
      onlyVersion2 = TensorFlow.liveObjects();
    }
    assertEquals(before, TensorFlow.liveObjects(), "after close()");
    return onlyVersion2;
  }

  @Test
  void eachUnloadIsFollowedByARelease() {
    LiveObjects before = TensorFlow.liveObjects();
    LiveObjects onlyVersion2 = swapAndClose(true);
    assertEquals(2, releases.size(), "a release per unload: version 1 at the swap, 2 at close");
    assertEquals(onlyVersion2, releases.get(0), "version 1's release, after it was unloaded");
    assertEquals(before, releases.get(1), "version 2's release, after it was unloaded");
  }

  @Test
  void releaseFreedMemoryFalseReleasesNothing() {
    swapAndClose(false);
    assertEquals(List.of(), releases);
  }
}
