"""Converts a SavedModel's signatures to LiteRT models at static batch sizes, and checks each one.

`tfjni convert` runs this file (the CLI's jar ships it) with the user's TensorFlow Python;
litert_models.py imports it to convert the test models. The layout it writes inside the SavedModel
directory (TensorFlow's loader ignores other entries there):

    DIR/litert/conversion.json                        what was converted, checked or refused
    DIR/litert/<signature>/batch-<N>.tflite           one model per signature and batch size

conversion.json: {"format": 1, "saved_model_tags": [...], "sample_inputs": "...",
"signatures": {KEY: {"batch_sizes": {"N": ENTRY}}}}, where ENTRY is either {"file": path relative
to DIR/litert, "tensorflow_version": ..., "max_abs_difference": {output: float}} or
{"tensorflow_version": ..., "error": the reason it does not convert}. The difference is the
largest absolute difference between TensorFlow's outputs and TensorFlow Lite's interpreter's on
the converted file, for seeded sample inputs (SAMPLE_INPUTS).

LiteRT's compiled-model API refuses a dynamic shape, so each input's leading (batch) dimension is
fixed to N; any other unknown dimension, or a string input or output (tfjni exchanges numbers and
booleans with LiteRT), makes the signature unconvertible.
"""
import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

FORMAT = 1
LAYOUT_DIR = "litert"
MANIFEST = "conversion.json"
SEED = 1234
SAMPLE_INPUTS = ("seeded (%d) random values: floats uniform in [0, 1), integers in [0, 10),"
                 " booleans either way" % SEED)
EXIT_BAD_MODEL = 2
EXIT_NO_TENSORFLOW = 3

tf = None  # imported by load_tensorflow(): a missing TensorFlow is reported, not a traceback
np = None


def load_tensorflow():
    global tf, np
    if tf is None:
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
        import numpy
        import tensorflow
        tf, np = tensorflow, numpy


class Unconvertible(Exception):
    """A signature that cannot become a static LiteRT model tfjni runs, and why."""


def static_call(signature, specs):
    """A tf.function of static input `specs` ({name: TensorSpec}) calling a loaded signature."""
    names = list(specs)

    def call(*args):
        return signature(**dict(zip(names, args)))
    return tf.function(call, input_signature=[specs[n] for n in names])


def convert_saved_model(source, functions, tflite_path):
    """Saves `functions` ({signature key: tf.function with a static input signature} calling the
    loaded SavedModel `source`) as a SavedModel in a temporary directory and converts that,
    keeping the keys and input names (from_concrete_functions without a trackable object writes
    no signature)."""
    holder = tf.Module()
    holder.source = source  # tracks the variables the functions capture
    holder.functions = functions
    with tempfile.TemporaryDirectory() as static_dir:
        tf.saved_model.save(holder, static_dir, signatures={
            key: fn.get_concrete_function() for key, fn in functions.items()})
        converter = tf.lite.TFLiteConverter.from_saved_model(
            static_dir, signature_keys=sorted(functions))
        tflite_path.parent.mkdir(parents=True, exist_ok=True)
        tflite_path.write_bytes(converter.convert())


def signature_specs(interpreter, key):
    """{inputs: {name: {dtype, shape}}, outputs: ...} of one signature as TensorFlow Lite reads it."""
    runner = interpreter.get_signature_runner(key)

    def specs(details):
        return {name: {"dtype": tf.as_dtype(d["dtype"]).name, "shape": [int(s) for s in d["shape"]]}
                for name, d in details.items()}
    return {"inputs": specs(runner.get_input_details()),
            "outputs": specs(runner.get_output_details())}


def tf_outputs(signature, inputs):
    """A loaded signature's outputs for numpy `inputs`, as numpy arrays."""
    outputs = signature(**{k: tf.constant(v) for k, v in inputs.items()})
    return {k: v.numpy() for k, v in outputs.items()}


def interpreter_outputs(tflite_path, key, inputs, threads=2):
    """TensorFlow Lite's interpreter's outputs of signature `key` for numpy `inputs`."""
    interpreter = tf.lite.Interpreter(model_path=str(tflite_path), num_threads=threads)
    return interpreter.get_signature_runner(key)(**inputs)


def max_differences(expected, got):
    """{output: largest |expected - got|} (0 for an empty output); the keys must agree."""
    if sorted(got) != sorted(expected):
        raise ValueError("LiteRT's outputs are %s, TensorFlow's %s" % (sorted(got), sorted(expected)))
    return {k: float(np.max(np.abs(np.asarray(got[k], np.float64) - np.asarray(v, np.float64))))
            if np.asarray(v).size else 0.0 for k, v in sorted(expected.items())}


def static_specs(signature, batch):
    """{input name: TensorSpec} with the batch dimension fixed to `batch`, in key order."""
    inputs = signature.structured_input_signature[1]
    for name, spec in signature.structured_outputs.items():
        if spec.dtype == tf.string:
            raise Unconvertible("output %s is a string (tfjni exchanges numbers and booleans"
                                " with LiteRT)" % name)
    specs = {}
    for name in sorted(inputs):
        spec = inputs[name]
        if spec.dtype == tf.string:
            raise Unconvertible("input %s is a string (tfjni exchanges numbers and booleans"
                                " with LiteRT)" % name)
        if spec.shape.rank is None:
            raise Unconvertible("input %s has an unknown rank" % name)
        dims = spec.shape.as_list()
        if dims:
            if dims[0] is None:
                dims[0] = batch
            elif dims[0] != batch:
                raise Unconvertible("input %s has a fixed batch dimension of %d" % (name, dims[0]))
        if None in dims:
            raise Unconvertible("input %s has dynamic dimensions besides the batch: %s"
                                % (name, spec.shape))
        specs[name] = tf.TensorSpec(dims, spec.dtype, name=name)
    return specs


