package io.tfjni.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The manifest reader: what Python's json.dumps writes, read back; malformed text refused. Strings
 * quoted as json.dumps quotes them, and read back.
 */
class JsonTextTest {
  @Test
  void readsWhatPythonsJsonModuleWrites() {
    // json.dumps({"b": [1, 2.5e-07, -3], "a": {"s": "q\"\\\n\u00e9\u20ac/", "t": True,
    //     "f": False, "n": None}, "e": {}, "l": [], "x": float("nan"), "y": float("-inf")})
    Object value = JsonText.parse("{\"b\": [1, 2.5e-07, -3], \"a\": {\"s\": \"q\\\"\\\\\\n\\u00e9"
        + "\\u20ac\\/\", \"t\": true, \"f\": false, \"n\": null}, \"e\": {}, \"l\": [],"
        + " \"x\": NaN, \"y\": -Infinity}");
    Map<String, Object> inner = new LinkedHashMap<>();
    inner.put("s", "q\"\\\n\u00e9\u20ac/");
    inner.put("t", true);
    inner.put("f", false);
    inner.put("n", null);
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("b", List.of(1.0, 2.5e-7, -3.0));
    expected.put("a", inner);
    expected.put("e", Map.of());
    expected.put("l", List.of());
    expected.put("x", Double.NaN);
    expected.put("y", Double.NEGATIVE_INFINITY);
    assertEquals(expected, value);
    assertEquals(List.of("b", "a", "e", "l", "x", "y"), List.copyOf(((Map<?, ?>) value).keySet()));
  }

  @Test
  void malformedTextIsRefusedSayingWhere() {
    for (String text : Arrays.asList("", "{", "{\"a\" 1}", "{\"a\": 1,}", "[1 2]", "\"open",
        "{\"a\": \"\\q\"}", "\"\\u12\"", "tru", "1 2", "{a: 1}", "-")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> JsonText.parse(text), text);
      assertTrue(e.getMessage().startsWith("not JSON: "), e.getMessage());
      assertTrue(e.getMessage().contains(" at character "), e.getMessage());
    }
  }

  @Test
  void quotesStringsAsPythonsJsonModuleDoes() {
    String text = "q\"\\\n\r\t\u0001\u001f\u00e9\u20ac/";
    // json.dumps("q\"\\\n\r\t\x01\x1f\u00e9\u20ac/", ensure_ascii=False)
    String python = "\"q\\\"\\\\\\n\\r\\t\\u0001\\u001f\u00e9\u20ac/\"";
    assertEquals(python, JsonText.quote(text));
    assertEquals(text, JsonText.parse(JsonText.quote(text)));
    assertEquals("x" + python, JsonText.quote(text, new StringBuilder("x")).toString());
  }
}
