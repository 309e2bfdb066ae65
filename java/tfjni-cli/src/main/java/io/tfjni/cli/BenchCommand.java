package io.tfjni.cli;

import io.tfjni.DataType;
import io.tfjni.OpLibrary;
import io.tfjni.Predictor;
import io.tfjni.RunOptions;
import io.tfjni.RunResult;
import io.tfjni.SavedModel;
import io.tfjni.SessionOptions;
import io.tfjni.Tensor;
import io.tfjni.TensorFlow;
import io.tfjni.batching.BatchingPredictor;
import io.tfjni.numpy.Dtypes;
import io.tfjni.numpy.Half;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tfjni bench}: throughput and latency of a signature at several thread counts, with the
 * process's memory and the JVM's heap, GC and allocation figures; a table, JSON and a PNG chart.
 */
@Command(name = "bench", sortOptions = false,
    description = {"Benchmarks a SignatureDef: for each thread count, runs it from that many"
        + " threads at once (one prepared predictor, one reused result per thread) and reports"
        + " throughput, latency percentiles, RSS, heap, GC and Java bytes allocated per run.",
        "Inputs are synthetic (seeded random values; -1 dimensions become --batch) unless given"
        + " with --inputs/--input_exprs as for 'tfjni run'."},
    footer = {"", "Examples:",
        "  tfjni bench --dir digits --threads 1,2 --batch 8 --json b.json --plot b.png",
        "  tfjni bench --dir digits --threads 1,4,16 --batch_max 16 --batch_delay 1ms",
        "  tfjni bench --dir digits_base --threads 4 --duration 30s --swap_every 5000"})
final class BenchCommand implements Callable<Integer> {
  /** System property bin/tfjni sets to "true" when stderr is a terminal. */
  static final String STDERR_TTY_PROPERTY = "tfjni.stderr.tty";
  private static final double[] PERCENTILES = {50, 90, 99};

  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;

  @Mixin
  ModelOptions modelOptions;

  @Option(names = "--threads", paramLabel = "N[,N...]", split = ",", hideParamSyntax = true,
      defaultValue = "1",
      description = "Thread counts to measure, one after the other (default: ${DEFAULT-VALUE}).")
  List<Integer> threads;

  @Option(names = "--duration", paramLabel = "TIME", converter = DurationConverter.class,
      description = "How long to measure each thread count, e.g. 20s, 500ms, 2m (default: 10s"
          + " unless --iterations is given).")
  Duration duration;

  @Option(names = "--iterations", paramLabel = "N",
      description = "Measure exactly N runs per thread count (shared by its threads) instead.")
  Long iterations;

  @Option(names = "--warmup", paramLabel = "N", defaultValue = "10",
      description = "Unmeasured runs per thread before measuring (default: ${DEFAULT-VALUE}).")
  int warmup;

  @Option(names = "--batch", paramLabel = "N", defaultValue = "1",
      description = "Size of the unknown (-1) dimensions of synthetic inputs (default:"
          + " ${DEFAULT-VALUE}).")
  long batch;

  @Option(names = "--batch_max", paramLabel = "N",
      description = "Also measure each thread count through a batching predictor that joins up"
          + " to N callers' rows into one run (each caller still sends --batch rows), right after"
          + " the same thread count unbatched.")
  Integer batchMax;

  @Option(names = "--batch_delay", paramLabel = "TIME", converter = DurationConverter.class,
      defaultValue = "0",
      description = "With --batch_max: how long the oldest queued row may wait for batch-mates,"
          + " e.g. 1ms, 0.5ms; 0 runs a batch as soon as no other runs (default:"
          + " ${DEFAULT-VALUE}).")
  Duration batchDelay;

  @Option(names = "--batch_leader", paramLabel = "WHO", defaultValue = "thread",
      description = "With --batch_max: who runs a batch: thread (only the batching thread) or"
          + " caller (also a waiting caller that finds the model idle; default:"
          + " ${DEFAULT-VALUE}).")
  String batchLeader;

  @Option(names = "--batch_concurrent", paramLabel = "N", defaultValue = "1",
      description = "With --batch_max: how many batches may run at once (default:"
          + " ${DEFAULT-VALUE}).")
  int batchConcurrent;

  @Option(names = "--swap_every", paramLabel = "N",
      description = "Serve --dir as a TensorFlow Serving base path (numbered version"
          + " directories) through a VersionedModel, and swap in a new version every N measured"
          + " runs: copies of DIR's versions in turn, published into a temporary base path (DIR"
          + " is not changed), each warmed up before it takes traffic. Adds p50/p99 of the runs"
          + " around swaps against the steady runs.")
  Long swapEvery;

  @Option(names = "--swap_window", paramLabel = "TIME", converter = DurationConverter.class,
      defaultValue = "100ms",
      description = "With --swap_every: a run is around a swap if it overlaps the time from the"
          + " new version's copy to the old version's close, or TIME after it (default:"
          + " ${DEFAULT-VALUE}).")
  Duration swapWindow;

