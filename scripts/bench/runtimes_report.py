#!/usr/bin/env python3
"""The "Three runtimes" section of docs/BENCHMARKS.md, from scripts/bench/bench-runtimes.sh's results:
TensorFlow (tfjni), LiteRT through tfjni and ONNX Runtime's Java binding, per case and thread count,
and the targets on them (LiteRT no slower than ONNX Runtime on MobileNetV2 at batch 1, faster on
the Transformer block and the tiny MLP, 0 Java bytes per call), each judged by the median of the
per-pair ratios of the paired run.

  python scripts/bench/runtimes_report.py RESULTS_DIR                     prints the section
  python scripts/bench/runtimes_report.py RESULTS_DIR --splice FILE.md    replaces it in FILE.md

RESULTS_DIR holds meta.json and runtimes-CASE.jsonl (lines of kind agreement, pair, summary).
bench_report.py includes the section when a make bench run has RESULTS_DIR/runtimes.
"""
import argparse
import json
from pathlib import Path

from bench_report import DASH, byte_count, num, verdict
import bench_report

HEADING = "## Three runtimes: TensorFlow, LiteRT, ONNX Runtime"
TENSORFLOW, LITERT, ORT = "tensorflow", "litert", "onnxruntime"
RUNTIMES = [TENSORFLOW, LITERT, ORT]
NAMES = {TENSORFLOW: "TensorFlow (tfjni)", LITERT: "LiteRT (tfjni)", ORT: "ONNX Runtime Java"}
TITLES = {"mlp_b1": "tiny MLP", "cnn_b1": "MobileNetV2 224² (softmax), batch 1",
          "cnn_b8": "MobileNetV2 224² (softmax), batch 8",
          "mobilenet_v2_b1": "MobileNetV2 224² (logits), batch 1",
          "transformer_b1": "Transformer encoder block", "lstm_b1": "LSTM"}
# The targets: LiteRT's median latency over ONNX Runtime's, per pair (at most 1: no slower; below 1:
# faster), on each thread count measured; and 0 bytes per call.
SPEED_TARGETS = [("mobilenet_v2_b1", "no slower than", lambda r: r <= 1.0),
                 ("transformer_b1", "faster than", lambda r: r < 1.0),
                 ("mlp_b1", "faster than", lambda r: r < 1.0)]
ZERO_BYTES_BELOW = bench_report.ZERO_ALLOC_BELOW


class Results:
    def __init__(self, results_dir):
        self.dir = Path(results_dir)
        self.meta = json.loads((self.dir / "meta.json").read_text())
        self.agreement = {}  # (case, threads, runtime) -> line
        self.summary = {}  # (case, threads) -> line
        self.cases = []
        for path in sorted(self.dir.glob("runtimes-*.jsonl")):
            for text in path.read_text().splitlines():
                if not text.startswith("{"):
                    continue
                line = json.loads(text)
                where = (line["case"], line["threads"])
                if line["case"] not in self.cases:
                    self.cases.append(line["case"])
                if line["kind"] == "agreement":
                    self.agreement[where + (line["runtime"],)] = line
                elif line["kind"] == "summary":
                    self.summary[where] = line
        order = [c["name"] for c in self.meta.get("conversions", [])]
        self.cases.sort(key=lambda c: order.index(c) if c in order else len(order))

    def threads(self, case):
        return sorted(t for (c, t) in self.summary if c == case)

    def measured(self, case, threads, runtime):
        """The summary's entry of a timed runtime, or None."""
        return (self.summary.get((case, threads)) or {}).get(runtime)


def micros(us):
    """A latency in µs or ms, three significant digits."""
    if us is None:
        return DASH
    return f"{num(us / 1000)} ms" if us >= 1000 else f"{num(us)} µs"


def spread(q):
    """A paired ratio: the median of the pairs [the middle half of them]."""
    return DASH if not q else f"{q['median']:.2f}× [{q['q1']:.2f}–{q['q3']:.2f}]"


def table(header, rows):
    return bench_report.table(header, rows).splitlines()


