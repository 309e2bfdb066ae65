"""The oracle of the CLI tests: what TensorFlow Python's saved_model_cli prints and writes.

Usage: python saved_model_cli_oracle.py MODELS_DIR WORK_DIR

run: writes input files (.npy, .npz) into WORK_DIR/inputs, then for every case below runs
saved_model_cli's own run code (load_inputs_from_input_arg_string and
run_saved_model_with_feed_dict, exactly what `saved_model_cli run` calls; for NumPy
expressions, its preprocess_input_exprs_arg_string with safe=False) with --outdir
WORK_DIR/expected/CASE, capturing what it prints into WORK_DIR/expected/CASE/stdout.txt.
WORK_DIR/cases.json lists the cases as tfjni run arguments.

show: for every model and form of `saved_model_cli show` (tag-sets, SignatureDef keys, --list_ops,
each SignatureDef, --all), runs the function `show` calls and writes what it prints to
WORK_DIR/show/N.txt; WORK_DIR/show_cases.json lists them as tfjni show arguments.

One Python process does it all, so TensorFlow is imported once.
"""
import contextlib
import io
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402


def write_inputs(inputs):
    os.makedirs(inputs, exist_ok=True)
    rng = np.random.default_rng(7)

    def save(name, array):
        np.save(os.path.join(inputs, name), array)

    numeric = np.array([[1, 2, 3], [4, 5, 6]])
    for dtype in ["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
                  "uint16", "uint32", "uint64", "complex64", "complex128"]:
        save(f"x_{dtype}.npy", (numeric * (1 if dtype.startswith("u") else -1)).astype(dtype))
    save("x_bool.npy", np.array([[True, False, True], [False, False, True]]))
    # Byte strings ('S'), and unicode ('U', stored as UTF-32) with non-ASCII text.
    save("x_string_S.npy", np.array([[b"a", b"", b"b"], [b"tf\x00jni", b"xy" * 40, b"b"]]))
    save("x_string_U.npy", np.array([["caf\u00e9", "\u65e5\u672c", ""], ["a", "zz", "\U0001F600"]]))
    # Other byte orders and layouts of the same values.
    save("x_float32_big.npy", numeric.astype(">f4"))
    save("x_float32_fortran.npy", np.asfortranarray(rng.standard_normal((4, 3)).astype("float32")))
    save("rank3_fortran.npy", np.asfortranarray(np.arange(24, dtype=np.float32).reshape(2, 3, 4)))
    # Summarised printing (more than 1000 elements), floats needing the exponent format.
    save("big_float32.npy", (rng.standard_normal((40, 50)) * 1e3).astype("float32"))
    save("empty_rows.npy", np.zeros((0, 3), dtype=np.float32))
    save("nonfinite.npy", np.array([[np.nan, np.inf, -np.inf], [1.5, -0.0, 2e-5]], dtype=np.float32))
    save("nonfinite_c.npy", np.array([[np.nan + 1j, 2 - np.inf * 1j, 0], [1, -1j, 3.25]],
                                     dtype=np.complex64))
    save("small_float64.npy", np.array([[1e-9, 0.5, 123456.0], [-2.5e-7, 3.0, 0.0]]))
    np.savez(os.path.join(inputs, "ab.npz"), a=np.array([1.5, -2.0, 1e6], dtype=np.float32),
             b=np.array([0.25, 4.0, -1.0], dtype=np.float32))
    np.savez_compressed(os.path.join(inputs, "only_b.npz"),
                        b=np.array([1.0, 2.0, 3.0], dtype=np.float32))
    # Many strings: several pickle frames, APPENDS batches of 1000, memo ids past 255, shared
    # one-byte and empty bytes objects, and one element larger than a frame.
    strings = []
    for i in range(3000):
        kind = i % 7
        if kind == 0:
            strings.append(b"")
        elif kind == 1:
            strings.append(bytes([97 + i % 26]))
        elif kind == 2:
            strings.append(b"w" * (i % 600))
        else:
            strings.append(("item%d" % i).encode() * (1 + i % 5))
    strings[1234] = b"L" * 70000
    save("many_strings.npy", np.array(strings, dtype="S"))
    images = np.load(os.path.join(sys.argv[1], "digits_holdout_images.npy"))
    save("digits5.npy", images[:5])


