package io.tfjni.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The SavedModel, MetaGraphDef and SignatureDef that {@code tfjni run} and {@code tfjni bench}
 * work on, as a picocli mixin.
 */
final class ModelOptions {
  @Option(names = "--dir", required = true, paramLabel = "DIR",
      description = "The SavedModel directory.")
  Path dir;

  @Option(names = {"--tag_set", "--tag-set"}, paramLabel = "TAGS", defaultValue = "serve",
      description = "The MetaGraphDef's tags, comma-separated (default: ${DEFAULT-VALUE}).")
  String tagSet;

  @Option(names = {"--signature_def", "--signature-def"}, paramLabel = "KEY",
      defaultValue = "serving_default",
      description = "The SignatureDef to run (default: ${DEFAULT-VALUE}).")
  String signatureDef;
}