  @Mixin
  InputOptions inputOptions;

  @Mixin
  SessionThreadOptions sessionThreads;

  @Mixin
  OpLibraryOptions opLibraries;

  @Option(names = "--json", paramLabel = "FILE", description = "Also write the results as JSON.")
  Path json;

  @Option(names = "--plot", paramLabel = "FILE.png",
      description = "Also draw latency and throughput per thread count as a PNG chart.")
  Path plot;

  @Option(names = "--progress", paramLabel = "MODE", defaultValue = "auto",
      description = "Progress on stderr: bar, lines, none, or auto (a bar if stderr is a"
          + " terminal, else a line every few seconds; default: ${DEFAULT-VALUE}).")
  String progress;

  @Mixin
  RunOptionsOption runOptions;

  @Option(names = "--trace", paramLabel = "N", arity = "0..1", fallbackValue = "20",
      description = "After measuring, run N more times with TensorFlow's step statistics on"
          + " (RunOptions trace level SOFTWARE_TRACE) and print the slowest ops: per node the"
          + " device it ran on, its op, count, total and mean microseconds (N: 20 if not"
          + " given).")
  Integer trace;

  @Option(names = {"--trace_top", "--trace-top"}, paramLabel = "K", defaultValue = "15",
      description = "How many of the slowest ops --trace prints (default: ${DEFAULT-VALUE}).")
  int traceTop;

  /** The measurements for one thread count. */
  record Phase(int threads, long runs, double seconds, double p50Ms, double p90Ms, double p99Ms,
      double maxMs, double meanMs, long rssBytes, long rssPeakBytes, long heapUsedBytes,
      long heapCommittedBytes, long gcCount, long gcMillis, double allocatedBytesPerRun) {
    double throughput() {
      return seconds > 0 ? runs / seconds : 0;
    }
  }

  /** An input as fed: where it came from, its dtype and shape. */
  record InputInfo(String key, DataType dataType, long[] shape, String source) {}

