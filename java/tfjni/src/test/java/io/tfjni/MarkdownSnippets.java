package io.tfjni;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * The Java blocks of a Markdown document, compiled and run as the document shows them.
 *
 * <p>A block that declares a class is compiled as it stands and its {@code main} is run. Any
 * other block is the body of a method whose parameters are the variables the block uses without
 * declaring them; an HTML comment on the line before the block names them, and may name the
 * Maven module whose test runs the block (tfjni's by default):
 *
 * <pre>
 * &lt;!-- snippet: given SavedModel model, Tensor images --&gt;
 * &lt;!-- snippet: module tfjni-spark; given Dataset&lt;Row&gt; images --&gt;
 * &lt;!-- snippet: main modelDir --&gt;   (main's arguments: the values given under these names)
 * </pre>
 */
public final class MarkdownSnippets {
  /** The module that runs blocks that name none. */
  public static final String DEFAULT_MODULE = "tfjni";

  private static final Pattern FENCE = Pattern.compile("^```java\\s*$");
  private static final Pattern COMMENT = Pattern.compile("^<!--\\s*snippet:(.*)-->\\s*$");
  private static final Pattern CLASS = Pattern.compile(
      "(?m)^(?:public\\s+)?(?:final\\s+)?class\\s+(\\w+)");

  private MarkdownSnippets() {}

  /** A parameter of a block: a variable the block uses and the test supplies. */
  public record Given(String type, String name) {}

  /** One Java block: where it is, which module runs it, what it is given, and its code. */
  public record Snippet(Path document, int line, String module, List<Given> given,
      List<String> mainArguments, String code) {
    /** "README.md:175", for messages. */
    public String where() {
      return document.getFileName() + ":" + line;
    }

    /** The class the block declares, or null for a method body. */
    public String declaredClass() {
      Matcher matcher = CLASS.matcher(code);
      return matcher.find() ? matcher.group(1) : null;
    }
  }

  /** Every Java block of {@code document}, in order. */
  public static List<Snippet> read(Path document) throws IOException {
    List<String> lines = Files.readAllLines(document);
    List<Snippet> snippets = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      if (!FENCE.matcher(lines.get(i)).matches()) {
        continue;
      }
      int start = i + 1;
      int end = start;
      while (end < lines.size() && !lines.get(end).startsWith("```")) {
        end++;
      }
      if (end == lines.size()) {
        fail(document + ":" + (i + 1) + ": the Java block is never closed");
      }
      String comment = i > 0 ? lines.get(i - 1) : "";
      snippets.add(snippet(document, start + 1, comment,
          String.join("\n", lines.subList(start, end)) + "\n"));
      i = end;
    }
    return snippets;
  }

  /** The Java blocks of every Markdown file given, run by {@code module}. */
  public static List<Snippet> of(String module, List<Path> documents) throws IOException {
    List<Snippet> snippets = new ArrayList<>();
    for (Path document : documents) {
      for (Snippet snippet : read(document)) {
        if (snippet.module().equals(module)) {
          snippets.add(snippet);
        }
      }
    }
    return snippets;
  }

  /** README.md and docs/*.md of the checkout, found upwards from the working directory. */
  public static List<Path> projectDocuments() throws IOException {
    Path root = Path.of("").toAbsolutePath();
    while (root != null && !Files.isDirectory(root.resolve("docs"))) {
      root = root.getParent();
    }
    assertTrue(root != null, "no docs/ directory above " + Path.of("").toAbsolutePath());
    List<Path> documents = new ArrayList<>(List.of(root.resolve("README.md")));
    try (var docs = Files.list(root.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(documents::add);
    }
    return documents;
  }

  private static Snippet snippet(Path document, int line, String comment, String code) {
    String module = DEFAULT_MODULE;
    List<Given> given = new ArrayList<>();
    List<String> mainArguments = new ArrayList<>();
    Matcher matcher = COMMENT.matcher(comment.strip());
    if (matcher.matches()) {
      for (String clause : matcher.group(1).split(";")) {
        String[] words = clause.strip().split("\\s+", 2);
        String rest = words.length > 1 ? words[1].strip() : "";
        switch (words[0]) {
          case "module" -> module = rest;
          case "given" -> {
            for (String parameter : splitTopLevel(rest)) {
              int space = parameter.lastIndexOf(' ');
              given.add(new Given(parameter.substring(0, space).strip(),
                  parameter.substring(space + 1)));
            }
          }
          case "main" -> mainArguments.addAll(List.of(rest.split("\\s+")));
          default -> fail(document + ":" + (line - 1) + ": unknown snippet clause '"
              + clause.strip() + "' (module, given or main)");
        }
      }
    }
    return new Snippet(document, line, module, given, mainArguments, code);
  }

  /** "Map<String, Tensor> inputs, Tensor x" split at the commas outside angle brackets. */
  private static List<String> splitTopLevel(String parameters) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < parameters.length(); i++) {
      char c = parameters.charAt(i);
      depth += c == '<' ? 1 : c == '>' ? -1 : 0;
      if (c == ',' && depth == 0) {
        parts.add(parameters.substring(start, i).strip());
        start = i + 1;
      }
    }
    parts.add(parameters.substring(start).strip());
    return parts;
  }

  /**
   * Compiles {@code snippet} (with {@code imports} before a method body) against this JVM's class
   * path into {@code classes}, and runs it with the values named by its {@code given} or
   * {@code main} clause. Compilation errors fail the test with the document's line numbers.
   */
  public static void run(Snippet snippet, List<String> imports, Map<String, ?> values,
      Path classes) throws Exception {
    String className = snippet.declaredClass();
    String source;
    int firstCodeLine;
    if (className != null) {
      source = snippet.code();
      firstCodeLine = 1;
    } else {
      className = "Snippet" + snippet.line();
      StringBuilder unit = new StringBuilder();
      imports.forEach(i -> unit.append("import ").append(i).append(";\n"));
      unit.append("public final class ").append(className).append(" {\n")
          .append("  public static void run(");
      for (int i = 0; i < snippet.given().size(); i++) {
        Given given = snippet.given().get(i);
        unit.append(i > 0 ? ", " : "").append(given.type()).append(' ').append(given.name());
      }
      unit.append(") throws Exception {\n");
      firstCodeLine = (int) unit.chars().filter(c -> c == '\n').count() + 1;
      unit.append(snippet.code()).append("  }\n}\n");
      source = unit.toString();
    }
    Path sourceFile = classes.resolve(className + ".java");
    Files.createDirectories(classes);
    Files.writeString(sourceFile, source);
    compile(snippet, sourceFile, classes, firstCodeLine);

    try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
        MarkdownSnippets.class.getClassLoader())) {
      Class<?> type = loader.loadClass(className);
      try {
        if (snippet.declaredClass() != null) {
          String[] arguments = snippet.mainArguments().stream()
              .map(name -> String.valueOf(value(snippet, values, name))).toArray(String[]::new);
          type.getMethod("main", String[].class).invoke(null, (Object) arguments);
        } else {
          Method run = findRun(type);
          Object[] arguments = snippet.given().stream()
              .map(given -> value(snippet, values, given.name())).toArray();
          run.invoke(null, arguments);
        }
      } catch (InvocationTargetException e) {
        throw new AssertionError(snippet.where() + ": the block threw " + e.getCause(),
            e.getCause());
      }
    }
  }

  private static Method findRun(Class<?> type) {
    for (Method method : type.getMethods()) {
      if (method.getName().equals("run")) {
        return method;
      }
    }
    throw new AssertionError("no run method in " + type);
  }

  private static Object value(Snippet snippet, Map<String, ?> values, String name) {
    if (!values.containsKey(name)) {
      fail(snippet.where() + ": the test gives no value named '" + name + "'; it gives "
          + values.keySet());
    }
    return values.get(name);
  }

  private static void compile(Snippet snippet, Path sourceFile, Path classes, int firstCodeLine)
      throws IOException {
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics,
        Locale.ROOT, null)) {
      List<String> options = List.of("-classpath", System.getProperty("java.class.path"),
          "-d", classes.toString(), "-proc:none", "-Xlint:none");
      boolean compiled = compiler.getTask(new StringWriter(), files, diagnostics, options, null,
          files.getJavaFileObjects(sourceFile)).call();
      if (!compiled) {
        StringBuilder message = new StringBuilder(snippet.where()
            + ": the block does not compile:");
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
          if (d.getKind() == Diagnostic.Kind.ERROR) {
            long documentLine = snippet.line() + d.getLineNumber() - firstCodeLine;
            message.append("\n  ").append(snippet.document().getFileName()).append(':')
                .append(documentLine).append(": ").append(d.getMessage(Locale.ROOT));
          }
        }
        fail(message.toString());
      }
    }
  }
}
