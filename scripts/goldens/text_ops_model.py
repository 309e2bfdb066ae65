"""The `text_ops` test model: a SavedModel whose ops live in TensorFlow Text's op libraries.

Used by scripts/goldens/generate_models.py. Loading it needs the op libraries of the installed
`tensorflow_text` package (tfjni: TensorFlow.loadLibraries / `--op_library_dir`); without them
TensorFlow refuses the graph, naming an op it does not know.
"""
import json
import sys
from pathlib import Path

# Fixed inputs: ASCII, accents (precomposed and with combining U+0301), CJK, emoji, a ligature,
# fullwidth letters, a circled digit, empty and whitespace-only strings.
TEXT_INPUTS = [
    "Hello  World",
    "Café naïve CAFÉS",
    "東京 🎉 the there",
    "e\u0301te\u0301 ÉTÉ",
    "ﬁ ① Ａｂ",
    "",
    "  \t ",
]
# A small wordpiece vocabulary, index = id; "[UNK]" for pieces it cannot spell.
WORDPIECE_VOCAB = ["[UNK]", "hello", "world", "café", "##s", "naïve", "東", "京", "##京", "🎉",
                   "the", "##re", "e", "##te", "été", "a", "##b"]


def build_text_ops(out_dir, run_saved_model_case):
    """normalize_utf8 (NFKC) -> case_fold_utf8 -> whitespace words and wordpiece ids, all dense:
    ragged results are padded ("" and -1) and their row lengths returned beside them."""
    import numpy as np
    import tensorflow as tf
    import tensorflow_text as tf_text

    class TextOps(tf.Module):
        def __init__(self):
            super().__init__()
            self.whitespace = tf_text.WhitespaceTokenizer()
            self.wordpiece = tf_text.FastWordpieceTokenizer(
                vocab=WORDPIECE_VOCAB, token_out_type=tf.int64, unknown_token="[UNK]")

        @tf.function(input_signature=[tf.TensorSpec([None], tf.string, name="text")])
        def tokenize(self, text):
            normalized = tf_text.normalize_utf8(text, "NFKC")
            folded = tf_text.case_fold_utf8(normalized)
            words = self.whitespace.tokenize(folded)
            pieces = self.wordpiece.tokenize(folded)
            return {"normalized": normalized,
                    "words": words.to_tensor(default_value=""),
                    "word_counts": words.row_lengths(),
                    "piece_ids": pieces.to_tensor(default_value=-1),
                    "piece_counts": pieces.row_lengths()}

    m = TextOps()
    tf.saved_model.save(m, str(out_dir / "text_ops"),
                        signatures={"tokenize": m.tokenize.get_concrete_function()})
    text = tf.constant(np.array([s.encode("utf-8") for s in TEXT_INPUTS], dtype=object), tf.string)
    cases = [run_saved_model_case(out_dir, "text_ops_tokenize", "text_ops",
                                  [("tokenize", {"text": text})])]

    package_dir = Path(tf_text.__file__).resolve().parent
    libraries = op_libraries_of(package_dir)
    graph_ops = ops_of_saved_model(out_dir / "text_ops")
    custom_ops = sorted(graph_ops & {op for ops in libraries.values() for op in ops})
    if len(custom_ops) < 2:
        raise RuntimeError("text_ops uses %d TensorFlow Text ops, expected >= 2" % len(custom_ops))
    extra = {
        "op_library_package": "tensorflow_text",
        "op_library_dir": str(package_dir),
        "tensorflow_text_version": tf_text.__version__,
        # The ops this model needs from the op libraries, and what TensorFlow Python says each
        # library (path relative to op_library_dir) registers: the oracle for tfjni's op lists.
        "custom_ops": custom_ops,
        "op_libraries": libraries,
    }
    return cases, extra, "%d custom ops from %d op libraries" % (len(custom_ops), len(libraries))


def op_libraries_of(package_dir):
    """{relative path: op names in the library's order} for every op library of the package, as
    TensorFlow Python's TF_LoadLibrary + TF_GetOpList (what tf.load_op_library calls) report them.
    Python extension modules (they export PyInit_) are no op libraries and are left out. Run in a
    fresh Python: where `import tensorflow_text` already loaded a library under another path
    spelling, TensorFlow would report no ops for it (they are registered already)."""
    import subprocess

    script = """
import json, sys
from pathlib import Path
from tensorflow.core.framework import op_def_pb2
from tensorflow.python.client import pywrap_tf_session as py_tf
package_dir = Path(sys.argv[1])
libraries = {}
for path in sorted(package_dir.rglob("*.so")):
    if b"PyInit_" in path.read_bytes():
        continue
    handle = py_tf.TF_LoadLibrary(str(path))
    try:
        op_list = op_def_pb2.OpList()
        op_list.ParseFromString(py_tf.TF_GetOpList(handle))
    finally:
        py_tf.TF_DeleteLibraryHandle(handle)
    libraries[str(path.relative_to(package_dir))] = [op.name for op in op_list.op]
print(json.dumps(libraries))
"""
    done = subprocess.run([sys.executable, "-c", script, str(package_dir)], check=True,
                          capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def ops_of_saved_model(path):
    """Every op type in the SavedModel's graph and its functions."""
    from tensorflow.core.protobuf import saved_model_pb2

    saved = saved_model_pb2.SavedModel()
    saved.ParseFromString((path / "saved_model.pb").read_bytes())
    ops = set()
    for meta in saved.meta_graphs:
        ops.update(node.op for node in meta.graph_def.node)
        for function in meta.graph_def.library.function:
            ops.update(node.op for node in function.node_def)
    return ops
