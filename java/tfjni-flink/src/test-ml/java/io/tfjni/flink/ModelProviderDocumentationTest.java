package io.tfjni.flink;

import io.tfjni.TestModels;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** docs/FLINK.md's ML_PREDICT block, run as {@link DocumentationSnippetsTest} runs its SQL. */
@ExtendWith(TestModels.NoLeaks.class)
class ModelProviderDocumentationTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = FlinkTests.twoSlotCluster();

  @Test
  void theMlPredictBlockRuns() throws Exception {
    DocumentationSnippetsTest.runSqlBlock("<!-- sql: ML_PREDICT");
  }
}
