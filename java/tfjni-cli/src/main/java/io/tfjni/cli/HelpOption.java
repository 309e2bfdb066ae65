package io.tfjni.cli;

import picocli.CommandLine.Option;

/** The {@code -h/--help} option every tfjni command has, as a picocli mixin. */
final class HelpOption {
  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;
}
