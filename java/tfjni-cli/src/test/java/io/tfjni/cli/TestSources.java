package io.tfjni.cli;

import static org.junit.jupiter.api.Assertions.fail;

import io.tfjni.TestProcesses;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The Java sources of the test classes in this checkout, for checks of what a test asserts. */
final class TestSources {
  private TestSources() {}

  /** The source of test class {@code simpleName} in any module of java/. */
  static String read(String simpleName) throws IOException {
    Path java = TestProcesses.repositoryRoot().resolve("java");
    List<Path> found;
    try (Stream<Path> files = Files.walk(java)) {
      found = files.filter(f -> f.toString().contains("/src/test/java/")
          && f.getFileName().toString().equals(simpleName + ".java"))
          .collect(Collectors.toList());
    }
    if (found.size() != 1) {
      fail("expected one source file " + simpleName + ".java under " + java + ", found " + found);
    }
    return Files.readString(found.get(0));
  }

  /** The body of method {@code name}, from its opening brace to the matching closing brace. */
  static String body(String source, String name) {
    Matcher declaration = Pattern.compile("\\b" + Pattern.quote(name) + "\\s*\\([^)]*\\)[^{;]*\\{")
        .matcher(source);
    if (!declaration.find()) {
      return fail("no method " + name + " in the source");
    }
    int depth = 1;
    int i = declaration.end();
    for (; i < source.length() && depth > 0; i++) {
      char c = source.charAt(i);
      depth += c == '{' ? 1 : c == '}' ? -1 : 0;
    }
    return source.substring(declaration.end(), i);
  }

  /** The method's body followed by the bodies of the same class's methods it calls. */
  static String bodyWithHelpers(String source, String name) {
    String body = body(source, name);
    StringBuilder all = new StringBuilder(body);
    Matcher call = Pattern.compile("\\b([a-z]\\w*)\\s*\\(").matcher(body);
    while (call.find()) {
      String callee = call.group(1);
      Pattern declared = Pattern.compile("(private|static|public|protected)[\\w<>\\[\\], ?]*\\s"
          + Pattern.quote(callee) + "\\s*\\(");
      if (!callee.equals(name) && declared.matcher(source).find()) {
        all.append('\n').append(body(source.substring(declaredAt(source, declared)), callee));
      }
    }
    return all.toString();
  }

  private static int declaredAt(String source, Pattern declared) {
    Matcher m = declared.matcher(source);
    m.find();
    return m.start();
  }
}
