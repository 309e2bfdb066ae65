package io.tfjni.flink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.tfjni.Tensor;
import io.tfjni.TestModels;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.api.java.tuple.Tuple4;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * String inputs and outputs, against the manifest's goldens of the strings model's transform
 * (upper-cased, suffixed, byte length): through the async function as {@code byte[][]} and
 * {@code String[]} fields, and through the SQL functions from a STRING column.
 */
@ExtendWith(TestModels.NoLeaks.class)
class StringsTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = FlinkTests.twoSlotCluster();

  private static byte[][] inputs;
  private static byte[][] upper;
  private static byte[][] joined;
  private static int[] lengths;

  @BeforeAll
  static void readGoldens() {
    JsonNode call = TestModels.testCase("strings_transform").get("calls").get(0);
    inputs = TestModels.strings(call.get("inputs").get("s"));
    upper = TestModels.strings(call.get("outputs").get("upper"));
    joined = TestModels.strings(call.get("outputs").get("joined"));
    try (Tensor length = TestModels.tensor(call.get("outputs").get("length"))) {
      lengths = length.toIntArray();
    }
  }

  private static SavedModelAsyncFunction.Builder<Tuple2<Integer, byte[][]>> transform() {
    return SavedModelAsyncFunction.<Tuple2<Integer, byte[][]>>builder(
        TestModels.modelPath("strings").toString()).signatureKey("transform")
        .input("s", "text", record -> record.f1).maxBatchSize(4);
  }

  /** Every golden string, binary ones too, as bytes; each output's bytes as Python's. */
  @Test
  void byteStringsGiveEveryOutputAsPython() throws Exception {
    List<Tuple2<Integer, byte[][]>> records = new ArrayList<>();
    for (int i = 0; i < inputs.length; i++) {
      records.add(Tuple2.of(i, new byte[][] {inputs[i]}));
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    List<Tuple4<Integer, byte[][], byte[][], int[]>> scored = AsyncDataStream.unorderedWait(
        env.fromData(records, Types.TUPLE(Types.INT, Types.OBJECT_ARRAY(
            Types.PRIMITIVE_ARRAY(Types.BYTE)))).rebalance(),
        transform().build((record, prediction) -> Tuple4.of(record.f0,
            prediction.bytes("upper"), prediction.bytes("joined"), prediction.ints("length"))),
        1, TimeUnit.MINUTES, 8)
        .returns(Types.TUPLE(Types.INT, Types.OBJECT_ARRAY(Types.PRIMITIVE_ARRAY(Types.BYTE)),
            Types.OBJECT_ARRAY(Types.PRIMITIVE_ARRAY(Types.BYTE)),
            Types.PRIMITIVE_ARRAY(Types.INT)))
        .executeAndCollect(inputs.length + 1);
    assertEquals(inputs.length, scored.size());
    for (Tuple4<Integer, byte[][], byte[][], int[]> record : scored) {
      int i = record.f0;
      assertArrayEquals(new byte[][] {upper[i]}, record.f1, "upper of string " + i);
      assertArrayEquals(new byte[][] {joined[i]}, record.f2, "joined of string " + i);
      assertArrayEquals(new int[] {lengths[i]}, record.f3, "length of string " + i);
    }
  }

  /** The golden strings that are UTF-8 text: SQL strings and Java strings are text. */
  private static List<Integer> textIndexes() {
    List<Integer> text = new ArrayList<>();
    for (int i = 0; i < inputs.length; i++) {
      try {
        StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(inputs[i]));
        text.add(i);
      } catch (CharacterCodingException binary) {
        // left out
      }
    }
    return text;
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  @Test
  void javaStringsInAndOut() throws Exception {
    List<Tuple2<Integer, String[]>> records = new ArrayList<>();
    for (int i : textIndexes()) {
      records.add(Tuple2.of(i, new String[] {text(inputs[i])}));
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    List<Tuple2<Integer, String[]>> scored = AsyncDataStream.unorderedWait(
        env.fromData(records, Types.TUPLE(Types.INT, Types.OBJECT_ARRAY(Types.STRING)))
            .rebalance(),
        SavedModelAsyncFunction.<Tuple2<Integer, String[]>>builder(
            TestModels.modelPath("strings").toString()).signatureKey("transform")
            .input("s", "text", record -> record.f1).outputs("upper")
            .build((record, prediction) -> Tuple2.of(record.f0, prediction.strings("upper"))),
        1, TimeUnit.MINUTES, 8)
        .returns(Types.TUPLE(Types.INT, Types.OBJECT_ARRAY(Types.STRING)))
        .executeAndCollect(records.size() + 1);
    assertEquals(records.size(), scored.size());
    for (Tuple2<Integer, String[]> record : scored) {
      assertArrayEquals(new String[] {text(upper[record.f0])}, record.f1,
          "upper of string " + record.f0);
    }
  }

  @Test
  void aStringColumnFeedsTheSqlFunctions() throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    StreamTableEnvironment tables = StreamTableEnvironment.create(env);
    tables.getConfig().set("table.exec.async-scalar.retry-strategy", "NO_RETRY");
    List<Row> rows = new ArrayList<>();
    for (int i : textIndexes()) {
      rows.add(Row.of(i, text(inputs[i])));
    }
    tables.createTemporaryView("texts", tables.fromDataStream(env.fromData(rows,
        Types.ROW_NAMED(new String[] {"id", "s"}, Types.INT, Types.STRING))));
    SqlFunctionBuilder transform = SqlFunctionBuilder.model(
        TestModels.modelPath("strings").toString()).signatureKey("transform").input("s", "s");
    tables.createTemporarySystemFunction("upper_of", transform.outputs("upper").scalarFunction());
    tables.createTemporarySystemFunction("length_of",
        transform.outputs("length").scalarFunction());
    List<Row> scored = new ArrayList<>();
    CloseableIterator<Row> results =
        tables.sqlQuery("SELECT id, upper_of(s), length_of(s) FROM texts").execute().collect();
    try {
      results.forEachRemaining(scored::add);
    } finally {
      results.close();
    }
    assertEquals(rows.size(), scored.size());
    for (Row row : scored) {
      int i = (Integer) row.getField(0);
      assertEquals(text(upper[i]), row.getField(1), "upper of string " + i);
      assertEquals(lengths[i], row.getField(2), "length of string " + i);
    }
  }
}