def cases(models, inputs):
    def inp(name):
        return os.path.join(inputs, name)

    result = []
    for dtype in ["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8",
                  "uint16", "uint32", "uint64", "complex64", "complex128", "bool"]:
        result.append(dict(name=f"dtypes_{dtype}_npy", model="dtypes", signature=dtype,
                           inputs=f"x={inp('x_' + dtype + '.npy')}"))
    result += [
        dict(name="dtypes_string_S", model="dtypes", signature="string",
             inputs=f"x={inp('x_string_S.npy')}"),
        dict(name="dtypes_string_U", model="dtypes", signature="string",
             inputs=f"x={inp('x_string_U.npy')}"),
        dict(name="dtypes_float32_big_endian", model="dtypes", signature="float32",
             inputs=f"x={inp('x_float32_big.npy')}"),
        dict(name="dtypes_float32_fortran", model="dtypes", signature="float32",
             inputs=f"x={inp('x_float32_fortran.npy')}"),
        dict(name="dtypes_float32_exprs", model="dtypes", signature="float32",
             exprs="x=[[1.5, -2, 3e-5], [4, 5.25, 1e9]]"),
        dict(name="dtypes_float16_exprs", model="dtypes", signature="float16",
             exprs="x=[[0.1, 65504, -1e-7], [3.14159, 2049, 0.333]]"),
        dict(name="dtypes_bfloat16_exprs", model="dtypes", signature="bfloat16",
             exprs="x=[[0.1, 3.0, -2.5], [100.0, 1e-3, 7.0]]"),
        dict(name="dtypes_float32_nonfinite", model="dtypes", signature="float32",
             inputs=f"x={inp('nonfinite.npy')}"),
        dict(name="dtypes_complex64_nonfinite", model="dtypes", signature="complex64",
             inputs=f"x={inp('nonfinite_c.npy')}"),
        dict(name="dtypes_float64_exprs_small", model="dtypes", signature="float64",
             inputs=f"x={inp('small_float64.npy')}"),
        dict(name="dtypes_complex128_exprs", model="dtypes", signature="complex128",
             exprs="x=[[1+2j, -3.5j, 0], [1e-7+1j, 2, -3-0.5j]]"),
        dict(name="dtypes_int8_exprs", model="dtypes", signature="int8",
             exprs="x=[[-128, 127, 0], [1, -1, 0x10]]"),
        # (saved_model_cli converts big ints through float64: values past 2**53 come out wrong.)
        dict(name="dtypes_uint64_exprs", model="dtypes", signature="uint64",
             exprs="x=[[4294967296, 0, 1], [2, 3, 1099511627776]]"),
        dict(name="dtypes_bool_exprs", model="dtypes", signature="bool",
             exprs="x=[[True, False, True], [False, True, True]]"),
        dict(name="dtypes_string_exprs", model="dtypes", signature="string",
             exprs="x=[['a', 'b,c', ''], [b'\\x00\\xff', 'caf\\u00e9', \"it's\"]]"),
        dict(name="multi_add_npz", model="multi", signature="add",
             inputs=f"a={inp('ab.npz')}[a];b={inp('only_b.npz')}"),
        dict(name="multi_scale_scalar_output", model="multi", signature="scale",
             exprs="x=[[1, 2, 3], [4, 5, 6.5]]"),
        dict(name="multi_any_rank_fortran", model="multi", signature="any_rank",
             inputs=f"x={inp('rank3_fortran.npy')}"),
        dict(name="multi_any_rank_summarised", model="multi", signature="any_rank",
             inputs=f"x={inp('big_float32.npy')}"),
        dict(name="shapes_square", model="shapes", signature="square", exprs="x=3.0"),
        dict(name="shapes_int_scalar", model="shapes", signature="int_scalar", exprs="n=41"),
        dict(name="shapes_row_sums_empty", model="shapes", signature="row_sums",
             inputs=f"x={inp('empty_rows.npy')}"),
        dict(name="strings_many", model="strings", signature="transform",
             inputs=f"s={inp('many_strings.npy')}"),
        dict(name="lookup_keys", model="lookup", signature="lookup",
             exprs="keys=['apple', 'kiwi', 'cherry', '']"),
        dict(name="counter_increment", model="counter", signature="increment"),
        dict(name="digits_five", model="digits", signature="serving_default",
             inputs=f"images={inp('digits5.npy')}"),
    ]
    # NumPy constructors in --input_exprs, as TensorFlow's saved_model_cli guide writes them.
    # saved_model_cli 2.18 passes --input_exprs to literal_eval, which refuses them; its own
    # preprocess_input_exprs_arg_string(safe=False), what older versions ran, evaluates them.
    def numpy_case(name, model, signature, exprs, **more):
        return dict(name=name, model=model, signature=signature, exprs=exprs, numpy=True, **more)

    result += [
        numpy_case("numpy_ones_float64_to_float32", "multi", "scale", "x=np.ones((2,3))"),
        numpy_case("numpy_arange_int64_to_float32", "dtypes", "float32",
                   "x=np.arange(6).reshape(2, 3)"),
        numpy_case("numpy_arange_float64_steps", "dtypes", "float32",
                   "x=np.arange(0, 1.2, 0.1).reshape(-1, 3)"),
        numpy_case("numpy_arange_float64_descending", "dtypes", "float64",
                   "x=np.arange(0.3, 0.0, -0.05).reshape(2, 3)"),
        numpy_case("numpy_arange_dtype_float32", "dtypes", "float32",
                   "x=np.arange(0.1, 1.85, 0.3, dtype=np.float32).reshape(2, 3)"),
        numpy_case("numpy_arange_dtype_float16", "dtypes", "float16",
                   "x=np.arange(-2, 2.5, 0.75, dtype=np.float16).reshape(2, 3)"),
        numpy_case("numpy_linspace_float64", "dtypes", "float64",
                   "x=np.linspace(-1, 1, 9).reshape(3, 3)"),
        # 5 * ((1.9 - 0.3) / 5) + 0.3 is 1.8999999999999997: the last element is stop itself.
        numpy_case("numpy_linspace_endpoint", "dtypes", "float64",
                   "x=np.linspace(0.3, 1.9, 6).reshape(2, 3)"),
        numpy_case("numpy_linspace_dtype_string", "dtypes", "float32",
                   "x=np.linspace(0, 1, 6, endpoint=False, dtype='float32').reshape(2, 3)"),
        numpy_case("numpy_linspace_summarised", "dtypes", "float32",
                   "x=np.linspace(0, 1, 3000).reshape(-1, 3)"),
        numpy_case("numpy_full_int64_to_int32", "dtypes", "int32", "x=np.full((2, 3), -7)"),
        numpy_case("numpy_zeros_bool", "dtypes", "bool", "x=np.zeros((2, 3), dtype=bool)"),
        numpy_case("numpy_full_complex", "dtypes", "complex128", "x=np.full((1, 3), 1-2j)"),
        numpy_case("numpy_ones_uint8", "dtypes", "uint8", "x=np.ones((1, 3), np.uint8)"),
        numpy_case("numpy_full_strings", "dtypes", "string", "x=np.full((2, 3), 'ab')"),
        numpy_case("numpy_full_scalar", "shapes", "square", "x=np.full((), 2.5)"),
        numpy_case("numpy_reshape_to_scalar", "shapes", "int_scalar",
                   "n=np.arange(41, 42).reshape(())"),
        numpy_case("numpy_zeros_images", "digits", "serving_default",
                   "images=np.zeros((2, 8, 8, 1))"),
        numpy_case("numpy_with_inputs", "multi", "add", "b=np.linspace(0.5, 3, 3)",
                   inputs=f"a={inp('ab.npz')}[a]"),
        # Deliberate differences: saved_model_cli casts what tfjni refuses (tfjni_refuses is
        # the start of tfjni's one line); the oracle records what saved_model_cli printed.
        numpy_case("numpy_fraction_to_int32", "dtypes", "int32",
                   "x=np.linspace(0, 1, 6).reshape(2, 3)",
                   tfjni_refuses="tfjni run: --input_exprs: input 'x': 0.2 is not a whole number,"
                                 " and the signature wants int32"),
        numpy_case("numpy_dtype_float64_to_float32", "dtypes", "float32",
                   "x=np.ones((2, 3), dtype=np.float64)",
                   tfjni_refuses="tfjni run: --input_exprs: input 'x' has dtype float64, but"
                                 " the signature wants float32 [?, 3]"),
    ]
    for case in result:
        case["dir"] = os.path.join(models, case.pop("model"))
        case.setdefault("inputs", "")
        case.setdefault("exprs", "")
    return result


