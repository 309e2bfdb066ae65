package io.tfjni.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * What a SavedModel's saved_model.pb says, read without TensorFlow: each MetaGraphDef's tags,
 * SignatureDefs, the ops its graph uses, and the functions of its object graph. TensorFlow's C API
 * has no call for listing tags, hence this reader of the few protobuf fields needed.
 */
final class SavedModelInfo {
  static final String PB = "saved_model.pb";
  static final String PBTXT = "saved_model.pbtxt";

  /** A TensorInfo: graph tensor name, dtype enum, dims (-1 unknown) or null for unknown rank. */
  record TensorInfo(String name, int dtype, long[] shape) {}

  record SignatureInfo(String key, String methodName, SortedMap<String, TensorInfo> inputs,
      SortedMap<String, TensorInfo> outputs) {}

  /** A function of the object graph: its name and the inputs of each of its concrete functions. */
  record FunctionInfo(String name, List<ConcreteFunction> concreteFunctions) {}

  /**
   * A concrete function's input signature, decoded: {@code args} (a list) and {@code kwargs} (a
   * map), or null where the function has none.
   */
  record ConcreteFunction(String name, List<Object> args, Map<String, Object> kwargs) {}

  /** A TensorSpec of a function signature. */
  record TensorSpecValue(String name, long[] shape, int dtype) {}

  /** A Python tuple in a decoded structure (lists are {@link List}, dicts {@link Map}). */
  record TupleValue(List<Object> values) {}

  /** A structure value the CLI does not decode further, e.g. a RaggedTensorSpec. */
  record OpaqueValue(String typeName) {}

  static final class MetaGraph {
    final List<String> tags = new ArrayList<>();
    final SortedMap<String, SignatureInfo> signatures = new TreeMap<>();
    final Set<String> ops = new TreeSet<>();
    /** Null when the MetaGraphDef has no object graph (a TF1 SavedModel). */
    List<FunctionInfo> functions;

    List<String> tags() {
      return tags;
    }

    /** Tags joined by ", ", as saved_model_cli prints a tag-set. */
    String tagSet() {
      return String.join(", ", tags);
    }
  }

  private final Path dir;
  private final List<MetaGraph> metaGraphs;

  private SavedModelInfo(Path dir, List<MetaGraph> metaGraphs) {
    this.dir = dir;
    this.metaGraphs = metaGraphs;
  }

