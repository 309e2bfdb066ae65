package io.tfjni.cli;

import io.tfjni.Device;
import io.tfjni.SavedModel;
import io.tfjni.eager.EagerContext;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tfjni devices}: the devices TensorFlow can place ops on, as a model's session sees them
 * ({@code --dir}) or as an eager context does.
 */
@Command(name = "devices", sortOptions = false,
    description = {"Lists the devices TensorFlow can place ops on: name, type and memory (the"
        + " device's memory limit as TensorFlow reports it). With --dir, those of a SavedModel's"
        + " session (which loads the model); else those of an eager context."},
    footer = {"", "Examples:", "  tfjni devices", "  tfjni devices --dir digits"})
final class DevicesCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;

  @Option(names = "--dir", paramLabel = "DIR",
      description = "A SavedModel directory: list its session's devices.")
  Path dir;

  @Option(names = {"--tag_set", "--tag-set"}, paramLabel = "TAGS", defaultValue = "serve",
      description = "The MetaGraphDef's tags, comma-separated (default: ${DEFAULT-VALUE}).")
  String tagSet;

  @Override
  public Integer call() throws Exception {
    List<Device> devices;
    if (dir == null) {
      devices = EagerContext.shared().listDevices();
    } else {
      SavedModelInfo.MetaGraph metaGraph = SavedModelInfo.read(dir).metaGraph(tagSet);
      try (SavedModel model = SavedModel.load(dir, io.tfjni.SessionOptions.defaults(),
          metaGraph.tags().toArray(new String[0]))) {
        devices = model.listDevices();
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println(table(devices));
    out.flush();
    return 0;
  }

  static String table(List<Device> devices) {
    int width = "name".length();
    for (Device device : devices) {
      width = Math.max(width, device.name().length());
    }
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "%-" + width + "s  %-6s %16s%n", "name", "type",
        "memory bytes"));
    for (Device device : devices) {
      out.append(String.format(Locale.ROOT, "%-" + width + "s  %-6s %16d%n", device.name(),
          device.type(), device.memoryBytes()));
    }
    return out.toString().stripTrailing();
  }
}
