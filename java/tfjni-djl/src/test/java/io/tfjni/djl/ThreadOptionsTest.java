package io.tfjni.djl;

import static io.tfjni.ThreadProbe.THREAD_STAT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.MalformedModelException;
import ai.djl.Model;
import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.repository.zoo.Criteria;
import ai.djl.repository.zoo.ZooModel;
import ai.djl.translate.NoopTranslator;
import io.tfjni.LiveObjects;
import io.tfjni.TensorFlow;
import io.tfjni.TestModels;
import io.tfjni.ThreadProbe.Observed;
import io.tfjni.ThreadProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The thread settings of a model's session (the {@code InterOpThreads} option, DJL's thread
 * system properties, a {@code ConfigProto}) reach TensorFlow, seen without timing: a predict of
 * the {@code thread_probe} model tells which thread ran its op ({@link ThreadProbe}).
 */
class ThreadOptionsTest {
  /** A serialized ConfigProto with inter_op_parallelism_threads (field 5, varint) = 2. */
  private static final byte[] CONFIG_INTER_OP_2 = {0x28, 0x02};

  /** Loads the probe with Model.load, which takes options of any type. */
  private static Model loadProbe(Map<String, ?> options) throws Exception {
    Map<String, Object> all = new HashMap<>(options);
    all.put("SignatureDefKey", "read_file");
    Model model = Model.newInstance("thread_probe", "TensorFlow");
    try {
      model.load(TestModels.modelPath("thread_probe"), null, all);
    } catch (Exception | Error e) {
      model.close();
      throw e;
    }
    return model;
  }

  private static Observed probe(Map<String, ?> options) throws Exception {
    TfjniEngine.getInstance();  // its eager context lives on: not part of the count below
    LiveObjects before = TensorFlow.liveObjects();
    Observed seen;
    try (Model model = loadProbe(options);
        Predictor<NDList, NDList> predictor = model.newPredictor(new NoopTranslator())) {
      seen = onNewThread(model.getNDManager(), predictor);
    }
    assertEquals(before, TensorFlow.liveObjects(), "native objects after closing the model");
    return seen;
  }

  /** One predict, called from a fresh thread (neither the test's nor the loader's). */
  private static Observed onNewThread(NDManager manager, Predictor<NDList, NDList> predictor)
      throws InterruptedException {
    return ThreadProbe.onNewThread(() -> {
      try (NDManager local = manager.newSubManager();
          NDList out = predictor.predict(new NDList(local.create(THREAD_STAT)))) {
        return out.singletonOrThrow().toStringArray()[0];
      }
    });
  }

  private static String loadError(Map<String, ?> options) {
    return assertThrows(MalformedModelException.class, () -> loadProbe(options).close())
        .getMessage();
  }

  /** What a DJL user writes: Criteria options are text. */
  @Test
  void criteriaOptionMinusOneRunsTheOpsOnTheCallingThread() throws Exception {
    TfjniEngine.getInstance();
    LiveObjects before = TensorFlow.liveObjects();
    Criteria<NDList, NDList> criteria = Criteria.builder().setTypes(NDList.class, NDList.class)
        .optModelPath(TestModels.modelPath("thread_probe")).optEngine("TensorFlow")
        .optOption("SignatureDefKey", "read_file").optOption("InterOpThreads", "-1").build();
    try (ZooModel<NDList, NDList> model = criteria.loadModel();
        Predictor<NDList, NDList> predictor = model.newPredictor()) {
      assertTrue(onNewThread(model.getNDManager(), predictor).onCaller());
    }
    assertEquals(before, TensorFlow.liveObjects(), "native objects after closing the model");
  }

  @Test
  void interOpThreadsMinusOneRunsTheOpsOnTheCallingThread() throws Exception {
    assertTrue(probe(Map.of("InterOpThreads", -1)).onCaller(), "Integer -1");
    assertTrue(probe(Map.of("InterOpThreads", " -1 ")).onCaller(), "text -1");
  }

  /** The control: the probe tells a pool thread from the caller. */
  @Test
  void theDefaultAndAPoolOfTheModelsOwnRunTheOpsElsewhere() throws Exception {
    Observed pooled = probe(Map.of());
    assertNotEquals(pooled.caller(), pooled.ranOp(), "TensorFlow's shared pool");
    assertTrue(!probe(Map.of("InterOpThreads", 2)).onCaller(), "a pool of 2 of the model's own");
    assertTrue(!probe(Map.of("InterOpThreads", "0")).onCaller(), "0: TensorFlow's pool");
  }

