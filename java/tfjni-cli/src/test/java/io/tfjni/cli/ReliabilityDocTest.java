package io.tfjni.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tfjni.TestProcesses;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * Every row of the bad-input table in docs/RELIABILITY.md names a test that exists, and that test
 * asserts the exception the row documents. It runs in the top module, whose test class path holds
 * every module's tests; the assertions are read from the tests' sources in this checkout.
 */
class ReliabilityDocTest {
  private static final Pattern ROW = Pattern.compile("^\\| (\\d+) \\|.*\\| `(\\w+)#(\\w+)` \\|$");

  /** docs/RELIABILITY.md of this checkout. */
  private static Path doc() {
    Path doc = TestProcesses.repositoryRoot().resolve("docs/RELIABILITY.md");
    assertTrue(Files.isRegularFile(doc), "no " + doc);
    return doc;
  }

  private static Class<?> testClass(String simpleName) {
    for (String pkg : List.of("io.tfjni.", "io.tfjni.eager.", "io.tfjni.batching.",
        "io.tfjni.numpy.", "io.tfjni.cli.")) {
      try {
        return Class.forName(pkg + simpleName);
      } catch (ClassNotFoundException e) {
        // try the next package
      }
    }
    return fail("no test class " + simpleName);
  }

  /** The row's exception column: each type it documents ("no exception" documents none). */
  static List<String> documentedTypes(String line) {
    String[] cells = line.split("\\|");
    String column = cells[3].trim();
    List<String> types = new ArrayList<>();
    Matcher type = Pattern.compile("`(?:[\\w.]+\\.)?(\\w+)`").matcher(column);
    while (type.find()) {
      types.add(type.group(1));
    }
    assertTrue(!types.isEmpty() || column.equals("no exception"),
        "the exception column names no `Type` and is not 'no exception': " + line);
    return types;
  }

  /** The row's TensorFlow codes (e.g. INVALID_ARGUMENT), if it documents any. */
  static List<String> documentedCodes(String line) {
    List<String> codes = new ArrayList<>();
    Matcher code = Pattern.compile("\\b[A-Z][A-Z_]{3,}\\b").matcher(line.split("\\|")[4]);
    while (code.find()) {
      codes.add(code.group());
    }
    return codes;
  }

  /**
   * The named test's source (its body and the bodies of its own class's methods it calls, one
   * level deep, such as assertTensorFlowError) must name every exception type the row documents,
   * as {@code Type.class} or, for a child JVM's error, by name, and every TensorFlow code.
   */
  private static void checkTheDocumentedException(String line, String testClass, String method,
      List<String> problems) throws IOException {
    String source = TestSources.read(testClass);
    String checked = TestSources.bodyWithHelpers(source, method);
    String row = line.substring(0, line.indexOf('|', 2) + 1);
    for (String type : documentedTypes(line)) {
      boolean asserted = checked.contains(type + ".class")
          || (type.equals("UnsatisfiedLinkError") && checked.contains(type));
      if (!asserted) {
        problems.add("row " + row + " " + testClass + "#" + method + " does not assert " + type);
      }
    }
    if (documentedTypes(line).contains("TensorFlowException")) {
      for (String code : documentedCodes(line)) {
        if (!checked.contains(code)) {
          problems.add("row " + row + " " + testClass + "#" + method + " does not check the"
              + " code " + code);
        }
      }
    }
  }

  @Test
  void everyBadInputRowNamesAnExistingTest() throws IOException {
    List<String> rows = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    int expectedNumber = 1;
    boolean inTable = false;
    for (String line : Files.readAllLines(doc())) {
      if (line.startsWith("| # | bad input |")) {
        inTable = true;
        continue;
      }
      if (!inTable || line.startsWith("|---")) {
        continue;
      }
      if (!line.startsWith("|")) {
        break;
      }
      Matcher row = ROW.matcher(line);
      assertTrue(row.matches(), "a row must end with `TestClass#testMethod`: " + line);
      assertEquals(expectedNumber++, Integer.parseInt(row.group(1)), "rows are numbered: " + line);
      Class<?> type = testClass(row.group(2));
      boolean found = false;
      for (Method method : type.getDeclaredMethods()) {
        if (method.getName().equals(row.group(3)) && (method.isAnnotationPresent(Test.class)
            || method.isAnnotationPresent(ParameterizedTest.class))) {
          found = true;
        }
      }
      assertTrue(found, row.group(2) + "#" + row.group(3) + " is not a test: " + line);
      checkTheDocumentedException(line, row.group(2), row.group(3), problems);
      rows.add(line);
    }
    assertTrue(rows.size() >= 30, "the table should have at least 30 rows, has " + rows.size());
    assertTrue(problems.isEmpty(), "tests that do not assert what their row documents:\n"
        + String.join("\n", problems));
  }
}
