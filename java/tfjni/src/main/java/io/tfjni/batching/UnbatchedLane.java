package io.tfjni.batching;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Admits blocking callers of a {@link BatchingPredictor} to run their own rows on their own
 * threads while its {@link BatchPolicy} is in the unbatched mode, without the predictor's lock:
 * one atomic update when a run starts and one when it ends, so that the unbatched mode costs
 * about what running unbatched costs (a lone caller through the batcher: 0.5% more instructions
 * per call of the tiny MLP than the prepared fast path; docs/BATCHING.md).
 *
 * <p>The predictor opens the lane, under its lock, when the policy changes to the unbatched mode,
 * giving the policy's mode token as the lane's epoch, and closes it when the policy leaves that
 * mode; closing returns the runs still in flight, which the policy then counts as the earlier
 * mode's. A run that ends in the epoch it was admitted to adds its rows to counters that the
 * predictor takes from time to time and hands to the policy in one step ({@link #takeRuns},
 * {@link #takeRows}); a run that ends after its epoch closed is told to the policy on its own.
 */
final class UnbatchedLane {
  /** What {@link #claim} returns when the caller is not admitted (epochs are never negative). */
  static final long REFUSED = -1;

  /** The state's bits: the epoch (high 32), open (bit 31), runs in flight (bits 0 to 30). */
  private static final long OPEN = 1L << 31;
  private static final long IN_FLIGHT = OPEN - 1;

  private final AtomicLong state = new AtomicLong();
  private final AtomicLong finishedRuns = new AtomicLong();
  private final AtomicLong finishedRows = new AtomicLong();
  /** Whether a run was admitted while another was in flight, since {@link #takeOverlapped}. */
  private final AtomicBoolean overlapped = new AtomicBoolean();

  /**
   * Admits one run if the lane is open and fewer than {@code capacity} of its runs are in flight.
   *
   * @return the epoch the run belongs to, for {@link #finish}; or {@link #REFUSED}
   */
  long claim(int capacity) {
    while (true) {
      long current = state.get();
      if ((current & OPEN) == 0 || (current & IN_FLIGHT) >= capacity) {
        return REFUSED;
      }
      if (state.compareAndSet(current, current + 1)) {
        if ((current & IN_FLIGHT) != 0 && !overlapped.get()) {
          overlapped.set(true);  // read first: callers that overlap write the flag once
        }
        return current >>> 32;
      }
    }
  }

  /**
   * A run admitted to {@code epoch} ended.
   *
   * @return true if that epoch is still open: the run is counted here; false if it closed
   *     meanwhile: {@link #close} handed the run to the caller, who tells the policy it ended
   */
  boolean finish(long epoch, int rows) {
    while (true) {
      long current = state.get();
      if ((current & OPEN) == 0 || current >>> 32 != epoch) {
        return false;
      }
      if (state.compareAndSet(current, current - 1)) {
        break;
      }
    }
    // Counted after the run left the state: should the epoch close in between, this run's rows
    // go to the next handing-over, one run among the thousands a window holds.
    finishedRows.addAndGet(rows);
    finishedRuns.incrementAndGet();
    return true;
  }

  /** Opens the lane for runs of {@code epoch} (a non-negative int), none in flight yet. */
  void open(long epoch) {
    if (epoch < 0 || epoch > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException("epoch " + epoch);
    }
    state.set(epoch << 32 | OPEN);
  }

  /**
   * Closes the lane: no run is admitted until it opens again.
   *
   * @return the runs in flight at the close: each will end with {@link #finish} false, and is the
   *     caller's to count from now on
   */
  int close() {
    long current = state.getAndSet(0);
    return (current & OPEN) == 0 ? 0 : (int) (current & IN_FLIGHT);
  }

  /** Whether the lane is open for runs of {@code epoch}. */
  boolean isOpenFor(long epoch) {
    long current = state.get();
    return (current & OPEN) != 0 && current >>> 32 == epoch;
  }

  /** Whether the lane is open. */
  boolean isOpen() {
    return (state.get() & OPEN) != 0;
  }

  /** The runs counted since the last call (see {@link #finish}); resets the count. */
  long takeRuns() {
    return finishedRuns.getAndSet(0);
  }

  /**
   * Whether a run was admitted while another of the lane's was in flight since the last call:
   * only callers that overlap can share a batch. Resets the flag.
   */
  boolean takeOverlapped() {
    return overlapped.getAndSet(false);
  }

  /** The rows of those runs; resets the count. */
  long takeRows() {
    return finishedRows.getAndSet(0);
  }
}