def main():
    models, work = sys.argv[1], sys.argv[2]
    inputs = os.path.join(work, "inputs")
    write_inputs(inputs)
    all_cases = cases(models, inputs)
    with open(os.path.join(work, "cases.json"), "w") as f:
        json.dump(all_cases, f, indent=1)
    from tensorflow.python.tools import saved_model_cli as smc  # the code `saved_model_cli run` runs
    for case in all_cases:
        outdir = os.path.join(work, "expected", case["name"])
        os.makedirs(outdir, exist_ok=True)
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            numpy = case.get("numpy", False)
            feed = smc.load_inputs_from_input_arg_string(case["inputs"],
                                                         "" if numpy else case["exprs"], "")
            if numpy:
                feed.update(smc.preprocess_input_exprs_arg_string(case["exprs"], safe=False))
            smc.run_saved_model_with_feed_dict(case["dir"], "serve", case["signature"], feed,
                                               outdir, True)
        with open(os.path.join(outdir, "stdout.txt"), "w") as f:
            f.write(printed.getvalue().replace(outdir, "OUTDIR"))
    show_cases = []
    for model in ["multi", "digits", "dtypes", "shapes", "strings", "counter", "lookup"]:
        model_dir = os.path.join(models, model)
        forms = [([], lambda: smc._show_tag_sets(model_dir)),
                 (["--tag_set", "serve"],
                  lambda: smc._show_signature_def_map_keys(model_dir, "serve")),
                 (["--tag_set", "serve", "--list_ops"],
                  lambda: (smc._show_ops_in_metagraph(model_dir, "serve"),
                           smc._show_signature_def_map_keys(model_dir, "serve"))),
                 (["--all"], lambda: smc._show_all(model_dir))]
        for key in sorted(smc.get_signature_def_map(model_dir, "serve")):
            forms.append((["--tag_set", "serve", "--signature_def", key],
                          lambda key=key: smc._show_inputs_outputs(model_dir, "serve", key)))
        for args, show in forms:
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                show()
            name = "%d.txt" % len(show_cases)
            os.makedirs(os.path.join(work, "show"), exist_ok=True)
            with open(os.path.join(work, "show", name), "w") as f:
                f.write(printed.getvalue())
            show_cases.append(dict(args=["--dir", model_dir] + args, expected=name))
    with open(os.path.join(work, "show_cases.json"), "w") as f:
        json.dump(show_cases, f, indent=1)
    print("oracle: %d run cases, %d show cases" % (len(all_cases), len(show_cases)))


if __name__ == "__main__":
    main()
