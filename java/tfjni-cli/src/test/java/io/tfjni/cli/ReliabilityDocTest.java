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
 * Every row of the bad-input table in docs/RELIABILITY.md names a test that exists. It runs in the
 * top module, whose test class path holds every module's tests.
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
    for (String pkg : List.of("io.tfjni.", "io.tfjni.numpy.", "io.tfjni.cli.")) {
      try {
        return Class.forName(pkg + simpleName);
      } catch (ClassNotFoundException e) {
        // try the next package
      }
    }
    return fail("no test class " + simpleName);
  }

  @Test
  void everyBadInputRowNamesAnExistingTest() throws IOException {
    List<String> rows = new ArrayList<>();
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
      rows.add(line);
    }
    assertTrue(rows.size() >= 30, "the table should have at least 30 rows, has " + rows.size());
  }
}
