package io.tfjni.internal;

import io.tfjni.OpenObject;
import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import java.lang.ref.Cleaner;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Opt-in leak tracing: while on, every {@link NativeResource} made records the stack that created
 * it; {@link TensorFlow#openObjects()} lists those still open, and one that becomes unreachable
 * without {@code close()} is reported through the {@value #LOGGER} logger.
 *
 * <p>Reporting does not free the object. The native object stays allocated until the process ends,
 * exactly as with tracing off: a diagnostic mode must not change what it diagnoses (a leak that
 * frees itself when traced would vanish while being looked for), and an unreachable tensor may
 * still have a {@link Tensor#buffer()} view in use, which freeing would turn into a crash.
 *
 * <p>Off, the cost is one null check when an object is closed or reopened: nothing is recorded
 * and nothing allocated.
 */
public final class LeakTracer {
  public static final String PROPERTY = "tfjni.leakTracing";
  public static final String ENV = "TFJNI_LEAK_TRACING";
  public static final String LOGGER = "io.tfjni.leaks";

  private static volatile boolean enabled =
      enabledBy(System.getProperty(PROPERTY), System.getenv(ENV));
  private static final Set<Trace> OPEN = ConcurrentHashMap.newKeySet();
  private static final AtomicLong IDS = new AtomicLong();

  private LeakTracer() {}

  /** Made on first use: no thread while tracing stays off. */
  private static final class Reaper {
    static final Cleaner CLEANER = Cleaner.create(runnable -> {
      Thread thread = new Thread(runnable, "tfjni-leak-tracer");
      thread.setDaemon(true);
      return thread;
    });
  }

  /** The property, if set, decides; else the environment variable. */
  public static boolean enabledBy(String property, String env) {
    if (property != null && !property.isBlank()) {
      return isOn(property);
    }
    return env != null && isOn(env);
  }

  private static boolean isOn(String value) {
    String v = value.trim();
    return v.equals("1") || v.equalsIgnoreCase("true");
  }

  public static boolean enabled() {
    return enabled;
  }

  public static void setEnabled(boolean on) {
    enabled = on;
  }

  /** Records a new resource's creation stack; lists it as open if it holds a native object. */
  public static Trace track(NativeResource resource, boolean open) {
    Trace trace = new Trace(resource.getClass().getSimpleName(), IDS.incrementAndGet());
    if (open) {
      OPEN.add(trace);
    }
    Reaper.CLEANER.register(resource, trace);
    return trace;
  }

  public static void closed(Trace trace) {
    OPEN.remove(trace);
  }

  /** A result holder got a new native object: open again, with its original creation stack. */
  public static void reopened(Trace trace) {
    OPEN.add(trace);
  }

  public static List<OpenObject> openObjects() {
    List<OpenObject> list = new ArrayList<>();
    for (Trace trace : OPEN) {
      list.add(new OpenObject(trace.kind, trace.id, trace.unreachable,
          List.of(trace.site.trimmedStack())));
    }
    list.sort(Comparator.comparingLong(OpenObject::id));
    return list;
  }

  /** The stack that created a resource; a Throwable so the stack is walked only if shown. */
  public static final class CreationSite extends Throwable {
    private static final long serialVersionUID = 1L;

    CreationSite(String message) {
      super(message);
    }

    /** The stack without the tracer's and NativeResource's own frames. */
    StackTraceElement[] trimmedStack() {
      StackTraceElement[] stack = getStackTrace();
      int skip = 0;
      while (skip < stack.length && isInternal(stack[skip])) {
        skip++;
      }
      return Arrays.copyOfRange(stack, skip, stack.length);
    }

    private static boolean isInternal(StackTraceElement frame) {
      return frame.getClassName().startsWith(LeakTracer.class.getName())
          || frame.getClassName().equals(NativeResource.class.getName());
    }
  }

  /**
   * One traced resource. It is also the Cleaner's action, so it must not refer to the resource
   * (that would keep it reachable).
   */
  public static final class Trace implements Runnable {
    final String kind;
    final long id;
    final CreationSite site;
    volatile boolean unreachable;

    Trace(String kind, long id) {
      this.kind = kind;
      this.id = id;
      this.site = new CreationSite(kind + "#" + id + " created here");
    }

    /** Runs on the Cleaner's thread once the resource is unreachable. */
    @Override
    public void run() {
      if (!OPEN.contains(this)) {
        return;
      }
      unreachable = true;
      site.setStackTrace(site.trimmedStack());
      System.getLogger(LOGGER).log(System.Logger.Level.WARNING,
          "tfjni leak: " + kind + "#" + id + " became unreachable without close(); its native "
              + "memory stays allocated until the process exits. It was created here:",
          site);
    }
  }
}