def agreement_cell(line):
    if line is None:
        return "the reference (within 1e-4 + 1e-4 × magnitude of TF Python's)"
    if line.get("max_abs_difference") is None:
        return f"**not timed**: {line['not_timed']}"
    result = (f"largest difference {line['max_abs_difference']:.2g} (allowed {line['allowed']:.2g}: "
              f"{line['tolerance']:g} × the largest magnitude)")
    return result if line["agrees"] else f"**disagrees, not timed**: {result}; {line['not_timed']}"


def case_table(res, case):
    rows = []
    for threads in res.threads(case):
        for runtime in RUNTIMES:
            m = res.measured(case, threads, runtime)
            line = res.agreement.get((case, threads, runtime))
            if m is None:
                rows.append([threads, NAMES[runtime], agreement_cell(line)] + [DASH] * 5)
                continue
            rows.append([threads, NAMES[runtime], agreement_cell(line), micros(m["p50_us"]),
                         spread(m.get("p50_ratio")) if runtime != TENSORFLOW else "1",
                         num(m["calls_per_s"]),
                         spread(m.get("calls_per_s_ratio")) if runtime != TENSORFLOW else "1",
                         byte_count(m["bytes_per_call"])])
    return table(["threads", "runtime", "agreement with TensorFlow Python", "median latency",
                  "÷ TF latency, paired", "calls/s", "÷ TF calls/s, paired", "Java B/call"], rows)


def targets(res):
    rows = []
    for case, relation, judge in SPEED_TARGETS:
        threads_measured = res.threads(case) or [None]
        for threads in threads_measured:
            summary = res.summary.get((case, threads)) or {}
            q = summary.get("litert_vs_onnxruntime_p50_ratio")
            litert, ort = summary.get(LITERT), summary.get(ORT)
            measured = DASH if not q else (f"{spread(q)} ({micros(litert['p50_us'])} vs "
                                           f"{micros(ort['p50_us'])}, {summary['pairs']} pairs)")
            label = (f"LiteRT {relation} ONNX Runtime Java: {TITLES[case]} ({case}) median latency"
                     + (f", {threads} thread{'s' if threads > 1 else ''}" if threads else ""))
            rows.append([label, measured, verdict(None if not q else judge(q["median"]))])
    worst = [(m["bytes_per_call"], case, threads)
             for (case, threads), s in res.summary.items() for m in [s.get(LITERT)] if m]
    most = max(worst) if worst else None
    rows.append(["LiteRT: 0 Java bytes allocated per call, every case and thread count",
                 DASH if most is None else f"at most {byte_count(most[0])} B/call ({most[1]}, "
                                           f"{most[2]} thread{'s' if most[2] > 1 else ''})",
                 verdict(None if most is None else most[0] < ZERO_BYTES_BELOW)])
    return table(["target", "LiteRT ÷ ONNX Runtime, paired: median [quartiles] of the pairs",
                  "result"], rows)


def relative_latencies(summary):
    """Each timed runtime's median latency relative to TensorFlow's, from the paired ratios."""
    relative = {TENSORFLOW: 1.0}
    relative.update({r: summary[r]["p50_ratio"]["median"] for r in (LITERT, ORT) if summary.get(r)})
    return relative


def over(summary, relative, slower, fastest):
    """How many times `fastest`'s latency `slower`'s is, paired: LiteRT and ONNX Runtime from their
    own per-pair ratio, the others through their ratios to TensorFlow's."""
    direct = summary.get("litert_vs_onnxruntime_p50_ratio")
    if {slower, fastest} == {LITERT, ORT} and direct:
        return direct["median"] if slower == LITERT else 1 / direct["median"]
    return relative[slower] / relative[fastest]


def where_each_wins(res):
    """Per case, the fastest timed runtime at each thread count by the paired ratios, and how many
    times its latency the others take."""
    lines = []
    for case in res.cases:
        parts = []
        for threads in res.threads(case):
            summary = res.summary[(case, threads)]
            relative = relative_latencies(summary)
            fastest = min(relative, key=relative.get)
            others = [f"{num(over(summary, relative, r, fastest))}× for {NAMES[r]}"
                      for r in relative if r != fastest]
            parts.append(f"{threads} thread{'s' if threads > 1 else ''}: {NAMES[fastest]} "
                         f"({micros(summary[fastest]['p50_us'])}; paired, the others take "
                         f"{', '.join(others) or 'not timed'})")
        lines.append(f"* {TITLES.get(case, case)} ({case}): " + "; ".join(parts) + ".")
    bytes_by_runtime = {r: max((s[r]["bytes_per_call"] for s in res.summary.values() if s.get(r)),
                               default=None) for r in RUNTIMES}
    lines.append("* Java bytes per call, the most over every case: " + ", ".join(
        f"{NAMES[r]} {byte_count(b)}" for r, b in bytes_by_runtime.items()) + ".")
    return lines


