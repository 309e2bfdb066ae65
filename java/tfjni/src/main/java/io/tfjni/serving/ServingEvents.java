package io.tfjni.serving;

import java.time.Duration;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * The JDK Flight Recorder events of versioned serving, committed by a listener every {@link
 * VersionedModel} has. Loads, failed loads, swaps and unloads are recorded whenever a recording
 * runs ({@code jcmd PID JFR.start}); runs only when {@value #RUN} is enabled, as its cost is per
 * call, and a batching predictor's runs only when {@value #BATCH} is.
 */
final class ServingEvents implements ServingListener {
  static final String RUN = "io.tfjni.serving.Run";
  static final String BATCH = "io.tfjni.serving.Batch";

  /** Read before an event object is made: no object per call while the event is off. */
  private static final EventType RUN_TYPE = EventType.getEventType(RunEvent.class);
  private static final EventType BATCH_TYPE = EventType.getEventType(BatchEvent.class);

  private final String model;

  ServingEvents(String model) {
    this.model = model;
  }

  @Override
  public void onLoad(long version, Duration loadTime, Duration warmUpTime) {
    LoadEvent event = new LoadEvent();
    if (event.isEnabled()) {
      event.model = model;
      event.version = version;
      event.loadTime = loadTime.toNanos();
      event.warmUpTime = warmUpTime.toNanos();
      event.commit();
    }
  }

  @Override
  public void onLoadFailed(VersionFailure failure) {
    LoadFailedEvent event = new LoadFailedEvent();
    if (event.isEnabled()) {
      event.model = model;
      event.version = failure.version();
      event.stage = failure.stage().name();
      event.code = failure.code().map(Enum::name).orElse("");
      event.message = failure.message();
      event.commit();
    }
  }

  @Override
  public void onSwap(long previousVersion, long newVersion, Duration unavailable) {
    SwapEvent event = new SwapEvent();
    if (event.isEnabled()) {
      event.model = model;
      event.previousVersion = previousVersion;
      event.newVersion = newVersion;
      event.unavailable = unavailable.toNanos();
      event.commit();
    }
  }

  @Override
  public void onUnload(long version, Duration drainTime) {
    UnloadEvent event = new UnloadEvent();
    if (event.isEnabled()) {
      event.model = model;
      event.version = version;
      event.drainTime = drainTime.toNanos();
      event.commit();
    }
  }

  /** Records one finished call when {@value #RUN} is enabled; allocates nothing otherwise. */
  static void run(String model, long version, long rows, long runTimeNanos, String error) {
    if (!RUN_TYPE.isEnabled()) {
      return;
    }
    RunEvent event = new RunEvent();
    event.model = model;
    event.version = version;
    event.rows = rows;
    event.runTime = runTimeNanos;
    event.error = error;
    event.commit();
  }

  /**
   * Records one run of a version's batching predictor when {@value #BATCH} is enabled; allocates
   * nothing otherwise.
   */
  static void batch(String model, long version, int callers, int rows, long runTimeNanos,
      boolean failed) {
    if (!BATCH_TYPE.isEnabled()) {
      return;
    }
    BatchEvent event = new BatchEvent();
    event.model = model;
    event.version = version;
    event.callers = callers;
    event.rows = rows;
    event.runTime = runTimeNanos;
    event.failed = failed;
    event.commit();
  }

  @Name("io.tfjni.serving.Load")
  @Label("Model Version Loaded")
  @Category({"tfjni", "Serving"})
  @Description("A version loaded and warmed up; it serves from now on")
  @StackTrace(false)
  static final class LoadEvent extends Event {
    @Label("Model") String model;
    @Label("Version") long version;
    @Label("Load Time") @Timespan long loadTime;
    @Label("Warm-up Time") @Timespan long warmUpTime;
  }

  @Name("io.tfjni.serving.LoadFailed")
  @Label("Model Version Load Failed")
  @Category({"tfjni", "Serving"})
  @Description("A version failed to load, match the held predictors or warm up; or nothing to"
      + " serve was found (stage SOURCE)")
  @StackTrace(false)
  static final class LoadFailedEvent extends Event {
    @Label("Model") String model;
    @Label("Version") long version;
    @Label("Stage") String stage;
    @Label("TensorFlow Code") String code;
    @Label("Message") String message;
  }

  @Name("io.tfjni.serving.Swap")
  @Label("Model Version Swap")
  @Category({"tfjni", "Serving"})
  @Description("New calls go to another version from now on (-1: none)")
  @StackTrace(false)
  static final class SwapEvent extends Event {
    @Label("Model") String model;
    @Label("Previous Version") long previousVersion;
    @Label("New Version") long newVersion;
    @Label("Unavailable") @Timespan long unavailable;
  }

  @Name("io.tfjni.serving.Unload")
  @Label("Model Version Unloaded")
  @Category({"tfjni", "Serving"})
  @Description("A version left service and its last call returned; it is closed")
  @StackTrace(false)
  static final class UnloadEvent extends Event {
    @Label("Model") String model;
    @Label("Version") long version;
    @Label("Drain Time") @Timespan long drainTime;
  }

  @Name(RUN)
  @Label("Model Run")
  @Category({"tfjni", "Serving"})
  @Description("One call of a serving predictor, committed when it returns")
  @Enabled(false)
  @StackTrace(false)
  static final class RunEvent extends Event {
    @Label("Model") String model;
    @Label("Version") long version;
    @Label("Rows") long rows;
    @Label("Run Time") @Timespan long runTime;
    @Label("Error") @Description("TensorFlow's code, the exception's class, or empty") String error;
  }

  @Name(BATCH)
  @Label("Model Batch")
  @Category({"tfjni", "Serving"})
  @Description("One run of a batching predictor (a batch, or a caller's rows run alone),"
      + " committed when it ends")
  @Enabled(false)
  @StackTrace(false)
  static final class BatchEvent extends Event {
    @Label("Model") String model;
    @Label("Version") long version;
    @Label("Callers") int callers;
    @Label("Rows") int rows;
    @Label("Run Time") @Timespan long runTime;
    @Label("Failed") boolean failed;
  }
}
