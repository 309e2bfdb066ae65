package io.tfjni.cli;

import io.tfjni.internal.JsonText;
import java.util.List;
import java.util.Map;

/** Writes maps, lists, strings, numbers and booleans as indented JSON. */
final class Json {
  private Json() {}

  static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, 0, out);
    return out.append('\n').toString();
  }

  private static void write(Object value, int indent, StringBuilder out) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String s) {
      JsonText.quote(s, out);
    } else if (value instanceof Double d) {
      out.append(Double.isFinite(d) ? Py.floatRepr(d) : "null");
    } else if (value instanceof Number || value instanceof Boolean) {
      out.append(value);
    } else if (value instanceof Map<?, ?> map) {
      if (map.isEmpty()) {
        out.append("{}");
        return;
      }
      out.append("{\n");
      int i = 0;
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        out.append("  ".repeat(indent + 1));
        JsonText.quote(String.valueOf(entry.getKey()), out);
        out.append(": ");
        write(entry.getValue(), indent + 1, out);
        out.append(++i < map.size() ? ",\n" : "\n");
      }
      out.append("  ".repeat(indent)).append('}');
    } else if (value instanceof List<?> list) {
      boolean simple = list.stream().allMatch(v -> v instanceof Number || v instanceof String);
      if (simple) {
        out.append('[');
        for (int i = 0; i < list.size(); i++) {
          write(list.get(i), indent, out);
          out.append(i + 1 < list.size() ? ", " : "");
        }
        out.append(']');
        return;
      }
      out.append("[\n");
      for (int i = 0; i < list.size(); i++) {
        out.append("  ".repeat(indent + 1));
        write(list.get(i), indent + 1, out);
        out.append(i + 1 < list.size() ? ",\n" : "\n");
      }
      out.append("  ".repeat(indent)).append(']');
    } else if (value instanceof long[] array) {
      write(java.util.Arrays.stream(array).boxed().toList(), indent, out);
    } else {
      JsonText.quote(value.toString(), out);
    }
  }
}