def conversions(res):
    rows = [[c["name"], "converted" if c["litert"] else c["litert_error"],
             "converted" if c["onnx"] else c["onnx_error"]] for c in res.meta["conversions"]]
    rows += [[c["name"], c["litert_error"] or "converted", c["onnx_error"] or "converted"]
             for c in res.meta.get("not_timed", [])]
    return table(["case", "LiteRT (static shape, TensorFlow's converter)",
                  f"ONNX (tf2onnx {res.meta['tf2onnx']}, opset {res.meta['onnx_opset']})"], rows)


def markdown(results_dir):
    """The section's lines, its heading first."""
    res = Results(results_dir)
    meta = res.meta
    out = [
        HEADING,
        "",
        f"`{meta['command']}`: TensorFlow {meta['tensorflow']} through tfjni's prepared path "
        f"(intra-op threads = the thread count, every op on the calling thread), LiteRT "
        f"{meta['litert']} through tfjni (`LiteRtModel.load(file, threads)`, XNNPACK) and ONNX Runtime's "
        f"Java binding {meta['onnxruntime']} (`OrtSession` with `setIntraOpNumThreads(threads)`, "
        "its other options left at their defaults; input and output `OnnxTensor`s over direct buffers "
        "made once, the output pinned) on the same inputs, at each thread count. Each runtime's "
        "output is first checked against TensorFlow Python's within its tolerance; one that "
        "disagrees, did not convert or failed to load is reported and not timed. Then the Java bytes "
        "each allocates per call on the calling thread (after a warm-up; the native side is not "
        "counted), then pairs of slices on one caller thread in one JVM: TensorFlow's slice in the "
        "middle, LiteRT's and ONNX Runtime's on either side, swapping sides every pair "
        f"(`io.tfjni.bench.RuntimesPairedBench`, {meta['pairs']} pairs per row). A ratio is the median "
        "of the per-pair ratios, [the middle half of the pairs]: the machine is shared (load "
        f"average {meta['load_average_before']} before the run, {meta['load_average_after']} after, on "
        f"{meta['cores']} cores), so the absolute times move with its load and only the paired ratios "
        "compare runtimes. Calls/s is one caller's. With 2 threads LiteRT hands every operator to "
        "XNNPACK's pool and ONNX Runtime's intra-op threads spin while they wait: on a loaded machine "
        "a hand-off to a second thread can cost more than a small model's whole run (docs/LITERT.md).",
        "",
        "### Targets",
        "",
    ] + targets(res) + [
        "",
        "### Where each wins",
        "",
    ] + where_each_wins(res) + [
        "",
        "### Conversions",
        "",
    ] + conversions(res) + [""]
    for case in res.cases:
        out += [f"### {TITLES.get(case, case)} ({case})", ""] + case_table(res, case) + [""]
    return out


def splice(text, section):
    """`text` with its runtimes section replaced by `section` (lines), or the section inserted before
    "## How it was measured" (else at the end) where it has none."""
    lines = text.splitlines()
    if HEADING in lines:
        start = lines.index(HEADING)
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    else:
        start = end = next((i for i, l in enumerate(lines) if l == "## How it was measured"), len(lines))
    return "\n".join(lines[:start] + section + lines[end:]) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results_dir")
    parser.add_argument("--splice", type=Path, help="replace the section in this markdown file")
    args = parser.parse_args()
    section = markdown(args.results_dir)
    if args.splice:
        args.splice.write_text(splice(args.splice.read_text(), section))
        print(f"wrote the section into {args.splice}")
    else:
        print("\n".join(section))


if __name__ == "__main__":
    main()
