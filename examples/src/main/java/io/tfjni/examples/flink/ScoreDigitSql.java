package io.tfjni.examples.flink;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * The held-out digits scored in pure SQL: the digits CNN made a catalog model with {@code CREATE
 * MODEL ... WITH ('provider' = 'tensorflow', ...)} and called by {@code ML_PREDICT} over a view of
 * (id, 64 pixels) rows, at parallelism 2; then every probability is compared with TensorFlow
 * Python's. Usage: ScoreDigitSql MODELS_DIR (holding digits/ and digits_holdout_*.npy). Exits 1 if
 * any prediction disagrees with Python's.
 */
public final class ScoreDigitSql {
  private ScoreDigitSql() {}

  public static void main(String[] args) throws Exception {
    Path models = Path.of(args[0]);
    HeldOutDigits heldOut = HeldOutDigits.read(models);
    List<Row> digits = new ArrayList<>(heldOut.count());
    for (int id = 0; id < heldOut.count(); id++) {
      float[] pixels = heldOut.pixels(id);
      Float[] boxed = new Float[pixels.length];  // SQL's ARRAY<FLOAT> is an array of objects
      for (int p = 0; p < pixels.length; p++) {
        boxed[p] = pixels[p];
      }
      digits.add(Row.of(id, boxed));
    }

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    StreamTableEnvironment tables = StreamTableEnvironment.create(env);
    TypeInformation<Row> idAndPixels = Types.ROW_NAMED(new String[] {"id", "pixels"}, Types.INT,
        Types.OBJECT_ARRAY(Types.FLOAT));
    tables.createTemporaryView("digits",
        tables.fromDataStream(env.fromData(digits, idAndPixels)));
    String path = models.resolve("digits").toString().replace("'", "''");
    tables.executeSql("CREATE TEMPORARY MODEL digits_model"
        + " INPUT (images ARRAY<FLOAT>) OUTPUT (output_0 ARRAY<FLOAT>)"
        + " WITH ('provider' = 'tensorflow', 'path' = '" + path + "', 'batch-size' = '32')");
    int scored = 0;
    Map<Integer, float[]> byId = new HashMap<>();
    try (CloseableIterator<Row> rows = tables.executeSql("SELECT id, output_0"
        + " FROM ML_PREDICT(TABLE digits, MODEL digits_model, DESCRIPTOR(pixels))").collect()) {
      while (rows.hasNext()) {
        Row row = rows.next();
        Float[] probabilities = (Float[]) row.getField(1);
        float[] p = new float[probabilities.length];
        for (int c = 0; c < p.length; c++) {
          p[c] = probabilities[c];
        }
        byId.put((Integer) row.getField(0), p);
        scored++;
      }
    }
    heldOut.checkAndExit("by ML_PREDICT", scored, byId);
  }
}
