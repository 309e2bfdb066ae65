package io.tfjni.cli;

import io.tfjni.Predictor;
import io.tfjni.RunResult;
import io.tfjni.SavedModel;
import io.tfjni.SessionOptions;
import io.tfjni.Tensor;
import io.tfjni.numpy.NpyWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tfjni run}: saved_model_cli run through tfjni. Prints each output as NumPy does and, with
 * {@code --outdir}, writes KEY.npy files byte-identical to saved_model_cli's. Unlike
 * saved_model_cli it checks every input's dtype and shape against the signature first instead of
 * converting silently.
 */
@Command(name = "run", sortOptions = false,
    description = {"Runs a SignatureDef on inputs from .npy/.npz files and Python literals, then"
        + " prints each output (as NumPy prints it) or saves it as OUTDIR/KEY.npy, byte for byte"
        + " as saved_model_cli does."},
    footer = {"", "Examples:",
        "  tfjni run --dir digits --signature_def serving_default --inputs 'images=x.npy'",
        "  tfjni run --dir multi --signature_def add --input_exprs 'a=[1,2];b=[3,4]'",
        "  tfjni run --dir m --inputs 'x=data.npz[x_test]' --outdir out --overwrite"})
final class RunCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  HelpOption help;

  @Mixin
  ModelOptions modelOptions;

  @Mixin
  InputOptions inputOptions;

  @Mixin
  SessionThreadOptions sessionThreads;

  @Mixin
  OpLibraryOptions opLibraries;

  @Option(names = "--outdir", paramLabel = "DIR",
      description = "Also save each output as DIR/KEY.npy (created if needed).")
  Path outdir;

  @Option(names = "--overwrite", description = "Replace existing files in --outdir.")
  boolean overwrite;

  @Mixin
  RunOptionsOption runOptions;

  @Override
  public Integer call() throws IOException {
    SessionOptions options = sessionThreads.sessionOptions();
    runOptions.runOptions();  // a bad --timeout_ms is an argument error, before any loading
    opLibraries.load();  // before the model: a library that cannot load is the error to report
    SavedModelInfo info = SavedModelInfo.read(modelOptions.dir);
    SavedModelInfo.MetaGraph metaGraph = info.metaGraph(modelOptions.tagSet);
    SavedModelInfo.SignatureInfo signature =
        SavedModelInfo.signature(metaGraph, modelOptions.signatureDef);
    Map<String, InputLoader.Source> sources = inputOptions.sources();
    if (sources.isEmpty() && !signature.inputs().isEmpty()) {
      throw new CliException("give the inputs of signature '" + signature.key() + "' ("
          + SavedModelInfo.quoteAll(signature.inputs().keySet())
          + ") with --inputs or --input_exprs");
    }
    if (outdir != null) {
      if (Files.exists(outdir) && !Files.isDirectory(outdir)) {
        throw new CliException("--outdir " + outdir + " is a file, not a directory");
      }
      for (String key : signature.outputs().keySet()) {
        Path file = outdir.resolve(key + ".npy");
        if (!overwrite && Files.exists(file)) {
          throw new CliException("output file " + file + " already exists; add --overwrite to"
              + " replace it");
        }
      }
    }
    Map<String, Tensor> tensors = InputLoader.load(signature, sources);
    PrintWriter out = spec.commandLine().getOut();
    try (SavedModel model = SavedModel.load(modelOptions.dir, options,
        metaGraph.tags().toArray(new String[0]));
        Predictor prepared = model.predictor(modelOptions.signatureDef,
            new ArrayList<>(tensors.keySet()), List.of());
        Predictor predictor = runOptions.apply(prepared);
        RunResult result = predictor.run(tensors.values().toArray(new Tensor[0]))) {
      List<String> keys = result.keys();
      for (int i = 0; i < keys.size(); i++) {
        Tensor output = result.get(i);
        out.println("Result for output key " + keys.get(i) + ":");
        out.println(NumpyFormat.format(output));
        if (outdir != null) {
          Files.createDirectories(outdir);
          Path file = outdir.resolve(keys.get(i) + ".npy");
          NpyWriter.write(output, file);
          out.println("Output " + keys.get(i) + " is saved to " + file);
        }
        out.flush();
      }
    } finally {
      tensors.values().forEach(Tensor::close);
    }
    return 0;
  }
}
