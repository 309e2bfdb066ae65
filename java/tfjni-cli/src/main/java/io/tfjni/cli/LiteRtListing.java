package io.tfjni.cli;

import io.tfjni.LiteRtConversions;
import java.nio.file.Path;
import java.util.Map;

/** The text `tfjni show --litert` and `tfjni convert` print for a SavedModel's LiteRT models. */
final class LiteRtListing {
  private LiteRtListing() {}

  static String render(Path savedModelDir) {
    LiteRtConversions conversions;
    try {
      conversions = LiteRtConversions.read(savedModelDir);
    } catch (IllegalArgumentException e) {
      throw new CliException(e.getMessage(), CliException.FAILURE);
    }
    Path layout = conversions.manifest().getParent();
    StringBuilder out = new StringBuilder();
    if (conversions.all().isEmpty()) {
      return out.append("No LiteRT models: ").append(conversions.manifest())
          .append(" does not exist (write them with 'tfjni convert ").append(savedModelDir)
          .append(" --batch-sizes N,...').\n").toString();
    }
    out.append("LiteRT models (").append(conversions.manifest()).append("):\n");
    long converted = 0;
    for (LiteRtConversions.Conversion c : conversions.all()) {
      out.append("  signature '").append(c.signatureKey()).append("', batch ")
          .append(c.batchSize()).append(": ");
      if (c.converted()) {
        converted++;
        out.append(layout.relativize(c.file())).append(", max |TensorFlow - LiteRT|");
        for (Map.Entry<String, Double> d : c.maxAbsDifference().entrySet()) {
          out.append(' ').append(d.getKey()).append(' ')
              .append(String.format("%.3g", d.getValue()));
        }
      } else {
        out.append("does not convert: ").append(Main.oneLine(c.error()));
      }
      out.append(" (TensorFlow ").append(c.tensorFlowVersion()).append(")\n");
    }
    return out.append(converted).append(" of ").append(conversions.all().size())
        .append(" converted.\n").toString();
  }
}
