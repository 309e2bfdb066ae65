package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tfjni.eager.EagerContext;
import io.tfjni.eager.NDManager;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A user's own {@code synchronized} on a tfjni object (or on {@code EagerContext.class}) must
 * not stall tfjni: its locks are private. Each case holds the user's monitor in one thread and
 * runs the tfjni call in another, which must finish without ever blocking on that monitor
 * (observed through the thread's state and the lock it waits for, not timed).
 */
@ExtendWith(TestModels.NoLeaks.class)
class PrivateLocksTest {
  /**
   * Runs {@code call} while another thread holds {@code monitor}; fails if it blocks on it, and
   * with what it threw if it threw.
   */
  private static void runWhileUserHolds(Object monitor, Runnable call) throws Exception {
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch done = new CountDownLatch(1);
    Thread user = new Thread(() -> {
      synchronized (monitor) {
        held.countDown();
        try {
          done.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }, "user-holding-monitor");
    user.start();
    held.await();
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread caller = new Thread(() -> {
      try {
        call.run();
      } catch (Throwable t) {
        thrown.set(t);
      }
    }, "tfjni-call");
    caller.start();
    try {
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      while (caller.isAlive()) {
        // Blocked on the user's monitor, not on another one (class loading takes locks too).
        ThreadInfo info = threads.getThreadInfo(caller.getId());
        if (info != null && info.getThreadState() == Thread.State.BLOCKED
            && info.getLockInfo() != null
            && info.getLockInfo().getIdentityHashCode() == System.identityHashCode(monitor)) {
          fail("the call blocked on the monitor the user holds");
        }
        Thread.onSpinWait();
      }
    } finally {
      done.countDown();
      user.join();
      caller.join();
    }
    if (thrown.get() != null) {
      throw new AssertionError("the call failed", thrown.get());
    }
  }

  @Test
  void closingATensorIgnoresTheUsersMonitorOnIt() throws Exception {
    Tensor tensor = Tensor.of(new float[] {1, 2}, 2);
    runWhileUserHolds(tensor, tensor::close);
    assertTrue(tensor.isClosed());
  }

  @Test
  void closingAManagerIgnoresTheUsersMonitorOnIt() throws Exception {
    NDManager manager = NDManager.newBaseManager();
    manager.zeros(DataType.FLOAT, 2);
    runWhileUserHolds(manager, manager::close);
    assertTrue(manager.isClosed());
  }

  @Test
  void theSharedContextIgnoresTheUsersMonitorOnItsClass() throws Exception {
    runWhileUserHolds(EagerContext.class, () -> assertNotNull(EagerContext.shared()));
  }
}
