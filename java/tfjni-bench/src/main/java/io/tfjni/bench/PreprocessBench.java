package io.tfjni.bench;

import ai.djl.engine.Engine;
import ai.djl.engine.EngineProvider;
import ai.djl.modality.cv.util.NDImageUtils;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A typical translator's image preprocessing through a DJL engine named "TensorFlow": a 256×256×3
 * UINT8 image from a heap {@code ByteBuffer}, {@code NDImageUtils.resize} to 224, {@code toTensor},
 * {@code normalize} and {@code expandDims}, every array closed with its manager. Run with
 * {@code -prof gc}: {@code gc.alloc.rate.norm} is the Java heap each image costs. The engine is
 * {@code engine=tfjni} or {@code engine=djl}, from its provider class as in {@link DjlBench}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@State(Scope.Benchmark)
public class PreprocessBench {
  private static final float[] MEAN = {0.485f, 0.456f, 0.406f};
  private static final float[] STD = {0.229f, 0.224f, 0.225f};

  @Param({"tfjni"})
  public String engine;

  private Engine djlEngine;
  private ByteBuffer image;

  @Setup(Level.Trial)
  public void open() throws ReflectiveOperationException {
    OneLibraryPerJvm.claim(engine.equals("tfjni") ? "tfjni" : "tensorflow-java");
    String provider = engine.equals("tfjni") ? "io.tfjni.djl.TfjniEngineProvider"
        : "ai.djl.tensorflow.engine.TfEngineProvider";
    djlEngine = ((EngineProvider) Class.forName(provider).getDeclaredConstructor()
        .newInstance()).getEngine();
    image = ByteBuffer.allocate(256 * 256 * 3);
    for (int i = 0; i < image.capacity(); i++) {
      image.put(i, (byte) (i * 7));
    }
  }

  @Benchmark
  public float preprocess() {
    try (NDManager manager = djlEngine.newBaseManager()) {
      NDArray pixels = manager.create(image, new Shape(256, 256, 3), DataType.UINT8);
      NDArray resized = NDImageUtils.resize(pixels, 224);
      NDArray tensor = NDImageUtils.toTensor(resized);
      NDArray normalized = NDImageUtils.normalize(tensor, MEAN, STD);
      return normalized.expandDims(0).getFloat(0, 0, 0, 0);
    }
  }

  @TearDown(Level.Trial)
  public void close() {
    image = null;
  }
}
