package io.tfjni.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Which Python the CLI runs TensorFlow Python tools with: the one named (--python), else
 * TFJNI_PYTHON, else the Python of the virtual environment libtensorflow is loaded from (a
 * TensorFlow directory VENV/lib/python3.X/site-packages/tensorflow, as scripts/setup.sh makes and
 * bin/tfjni passes), else python3 from the PATH.
 */
final class PythonLocator {
  static final String PYTHON_ENV = "TFJNI_PYTHON";
  private static final String TENSORFLOW_DIR_PROPERTY = "tfjni.tensorflow.dir";
  private static final String TENSORFLOW_DIR_ENV = "TFJNI_TENSORFLOW_DIR";

  private PythonLocator() {}

  /** The Python to run, as a command: a path, or "python3" for the PATH's. */
  static String python(String named, Map<String, String> env) {
    if (named != null && !named.isBlank()) {
      return named;
    }
    String fromEnv = env.get(PYTHON_ENV);
    if (fromEnv != null && !fromEnv.isBlank()) {
      return fromEnv;
    }
    String tensorflowDir = System.getProperty(TENSORFLOW_DIR_PROPERTY);
    if (tensorflowDir == null || tensorflowDir.isBlank()) {
      tensorflowDir = env.get(TENSORFLOW_DIR_ENV);
    }
    if (tensorflowDir != null && !tensorflowDir.isBlank()) {
      Path venvPython = venvPython(Path.of(tensorflowDir));
      if (venvPython != null) {
        return venvPython.toString();
      }
    }
    return "python3";
  }

  /** VENV/bin/python for VENV/lib/python3.X/site-packages/tensorflow, if it exists. */
  static Path venvPython(Path tensorflowDir) {
    Path dir = tensorflowDir.toAbsolutePath().normalize();
    Path sitePackages = dir.getParent();
    if (!dir.endsWith("tensorflow") || sitePackages == null
        || !sitePackages.endsWith("site-packages")) {
      return null;
    }
    Path python = dir.resolve("../../../../bin/python").normalize();
    return Files.isExecutable(python) ? python : null;
  }
}