  /**
   * A positive count is a pool of the model's own, made at load and joined at close: the process
   * has that many more threads while the model is loaded. On TensorFlow's shared pool, made by the
   * first session, a count would change nothing. TensorFlow 2.18 does not name its threads, so
   * they carry the name of the thread that made them (the loading one); 2.21 names them
   * {@code tf_<pool>} ({@code tf_Compute}: checked with its Python); the JVM names its own.
   */
  @Test
  void aPositiveCountIsAPoolOfTheModelsOwn() throws Exception {
    probe(Map.of());  // the shared pool exists from here on
    long shared = threadsNamedLikeThisOne();
    try (Model model = loadProbe(Map.of("InterOpThreads", 3))) {
      assertEquals(shared + 3, threadsNamedLikeThisOne(), "while " + model.getName()
          + " is loaded");
    }
    assertEquals(shared, threadsNamedLikeThisOne(), "after close");
    try (Model model = loadProbe(Map.of("InterOpThreads", "0"))) {
      assertEquals(shared, threadsNamedLikeThisOne(), model.getName() + " with 0: the shared pool");
    }
  }

  /** The names TensorFlow gives its threads from 2.21 on (none before). */
  private static final String TENSORFLOW_THREAD_PREFIX = "tf_";

  private static long threadsNamedLikeThisOne() throws IOException {
    String mine = Files.readString(Path.of("/proc/thread-self/comm"));
    try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
      return tasks.filter(t -> {
        try {
          String name = Files.readString(t.resolve("comm"));
          return name.equals(mine) || name.startsWith(TENSORFLOW_THREAD_PREFIX);
        } catch (IOException e) {
          return false;  // the thread ended meanwhile
        }
      }).count();
    }
  }

  @Test
  void theSystemPropertyMinusOneRunsTheOpsOnTheCallingThread() throws Exception {
    withInterOpProperty("-1", () -> {
      assertTrue(probe(Map.of()).onCaller(), "the property alone");
      // An explicit option wins over the property.
      assertTrue(!probe(Map.of("InterOpThreads", 2)).onCaller(), "the option over the property");
    });
  }

  /** As in DJL's engine, a ConfigProto replaces the thread properties; the option still wins. */
  @Test
  void aConfigProtoReplacesThePropertiesAndTheOptionWinsOverIt() throws Exception {
    withInterOpProperty("-1", () -> {
      assertTrue(!probe(Map.of("ConfigProto", CONFIG_INTER_OP_2)).onCaller(), "ConfigProto");
      assertTrue(probe(Map.of("ConfigProto", CONFIG_INTER_OP_2, "InterOpThreads", -1))
          .onCaller(), "the option over the ConfigProto");
    });
  }

  @Test
  void badValuesAreErrorsNamingTheOptionAndTheValue() {
    for (Object bad : new Object[] {"two", 1.5, -2, Integer.MIN_VALUE, ""}) {
      String message = loadError(Map.of("InterOpThreads", bad));
      assertTrue(message.contains("InterOpThreads") && message.contains(String.valueOf(bad)),
          message);
    }
    String intra = loadError(Map.of("IntraOpThreads", 2));
    assertTrue(intra.contains("IntraOpThreads") && intra.contains(TfjniEngine.INTRAOP_THREADS)
        && intra.contains("once per process"), intra);
  }

  /** The engine's start sized the process's intra-op pool (to TensorFlow's default here). */
  @Test
  void anIntraOpCountIsAcceptedOnlyIfItIsThePools() throws Exception {
    loadProbe(Map.of("IntraOpThreads", "0")).close();
    String other = loadError(Map.of("IntraOpThreads", 1));
    assertTrue(other.contains("sized it to TensorFlow's default"), other);
  }

  @Test
  void aBadSystemPropertyIsAnErrorNamingIt() throws Exception {
    for (String bad : new String[] {"many", "-7"}) {
      withInterOpProperty(bad, () -> {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> loadProbe(Map.of()).close());
        assertTrue(e.getMessage().contains(TfjniEngine.INTEROP_THREADS)
            && e.getMessage().contains(bad), e.getMessage());
      });
    }
  }

  private interface Body {
    void run() throws Exception;
  }

  private static void withInterOpProperty(String value, Body body) throws Exception {
    String saved = System.getProperty(TfjniEngine.INTEROP_THREADS);
    System.setProperty(TfjniEngine.INTEROP_THREADS, value);
    try {
      body.run();
    } finally {
      if (saved == null) {
        System.clearProperty(TfjniEngine.INTEROP_THREADS);
      } else {
        System.setProperty(TfjniEngine.INTEROP_THREADS, saved);
      }
    }
  }
}