  @Override
  public Integer call() throws Exception {
    validate();
    List<OpLibrary> loadedLibraries = opLibraries.load();  // first, as run does
    // With --swap_every, --dir is a base path: its first version tells the signature.
    SavedModelInfo info = SavedModelInfo.read(swapEvery != null
        ? SwapBench.versionDirectories(modelOptions.dir).get(0) : modelOptions.dir);
    SavedModelInfo.MetaGraph metaGraph = info.metaGraph(modelOptions.tagSet);
    SavedModelInfo.SignatureInfo signature =
        SavedModelInfo.signature(metaGraph, modelOptions.signatureDef);
    Map<String, InputLoader.Source> sources = inputOptions.sources();
    for (String key : sources.keySet()) {
      if (!signature.inputs().containsKey(key)) {
        throw new CliException("'" + key + "' is not an input of signature '" + signature.key()
            + "'; its inputs are " + SavedModelInfo.quoteAll(signature.inputs().keySet()));
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    List<InputInfo> inputInfos = new ArrayList<>();
    Map<String, Tensor> tensors = new TreeMap<>();
    try {
      Random random = new Random(42);
      for (Map.Entry<String, SavedModelInfo.TensorInfo> input : signature.inputs().entrySet()) {
        String key = input.getKey();
        InputLoader.Spec inputSpec = InputLoader.spec(input.getValue());
        InputLoader.Source source = sources.get(key);
        Tensor tensor;
        String origin;
        if (source == null) {
          tensor = synthetic(key, inputSpec, batch, random);
          origin = "synthetic";
        } else {
          Map<String, Tensor> one = InputLoader.load(single(signature, key), Map.of(key, source));
          tensor = one.get(key);
          origin = source instanceof InputLoader.FileSource file ? file.file().toString()
              : "--input_exprs";
        }
        tensors.put(key, tensor);
        inputInfos.add(new InputInfo(key, tensor.dataType(), tensor.shape(), origin));
      }
      SessionOptions options = sessionThreads.sessionOptions();
      out.println("tfjni bench: " + modelOptions.dir + ", tag-set '" + metaGraph.tagSet()
          + "', signature '" + signature.key() + "'");
      for (InputInfo input : inputInfos) {
        out.println("  input " + input.key() + ": " + Dtypes.pythonName(input.dataType()) + " "
            + Arrays.toString(input.shape()) + " (" + input.source() + ")");
      }
      out.println("  " + machine() + "; session threads: " + sessionThreads.describe());
      if (!loadedLibraries.isEmpty()) {
        out.println("  op libraries: " + loadedLibraries.size() + " loaded, "
            + loadedLibraries.stream().mapToInt(l -> l.opNames().size()).sum() + " ops");
      }
      out.println("  " + (iterations != null ? iterations + " runs" : seconds(duration) + " s")
          + " per thread count after " + warmup + " warm-up runs per thread");
      if (swapEvery != null) {
        out.println("  versions: " + SwapBench.versionDirectories(modelOptions.dir).stream()
            .map(v -> v.getFileName().toString()).toList() + " of " + modelOptions.dir
            + " published in turn through a VersionedModel, a swap every " + swapEvery
            + " measured runs");
        out.flush();
        return benchSwaps(metaGraph, signature, inputInfos, tensors, options, out);
      }
      out.flush();
      List<Phase> phases = new ArrayList<>();
      List<Phase> batchedPhases = new ArrayList<>();
      List<Double> callsPerBatch = new ArrayList<>();
      String traceTable = null;
      try (SavedModel model = SavedModel.load(modelOptions.dir, options,
          metaGraph.tags().toArray(new String[0]));
          Predictor prepared = model.predictor(signature.key(),
              new ArrayList<>(tensors.keySet()), List.of());
          Predictor predictor = runOptions.apply(prepared)) {
        Tensor[] inputTensors = tensors.values().toArray(new Tensor[0]);
        Progress reporter = new Progress(spec.commandLine().getErr(), progressMode());
        for (int threadCount : threads) {
          phases.add(measure(unbatched(predictor, inputTensors), threadCount, reporter));
          if (batchMax != null) {
            try (BatchingPredictor batcher = BatchingPredictor.builder(predictor)
                .maxBatchSize(batchMax * (int) batch).maxDelay(batchDelay)
                .callerLeads(batchLeader.equals("caller")).maxConcurrentBatches(batchConcurrent)
                .queueCapacity(Math.max(1024, threadCount * (int) batch)).build()) {
              batchedPhases.add(measure(batched(batcher, inputTensors), threadCount,
                  reporter));
              callsPerBatch.add(
                  (double) batcher.rowsRun() / batch / Math.max(1, batcher.batchesRun()));
            }
          }
        }
        if (trace != null) {
          traceTable = traceSlowestOps(predictor, inputTensors);
        }
      }
      out.println();
      if (batchMax != null) {
        out.println("unbatched: one run per call");
      }
      out.print(table(phases, batchItems(inputInfos)));
      if (batchMax != null) {
        out.println();
        out.println("batched: up to " + batchMax + " calls per run, delay "
            + seconds(batchDelay) * 1000 + " ms, " + batchLeader + " leads, "
            + batchConcurrent + " batch" + (batchConcurrent > 1 ? "es" : "") + " at once");
        out.print(table(batchedPhases, batchItems(inputInfos)));
        out.println();
        out.print(comparison(phases, batchedPhases, callsPerBatch));
      }
      if (traceTable != null) {
        out.println();
        out.print(traceTable);
      }
      out.flush();
      if (json != null) {
        writeFile(json, Json.write(jsonReport(signature, metaGraph, inputInfos, phases,
            batchedPhases, callsPerBatch))
            .getBytes(StandardCharsets.UTF_8));
        out.println("wrote " + json);
      }
      if (plot != null) {
        BenchPlot.write(plot, phases, modelOptions.dir.getFileName() + " / " + signature.key()
            + ", batch " + batchItems(inputInfos));
        out.println("wrote " + plot);
      }
      return 0;
    } finally {
      tensors.values().forEach(Tensor::close);
    }
  }

  /** The --swap_every bench: every thread count through a VersionedModel that swaps. */
  private int benchSwaps(SavedModelInfo.MetaGraph metaGraph,
      SavedModelInfo.SignatureInfo signature, List<InputInfo> inputInfos,
      Map<String, Tensor> tensors, SessionOptions options, PrintWriter out) throws Exception {
    Tensor[] inputTensors = tensors.values().toArray(new Tensor[0]);
    List<Phase> phases = new ArrayList<>();
    List<SwapBench.Phase> swapPhases = new ArrayList<>();
    Map<String, Object> swapJson;
    try (SwapBench swaps = SwapBench.start(modelOptions.dir, options,
        metaGraph.tags().toArray(new String[0]), signature.key(),
        new ArrayList<>(tensors.keySet()), inputTensors, swapEvery, swapWindow)) {
      Progress reporter = new Progress(spec.commandLine().getErr(), progressMode());
      for (int threadCount : threads) {
        phases.add(measure(swaps.callers(inputTensors), threadCount, reporter));
        swapPhases.add(swaps.endPhase(threadCount));
      }
      swapJson = swaps.json(swapPhases);
    }
    out.println();
    out.print(table(phases, batchItems(inputInfos)));
    out.println();
    out.println("swaps: a new version every " + swapEvery + " runs; a run is around a swap from"
        + " the new version's copy to the old version's close, plus " + seconds(swapWindow) * 1000
        + " ms; swap ms: copy, load, warm-up and swap");
    out.print(SwapBench.table(swapPhases));
    out.flush();
    if (json != null) {
      Map<String, Object> report = jsonReport(signature, metaGraph, inputInfos, phases,
          List.of(), List.of());
      report.put("swaps", swapJson);
      writeFile(json, Json.write(report).getBytes(StandardCharsets.UTF_8));
      out.println("wrote " + json);
    }
    if (plot != null) {
      BenchPlot.write(plot, phases, modelOptions.dir.getFileName() + " / " + signature.key()
          + ", batch " + batchItems(inputInfos) + ", swapping versions");
      out.println("wrote " + plot);
    }
    return 0;
  }

  /** {@code trace} more runs with step statistics on; the slowest ops as a table. */
  private String traceSlowestOps(Predictor predictor, Tensor[] inputTensors) {
    TraceReport report = new TraceReport();
    try (Predictor traced = predictor.withOptions(predictor.options()
            .withTraceLevel(RunOptions.TraceLevel.SOFTWARE_TRACE));
        RunResult result = traced.newResult()) {
      for (int i = 0; i < trace; i++) {
        report.add(traced.runWithMetadata(inputTensors, result).stepStats());
      }
    }
    return report.table(traceTop);
  }

  private void validate() {
    runOptions.runOptions();  // a bad --timeout_ms is an argument error
    if (trace != null && trace < 1) {
      throw new CliException("--trace must be >= 1 traced runs, got " + trace);
    }
    if (traceTop < 1) {
      throw new CliException("--trace_top must be >= 1, got " + traceTop);
    }
    for (int t : threads) {
      if (t < 1 || t > 4096) {
        throw new CliException("--threads: each count must be between 1 and 4096, got " + t);
      }
    }
    if (duration != null && iterations != null) {
      throw new CliException("give --duration or --iterations, not both");
    }
    if (iterations != null && iterations < 1) {
      throw new CliException("--iterations must be >= 1, got " + iterations);
    }
    if (duration == null && iterations == null) {
      duration = Duration.ofSeconds(10);
    }
    if (duration != null && (duration.isZero() || duration.isNegative())) {
      throw new CliException("--duration must be positive");
    }
    if (warmup < 0) {
      throw new CliException("--warmup must be >= 0, got " + warmup);
    }
    if (batch < 1) {
      throw new CliException("--batch must be >= 1, got " + batch);
    }
    if (batchMax != null && (batchMax < 1 || batchMax * batch > Integer.MAX_VALUE / 2)) {
      throw new CliException("--batch_max must be >= 1 and hold at most " + Integer.MAX_VALUE / 2
          + " rows, got " + batchMax);
    }
    if (batchDelay.isNegative()) {
      throw new CliException("--batch_delay must not be negative");
    }
    if (swapEvery != null) {
      if (swapEvery < 1) {
        throw new CliException("--swap_every must be >= 1, got " + swapEvery);
      }
      if (batchMax != null || trace != null || runOptions.timeoutMs != null) {
        throw new CliException("--swap_every measures a VersionedModel's predictor: it cannot"
            + " be combined with --batch_max, --trace or --timeout_ms");
      }
    }
    if (swapWindow.isNegative()) {
      throw new CliException("--swap_window must not be negative");
    }
    if (batchConcurrent < 1) {
      throw new CliException("--batch_concurrent must be >= 1, got " + batchConcurrent);
    }
    if (!batchLeader.equals("caller") && !batchLeader.equals("thread")) {
      throw new CliException("--batch_leader must be caller or thread, got '" + batchLeader
          + "'");
    }
    sessionThreads.validate();
    if (plot != null && !plot.toString().toLowerCase(Locale.ROOT).endsWith(".png")) {
      throw new CliException("--plot writes a PNG file: name it FILE.png, got " + plot);
    }
    progressMode();
  }

  private String progressMode() {
    switch (progress) {
      case "auto":
        return "true".equals(System.getProperty(STDERR_TTY_PROPERTY)) ? "bar" : "lines";
      case "bar":
      case "lines":
      case "none":
        return progress;
      default:
        throw new CliException("--progress must be auto, bar, lines or none, got '" + progress
            + "'");
    }
  }

  private static SavedModelInfo.SignatureInfo single(SavedModelInfo.SignatureInfo signature,
      String key) {
    java.util.SortedMap<String, SavedModelInfo.TensorInfo> one = new TreeMap<>();
    one.put(key, signature.inputs().get(key));
    return new SavedModelInfo.SignatureInfo(signature.key(), signature.methodName(), one,
        signature.outputs());
  }

  /** The first dimension of the inputs, as items per run (for items/s). */
  private static long batchItems(List<InputInfo> inputs) {
    for (InputInfo input : inputs) {
      if (input.shape().length > 0) {
        return input.shape()[0];
      }
    }
    return 1;
  }

  /** Seeded random values of the input's dtype; unknown dimensions become {@code batch}. */
  static Tensor synthetic(String key, InputLoader.Spec spec, long batch, Random random) {
    if (spec.shape() == null) {
      throw new CliException("input '" + key + "' has an unknown rank, so its shape cannot be"
          + " made up: give it with --inputs or --input_exprs");
    }
    long[] shape = spec.shape().clone();
    long count = 1;
    for (int i = 0; i < shape.length; i++) {
      if (shape[i] < 0) {
        shape[i] = batch;
      }
      count = Math.multiplyExact(count, shape[i]);
    }
    DataType type = spec.dataType();
    if (type == DataType.STRING) {
      byte[][] values = new byte[Math.toIntExact(count)][];
      for (int i = 0; i < values.length; i++) {
        values[i] = ("tfjni" + random.nextInt(100)).getBytes(StandardCharsets.UTF_8);
      }
      return Tensor.ofBytes(values, shape);
    }
    if (!type.isFixedSize()) {
      throw new CliException("input '" + key + "' is " + type + ", which cannot be made up:"
          + " give it with --inputs or --input_exprs");
    }
    long bytes = Math.multiplyExact(count, (long) type.byteSize());
    if (bytes > Integer.MAX_VALUE - 64) {
      throw new CliException("input '" + key + "' would take " + bytes + " bytes; use a smaller"
          + " --batch");
    }
    ByteBuffer data = Tensor.allocateAlignedBuffer((int) bytes);
    for (long i = 0; i < count; i++) {
      switch (type) {
        case FLOAT:
          data.putFloat(random.nextFloat());
          break;
        case DOUBLE:
          data.putDouble(random.nextDouble());
          break;
        case HALF:
          data.putShort(Half.fromDouble(random.nextFloat()));
          break;
        case BFLOAT16:
          data.putShort(Half.bfloat16FromDouble(random.nextFloat()));
          break;
        case COMPLEX64:
          data.putFloat(random.nextFloat()).putFloat(random.nextFloat());
          break;
        case COMPLEX128:
          data.putDouble(random.nextDouble()).putDouble(random.nextDouble());
          break;
        case BOOL:
          data.put((byte) (random.nextBoolean() ? 1 : 0));
          break;
        case INT16:
        case UINT16:
          data.putShort((short) random.nextInt(10));
          break;
        case INT32:
        case UINT32:
          data.putInt(random.nextInt(10));
          break;
        case INT64:
        case UINT64:
          data.putLong(random.nextInt(10));
          break;
        default:
          if (type.byteSize() == 1) {
            data.put((byte) random.nextInt(10));
          } else {
            throw new CliException("input '" + key + "' is " + type + ", which cannot be made"
                + " up: give it with --inputs or --input_exprs");
          }
      }
    }
    data.flip();
    return Tensor.of(type, data, shape);
  }

  /** One measuring thread's way to make one call: a run, or one request to a batcher. */
  interface Caller extends AutoCloseable {
    void call();

    /** Called on the caller's thread once warm-up is over, before its first measured call. */
    default void measuring() {}

    @Override
    void close();
  }

  /** Makes each measuring thread's caller. */
  interface Callers {
    Caller newCaller();
  }

  /** A prepared run into the thread's own reused result. */
  private static Callers unbatched(Predictor predictor, Tensor[] inputTensors) {
    return intoReusedResult(predictor::newResult, result -> predictor.run(inputTensors, result));
  }

  /**
   * One request to the batcher, blocking until its rows come back into the thread's own reused
   * result, as the unbatched runs reuse theirs.
   */
  private static Callers batched(BatchingPredictor batcher, Tensor[] inputTensors) {
    return intoReusedResult(batcher::newResult, result -> batcher.predict(inputTensors, result));
  }

  /** Callers that each make one result and make every call into it, closing it at the end. */
  private static Callers intoReusedResult(Supplier<RunResult> newResult,
      Consumer<RunResult> callInto) {
    return () -> {
      RunResult result = newResult.get();
      return new Caller() {
        @Override
        public void call() {
          callInto.accept(result);
        }

        @Override
        public void close() {
          result.close();
        }
      };
    };
  }

  /**
   * Batched calls/s over unbatched, the latencies side by side, and the mean calls per batch
   * (warm-up included), per thread count.
   */
  static String comparison(List<Phase> unbatched, List<Phase> batched,
      List<Double> callsPerBatch) {
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "%7s %15s %17s %17s %11s%n", "threads",
        "batched/unbat.", "p50 ms (b / u)", "p99 ms (b / u)", "calls/batch"));
    for (int i = 0; i < unbatched.size(); i++) {
      Phase u = unbatched.get(i);
      Phase b = batched.get(i);
      out.append(String.format(Locale.ROOT, "%7d %14.2fx %8.3f/%-8.3f %8.3f/%-8.3f %11.1f%n",
          u.threads(), u.throughput() > 0 ? b.throughput() / u.throughput() : 0, b.p50Ms(),
          u.p50Ms(), b.p99Ms(), u.p99Ms(), callsPerBatch.get(i)));
    }
    return out.toString();
  }

