package io.tfjni.cli;

import io.tfjni.numpy.Dtypes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tfjni show}: what saved_model_cli show prints, in the same layout, read from
 * saved_model.pb without loading TensorFlow. Differences: ops are listed sorted; a
 * {@code --signature_def} without {@code --tag_set} uses the model's only MetaGraphDef. With
 * {@code --litert}, the converted LiteRT models instead (tfjni's own).
 */
@Command(name = "show", sortOptions = false,
    description = {"Shows a SavedModel's tag-sets, SignatureDefs, and the dtype, shape and graph"
        + " tensor of each input and output, in saved_model_cli's layout.",
        "With --dir only: the tag-sets. With --tag_set: its SignatureDef keys. With"
        + " --signature_def too: that signature's inputs and outputs. --all: everything.",
        "--litert: instead, the LiteRT models 'tfjni convert' wrote for it (DIR/litert), with"
        + " the differences from TensorFlow recorded for each, or why one does not convert."})
final class ShowCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;

  @Option(names = "--dir", required = true, paramLabel = "DIR",
      description = "The SavedModel directory (holding saved_model.pb).")
  Path dir;

  @Option(names = {"--tag_set", "--tag-set"}, paramLabel = "TAGS",
      description = "A MetaGraphDef's tags, comma-separated, e.g. serve.")
  String tagSet;

  @Option(names = {"--signature_def", "--signature-def"}, paramLabel = "KEY",
      description = "A SignatureDef key, e.g. serving_default.")
  String signatureDef;

  @Option(names = "--all", description = "Show every MetaGraphDef, SignatureDef, op and function.")
  boolean all;

  @Option(names = {"--list_ops", "--list-ops"},
      description = "Also list the ops the MetaGraphDef uses (with --tag_set).")
  boolean listOps;

  @Option(names = "--litert",
      description = "List the converted LiteRT models (signatures and batch sizes) instead.")
  boolean litert;

  @Mixin
  OpLibraryOptions opLibraries;

  @Override
  public Integer call() {
    // Reading the model needs no op library; loading them here shows what each registers.
    if (opLibraries.any()) {
      spec.commandLine().getOut().print(OpLibraryOptions.describe(opLibraries.load()));
    }
    SavedModelInfo info = SavedModelInfo.read(dir);
    if (litert) {
      spec.commandLine().getOut().print(LiteRtListing.render(dir));
      spec.commandLine().getOut().flush();
      return 0;
    }
    String text = render(info, tagSet, signatureDef, all, listOps);
    spec.commandLine().getOut().print(text);
    spec.commandLine().getOut().flush();
    return 0;
  }

  static String render(SavedModelInfo info, String tagSet, String signatureDef, boolean all,
      boolean listOps) {
    StringBuilder out = new StringBuilder();
    if (all) {
      showAll(info, out);
      return out.toString();
    }
    if (tagSet == null && signatureDef != null) {
      if (info.metaGraphs().size() != 1) {
        throw new CliException("the SavedModel has " + info.metaGraphs().size()
            + " MetaGraphDefs; choose one with --tag_set (its tag-sets are "
            + info.describeTagSets() + ")");
      }
      tagSet = String.join(",", info.metaGraphs().get(0).tags());
    }
    if (tagSet == null) {
      if (listOps) {
        out.append("--list_ops must be paired with a tag-set or with --all.\n");
      }
      out.append("The given SavedModel contains the following tag-sets:\n");
      List<List<String>> tagSets = new ArrayList<>();
      for (SavedModelInfo.MetaGraph metaGraph : info.metaGraphs()) {
        tagSets.add(metaGraph.tags());
      }
      tagSets.sort(ShowCommand::compareLists);
      for (List<String> tags : tagSets) {
        out.append(Py.repr(String.join(", ", new TreeSet<>(tags)))).append('\n');
      }
      return out.toString();
    }
    SavedModelInfo.MetaGraph metaGraph = info.metaGraph(tagSet);
    if (listOps) {
      showOps(metaGraph, out);
    }
    if (signatureDef == null) {
      out.append("The given SavedModel MetaGraphDef contains SignatureDefs with the following"
          + " keys:\n");
      for (String key : metaGraph.signatures.keySet()) {
        out.append("SignatureDef key: \"").append(key).append("\"\n");
      }
    } else {
      showInputsOutputs(SavedModelInfo.signature(metaGraph, signatureDef), 0, out);
    }
    return out.toString();
  }

  private static void showAll(SavedModelInfo info, StringBuilder out) {
    List<SavedModelInfo.MetaGraph> metaGraphs = new ArrayList<>(info.metaGraphs());
    metaGraphs.sort(Comparator.comparing(SavedModelInfo.MetaGraph::tags,
        ShowCommand::compareLists));
    boolean objectGraph = false;
    for (SavedModelInfo.MetaGraph metaGraph : metaGraphs) {
      out.append("\nMetaGraphDef with tag-set: '").append(metaGraph.tagSet())
          .append("' contains the following SignatureDefs:\n");
      for (SavedModelInfo.SignatureInfo signature : metaGraph.signatures.values()) {
        out.append("\nsignature_def['").append(signature.key()).append("']:\n");
        showInputsOutputs(signature, 1, out);
      }
      showOps(metaGraph, out);
      objectGraph |= metaGraph.functions != null;
    }
    if (!objectGraph) {
      return;
    }
    // saved_model_cli lists the functions of the model's object graph (one MetaGraphDef has it).
    out.append("\nConcrete Functions:");
    for (SavedModelInfo.MetaGraph metaGraph : info.metaGraphs()) {
      if (metaGraph.functions == null) {
        continue;
      }
      for (SavedModelInfo.FunctionInfo function : metaGraph.functions) {
        out.append("\n  Function Name: '").append(function.name()).append("'\n");
        int index = 0;
        for (SavedModelInfo.ConcreteFunction concrete : function.concreteFunctions()) {
          index++;
          if (concrete.args() != null && !concrete.args().isEmpty()) {
            out.append("    Option #").append(index).append('\n');
            out.append("      Callable with:\n");
            printArgs(concrete.args(), "Argument", out);
          }
          if (concrete.kwargs() != null && !concrete.kwargs().isEmpty()) {
            printArgs(new ArrayList<>(concrete.kwargs().keySet()), "Named Argument", out);
          }
        }
      }
      break;
    }
  }

  private static void showOps(SavedModelInfo.MetaGraph metaGraph, StringBuilder out) {
    out.append("The MetaGraph with tag set ").append(Py.listRepr(metaGraph.tags()))
        .append(" contains the following ops: ");
    if (metaGraph.ops.isEmpty()) {
      out.append("set()\n");
      return;
    }
    List<String> ops = new ArrayList<>();
    for (String op : metaGraph.ops) {
      ops.add(Py.repr(op));
    }
    out.append('{').append(String.join(", ", ops)).append("}\n");
  }

  private static void showInputsOutputs(SavedModelInfo.SignatureInfo signature, int indent,
      StringBuilder out) {
    String pad = "  ".repeat(indent);
    out.append(pad).append("The given SavedModel SignatureDef contains the following input(s):\n");
    for (Map.Entry<String, SavedModelInfo.TensorInfo> input : signature.inputs().entrySet()) {
      out.append(pad).append("  inputs['").append(input.getKey()).append("'] tensor_info:\n");
      tensorInfo(input.getValue(), indent + 1, out);
    }
    out.append(pad).append("The given SavedModel SignatureDef contains the following output(s):\n");
    for (Map.Entry<String, SavedModelInfo.TensorInfo> output : signature.outputs().entrySet()) {
      out.append(pad).append("  outputs['").append(output.getKey()).append("'] tensor_info:\n");
      tensorInfo(output.getValue(), indent + 1, out);
    }
    out.append(pad).append("Method name is: ").append(signature.methodName()).append('\n');
  }

  private static void tensorInfo(SavedModelInfo.TensorInfo info, int indent, StringBuilder out) {
    String pad = "  ".repeat(indent);
    out.append(pad).append("    dtype: ").append(Dtypes.protoName(info.dtype())).append('\n');
    out.append(pad).append("    shape: ").append(shapeText(info.shape())).append('\n');
    out.append(pad).append("    name: ").append(info.name()).append('\n');
  }

  /** saved_model_cli's shape: "(-1, 3)", "(-1)", "()" or "unknown_rank". */
  static String shapeText(long[] shape) {
    if (shape == null) {
      return "unknown_rank";
    }
    List<String> dims = new ArrayList<>();
    for (long d : shape) {
      dims.add(Long.toString(d));
    }
    return "(" + String.join(", ", dims) + ")";
  }

  /** saved_model_cli's _print_args with indent 4. */
  private static void printArgs(List<Object> arguments, String argumentType, StringBuilder out) {
    String pad = "        ";
    int index = 0;
    for (Object element : arguments) {
      index++;
      out.append(pad).append(argumentType).append(" #").append(index).append('\n');
      if (element instanceof String s) {
        out.append(pad).append("  ").append(s).append('\n');
      } else if (element instanceof SavedModelInfo.TensorSpecValue spec) {
        out.append("          ").append(spec.name() == null || spec.name().isEmpty() ? "None"
            : spec.name()).append(": ").append(pyStr(spec)).append('\n');
      } else if (element instanceof List<?> || element instanceof SavedModelInfo.TupleValue) {
        List<?> values = element instanceof SavedModelInfo.TupleValue tuple ? tuple.values()
            : (List<?>) element;
        out.append(pad).append("  DType: ").append(typeName(element)).append('\n');
        out.append(pad).append("  Value: [");
        for (Object value : values) {
          out.append(quoted(value)).append(", ");
        }
        out.append("\b\b]\n");
      } else if (element instanceof Map<?, ?> map) {
        out.append(pad).append("  DType: dict\n");
        out.append(pad).append("  Value: {");
        for (Map.Entry<?, ?> entry : map.entrySet()) {
          out.append('\'').append(entry.getKey()).append("': ").append(quoted(entry.getValue()))
              .append(", ");
        }
        out.append("\b\b}\n");
      } else {
        out.append(pad).append("  DType: ").append(typeName(element)).append('\n');
        out.append(pad).append("  Value: ").append(pyStr(element)).append('\n');
      }
    }
  }

  private static String quoted(Object value) {
    return value instanceof String s ? "'" + s + "'" : pyStr(value);
  }

  private static String typeName(Object value) {
    if (value == null) {
      return "NoneType";
    }
    if (value instanceof Long) {
      return "int";
    }
    if (value instanceof Double) {
      return "float";
    }
    if (value instanceof Boolean) {
      return "bool";
    }
    if (value instanceof String) {
      return "str";
    }
    if (value instanceof List<?>) {
      return "list";
    }
    if (value instanceof SavedModelInfo.TupleValue) {
      return "tuple";
    }
    if (value instanceof Map<?, ?>) {
      return "dict";
    }
    if (value instanceof SavedModelInfo.TensorSpecValue) {
      return "TensorSpec";
    }
    if (value instanceof SavedModelInfo.OpaqueValue opaque) {
      return opaque.typeName();
    }
    return value.getClass().getSimpleName();
  }

  /** Python's str() of a decoded structure value. */
  static String pyStr(Object value) {
    if (value == null) {
      return "None";
    }
    if (value instanceof Boolean b) {
      return b ? "True" : "False";
    }
    if (value instanceof Double d) {
      return Py.floatRepr(d);
    }
    if (value instanceof String s) {
      return s;
    }
    if (value instanceof SavedModelInfo.TensorSpecValue spec) {
      return "TensorSpec(shape=" + tensorShape(spec.shape()) + ", dtype=tf."
          + Dtypes.pythonName(spec.dtype()) + ", name="
          + (spec.name() == null || spec.name().isEmpty() ? "None" : Py.repr(spec.name())) + ")";
    }
    if (value instanceof List<?> list) {
      List<String> items = new ArrayList<>();
      for (Object item : list) {
        items.add(reprOf(item));
      }
      return "[" + String.join(", ", items) + "]";
    }
    if (value instanceof SavedModelInfo.TupleValue tuple) {
      List<String> items = new ArrayList<>();
      for (Object item : tuple.values()) {
        items.add(reprOf(item));
      }
      return "(" + String.join(", ", items) + (items.size() == 1 ? ",)" : ")");
    }
    if (value instanceof Map<?, ?> map) {
      List<String> items = new ArrayList<>();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        items.add(Py.repr(String.valueOf(entry.getKey())) + ": " + reprOf(entry.getValue()));
      }
      return "{" + String.join(", ", items) + "}";
    }
    if (value instanceof SavedModelInfo.OpaqueValue opaque) {
      return opaque.typeName() + "(...)";
    }
    return String.valueOf(value);
  }

  private static String reprOf(Object value) {
    return value instanceof String s ? Py.repr(s) : pyStr(value);
  }

  /** TensorShape's str: "(None, 3)", "(None,)", "()" or "<unknown>". */
  static String tensorShape(long[] shape) {
    if (shape == null) {
      return "<unknown>";
    }
    List<String> dims = new ArrayList<>();
    for (long d : shape) {
      dims.add(d < 0 ? "None" : Long.toString(d));
    }
    return "(" + String.join(", ", dims) + (dims.size() == 1 ? ",)" : ")");
  }

  private static int compareLists(List<String> a, List<String> b) {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      int c = a.get(i).compareTo(b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }
}
