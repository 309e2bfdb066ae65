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
 * The {@code tfjni} command: show, run, bench and demo. Every mistake in the arguments or inputs
 * is reported as one line on stderr with a non-zero exit status: 2 for bad arguments and inputs,
 * 1 for failures while working (set TFJNI_DEBUG=1 for stack traces).
 */
@Command(name = "tfjni",
    description = "TensorFlow SavedModels from the command line, through tfjni's JNI bridge.",
    subcommands = {ShowCommand.class, RunCommand.class, BenchCommand.class, DemoCommand.class,
        CommandLine.HelpCommand.class},
    synopsisSubcommandLabel = "COMMAND",
    footer = {"", "Run 'tfjni COMMAND --help' for a command's options.",
        "Exit status: 0 on success, 2 for bad arguments or inputs, 1 for other failures."})
public final class Main implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;

  @Option(names = {"-V", "--version"},
      description = "Print tfjni's and TensorFlow's versions and where libtensorflow was loaded"
          + " from, and exit.")
  boolean version;

  public static void main(String[] args) {
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out),
        true, StandardCharsets.UTF_8);
    System.exit(execute(args, out, System.err));
  }

  /** Runs the command line; returns the exit status. Output goes to {@code out} and {@code err}. */
  public static int execute(String[] args, PrintStream out, PrintStream err) {
    PrintWriter outWriter = new PrintWriter(out, true);
    PrintWriter errWriter = new PrintWriter(err, true);
    CommandLine cl = new CommandLine(new Main());
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
        "missing command: show, run, bench, demo or help");
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