  /** Reads DIR/saved_model.pb; a missing or malformed model is a {@link CliException}. */
  static SavedModelInfo read(Path dir) {
    if (!Files.exists(dir)) {
      throw new CliException("no SavedModel directory " + dir + " (it does not exist)");
    }
    if (!Files.isDirectory(dir)) {
      throw new CliException(dir + " is not a directory: --dir takes a SavedModel directory");
    }
    Path pb = dir.resolve(PB);
    if (!Files.isRegularFile(pb)) {
      if (Files.isRegularFile(dir.resolve(PBTXT))) {
        throw new CliException(dir + " holds a text-format " + PBTXT
            + ", which tfjni does not read; save the model in binary form (" + PB + ")");
      }
      throw new CliException("no SavedModel in " + dir + " (there is no " + PB + ")");
    }
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(pb);
    } catch (IOException e) {
      throw new CliException("cannot read " + pb + ": " + e.getMessage());
    }
    try {
      return new SavedModelInfo(dir, parseSavedModel(new ProtoReader(bytes)));
    } catch (IllegalArgumentException e) {
      throw new CliException("malformed " + pb + ": " + e.getMessage());
    }
  }

  Path dir() {
    return dir;
  }

  /** The MetaGraphDefs, in file order. */
  List<MetaGraph> metaGraphs() {
    return metaGraphs;
  }

  /**
   * The MetaGraphDef whose tags are exactly the comma-separated {@code tagSet} (empty parts
   * ignored, order irrelevant), as saved_model_cli matches them.
   */
  MetaGraph metaGraph(String tagSet) {
    Set<String> wanted = new HashSet<>();
    for (String tag : tagSet.split(",")) {
      if (!tag.isEmpty()) {
        wanted.add(tag);
      }
    }
    for (MetaGraph metaGraph : metaGraphs) {
      if (new HashSet<>(metaGraph.tags).equals(wanted)) {
        return metaGraph;
      }
    }
    throw new CliException("no MetaGraphDef with tag-set '" + tagSet + "' in " + dir
        + "; its tag-sets are " + describeTagSets());
  }

  /** E.g. "'serve'" or "'serve', 'gpu,serve'". */
  String describeTagSets() {
    List<String> sets = new ArrayList<>();
    for (MetaGraph metaGraph : metaGraphs) {
      sets.add("'" + String.join(",", metaGraph.tags) + "'");
    }
    return sets.isEmpty() ? "(none)" : String.join(", ", sets);
  }

  /** The signature {@code key} of a MetaGraph; an unknown key lists the known ones. */
  static SignatureInfo signature(MetaGraph metaGraph, String key) {
    SignatureInfo signature = metaGraph.signatures.get(key);
    if (signature == null) {
      throw new CliException("no SignatureDef '" + key + "' in the MetaGraphDef tagged '"
          + String.join(",", metaGraph.tags) + "'; its SignatureDef keys are "
          + quoteAll(metaGraph.signatures.keySet()));
    }
    return signature;
  }

  static String quoteAll(java.util.Collection<String> names) {
    List<String> quoted = new ArrayList<>();
    for (String name : names) {
      quoted.add("'" + name + "'");
    }
    return quoted.isEmpty() ? "(none)" : String.join(", ", quoted);
  }

  // --- SavedModel { int64 saved_model_schema_version = 1; repeated MetaGraphDef meta_graphs = 2; }

  private static List<MetaGraph> parseSavedModel(ProtoReader in) {
    return repeated(in, 2, field -> parseMetaGraph(field.message()));
  }

  /** Every value of the repeated field {@code number}, read by {@code read}; skips the rest. */
  /** One entry of a protobuf map: key = 1 (string), value = 2 (a message, or {@code absent}). */
  private record MapEntry<V>(String key, V value) {}

  private static <V> MapEntry<V> mapEntry(ProtoReader entry, Function<ProtoReader, V> readValue,
      V absent) {
    String key = "";
    V value = absent;
    while (entry.next()) {
      if (entry.field() == 1) {
        key = entry.string();
      } else if (entry.field() == 2) {
        value = readValue.apply(entry.message());
      } else {
        entry.skip();
      }
    }
    return new MapEntry<>(key, value);
  }

  private static <T> List<T> repeated(ProtoReader in, int number, Function<ProtoReader, T> read) {
    List<T> values = new ArrayList<>();
    while (in.next()) {
      if (in.field() == number) {
        values.add(read.apply(in));
      } else {
        in.skip();
      }
    }
    return values;
  }

  // MetaGraphDef: meta_info_def = 1, graph_def = 2, signature_def = 5 (map), object_graph_def = 7.
  private static MetaGraph parseMetaGraph(ProtoReader in) {
    MetaGraph metaGraph = new MetaGraph();
    while (in.next()) {
      switch (in.field()) {
        case 1:
          parseMetaInfo(in.message(), metaGraph);
          break;
        case 2:
          metaGraph.ops.addAll(opsUsed(in.message()));
          break;
        case 5: {
          MapEntry<ProtoReader> entry = mapEntry(in.message(), Function.identity(), null);
          metaGraph.signatures.put(entry.key(), parseSignature(entry.key(), entry.value()));
          break;
        }
        case 7:
          metaGraph.functions = parseObjectGraph(in.message());
          break;
        default:
          in.skip();
      }
    }
    return metaGraph;
  }

  // MetaInfoDef: tags = 4.
  private static void parseMetaInfo(ProtoReader in, MetaGraph metaGraph) {
    metaGraph.tags.addAll(repeated(in, 4, ProtoReader::string));
  }

  // SignatureDef: inputs = 1 (map), outputs = 2 (map), method_name = 3.
  private static SignatureInfo parseSignature(String key, ProtoReader in) {
    SortedMap<String, TensorInfo> inputs = new TreeMap<>();
    SortedMap<String, TensorInfo> outputs = new TreeMap<>();
    String method = "";
    while (in != null && in.next()) {
      switch (in.field()) {
        case 1:
        case 2: {
          SortedMap<String, TensorInfo> target = in.field() == 1 ? inputs : outputs;
          MapEntry<TensorInfo> entry = mapEntry(in.message(), SavedModelInfo::parseTensorInfo,
              new TensorInfo("", 0, new long[0]));
          target.put(entry.key(), entry.value());
          break;
        }
        case 3:
          method = in.string();
          break;
        default:
          in.skip();
      }
    }
    return new SignatureInfo(key, method, inputs, outputs);
  }

  // TensorInfo: name = 1, dtype = 2, tensor_shape = 3.
  private static TensorInfo parseTensorInfo(ProtoReader in) {
    String name = "";
    int dtype = 0;
    long[] shape = new long[0];
    while (in.next()) {
      switch (in.field()) {
        case 1:
          name = in.string();
          break;
        case 2:
          dtype = (int) in.varint();
          break;
        case 3:
          shape = parseShape(in.message());
          break;
        default:
          in.skip();
      }
    }
    return new TensorInfo(name, dtype, shape);
  }

  // TensorShapeProto: dim = 2 { size = 1 }, unknown_rank = 3.
  private static long[] parseShape(ProtoReader in) {
    List<Long> dims = new ArrayList<>();
    boolean unknownRank = false;
    while (in.next()) {
      if (in.field() == 2) {
        ProtoReader dim = in.message();
        long size = 0;
        while (dim.next()) {
          if (dim.field() == 1) {
            size = dim.varint();
          } else {
            dim.skip();
          }
        }
        dims.add(size);
      } else if (in.field() == 3) {
        unknownRank = in.bool();
      } else {
        in.skip();
      }
    }
    if (unknownRank) {
      return null;
    }
    return dims.stream().mapToLong(Long::longValue).toArray();
  }

  /**
   * The ops a GraphDef uses, as TensorFlow Python's meta_graph.ops_used_by_graph_def computes
   * them: ops of its nodes and of the library functions they reach (function names excluded).
   */
  private static Set<String> opsUsed(ProtoReader graph) {
    List<Node> nodes = new ArrayList<>();
    Map<String, List<Node>> functions = new HashMap<>();
    // GraphDef: node = 1, library = 2 { function = 1 { signature = 1 { name = 1 }, node_def = 3 } }
    while (graph.next()) {
      if (graph.field() == 1) {
        nodes.add(parseNode(graph.message()));
      } else if (graph.field() == 2) {
        ProtoReader library = graph.message();
        while (library.next()) {
          if (library.field() != 1) {
            library.skip();
            continue;
          }
          ProtoReader function = library.message();
          String name = "";
          List<Node> body = new ArrayList<>();
          while (function.next()) {
            if (function.field() == 1) {
              ProtoReader signature = function.message();
              while (signature.next()) {
                if (signature.field() == 1) {
                  name = signature.string();
                } else {
                  signature.skip();
                }
              }
            } else if (function.field() == 3) {
              body.add(parseNode(function.message()));
            } else {
              function.skip();
            }
          }
          functions.put(name, body);
        }
      } else {
        graph.skip();
      }
    }
    Set<String> used = new LinkedHashSet<>();
    Deque<String> toProcess = new ArrayDeque<>();
    for (Node node : nodes) {
      markUsed(node, used, functions, toProcess);
    }
    while (!toProcess.isEmpty()) {
      for (Node node : functions.get(toProcess.pop())) {
        markUsed(node, used, functions, toProcess);
      }
    }
    used.removeAll(functions.keySet());
    return used;
  }

  private record Node(String op, String calledFunction) {}

  private static void markUsed(Node node, Set<String> used, Map<String, List<Node>> functions,
      Deque<String> toProcess) {
    mark(node.op(), used, functions, toProcess);
    if (node.op().equals("PartitionedCall") || node.op().equals("StatefulPartitionedCall")) {
      mark(node.calledFunction(), used, functions, toProcess);
    }
  }

  private static void mark(String op, Set<String> used, Map<String, List<Node>> functions,
      Deque<String> toProcess) {
    if (!used.contains(op) && functions.containsKey(op)) {
      toProcess.push(op);
    }
    used.add(op);
  }

  // NodeDef: op = 2, attr = 5 (map<string, AttrValue>); AttrValue.func = 10 { name = 1 }.
  private static Node parseNode(ProtoReader in) {
    String op = "";
    String function = "";
    while (in.next()) {
      if (in.field() == 2) {
        op = in.string();
      } else if (in.field() == 5) {
        ProtoReader entry = in.message();
        String key = "";
        String funcName = null;
        while (entry.next()) {
          if (entry.field() == 1) {
            key = entry.string();
          } else if (entry.field() == 2) {
            ProtoReader attr = entry.message();
            while (attr.next()) {
              if (attr.field() == 10) {
                ProtoReader func = attr.message();
                funcName = "";
                while (func.next()) {
                  if (func.field() == 1) {
                    funcName = func.string();
                  } else {
                    func.skip();
                  }
                }
              } else {
                attr.skip();
              }
            }
          } else {
            entry.skip();
          }
        }
        if (key.equals("f") && funcName != null) {
          function = funcName;
        }
      } else {
        in.skip();
      }
    }
    return new Node(op, function);
  }

  // SavedObjectGraph: nodes = 1, concrete_functions = 2 (map<string, SavedConcreteFunction>).
  private static List<FunctionInfo> parseObjectGraph(ProtoReader in) {
    List<SavedObject> nodes = new ArrayList<>();
    Map<String, ConcreteFunction> concrete = new HashMap<>();
    while (in.next()) {
      if (in.field() == 1) {
        nodes.add(parseSavedObject(in.message()));
      } else if (in.field() == 2) {
        MapEntry<ConcreteFunction> entry =
            mapEntry(in.message(), SavedModelInfo::parseConcreteFunction, null);
        String name = entry.key();
        ConcreteFunction function = entry.value();
        if (function != null) {
          concrete.put(name, new ConcreteFunction(name, function.args(), function.kwargs()));
        }
      } else {
        in.skip();
      }
    }
    List<FunctionInfo> functions = new ArrayList<>();
    if (nodes.isEmpty()) {
      return functions;
    }
    SortedMap<String, Integer> children = new TreeMap<>();
    for (Map.Entry<String, Integer> child : nodes.get(0).children.entrySet()) {
      children.putIfAbsent(child.getKey(), child.getValue());
    }
    for (Map.Entry<String, Integer> child : children.entrySet()) {
      int id = child.getValue();
      if (id < 0 || id >= nodes.size()) {
        continue;
      }
      SavedObject node = nodes.get(id);
      if (node.concreteFunctions == null) {
        continue;
      }
      List<String> names = new ArrayList<>(node.concreteFunctions);
      Collections.sort(names);
      List<ConcreteFunction> list = new ArrayList<>();
      for (String name : names) {
        ConcreteFunction function = concrete.get(name);
        if (function == null) {
          function = new ConcreteFunction(name, null, null);
        }
        if (function.args() == null && node.argumentKeywords != null
            && !node.argumentKeywords.isEmpty()) {
          function = new ConcreteFunction(name, new ArrayList<>(node.argumentKeywords), null);
        }
        list.add(function);
      }
      functions.add(new FunctionInfo(child.getKey(), list));
    }
    return functions;
  }

  private static final class SavedObject {
    final Map<String, Integer> children = new LinkedHashMap<>();
    /** Non-null for a function (its concrete functions) or a bare concrete function. */
    List<String> concreteFunctions;
    List<String> argumentKeywords;
  }

  // SavedObject: children = 1 { node_id = 1, local_name = 2 }, function = 6 { concrete_functions =
  // 1 }, bare_concrete_function = 8 { concrete_function_name = 1, argument_keywords = 2 }.
  private static SavedObject parseSavedObject(ProtoReader in) {
    SavedObject object = new SavedObject();
    while (in.next()) {
      switch (in.field()) {
        case 1: {
          ProtoReader reference = in.message();
          int id = -1;
          String name = "";
          while (reference.next()) {
            if (reference.field() == 1) {
              id = (int) reference.varint();
            } else if (reference.field() == 2) {
              name = reference.string();
            } else {
              reference.skip();
            }
          }
          object.children.putIfAbsent(name, id);
          break;
        }
        case 6: {
          ProtoReader function = in.message();
          object.concreteFunctions = new ArrayList<>();
          while (function.next()) {
            if (function.field() == 1) {
              object.concreteFunctions.add(function.string());
            } else {
              function.skip();
            }
          }
          break;
        }
        case 8: {
          ProtoReader bare = in.message();
          object.concreteFunctions = new ArrayList<>();
          object.argumentKeywords = new ArrayList<>();
          while (bare.next()) {
            if (bare.field() == 1) {
              object.concreteFunctions.add(bare.string());
            } else if (bare.field() == 2) {
              object.argumentKeywords.add(bare.string());
            } else {
              bare.skip();
            }
          }
          break;
        }
        default:
          in.skip();
      }
    }
    return object;
  }

  // SavedConcreteFunction: canonicalized_input_signature = 3 (StructuredValue: (args, kwargs)).
  @SuppressWarnings("unchecked")
  private static ConcreteFunction parseConcreteFunction(ProtoReader in) {
    List<Object> args = null;
    Map<String, Object> kwargs = null;
    while (in.next()) {
      if (in.field() == 3) {
        Object signature = structuredValue(in.message());
        if (signature instanceof TupleValue tuple && tuple.values().size() == 2) {
          Object first = tuple.values().get(0);
          Object second = tuple.values().get(1);
          if (first instanceof TupleValue argTuple) {
            args = argTuple.values();
          } else if (first instanceof List<?> argList) {
            args = (List<Object>) argList;
          }
          if (second instanceof Map<?, ?> map) {
            kwargs = (Map<String, Object>) map;
          }
        }
      } else {
        in.skip();
      }
    }
    return new ConcreteFunction("", args, kwargs);
  }

  /** Decodes a StructuredValue (tensorflow/core/protobuf/struct.proto) into Java values. */
  static Object structuredValue(ProtoReader in) {
    Object value = null;
    while (in.next()) {
      switch (in.field()) {
        case 1:
          in.skip();
          value = null;
          break;
        case 11:
          value = in.fixed64AsDouble();
          break;
        case 12: {
          long zigzag = in.varint();
          value = (zigzag >>> 1) ^ -(zigzag & 1);
          break;
        }
        case 13:
          value = in.string();
          break;
        case 14:
          value = in.bool();
          break;
        case 33:
          value = tensorSpec(in.message());
          break;
        case 51:
          value = values(in.message());
          break;
        case 52:
          value = new TupleValue(values(in.message()));
          break;
        case 53:
          value = dict(in.message());
          break;
        case 54:
          value = namedTuple(in.message());
          break;
        case 31:
          in.skip();
          value = new OpaqueValue("TensorShape");
          break;
        case 32:
          in.skip();
          value = new OpaqueValue("DType");
          break;
        case 34:
        case 35:
          in.skip();
          value = new OpaqueValue("TypeSpec");
          break;
        case 55:
        case 56:
          in.skip();
          value = new OpaqueValue("ndarray");
          break;
        default:
          in.skip();
      }
    }
    return value;
  }

  private static List<Object> values(ProtoReader in) {
    return repeated(in, 1, field -> structuredValue(field.message()));
  }

  private static Map<String, Object> dict(ProtoReader in) {
    Map<String, Object> fields = new LinkedHashMap<>();
    while (in.next()) {
      if (in.field() == 1) {
        MapEntry<Object> entry = mapEntry(in.message(), SavedModelInfo::structuredValue, null);
        fields.put(entry.key(), entry.value());
      } else {
        in.skip();
      }
    }
    return fields;
  }

  // NamedTupleValue: name = 1, values = 2 { key = 1, value = 2 }.
  private static TupleValue namedTuple(ProtoReader in) {
    List<Object> values = new ArrayList<>();
    while (in.next()) {
      if (in.field() == 2) {
        ProtoReader pair = in.message();
        while (pair.next()) {
          if (pair.field() == 2) {
            values.add(structuredValue(pair.message()));
          } else {
            pair.skip();
          }
        }
      } else {
        in.skip();
      }
    }
    return new TupleValue(values);
  }

  // TensorSpecProto: name = 1, shape = 2, dtype = 3.
  private static TensorSpecValue tensorSpec(ProtoReader in) {
    String name = null;
    long[] shape = new long[0];
    int dtype = 0;
    while (in.next()) {
      switch (in.field()) {
        case 1:
          name = in.string();
          break;
        case 2:
          shape = parseShape(in.message());
          break;
        case 3:
          dtype = (int) in.varint();
          break;
        default:
          in.skip();
      }
    }
    return new TensorSpecValue(name, shape, dtype);
  }
}