def sample_inputs(specs, rng):
    """Seeded sample values for static `specs` (SAMPLE_INPUTS says which)."""
    values = {}
    for name, spec in specs.items():
        shape, dtype = spec.shape.as_list(), spec.dtype
        if dtype.is_floating:
            values[name] = rng.uniform(0, 1, shape).astype(dtype.as_numpy_dtype)
        elif dtype.is_integer:
            values[name] = rng.integers(0, 10, shape).astype(dtype.as_numpy_dtype)
        elif dtype == tf.bool:
            values[name] = rng.random(shape) < 0.5
        else:
            raise Unconvertible("input %s is a %s: no sample values for it" % (name, dtype.name))
    return values


def reason(error):
    """The converter's reason in a few lines: its 'error:' lines when it has them."""
    text = str(error).strip() or type(error).__name__
    errors = [line.strip() for line in text.splitlines() if "error:" in line]
    lines = errors or text.splitlines()[:3]
    return "; ".join(dict.fromkeys(lines))[:2000]


def file_name(key, batch):
    """The model's path inside DIR/litert: the key, with characters unsafe in a file name as _."""
    return "%s/batch-%d.tflite" % (re.sub(r"[^A-Za-z0-9_.-]", "_", key).lstrip("."), batch)


def convert_signature(loaded, key, batch, layout):
    """Converts and checks one signature at one batch size; returns its conversion.json entry."""
    entry = {"tensorflow_version": tf.__version__}
    signature = loaded.signatures[key]
    try:
        specs = static_specs(signature, batch)
        inputs = sample_inputs(specs, np.random.default_rng(SEED))
        path = layout / file_name(key, batch)
        convert_saved_model(loaded, {key: static_call(signature, specs)}, path)
    except Exception as e:  # the converter's errors come in several types; each is a reason
        entry["error"] = reason(e)
        return entry
    entry["file"] = path.relative_to(layout).as_posix()
    try:
        entry["max_abs_difference"] = max_differences(
            tf_outputs(signature, inputs), interpreter_outputs(path, key, inputs))
    except Exception as e:
        path.unlink()
        del entry["file"]
        entry["error"] = "converted, but the check on sample inputs failed: " + reason(e)
    return entry


def convert_layout(saved_model_dir, batch_sizes, signature_keys=None, tags=("serve",),
                   progress=None):
    """Writes DIR/litert anew for these batch sizes and signatures (all but TensorFlow's init
    signature when None); returns the manifest. The old layout is replaced only once the new one
    is complete."""
    load_tensorflow()
    saved_model_dir = Path(saved_model_dir)
    loaded = tf.saved_model.load(str(saved_model_dir), tags=list(tags))
    keys = sorted(loaded.signatures) if signature_keys is None else list(signature_keys)
    missing = [k for k in keys if k not in loaded.signatures]
    if missing:
        raise KeyError("no signature %s; the SavedModel has %s"
                       % (", ".join(missing), ", ".join(sorted(loaded.signatures))))
    manifest = {"format": FORMAT, "saved_model_tags": list(tags), "sample_inputs": SAMPLE_INPUTS,
                "signatures": {}}
    work = Path(tempfile.mkdtemp(prefix=".litert-", dir=saved_model_dir))
    try:
        steps = [(k, n) for k in keys for n in batch_sizes]
        for i, (key, batch) in enumerate(steps, 1):
            if progress:
                progress("[%d/%d] %s, batch %d: converting" % (i, len(steps), key, batch))
            start = time.time()
            entry = convert_signature(loaded, key, batch, work)
            manifest["signatures"].setdefault(key, {"batch_sizes": {}})["batch_sizes"][
                str(batch)] = entry
            if progress:
                progress("[%d/%d] %s, batch %d: %s (%.1f s)" % (
                    i, len(steps), key, batch, describe(entry), time.time() - start))
        (work / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
        layout = saved_model_dir / LAYOUT_DIR
        if layout.exists():
            if not (layout / MANIFEST).is_file():
                raise FileExistsError("%s exists and holds no %s: not replacing it"
                                      % (layout, MANIFEST))
            shutil.rmtree(layout)
        work.rename(layout)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return manifest


def describe(entry):
    if "error" in entry:
        return "does not convert: " + entry["error"]
    largest = max(entry["max_abs_difference"].values(), default=0.0)
    return "%s, max |TensorFlow - LiteRT| %.2g" % (entry["file"], largest)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("saved_model_dir")
    parser.add_argument("--batch-sizes", required=True,
                        help="comma-separated batch sizes, e.g. 1,8")
    parser.add_argument("--signatures", help="comma-separated signature keys (default: all)")
    parser.add_argument("--tags", default="serve", help="the MetaGraphDef's tags (default serve)")
    args = parser.parse_args(argv)
    batch_sizes = [int(n) for n in args.batch_sizes.split(",")]

    def say(line):
        print(line, file=sys.stderr, flush=True)
    try:
        load_tensorflow()
    except ImportError as e:
        say("error: %s has no TensorFlow (%s); install it (pip install tensorflow) or name"
            " another Python" % (sys.executable, e))
        return EXIT_NO_TENSORFLOW
    say("TensorFlow %s (%s): loading %s" % (tf.__version__, sys.executable, args.saved_model_dir))
    try:
        convert_layout(args.saved_model_dir, batch_sizes,
                       args.signatures.split(",") if args.signatures else None,
                       args.tags.split(","), say)
    except Exception as e:  # loading the SavedModel or replacing the layout; conversions record theirs
        say("error: %s" % reason(e).strip("'\""))
        return EXIT_BAD_MODEL
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
