package io.tfjni.batching;

import io.tfjni.DataType;
import io.tfjni.InvalidRowException;
import io.tfjni.Predictor;
import io.tfjni.RowSpec;
import io.tfjni.RunResult;
import io.tfjni.SavedModel;
import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import io.tfjni.TensorFlowException;
import io.tfjni.TensorSpec;
import io.tfjni.internal.CoreAccess;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Batches requests from many callers into one run of a {@link Predictor}: each caller submits
 * one row (or a few) of every input; requests whose rows have the same shapes are concatenated
 * along the first (batch) dimension until {@linkplain Builder#maxBatchSize the maximum batch
 * size} is reached or {@linkplain Builder#maxDelay the maximum delay} since the oldest queued
 * request has passed, run once, and each caller gets its own rows of every output. At most
 * {@linkplain Builder#maxConcurrentBatches a set number of batches} run at once; a batch that is
 * due meanwhile keeps gathering rows, so with no delay batches grow as much as the model is busy,
 * and the model never waits for rows while it is idle.
 *
 * <p>Batching saves runs but costs each batched call a hand-off to another thread and back, which
 * for a small model can cost more than the runs it saves. So with no delay (the default) the
 * batching predictor measures the rows per second it runs with batching and with each blocking
 * caller running its own rows on its own thread (up to as many at once as the maximum batch
 * size), over windows of some milliseconds; it starts unbatched, keeps the better and tries the
 * other again from time to time, less often each time that loses. With a delay, rows always
 * batch.
 *
 * <pre>{@code
 * try (SavedModel model = SavedModel.load(Path.of("model"));
 *     Predictor predictor = model.predictor("serving_default");
 *     BatchingPredictor batcher = BatchingPredictor.builder(predictor)
 *         .maxBatchSize(32).maxDelay(Duration.ofMillis(2)).build();
 *     Tensor row = Tensor.of(new float[] {1, 2, 3}, 1, 3);
 *     BatchedResult result = batcher.predict(row)) {
 *   float[] answer = result.get(0).toFloatArray();
 * }
 * }</pre>
 *
 * <p>Ownership: {@link #predict} and {@link #submit} copy the caller's input tensors before they
 * return, so the caller may close them at once. The {@link BatchedResult} a caller gets is its
 * own: it must close it (a result that arrives after its caller gave up, by timeout or cancel, is
 * freed here). The batching predictor does not own the {@link Predictor}: close the batching
 * predictor first.
 *
 * <p>Who runs a batch: a dedicated batching thread; with {@link Builder#callerLeads(boolean)},
 * also a caller blocked in {@link #predict} that finds the model idle (no batch running or being
 * formed), which then forms and runs the batch itself. The futures of {@link #submit} complete
 * on the thread that ran the batch: chain heavy work with the {@code ...Async} methods of
 * {@link CompletableFuture}.
 *
 * <p>A caller running its own rows: with no delay, a caller blocked in {@link #predict} (or
 * {@link #predictRow}) that finds nothing queued and no batch being formed runs its own rows at
 * once on its own thread as a run of their own, when the model is idle and recent runs each
 * served about one caller, or whenever unbatched runs are measured to be faster (above): its
 * tensors are fed as they are and the run's outputs become its result (no copy in or out, no
 * hand-off). Its rows must be an allowed batch size, if sizes are set. Otherwise callers queue
 * and are batched as described above.
 *
 * <p>A signature can be batched when every input and output has a first dimension of unknown
 * size and fixed-size elements or strings; {@link Builder#build} refuses others, naming the
 * offending input or output.
 *
 * <p>Thread safety: every method may be called from any thread.
 */
public final class BatchingPredictor implements AutoCloseable {
  /** What {@link #claimIdleModel} returns when the caller is to queue (tokens are never < 0). */
  private static final long NOT_CLAIMED = -1;
  /** How often runs of the unbatched lane hand their counts to the policy, at most. */
  private static final long LANE_COUNTS_INTERVAL_NANOS = 2_000_000;
  private static final System.Logger LOG = System.getLogger("io.tfjni");
  private static final CoreAccess CORE = CoreAccess.get();

  private final Predictor predictor;
  /** The batch sizes run through a predictor of their own, ascending, and those predictors. */
  private final int[] sizesOfTheirOwn;
  private final Predictor[] predictorsOfTheirOwn;
  private final BatchLayout layout;
  private final int maxBatchSize;
  private final int[] allowedBatchSizes;
  /** Long.MAX_VALUE for an unbounded queue. */
  private final long queueCapacity;
  private final long callTimeoutNanos;
  private final boolean callerLeads;
  /** Told of every run, on the thread that ran it (see {@link #tellRun}). */
  private final BatchListener[] listeners;

  private final ReentrantLock lock = new ReentrantLock();
  /** The leader forming a batch waits here for more rows, or for a batch to finish. */
  private final Condition rowsArrived = lock.newCondition();
  /** The batching thread waits here for rows that no leader is forming into a batch. */
  private final Condition leaderNeeded = lock.newCondition();
  /** {@link #close} waits here for the batches being run. */
  private final Condition batchesDone = lock.newCondition();
  private final ArrayDeque<QueuedRows> queue = new ArrayDeque<>();
  private long queuedRows;
  /** True while one thread (caller or batching thread) forms the next batch. */
  private boolean forming;
  /** Decides what runs when; its runs in flight are this predictor's. Used under the lock. */
  private final BatchPolicy policy;
  private long batchesRun;
  private long rowsRun;
  /** The runs of the unbatched lane among {@link #batchesRun}. */
  private long laneRuns;
  /**
   * The policy's {@link BatchPolicy#callersMayRunAlone()} as of the last run's end; read without
   * the lock, so that under load a caller goes straight to the queue, taking the lock once.
   */
  private volatile boolean callersMayRunAlone;
  /**
   * Admits blocking callers to run their own rows without the lock while the policy is in its
   * unbatched mode ({@link BatchPolicy#laneOpen}); opened and closed under the lock.
   */
  private final UnbatchedLane lane = new UnbatchedLane();
  private final int laneCapacity;
  /** Whether rows are queued or a batch is being formed (callers then queue behind them). */
  private volatile boolean queueBusy;
  /** When a run of the lane next hands the lane's counts to the policy (System.nanoTime()). */
  private volatile long laneCountsDueNanos;
  private final LongAdder runsAlone = new LongAdder();
  private boolean closed;
  private final Thread batchingThread;

  private BatchingPredictor(Builder builder) {
    this.predictor = builder.predictor;
    this.sizesOfTheirOwn = builder.predictorsBySize.keySet().stream().mapToInt(Integer::intValue)
        .sorted().toArray();
    this.predictorsOfTheirOwn = new Predictor[sizesOfTheirOwn.length];
    for (int i = 0; i < sizesOfTheirOwn.length; i++) {
      predictorsOfTheirOwn[i] = builder.predictorsBySize.get(sizesOfTheirOwn[i]);
    }
    this.layout = new BatchLayout(predictor);
    this.maxBatchSize = builder.maxBatchSize;
    this.allowedBatchSizes = builder.allowedBatchSizes;
    this.queueCapacity = builder.queueCapacity;
    this.callTimeoutNanos = builder.callTimeout.toNanos();
    this.callerLeads = builder.callerLeads;
    this.listeners = builder.listeners.toArray(new BatchListener[0]);
    this.policy = new BatchPolicy(BatchPolicy.Settings.of(maxBatchSize,
        builder.maxDelay.toNanos(), allowedBatchSizes, builder.maxConcurrentBatches),
        System::nanoTime);  // the clock of QueuedRows.queuedNanos
    this.laneCapacity = policy.laneCapacity();
    followPolicy();  // opens the lane if the policy starts unbatched
    this.batchingThread = new Thread(this::batchingLoop, builder.threadName);
    batchingThread.setDaemon(true);
    batchingThread.start();
  }

  /**
   * A builder of a batching predictor over {@code predictor}, which it does not own.
   *
   * @param predictor the predictor every batch runs through; close it after the batcher
   * @return a builder with the default options
   */
  public static Builder builder(Predictor predictor) {
    return new Builder(Objects.requireNonNull(predictor, "predictor"));
  }

  /**
   * Queues the caller's rows (every input's, in {@link Predictor#inputs()} order, each with the
   * same number of rows first) and returns the future of its outputs. The future fails with the
   * batch's {@link TensorFlowException} if its run fails, with {@link IllegalStateException} if
   * this predictor is closed before the rows ran, and with {@link TimeoutException} after the
   * {@linkplain Builder#callTimeout call timeout}.
   *
   * @param inputs the caller's rows of every input; copied before this returns
   * @return the future of the caller's outputs, which the caller closes
   * @throws IllegalArgumentException if the rows do not fit the signature (dtype, shape, count)
   * @throws RejectedExecutionException if the queue is full
   * @throws IllegalStateException if this predictor is closed
   */
  public CompletableFuture<BatchedResult> submit(Tensor... inputs) {
    QueuedRows request = layout.rowsOf(inputs, maxBatchSize);
    BatchLayout.copyRows(inputs, request);
    enqueue(request, false);
    return request.answer;
  }

  /**
   * Queues the caller's rows as {@link #submit} does and waits for its outputs (close them).
   *
   * @param inputs the caller's rows of every input; copied before the rows are queued
   * @return the caller's rows of every output, which the caller closes
   * @throws TensorFlowException the batch's run failed (TensorFlow's code and message), or the
   *     {@linkplain Builder#callTimeout call timeout} passed (DEADLINE_EXCEEDED)
   * @throws IllegalArgumentException if the rows do not fit the signature (dtype, shape, count)
   * @throws RejectedExecutionException if the queue is full
   * @throws IllegalStateException if this predictor is closed before the rows ran
   */
  public BatchedResult predict(Tensor... inputs) {
    int rows = layout.checkedRows(inputs, maxBatchSize);
    long epoch = claimLane(rows);
    if (epoch != UnbatchedLane.REFUSED) {
      return runOwnRows(inputs, rows, null, epoch, NOT_CLAIMED);
    }
    long started = claimIdleModel(rows);
    if (started != NOT_CLAIMED) {
      return runOwnRows(inputs, rows, null, UnbatchedLane.REFUSED, started);
    }
    return queueAndAwait(queuedCopy(inputs));
  }

  /**
   * A result for {@link #predict(Tensor[], RunResult)} to refill, call after call: one per calling
   * thread, closed by it.
   *
   * @return an empty result of the batcher's predictor
   */
  public RunResult newResult() {
    return predictor.newResult();
  }

  /**
   * Runs the caller's rows as {@link #predict(Tensor...)} does, and puts the caller's rows of
   * every output into {@code into}, a result the caller reuses from call to call (as {@link
   * Predictor#run(Tensor[], RunResult)} refills one). A caller that runs its own rows on its
   * thread (a lone caller, or unbatched runs) then makes no Java garbage and copies nothing: the
   * run's outputs are the result's; a batched caller's rows are copied out of the batch as by
   * {@link #predict(Tensor...)}. The outputs are valid until the next call into {@code into}.
   *
   * @param inputs the caller's rows of every input; not closed, not kept
   * @param into a result of this batcher's {@link #newResult()}, refilled
   * @return {@code into}
   * @throws TensorFlowException the run failed (TensorFlow's code and message), or the {@linkplain
   *     Builder#callTimeout call timeout} passed (DEADLINE_EXCEEDED)
   * @throws IllegalArgumentException if the rows do not fit the signature (dtype, shape, count),
   *     or {@code into} is not a result of this batcher's predictor
   * @throws RejectedExecutionException if the queue is full
   * @throws IllegalStateException if this predictor is closed before the rows ran, or {@code into}
   *     is closed
   */
  public RunResult predict(Tensor[] inputs, RunResult into) {
    if (CORE.ownerOf(Objects.requireNonNull(into, "into")) != predictor) {
      throw new IllegalArgumentException("the result holder belongs to another predictor than"
          + " the batcher's: make it with the batcher's newResult()");
    }
    int rows = layout.checkedRows(inputs, maxBatchSize);
    long epoch = claimLane(rows);
    if (epoch != UnbatchedLane.REFUSED) {
      runOwnRows(inputs, rows, into, epoch, NOT_CLAIMED);
      return into;
    }
    long started = claimIdleModel(rows);
    if (started != NOT_CLAIMED) {
      runOwnRows(inputs, rows, into, UnbatchedLane.REFUSED, started);
      return into;
    }
    try (BatchedResult answer = queueAndAwait(queuedCopy(inputs))) {
      CORE.refill(into, answer.outputs());
    }
    return into;
  }

  /** The caller's rows, checked and copied, to wait in the queue. */
  private QueuedRows queuedCopy(Tensor[] inputs) {
    QueuedRows request = layout.rowsOf(inputs, maxBatchSize);
    BatchLayout.copyRows(inputs, request);
    return request;
  }

  /**
   * Queues one row of every input, given as Java arrays in {@link Predictor#inputs()} order, and
   * returns the future of its outputs, as {@link #submit} does for tensors. Each array holds its
   * input's row flattened in row-major order: a {@code float[]} for FLOAT, {@code double[]} for
   * DOUBLE, {@code int[]} for INT32, {@code long[]} for INT64, {@code byte[]} for INT8 or UINT8,
   * {@code boolean[]} for BOOL (any type's {@link DataType#javaComponent()} array), and a {@code
   * String[]} (UTF-8) or {@code byte[][]} for STRING. The arrays are copied once, into the queued
   * row, before this returns; no native object is made for the row.
   *
   * @param row one array per input; every dimension of an input after the batch must be known
   * @return the future of the row's outputs (each with a first dimension of 1), which the caller
   *     closes
   * @throws InvalidRowException if an array does not fit its input ({@link RowSpec#checkArray}:
   *     null, another type or length), naming it
   * @throws IllegalArgumentException for another number of arrays than inputs, or an input with
   *     an unknown dimension after the batch
   * @throws RejectedExecutionException if the queue is full
   * @throws IllegalStateException if this predictor is closed
   */
  public CompletableFuture<BatchedResult> submitRow(Object... row) {
    QueuedRows request = layout.rowOf(row);
    enqueue(request, false);
    return request.answer;
  }

  /**
   * Queues one row given as Java arrays, as {@link #submitRow} does, and waits for its outputs
   * (close them), as {@link #predict} does.
   *
   * @param row one array per input, as for {@link #submitRow}
   * @return the row's outputs, which the caller closes
   * @throws TensorFlowException the batch's run failed (TensorFlow's code and message), or the
   *     {@linkplain Builder#callTimeout call timeout} passed (DEADLINE_EXCEEDED)
   * @throws InvalidRowException if an array does not fit its input ({@link RowSpec#checkArray}:
   *     null, another type or length), naming it
   * @throws IllegalArgumentException for another number of arrays than inputs, or an input with
   *     an unknown dimension after the batch
   * @throws RejectedExecutionException if the queue is full
   * @throws IllegalStateException if this predictor is closed before the row ran
   */
  public BatchedResult predictRow(Object... row) {
    QueuedRows request = layout.rowOf(row);
    long epoch = claimLane(request.rows);
    long started = epoch == UnbatchedLane.REFUSED ? claimIdleModel(request.rows) : NOT_CLAIMED;
    if (epoch != UnbatchedLane.REFUSED || started != NOT_CLAIMED) {
      Tensor[] inputs = layout.concatenate(List.of(request), request.rows);
      try {
        return runOwnRows(inputs, request.rows, null, epoch, started);
      } finally {
        BatchLayout.closeAll(inputs);
      }
    }
    return queueAndAwait(request);
  }

  private BatchedResult queueAndAwait(QueuedRows request) {
    if (enqueue(request, callerLeads)) {
      lead();
    }
    return await(request);
  }

  /**
   * Whether a blocking caller runs its own rows at once, on its own thread and with its own
   * tensors, as the one request of a run (the policy decides: {@link BatchPolicy#forCaller}); if
   * so, that run now counts as running, and this is its token of {@link BatchPolicy#runStarted};
   * if not, {@link #NOT_CLAIMED}.
   */
  private long claimIdleModel(int rows) {
    if (!callersMayRunAlone) {
      return NOT_CLAIMED;
    }
    lock.lock();
    try {
      if (closed || policy.forCaller(rows, forming || !queue.isEmpty()).kind()
          != BatchPolicy.Decision.Kind.RUN_ALONE) {
        return NOT_CLAIMED;
      }
      return policy.runStarted();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Whether the unbatched lane admits a blocking caller's rows to run on its thread at once: the
   * lane is open, nothing is queued (queued rows go first) and the rows are an allowed size.
   *
   * @return the run's lane epoch, or {@link UnbatchedLane#REFUSED}
   */
  private long claimLane(int rows) {
    if (queueBusy || PaddedBatchSizes.paddedSize(rows, allowedBatchSizes) != rows) {
      return UnbatchedLane.REFUSED;
    }
    return lane.claim(laneCapacity);
  }

  /**
   * Runs a caller's own tensors on its thread, admitted by the lane ({@code laneEpoch}) or else
   * by {@link #claimIdleModel} ({@code policyToken}): into {@code into}, or, with none, into
   * outputs of its own, which become its result (returned).
   */
  private BatchedResult runOwnRows(Tensor[] inputs, int rows, RunResult into, long laneEpoch,
      long policyToken) {
    long runStart = listeners.length == 0 ? 0 : System.nanoTime();
    for (BatchListener listener : listeners) {
      tellCallerStarted(listener, 0);
    }
    boolean failed = true;
    try {
      Predictor chosen = predictorFor(rows, rows);
      BatchedResult own = null;
      if (into == null) {
        RunResult result = chosen.run(inputs);
        try {
          own = layout.handOver(result, rows);
        } catch (RuntimeException | Error e) {
          result.close();
          throw e;
        }
      } else if (chosen == predictor) {
        predictor.run(inputs, into);
      } else {
        try (RunResult result = chosen.run(inputs)) {
          CORE.refill(into, layout.handOver(result, rows).outputs());
        }
      }
      failed = false;
      return own;
    } finally {
      if (laneEpoch != UnbatchedLane.REFUSED) {
        finishLaneRun(laneEpoch, rows);
      } else {
        finishRun(policyToken, 1, rows, 0);
      }
      runsAlone.increment();
      tellRun(1, rows, runStart, failed);
    }
  }

  /**
   * A run of the lane ended: counted by the lane, handed to the policy in bulk from time to time;
   * or, if the lane closed under it, told to the policy as a run of the earlier mode.
   */
  private void finishLaneRun(long epoch, int rows) {
    if (!lane.finish(epoch, rows)) {
      finishRun(BatchPolicy.EARLIER_MODE, 1, rows, 0);
      return;
    }
    if (System.nanoTime() - laneCountsDueNanos >= 0 && lock.tryLock()) {
      try {
        followLane();
      } finally {
        lock.unlock();
      }
    }
  }

  /** {@link #countLaneRuns}, then {@link #followPolicy}, which the counts may have moved. */
  private void followLane() {
    countLaneRuns();
    followPolicy();
  }

  /** Hands the lane's runs since the last call to the counts and the policy. Under the lock. */
  private void countLaneRuns() {
    long runs = lane.takeRuns();
    if (runs == 0) {
      return;  // a finishing run's rows not yet matched by its count stay for the next call
    }
    long rows = lane.takeRows();
    batchesRun += runs;
    rowsRun += rows;
    laneRuns += runs;
    if (lane.takeOverlapped()) {
      policy.callersOverlapped();
    }
    policy.laneRunsFinished(runs, rows);
    laneCountsDueNanos = System.nanoTime() + LANE_COUNTS_INTERVAL_NANOS;
  }

  /**
   * Opens or closes the lane as the policy's mode now asks, and updates what callers read
   * without the lock. Under the lock, after every call that may change the policy's mode.
   */
  private void followPolicy() {
    long epoch = policy.modeToken() & 0xFFFF_FFFFL;
    boolean open = !closed && policy.laneOpen();
    if (lane.isOpen() && !(open && lane.isOpenFor(epoch))) {
      policy.laneClosedWith(lane.close());
    }
    if (open && !lane.isOpen()) {
      lane.open(epoch);
    }
    callersMayRunAlone = policy.callersMayRunAlone();
  }

  private void tellCallerStarted(BatchListener listener, long waitNanos) {
    try {
      listener.onCallerStarted(waitNanos);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "a batch listener threw", e);
    }
  }

  /** Tells the listeners of a run that began at {@code runStart} (System.nanoTime()). */
  private void tellRun(int callers, int rows, long runStart, boolean failed) {
    if (listeners.length == 0) {
      return;
    }
    long runNanos = System.nanoTime() - runStart;
    for (BatchListener listener : listeners) {
      try {
        listener.onRun(callers, rows, runNanos, failed);
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "a batch listener threw", e);
      }
    }
  }

  /** Whether the caller is to lead the next batch. */
  private boolean enqueue(QueuedRows request, boolean mayLead) {
    lock.lock();
    try {
      if (closed) {
        throw new IllegalStateException("the batching predictor is closed");
      }
      if (queuedRows + request.rows > queueCapacity) {
        throw new RejectedExecutionException("the batching queue is full: " + queuedRows
            + " rows wait, the capacity is " + queueCapacity + "; the model cannot keep up");
      }
      queue.addLast(request);
      queuedRows += request.rows;
      queueBusy = true;
      if (callTimeoutNanos > 0) {
        request.answer.orTimeout(callTimeoutNanos, TimeUnit.NANOSECONDS);
      }
      if (forming) {
        rowsArrived.signal();
        return false;
      }
      if (mayLead && policy.running() == 0) {
        // The model is idle: run on this thread rather than hand the batch to another. Under
        // load the batching thread leads, so a caller never leads again with a queue that its
        // own finished batch just emptied (measured: far smaller batches).
        forming = true;
        return true;
      }
      leaderNeeded.signal();
      return false;
    } finally {
      lock.unlock();
    }
  }

  private static BatchedResult await(QueuedRows request) {
    try {
      return request.answer.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      request.answer.cancel(false);
      throw new IllegalStateException("interrupted while waiting for the batch", e);
    } catch (ExecutionException e) {
      throw asCallersException(e.getCause());
    }
  }

  /** The exception of a failed request, made on the caller's thread so its stack shows the call. */
  private static RuntimeException asCallersException(Throwable cause) {
    if (cause instanceof TensorFlowException tf) {
      TensorFlowException own = new TensorFlowException(tf.code(), tf.tensorFlowMessage());
      own.initCause(tf);
      return own;
    }
    if (cause instanceof TimeoutException) {
      return new TensorFlowException(TensorFlowException.Code.DEADLINE_EXCEEDED,
          "no answer within the batching predictor's call timeout");
    }
    if (cause instanceof IllegalStateException) {
      return new IllegalStateException(cause.getMessage(), cause);
    }
    if (cause instanceof Error error) {
      throw error;
    }
    return cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
  }

  private void batchingLoop() {
    while (true) {
      lock.lock();
      try {
        while (!closed && (forming || queue.isEmpty())) {
          leaderNeeded.awaitUninterruptibly();
        }
        if (closed) {
          return;
        }
        forming = true;
      } finally {
        lock.unlock();
      }
      lead();
    }
  }

  /** Forms one batch (the caller set {@link #forming}) and runs it. */
  private void lead() {
    List<QueuedRows> batch;
    long started = 0;
    lock.lock();
    try {
      batch = formBatch();
      if (batch != null) {
        started = policy.runStarted();
      }
    } finally {
      forming = false;
      queueBusy = !queue.isEmpty();
      if (queueBusy) {
        leaderNeeded.signal();
      }
      lock.unlock();
    }
    if (batch != null) {
      run(batch, started);
    }
  }

  /**
   * Waits until the policy runs the queued rows ({@link BatchPolicy#forQueue}): they are due (the
   * batch is full or its oldest request's delay is up) and a run may start. Null once closed.
   */
  private List<QueuedRows> formBatch() {
    boolean interrupted = false;
    try {
      while (!closed) {
        dropAnswered();
        QueuedRows oldest = queue.peekFirst();
        if (oldest == null) {
          return null;
        }
        BatchPolicy.Decision next = policy.forQueue(oldest.queuedNanos, rowsLike(oldest));
        if (interrupted || next.kind() == BatchPolicy.Decision.Kind.RUN) {
          return takeBatch(oldest);
        }
        try {
          if (next.kind() == BatchPolicy.Decision.Kind.WAIT_FOR_RUN) {
            rowsArrived.await();
          } else {
            rowsArrived.awaitNanos(next.untilNanos() - System.nanoTime());
          }
        } catch (InterruptedException e) {
          interrupted = true;  // run what is queued now, then let the caller see the interrupt
        }
      }
      return null;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Removes requests whose callers gave up (timeout, cancel) from the front of the queue. */
  private void dropAnswered() {
    while (!queue.isEmpty() && queue.peekFirst().answer.isDone()) {
      queuedRows -= queue.pollFirst().rows;
    }
  }

  private int rowsLike(QueuedRows oldest) {
    int rows = 0;
    for (QueuedRows request : queue) {
      if (request.fitsWith(oldest) && !request.answer.isDone()) {
        rows += request.rows;
      }
    }
    return rows;
  }

  /** Takes the oldest request and, in queue order, each later one that fits with it. */
  private List<QueuedRows> takeBatch(QueuedRows oldest) {
    List<QueuedRows> batch = new ArrayList<>();
    int rows = 0;
    for (Iterator<QueuedRows> it = queue.iterator(); it.hasNext(); ) {
      QueuedRows request = it.next();
      if (request.answer.isDone()) {
        it.remove();
        queuedRows -= request.rows;
      } else if (request.fitsWith(oldest)) {
        if (rows + request.rows > maxBatchSize) {
          break;
        }
        it.remove();
        queuedRows -= request.rows;
        batch.add(request);
        rows += request.rows;
      }
    }
    return batch;
  }

  /**
   * Runs a batch and answers its callers, after it no longer counts as running: a caller's
   * callback may then close this predictor without waiting for itself.
   */
  private void run(List<QueuedRows> batch, long started) {
    long runStart = System.nanoTime();
    if (listeners.length > 0) {
      for (QueuedRows request : batch) {
        for (BatchListener listener : listeners) {
          tellCallerStarted(listener, runStart - request.queuedNanos);
        }
      }
    }
    BatchedResult[] answers = null;
    Throwable failure = null;
    int rows = 0;
    for (QueuedRows request : batch) {
      rows += request.rows;
    }
    try {
      answers = compute(batch);
    } catch (RuntimeException | Error e) {
      failure = e;
    } finally {
      finishRun(started, batch.size(), rows, System.nanoTime() - runStart);
    }
    tellRun(batch.size(), rows, runStart, failure != null);
    for (int i = 0; i < batch.size(); i++) {
      if (answers != null) {
        batch.get(i).deliver(answers[i]);
      } else {
        batch.get(i).fail(failure);
      }
    }
  }

  /** Counts a run that ended (its callers not yet answered) and lets the next one start. */
  private void finishRun(long started, int callers, int rows, long runNanos) {
    lock.lock();
    try {
      countLaneRuns();  // before this run, which may end the window
      batchesRun++;
      rowsRun += rows;
      policy.runFinished(started, callers, rows, runNanos);
      followPolicy();
      if (policy.running() == 0) {
        batchesDone.signalAll();
      }
      rowsArrived.signal();  // a leader may be waiting for a batch to finish
    } finally {
      lock.unlock();
    }
  }

  private BatchedResult[] compute(List<QueuedRows> batch) {
    int rows = 0;
    for (QueuedRows request : batch) {
      rows += request.rows;
    }
    int padded = PaddedBatchSizes.paddedSize(rows, allowedBatchSizes);
    Tensor[] inputs = layout.concatenate(batch, padded);
    try (RunResult result = predictorFor(rows, padded).run(inputs)) {
      return layout.split(result, batch, padded);
    } finally {
      BatchLayout.closeAll(inputs);
    }
  }

  /**
   * The predictor a run of {@code batchSize} (the callers' {@code rows}, padded) goes through (see
   * {@link Builder#predictorsBySize}), told to the listeners.
   */
  private Predictor predictorFor(int rows, int batchSize) {
    int own = Arrays.binarySearch(sizesOfTheirOwn, batchSize);
    for (BatchListener listener : listeners) {
      try {
        listener.onPredictorChosen(rows, batchSize, own >= 0);
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "a batch listener threw", e);
      }
    }
    return own >= 0 ? predictorsOfTheirOwn[own] : predictor;
  }

  /**
   * How many batches have run (successfully or not): rows run / batches run is the mean size.
   *
   * @return the count since this predictor was built
   */
  public long batchesRun() {
    lock.lock();
    try {
      followLane();
      return batchesRun;
    } finally {
      lock.unlock();
    }
  }

  /**
   * How many callers' rows have run, padding not counted.
   *
   * @return the count since this predictor was built
   */
  public long rowsRun() {
    lock.lock();
    try {
      followLane();
      return rowsRun;
    } finally {
      lock.unlock();
    }
  }

  /** Whether the unbatched lane admits callers now (the policy's mode is unbatched). */
  boolean laneOpen() {
    return lane.isOpen();
  }

  /** How many runs went through the unbatched lane (counted in {@link #runsAlone()} too). */
  long laneRuns() {
    lock.lock();
    try {
      followLane();
      return laneRuns;
    } finally {
      lock.unlock();
    }
  }

  /**
   * How many runs were a blocking caller's own rows, run on its thread because the model was free
   * (counted in {@link #batchesRun()} too).
   *
   * @return the runs of one caller's rows alone
   */
  public long runsAlone() {
    return runsAlone.sum();
  }

  /**
   * Fails every queued request with {@link IllegalStateException}, waits for the batches being
   * run (their callers get their answers) and stops the batching thread. New requests are
   * refused. Idempotent.
   */
  @Override
  public void close() {
    List<QueuedRows> dropped;
    lock.lock();
    try {
      closed = true;
      dropped = new ArrayList<>(queue);
      queue.clear();
      queuedRows = 0;
      queueBusy = false;
      followPolicy();  // closes the lane: its runs in flight count as running
      leaderNeeded.signalAll();
      rowsArrived.signalAll();
      while (policy.running() > 0) {
        batchesDone.awaitUninterruptibly();
      }
    } finally {
      lock.unlock();
    }
    for (QueuedRows request : dropped) {
      request.fail(new IllegalStateException("the batching predictor was closed before these"
          + " rows ran"));
    }
    if (Thread.currentThread() != batchingThread) {
      boolean interrupted = false;
      while (batchingThread.isAlive()) {
        try {
          batchingThread.join();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Options of a {@link BatchingPredictor}. Defaults: batches of up to 32 rows, no delay (a
   * batch runs as soon as no other batch runs), one batch at a time, no padding, 1024 queued
   * rows, no call timeout, the batching thread (named {@code tfjni-batching}) leads.
   */
  public static final class Builder {
    private final Predictor predictor;
    private int maxBatchSize = 32;
    private Duration maxDelay = Duration.ZERO;
    private int[] allowedBatchSizes = new int[0];
    private long queueCapacity = 1024;
    private Duration callTimeout = Duration.ZERO;
    private boolean callerLeads;
    private int maxConcurrentBatches = 1;
    private String threadName = "tfjni-batching";
    private final List<BatchListener> listeners = new ArrayList<>();
    private Map<Integer, Predictor> predictorsBySize = Map.of();

    private Builder(Predictor predictor) {
      this.predictor = predictor;
    }

    /**
     * The most rows one run takes.
     *
     * @param rows 1 or more
     * @return this builder
     */
    public Builder maxBatchSize(int rows) {
      if (rows < 1) {
        throw new IllegalArgumentException("the maximum batch size must be at least 1, got "
            + rows);
      }
      this.maxBatchSize = rows;
      return this;
    }

    /**
     * How long the oldest queued request may wait for batch-mates before its batch runs anyway
     * (if fewer than {@link #maxConcurrentBatches} batches are running). Zero runs whatever is
     * queued as soon as a batch may run: batches then grow only while the model is busy, and
     * callers run unbatched while that is measured to run more rows per second. A delay above
     * zero always batches.
     *
     * @param delay zero or more
     * @return this builder
     */
    public Builder maxDelay(Duration delay) {
      if (delay.isNegative()) {
        throw new IllegalArgumentException("the maximum delay must not be negative, got "
            + delay);
      }
      this.maxDelay = delay;
      return this;
    }

    /**
     * Batch sizes the model is to see: a batch is padded with rows of zeros up to the next one
     * (a model compiled or tuned for few sizes). The largest must equal the maximum batch size.
     * None (the default) runs each batch at its own size.
     *
     * @param sizes increasing positive sizes
     * @return this builder
     */
    public Builder allowedBatchSizes(int... sizes) {
      int[] sorted = sizes.clone();
      Arrays.sort(sorted);
      if (sorted.length > 0 && sorted[0] < 1) {
        throw new IllegalArgumentException("allowed batch sizes must be at least 1, got "
            + Arrays.toString(sizes));
      }
      this.allowedBatchSizes = sorted;
      return this;
    }

    /**
     * The most rows that may wait; a request that would exceed it is rejected at once. See
     * {@link #unboundedQueue()} for no limit.
     *
     * @param rows 1 or more
     * @return this builder
     */
    public Builder queueCapacity(int rows) {
      if (rows < 1) {
        throw new IllegalArgumentException("the queue capacity must be at least 1, got " + rows);
      }
      this.queueCapacity = rows;
      return this;
    }

    /**
     * No limit on the rows that may wait: no request is ever rejected for a full queue. For an
     * embedder that already bounds the requests in flight (a stream operator's capacity, say)
     * and must not have one refused; memory is then the caller's bound.
     *
     * @return this builder
     */
    public Builder unboundedQueue() {
      this.queueCapacity = Long.MAX_VALUE;
      return this;
    }

    /**
     * Adds a listener of every run: each caller's queue wait and each run's rows (for metrics).
     *
     * @param listener told of every run, on the thread that ran it
     * @return this builder
     */
    public Builder listener(BatchListener listener) {
      listeners.add(Objects.requireNonNull(listener, "listener"));
      return this;
    }

    /**
     * The name of the batching thread, to tell one batching predictor from another in thread
     * dumps and profiles.
     *
     * @param name the thread's name; {@code tfjni-batching} by default
     * @return this builder
     */
    public Builder threadName(String name) {
      this.threadName = Objects.requireNonNull(name, "name");
      return this;
    }

    /**
     * How long a caller waits for its answer, queueing included; zero waits without limit. A
     * caller that is running its batch for everyone in it, or its own rows alone, finishes that run
     * first.
     *
     * @param timeout zero (no limit) or more
     * @return this builder
     */
    public Builder callTimeout(Duration timeout) {
      if (timeout.isNegative()) {
        throw new IllegalArgumentException("the call timeout must not be negative, got "
            + timeout);
      }
      this.callTimeout = timeout;
      return this;
    }

    /**
     * Whether a caller blocked in {@link BatchingPredictor#predict} that finds the model idle
     * (no batch running or being formed) forms and runs the batch itself (true), or only the
     * batching thread runs batches (false, the default). When runs are short the model is idle
     * whenever a caller arrives, so each caller leads a batch of about its own row (measured:
     * smaller batches and fewer rows per second than the default). A lone caller, and callers
     * while unbatched runs are faster, run their own rows anyway, without this.
     *
     * @param leads whether callers may lead batches
     * @return this builder
     */
    public Builder callerLeads(boolean leads) {
      this.callerLeads = leads;
      return this;
    }

    /**
     * How many batches may run at once. A batch that is due while this many run waits for one
     * to finish, gathering more rows meanwhile: with a delay of zero, batches then grow exactly
     * as much as the model is busy. The batching thread runs one batch at a time, so more than
     * one lets callers that lead ({@link #callerLeads}) or run their own rows run beside it.
     *
     * @param batches 1 or more
     * @return this builder
     */
    public Builder maxConcurrentBatches(int batches) {
      if (batches < 1) {
        throw new IllegalArgumentException("the maximum of concurrent batches must be at least 1,"
            + " got " + batches);
      }
      this.maxConcurrentBatches = batches;
      return this;
    }

    /**
     * Predictors of their own for some batch sizes: a run of exactly one of these sizes (a batch
     * after padding, or a caller's rows run alone) goes through its predictor, any other through
     * the batcher's. Each must feed and fetch what the batcher's predictor does (the same keys
     * in the same order, the same dtypes), as the LiteRT predictors of {@link
     * SavedModel#liteRtPredictors} do. Like the batcher's predictor they are not owned: close
     * them after the batching predictor. None by default.
     *
     * @param predictors the predictors by batch size
     * @return this builder
     */
    public Builder predictorsBySize(Map<Integer, Predictor> predictors) {
      Map<Integer, Predictor> copy = Map.copyOf(predictors);
      for (Map.Entry<Integer, Predictor> entry : copy.entrySet()) {
        if (entry.getKey() < 1) {
          throw new IllegalArgumentException("a batch size must be at least 1, got "
              + entry.getKey());
        }
        String mismatch = mismatch(entry.getValue().inputs(), predictor.inputs(), "input");
        if (mismatch == null) {
          mismatch = mismatch(entry.getValue().outputs(), predictor.outputs(), "output");
        }
        if (mismatch != null) {
          throw new IllegalArgumentException("the predictor for batch size " + entry.getKey()
              + " does not take and give what the batcher's does: " + mismatch);
        }
      }
      this.predictorsBySize = copy;
      return this;
    }

    private static String mismatch(List<TensorSpec> own, List<TensorSpec> batcher, String role) {
      List<String> keys = own.stream().map(TensorSpec::key).toList();
      List<String> expected = batcher.stream().map(TensorSpec::key).toList();
      if (!keys.equals(expected)) {
        return role + "s " + keys + ", the batcher's " + expected;
      }
      for (int i = 0; i < own.size(); i++) {
        if (own.get(i).dataType() != batcher.get(i).dataType()) {
          return role + " " + own.get(i) + ", the batcher's " + batcher.get(i);
        }
      }
      return null;
    }

    /**
     * The batching predictor with these options; it starts its batching thread.
     *
     * @return a batching predictor, which the caller closes before the predictor it runs through
     * @throws IllegalArgumentException if an input or output is not batch-major (named), or the
     *     largest allowed batch size is not the maximum batch size
     */
    public BatchingPredictor build() {
      if (allowedBatchSizes.length > 0
          && allowedBatchSizes[allowedBatchSizes.length - 1] != maxBatchSize) {
        throw new IllegalArgumentException("the largest allowed batch size ("
            + allowedBatchSizes[allowedBatchSizes.length - 1] + ") must equal the maximum batch"
            + " size (" + maxBatchSize + ")");
      }
      return new BatchingPredictor(this);
    }
  }
}
