package io.tfjni.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON text without a dependency, for the library and its tools. Reads it into maps (in the
 * text's order), lists, strings, doubles, booleans and null: enough for the manifests tfjni's
 * Python tools write. Like Python's json module, it also reads NaN, Infinity and -Infinity,
 * which that module writes for such floats. Writes strings quoted.
 */
public final class JsonText {
  private final String text;
  private int at;

  private JsonText(String text) {
    this.text = text;
  }

  /**
   * The value the text holds.
   *
   * @throws IllegalArgumentException if the text is not one JSON value (the message says where)
   */
  public static Object parse(String text) {
    JsonText reader = new JsonText(text);
    Object value = reader.value();
    reader.skipSpace();
    if (reader.at != text.length()) {
      throw reader.error("text after the value");
    }
    return value;
  }

  /**
   * {@code text} as a JSON string: quoted; quotes and backslashes escaped, newlines, returns and
   * tabs by their short escapes, the other control characters by unicode escapes.
   */
  public static String quote(String text) {
    return quote(text, new StringBuilder()).toString();
  }

  /** Appends {@code text} to {@code out} as {@link #quote(String)} writes it; returns out. */
  public static StringBuilder quote(String text, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"');
  }

  private Object value() {
    skipSpace();
    if (at >= text.length()) {
      throw error("the text ends where a value should be");
    }
    char c = text.charAt(at);
    switch (c) {
      case '{':
        return object();
      case '[':
        return array();
      case '"':
        return string();
      case 't':
        return word("true", Boolean.TRUE);
      case 'f':
        return word("false", Boolean.FALSE);
      case 'n':
        return word("null", null);
      case 'N':
        return word("NaN", Double.NaN);
      case 'I':
        return word("Infinity", Double.POSITIVE_INFINITY);
      default:
        if (text.startsWith("-Infinity", at)) {
          return word("-Infinity", Double.NEGATIVE_INFINITY);
        }
        return number();
    }
  }

  private Map<String, Object> object() {
    Map<String, Object> map = new LinkedHashMap<>();
    at++;
    skipSpace();
    if (peek() == '}') {
      at++;
      return map;
    }
    while (true) {
      skipSpace();
      if (peek() != '"') {
        throw error("a key (a string) expected");
      }
      String key = string();
      skipSpace();
      expect(':');
      map.put(key, value());
      skipSpace();
      if (peek() == ',') {
        at++;
      } else {
        expect('}');
        return map;
      }
    }
  }

  private List<Object> array() {
    List<Object> list = new ArrayList<>();
    at++;
    skipSpace();
    if (peek() == ']') {
      at++;
      return list;
    }
    while (true) {
      list.add(value());
      skipSpace();
      if (peek() == ',') {
        at++;
      } else {
        expect(']');
        return list;
      }
    }
  }

  private String string() {
    StringBuilder out = new StringBuilder();
    at++;
    while (true) {
      if (at >= text.length()) {
        throw error("a string is not closed");
      }
      char c = text.charAt(at++);
      if (c == '"') {
        return out.toString();
      }
      if (c != '\\') {
        out.append(c);
        continue;
      }
      char escaped = at < text.length() ? text.charAt(at++) : '?';
      switch (escaped) {
        case '"', '\\', '/' -> out.append(escaped);
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> {
          if (at + 4 > text.length()) {
            throw error("a \\u escape is cut short");
          }
          try {
            out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
          } catch (NumberFormatException e) {
            throw error("a \\u escape is not hexadecimal");
          }
          at += 4;
        }
        default -> throw error("unknown escape \\" + escaped);
      }
    }
  }

  private Object word(String word, Object value) {
    if (!text.startsWith(word, at)) {
      throw error("unexpected character '" + text.charAt(at) + "'");
    }
    at += word.length();
    return value;
  }

  private Double number() {
    int start = at;
    while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
      at++;
    }
    try {
      return Double.valueOf(text.substring(start, at));
    } catch (NumberFormatException e) {
      at = start;
      throw error("a value expected");
    }
  }

  private char peek() {
    return at < text.length() ? text.charAt(at) : '\0';
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("'" + c + "' expected");
    }
    at++;
  }

  private void skipSpace() {
    while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
      at++;
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("not JSON: " + what + " at character " + at);
  }
}
