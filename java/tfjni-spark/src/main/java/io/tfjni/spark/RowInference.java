package io.tfjni.spark;

import java.util.Iterator;
import java.util.function.Function;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.CatalystTypeConverters;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.StructType;
import scala.Function1;

/**
 * {@link PartitionInference} for {@code Dataset.mapPartitions}, the public API's way to run it:
 * what a streaming query or a Spark Connect client can plan. Each row is converted to the query
 * engine's internal form on its way in and back on its way out (a copy each way that the internal
 * path does without).
 */
final class RowInference implements MapPartitionsFunction<Row, Row> {
  private static final long serialVersionUID = 1;

  private final InferencePlan plan;
  private final StructType inputSchema;
  private final StructType outputSchema;

  RowInference(InferencePlan plan, StructType inputSchema, StructType outputSchema) {
    this.plan = plan;
    this.inputSchema = inputSchema;
    this.outputSchema = outputSchema;
  }

  @Override
  public Iterator<Row> call(Iterator<Row> rows) {
    Function1<Object, Object> toInternal =
        CatalystTypeConverters.createToCatalystConverter(inputSchema);
    Function1<Object, Object> toRow = CatalystTypeConverters.createToScalaConverter(outputSchema);
    Iterator<InternalRow> scored = new PartitionInference(plan).call(
        mapped(rows, row -> (InternalRow) toInternal.apply(row)));
    return mapped(scored, row -> (Row) toRow.apply(row));
  }

  /** {@code items} converted one by one as they are pulled. */
  private static <A, B> Iterator<B> mapped(Iterator<A> items, Function<A, B> convert) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return items.hasNext();
      }

      @Override
      public B next() {
        return convert.apply(items.next());
      }
    };
  }
}
