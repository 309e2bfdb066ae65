package io.tfjni.cli;

import io.tfjni.TensorFlow;
import io.tfjni.TensorFlowException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The {@code tfjni} command: show, run, convert, bench, demo and devices. Every mistake in the
 * arguments or inputs is reported as one line on stderr with a non-zero exit status: 2 for bad
 * arguments and inputs, 1 for failures while working (set TFJNI_DEBUG=1 for stack traces).
 */
@Command(name = "tfjni",
    description = "TensorFlow SavedModels from the command line, through tfjni's JNI bridge.",
    subcommands = {ShowCommand.class, RunCommand.class, ConvertCommand.class, BenchCommand.class,
        DemoCommand.class, DevicesCommand.class, CommandLine.HelpCommand.class},
    synopsisSubcommandLabel = "COMMAND",
    footer = {"", "Run 'tfjni COMMAND --help' for a command's options.",
        "Exit status: 0 on success, 2 for bad arguments or inputs, 1 for other failures.",
        "libtensorflow comes from -Dtfjni.tensorflow.dir=DIR (or TFJNI_TENSORFLOW_DIR), else"
            + " from the runtime artifact io.tfjni:tfjni-tensorflow-cpu: named by"
            + " -Dtfjni.tensorflow.jar=FILE (or TFJNI_TENSORFLOW_JAR), on the class path, beside"
            + " this jar, or in ~/.m2/repository (mvn dependency:get"
            + " -Dartifact=io.tfjni:tfjni-tensorflow-cpu:VERSION:jar:PLATFORM puts it there)."})
public final class Main implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;

  @Option(names = {"-V", "--version"},
      description = "Print tfjni's and TensorFlow's versions and where libtensorflow was loaded"
          + " from, and exit.")
  boolean version;

  @Option(names = "--tf_logs",
      description = "Show TensorFlow's log lines (hidden by default: the CLI sets TensorFlow's log"
          + " level to 2, no INFO or WARNING, unless TFJNI_LOG_LEVEL, -Dtfjni.logLevel or"
          + " TF_CPP_MIN_LOG_LEVEL says otherwise; TF_CPP_MIN_LOG_LEVEL wins over this option).")
  boolean tfLogs;

  /** TensorFlow's log level when the user sets none: 2 hides INFO and WARNING lines. */
  static final String DEFAULT_LOG_LEVEL = "2";

  /**
   * Runs the command line and exits the JVM with its status (see {@link #execute}).
   *
   * @param args the command line, e.g. {@code show --dir MODEL --all}
   */
  public static void main(String[] args) {
    // Before anything loads TensorFlow: quiet by default (NativeLibrary applies it at load).
    if (isEmpty(System.getProperty("tfjni.logLevel"))
        && isEmpty(System.getenv("TFJNI_LOG_LEVEL"))) {
      System.setProperty("tfjni.logLevel", DEFAULT_LOG_LEVEL);
    }
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out),
        true, StandardCharsets.UTF_8);
    System.exit(execute(args, out, System.err));
  }

  private static boolean isEmpty(String setting) {
    return setting == null || setting.isEmpty();
  }

  /**
   * Runs the command line without exiting the JVM.
   *
   * @param args the command line, e.g. {@code show --dir MODEL --all}
   * @param out where results go (not closed)
   * @param err where errors and warnings go (not closed)
   * @return the exit status: 0 on success, 2 for bad arguments or inputs, 1 for other failures
   */
  public static int execute(String[] args, PrintStream out, PrintStream err) {
    PrintWriter outWriter = new PrintWriter(out, true);
    PrintWriter errWriter = new PrintWriter(err, true);
    Main main = new Main();
    CommandLine cl = new CommandLine(main);
    cl.setExecutionStrategy(parseResult -> {
      if (main.tfLogs) {
        System.setProperty("tfjni.logLevel", "0"); // read when TensorFlow loads, after parsing
      }
      return new CommandLine.RunLast().execute(parseResult);
    });
    cl.setOut(outWriter);
    cl.setErr(errWriter);
    cl.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
    cl.setUsageHelpAutoWidth(false);
    cl.setParameterExceptionHandler((ex, arguments) -> {
      CommandLine failed = ex.getCommandLine();
      errWriter.println(prefix(failed) + ": " + oneLine(ex.getMessage()) + " (see '"
          + failed.getCommandSpec().qualifiedName() + " --help')");
      return CliException.USAGE;
    });
    cl.setExecutionExceptionHandler((ex, failed, parseResult) -> {
      errWriter.println(prefix(failed) + ": " + describe(ex));
      debug(ex, err);
      return ex instanceof CliException cli ? cli.exitCode() : CliException.FAILURE;
    });
    try {
      return cl.execute(args);
    } catch (Throwable t) { // an Error escaping a command, e.g. libtensorflow not found
      errWriter.println("tfjni: " + describe(t));
      debug(t, err);
      return CliException.FAILURE;
    } finally {
      outWriter.flush();
      errWriter.flush();
    }
  }

  @Override
  public Integer call() {
    if (version) {
      PrintWriter out = spec.commandLine().getOut();
      out.println("tfjni " + TensorFlow.tfjniVersion());
      out.println("TensorFlow " + TensorFlow.version());
      out.println("libtensorflow: " + TensorFlow.libraryPath());
      return 0;
    }
    throw new ParameterException(spec.commandLine(),
        "missing command: show, run, convert, bench, demo, devices or help");
  }

  static String prefix(CommandLine commandLine) {
    return commandLine.getCommandSpec().qualifiedName();
  }

  /** One line saying what went wrong, without a stack trace. */
  static String describe(Throwable t) {
    if (t instanceof CliException) {
      return oneLine(t.getMessage());
    }
    if (t instanceof TensorFlowException tf) {
      return "TensorFlow error (" + tf.code() + "): " + oneLine(tf.tensorFlowMessage());
    }
    if (t instanceof UnsatisfiedLinkError) {
      return "cannot load TensorFlow: " + oneLine(t.getMessage());
    }
    if (t instanceof OutOfMemoryError) {
      return "out of memory: " + oneLine(t.getMessage())
          + " (give Java more with TFJNI_JAVA_OPTS=-Xmx...)";
    }
    if (t instanceof java.io.IOException) {
      return "I/O error: " + oneLine(t.getMessage());
    }
    if (t instanceof IllegalArgumentException || t instanceof IllegalStateException) {
      return oneLine(t.getMessage());
    }
    String message = t.getMessage();
    return t.getClass().getSimpleName() + (message != null ? ": " + oneLine(message) : "");
  }

  static String oneLine(String text) {
    return text == null ? "" : text.strip().replaceAll("\\s*[\\r\\n]+\\s*", " ");
  }

  private static void debug(Throwable t, PrintStream err) {
    if ("1".equals(System.getenv("TFJNI_DEBUG"))) {
      t.printStackTrace(err);
    }
  }
}