  /** Runs one thread count: warm-up, then measured calls from every thread at once. */
  private Phase measure(Callers callers, int threadCount, Progress reporter)
      throws InterruptedException {
    LongAdder done = new LongAdder();
    AtomicLong remaining = new AtomicLong(iterations != null ? iterations : Long.MAX_VALUE);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch ready = new CountDownLatch(threadCount);
    CountDownLatch go = new CountDownLatch(1);
    long[][] latencies = new long[threadCount][];
    int[] counts = new int[threadCount];
    long[] allocated = new long[threadCount];
    long[] deadline = new long[1];
    com.sun.management.ThreadMXBean threadBean = allocationBean();
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threadCount; t++) {
      int id = t;
      Thread worker = new Thread(() -> {
        try (Caller caller = callers.newCaller()) {
          try {
            for (int i = 0; i < warmup && failure.get() == null; i++) {
              caller.call();
            }
          } finally {
            ready.countDown();
          }
          go.await();
          caller.measuring();
          long[] recorded = new long[(int) Math.min(iterations != null ? iterations : 1 << 16,
              1 << 24)];
          int n = 0;
          long before = threadBean != null ? threadBean.getCurrentThreadAllocatedBytes() : 0;
          while (failure.get() == null) {
            if (iterations != null) {
              if (remaining.getAndDecrement() <= 0) {
                break;
              }
            } else if (System.nanoTime() - deadline[0] >= 0) {
              break;
            }
            long start = System.nanoTime();
            caller.call();
            long elapsed = System.nanoTime() - start;
            if (n == recorded.length) { // not the model's allocation: leave it out
              long grow = threadBean != null ? threadBean.getCurrentThreadAllocatedBytes() : 0;
              recorded = Arrays.copyOf(recorded, n * 2);
              if (threadBean != null) {
                before += threadBean.getCurrentThreadAllocatedBytes() - grow;
              }
            }
            recorded[n++] = elapsed;
            done.increment();
          }
          allocated[id] = threadBean != null
              ? threadBean.getCurrentThreadAllocatedBytes() - before : -1;
          latencies[id] = recorded;
          counts[id] = n;
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }, "tfjni-bench-" + t);
      worker.setDaemon(true);
      workers.add(worker);
    }
    reporter.phase(threadCount, iterations, duration, warmup);
    workers.forEach(Thread::start);
    ready.await();
    GcSnapshot gcBefore = GcSnapshot.take();
    long start = System.nanoTime();
    deadline[0] = duration != null ? start + duration.toNanos() : Long.MAX_VALUE;
    go.countDown();
    reporter.measuring(start, done);
    for (Thread worker : workers) {
      worker.join();
    }
    long end = System.nanoTime();
    reporter.finish(done.sum(), (end - start) / 1e9);
    GcSnapshot gcAfter = GcSnapshot.take();
    Throwable error = failure.get();
    if (error != null) {
      if (error instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (error instanceof Error e) {
        throw e;
      }
      throw new IllegalStateException(error);
    }
    int total = 0;
    for (int c : counts) {
      total += c;
    }
    long[] all = new long[total];
    int at = 0;
    long allocatedTotal = 0;
    boolean allocationKnown = true;
    for (int t = 0; t < threadCount; t++) {
      System.arraycopy(latencies[t], 0, all, at, counts[t]);
      at += counts[t];
      allocationKnown &= allocated[t] >= 0;
      allocatedTotal += Math.max(0, allocated[t]);
    }
    Arrays.sort(all);
    double mean = 0;
    for (long l : all) {
      mean += l;
    }
    mean = total > 0 ? mean / total : 0;
    long[] memory = processMemory();
    java.lang.management.MemoryUsage heap =
        ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    return new Phase(threadCount, total, (end - start) / 1e9, percentile(all, 50) / 1e6,
        percentile(all, 90) / 1e6, percentile(all, 99) / 1e6,
        (total > 0 ? all[total - 1] : 0) / 1e6, mean / 1e6, memory[0], memory[1],
        heap.getUsed(), heap.getCommitted(), gcAfter.count - gcBefore.count,
        gcAfter.millis - gcBefore.millis,
        allocationKnown && total > 0 ? (double) allocatedTotal / total : Double.NaN);
  }

  /** Nearest-rank percentile of sorted values. */
  static long percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(p / 100 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  private static com.sun.management.ThreadMXBean allocationBean() {
    java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    if (bean instanceof com.sun.management.ThreadMXBean sun
        && sun.isThreadAllocatedMemorySupported()) {
      if (!sun.isThreadAllocatedMemoryEnabled()) {
        sun.setThreadAllocatedMemoryEnabled(true);
      }
      return sun;
    }
    return null;
  }

  private record GcSnapshot(long count, long millis) {
    static GcSnapshot take() {
      long count = 0;
      long millis = 0;
      for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
        count += Math.max(0, gc.getCollectionCount());
        millis += Math.max(0, gc.getCollectionTime());
      }
      return new GcSnapshot(count, millis);
    }
  }

  /** VmRSS and VmHWM of /proc/self/status in bytes; -1 where unknown. */
  static long[] processMemory() {
    long[] result = {-1, -1};
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          result[0] = kilobytes(line);
        } else if (line.startsWith("VmHWM:")) {
          result[1] = kilobytes(line);
        }
      }
    } catch (IOException | RuntimeException e) {
      // Not Linux: leave unknown.
    }
    return result;
  }

  private static long kilobytes(String line) {
    String[] parts = line.trim().split("\\s+");
    return Long.parseLong(parts[1]) * 1024;
  }

  static String table(List<Phase> phases, long batchItems) {
    StringBuilder out = new StringBuilder();
    boolean items = batchItems > 1;
    out.append(String.format(Locale.ROOT, "%7s %9s %9s%s %8s %8s %8s %8s %8s %9s %4s %6s %11s%n",
        "threads", "runs", "runs/s", items ? String.format(Locale.ROOT, " %9s", "items/s") : "",
        "p50 ms", "p90 ms", "p99 ms", "max ms", "RSS MiB", "heap MiB", "GCs", "GC ms",
        "alloc B/run"));
    for (Phase p : phases) {
      out.append(String.format(Locale.ROOT,
          "%7d %9d %9.1f%s %8.3f %8.3f %8.3f %8.3f %8.1f %9.1f %4d %6d %11s%n", p.threads(),
          p.runs(), p.throughput(),
          items ? String.format(Locale.ROOT, " %9.1f", p.throughput() * batchItems) : "",
          p.p50Ms(), p.p90Ms(), p.p99Ms(), p.maxMs(), p.rssBytes() / 1048576.0,
          p.heapUsedBytes() / 1048576.0, p.gcCount(), p.gcMillis(),
          Double.isNaN(p.allocatedBytesPerRun()) ? "n/a"
              : String.format(Locale.ROOT, "%.0f", p.allocatedBytesPerRun())));
    }
    return out.toString();
  }

  private Map<String, Object> jsonReport(SavedModelInfo.SignatureInfo signature,
      SavedModelInfo.MetaGraph metaGraph, List<InputInfo> inputInfos, List<Phase> phases,
      List<Phase> batchedPhases, List<Double> callsPerBatch) {
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("model", modelOptions.dir.toAbsolutePath().toString());
    report.put("tag_set", String.join(",", metaGraph.tags()));
    report.put("signature", signature.key());
    List<Object> inputList = new ArrayList<>();
    for (InputInfo input : inputInfos) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("key", input.key());
      entry.put("dtype", Dtypes.pythonName(input.dataType()));
      entry.put("shape", input.shape());
      entry.put("source", input.source());
      inputList.add(entry);
    }
    report.put("inputs", inputList);
    report.put("batch", batchItems(inputInfos));
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("threads", threads);
    config.put("duration_seconds", duration != null ? seconds(duration) : null);
    config.put("iterations", iterations);
    config.put("warmup_per_thread", warmup);
    config.put("intra_op_threads", sessionThreads.intraOpThreads);
    config.put("inter_op_threads", sessionThreads.effectiveInterOpThreads());
    report.put("config", config);
    Map<String, Object> machine = new LinkedHashMap<>();
    machine.put("cpu", cpuModel());
    machine.put("cores", Runtime.getRuntime().availableProcessors());
    machine.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version")
        + " " + System.getProperty("os.arch"));
    machine.put("java", System.getProperty("java.vm.name") + " "
        + System.getProperty("java.runtime.version"));
    machine.put("tensorflow", TensorFlow.version());
    machine.put("tfjni", TensorFlow.tfjniVersion());
    report.put("machine", machine);
    long items = batchItems(inputInfos);
    report.put("results", phases.stream().map(p -> phaseJson(p, items)).toList());
    if (batchMax != null) {
      Map<String, Object> batching = new LinkedHashMap<>();
      batching.put("max_calls", batchMax);
      batching.put("delay_ms", seconds(batchDelay) * 1000);
      batching.put("leader", batchLeader);
      batching.put("concurrent_batches", batchConcurrent);
      batching.put("calls_per_batch", callsPerBatch);
      report.put("batching", batching);
      report.put("batched_results", batchedPhases.stream().map(p -> phaseJson(p, items))
          .toList());
    }
    return report;
  }

  private static Map<String, Object> phaseJson(Phase p, long batchItems) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("threads", p.threads());
    r.put("runs", p.runs());
    r.put("seconds", p.seconds());
    r.put("runs_per_second", p.throughput());
    r.put("items_per_second", p.throughput() * batchItems);
    Map<String, Object> latency = new LinkedHashMap<>();
    latency.put("p50", p.p50Ms());
    latency.put("p90", p.p90Ms());
    latency.put("p99", p.p99Ms());
    latency.put("max", p.maxMs());
    latency.put("mean", p.meanMs());
    r.put("latency_ms", latency);
    r.put("rss_bytes", p.rssBytes());
    r.put("rss_peak_bytes", p.rssPeakBytes());
    r.put("heap_used_bytes", p.heapUsedBytes());
    r.put("heap_committed_bytes", p.heapCommittedBytes());
    r.put("gc_count", p.gcCount());
    r.put("gc_millis", p.gcMillis());
    r.put("allocated_bytes_per_run",
        Double.isNaN(p.allocatedBytesPerRun()) ? null : p.allocatedBytesPerRun());
    return r;
  }

  static String machine() {
    return "machine: " + cpuModel() + ", " + Runtime.getRuntime().availableProcessors()
        + " cores; TensorFlow " + TensorFlow.version() + "; Java "
        + System.getProperty("java.runtime.version");
  }

  private static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException | RuntimeException e) {
      // fall through
    }
    return System.getProperty("os.arch");
  }

  static double seconds(Duration d) {
    return d.toNanos() / 1e9;
  }

  private static void writeFile(Path file, byte[] bytes) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.write(file, bytes);
  }

  /** Parses 20s, 1.5s, 500ms, 2m, 1h, or a plain number of seconds. */
  static final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      java.util.regex.Matcher m = java.util.regex.Pattern
          .compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|min|h)?").matcher(value.trim());
      if (!m.matches()) {
        throw new picocli.CommandLine.TypeConversionException("'" + value
            + "' is not a duration like 20s, 500ms or 2m");
      }
      double amount = Double.parseDouble(m.group(1));
      String unit = m.group(2) == null ? "s" : m.group(2);
      double seconds = switch (unit) {
        case "ms" -> amount / 1000;
        case "m", "min" -> amount * 60;
        case "h" -> amount * 3600;
        default -> amount;
      };
      return Duration.ofNanos((long) (seconds * 1e9));
    }
  }

  /** Progress on stderr: a redrawn bar, periodic lines, or nothing. */
  static final class Progress {
    private final PrintWriter err;
    private final String mode;
    private volatile boolean running;
    private Thread ticker;
    private int threads;
    private Long total;
    private Duration duration;

    Progress(PrintWriter err, String mode) {
      this.err = err;
      this.mode = mode;
    }

    void phase(int threadCount, Long iterations, Duration phaseDuration, int warmup) {
      this.threads = threadCount;
      this.total = iterations;
      this.duration = phaseDuration;
      if (mode.equals("lines")) {
        err.println("bench: " + threadCount + " thread" + (threadCount > 1 ? "s" : "")
            + ": warming up (" + warmup + " runs per thread)");
      } else if (mode.equals("bar")) {
        err.print("\r" + label() + " warming up...");
      }
      err.flush();
    }

    void measuring(long start, LongAdder done) {
      if (mode.equals("none")) {
        return;
      }
      running = true;
      long interval = mode.equals("bar") ? 100 : 5000;
      ticker = new Thread(() -> {
        while (running) {
          try {
            Thread.sleep(interval);
          } catch (InterruptedException e) {
            return;
          }
          if (running) {
            report(start, done.sum());
          }
        }
      }, "tfjni-bench-progress");
      ticker.setDaemon(true);
      ticker.start();
    }

    private synchronized void report(long start, long runs) {
      double elapsed = (System.nanoTime() - start) / 1e9;
      double fraction = total != null ? (double) runs / total
          : elapsed / seconds(duration);
      fraction = Math.max(0, Math.min(1, fraction));
      String rate = String.format(Locale.ROOT, "%d runs, %.1f/s", runs,
          elapsed > 0 ? runs / elapsed : 0);
      if (mode.equals("bar")) {
        int width = 30;
        int filled = (int) Math.round(fraction * width);
        err.print("\r" + label() + " [" + "#".repeat(filled) + ".".repeat(width - filled) + "] "
            + String.format(Locale.ROOT, "%3.0f%%", fraction * 100) + "  " + rate + "   ");
      } else {
        err.println("bench: " + threads + " thread" + (threads > 1 ? "s" : "") + ": "
            + String.format(Locale.ROOT, "%.0f%%", fraction * 100) + " (" + rate + ")");
      }
      err.flush();
    }

    void finish(long runs, double seconds) throws InterruptedException {
      running = false;
      if (ticker != null) {
        ticker.interrupt();
        ticker.join();
        ticker = null;
      }
      String summary = String.format(Locale.ROOT, "%d runs in %.2f s (%.1f/s)", runs, seconds,
          seconds > 0 ? runs / seconds : 0);
      synchronized (this) {
        if (mode.equals("bar")) {
          err.print("\r" + label() + " [" + "#".repeat(30) + "] 100%  " + summary + "   \n");
        } else if (mode.equals("lines")) {
          err.println("bench: " + threads + " thread" + (threads > 1 ? "s" : "") + ": done, "
              + summary);
        }
        err.flush();
      }
    }

    private String label() {
      return String.format(Locale.ROOT, "threads %-3d", threads);
    }
  }
}
