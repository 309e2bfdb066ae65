package io.tfjni.serving;

import java.util.Arrays;
import java.util.Collections;
import java.util.NavigableSet;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Which of the versions ready on disk a {@link VersionedModel} loads (TensorFlow Serving's
 * {@code model_version_policy}). New calls always go to the newest loaded version.
 */
public final class VersionPolicy {
  private final int latest;
  private final long[] specific;

  private VersionPolicy(int latest, long[] specific) {
    this.latest = latest;
    this.specific = specific;
  }

  /**
   * The newest version ready on disk (TensorFlow Serving's default).
   *
   * @return the policy
   */
  public static VersionPolicy latest() {
    return latest(1);
  }

  /**
   * The {@code count} newest versions ready on disk.
   *
   * @param count 1 or more
   * @return the policy
   * @throws IllegalArgumentException if count is less than 1
   */
  public static VersionPolicy latest(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("the number of latest versions must be at least 1, got "
          + count);
    }
    return new VersionPolicy(count, null);
  }

  /**
   * These versions, those of them that are ready on disk.
   *
   * @param versions one or more non-negative version numbers
   * @return the policy
   * @throws IllegalArgumentException if none is given or one is negative
   */
  public static VersionPolicy specific(long... versions) {
    if (versions.length == 0) {
      throw new IllegalArgumentException("name at least one version");
    }
    long[] sorted = versions.clone();
    Arrays.sort(sorted);
    if (sorted[0] < 0) {
      throw new IllegalArgumentException("versions are non-negative, got "
          + Arrays.toString(versions));
    }
    return new VersionPolicy(0, sorted);
  }

  /**
   * The versions to serve among those ready.
   *
   * @param ready the versions whose directories are complete and not failed
   * @return the versions to load, ascending; empty if none of those ready is named
   */
  public NavigableSet<Long> select(SortedSet<Long> ready) {
    TreeSet<Long> chosen = new TreeSet<>();
    if (specific != null) {
      for (long version : specific) {
        if (ready.contains(version)) {
          chosen.add(version);
        }
      }
    } else {
      for (Long version : new TreeSet<>(ready).descendingSet()) {
        if (chosen.size() == latest) {
          break;
        }
        chosen.add(version);
      }
    }
    return Collections.unmodifiableNavigableSet(chosen);
  }

  @Override
  public String toString() {
    return specific != null ? "specific versions " + Arrays.toString(specific)
        : "the latest " + latest + " version" + (latest > 1 ? "s" : "");
  }
}
