package io.tfjni.bench;

import java.nio.file.Path;
import java.util.Map;

/**
 * A case of the runtime comparison (scripts/bench/generate_runtime_models.py's bench_models.json): the
 * benchmark case TensorFlow runs, and its LiteRT and ONNX files, or each converter's reason for
 * having none.
 */
record RuntimeCase(BenchCase benchCase, Path litert, String litertError, Path onnx,
    String onnxError) {

  static RuntimeCase load(String name) {
    Map<?, ?> entry = BenchCase.entry(name);
    Path dir = BenchCase.modelsDir();
    return new RuntimeCase(BenchCase.load(name), file(dir, entry.get("litert")),
        (String) entry.get("litert_error"), file(dir, entry.get("onnx")),
        (String) entry.get("onnx_error"));
  }

  private static Path file(Path dir, Object relative) {
    return relative == null ? null : dir.resolve((String) relative);
  }
}
