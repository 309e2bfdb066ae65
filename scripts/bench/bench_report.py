#!/usr/bin/env python3
"""Turn the raw results of one `make bench` run into BENCHMARKS.md and a chart.

Usage:  bench_report.py RESULTS_DIR [--md docs/BENCHMARKS.md] [--png docs/benchmarks.png]

RESULTS_DIR is what scripts/bench.sh leaves in build/bench-results/<timestamp>/:
  meta.json                            machine, versions, command, settings
  round-N/floor-[H-]CASE.json          C API floor (Google Benchmark JSON, threads 1, 2, 4)
  round-N/latency-[H-]C-CASE.json      JMH sample mode, 1 thread
  round-N/throughput-tT-[H-]C-CASE.json  JMH thrpt mode, T threads, gc profiler (read at T=1)
  round-N/eager-cpp.json               Google Benchmark: tfjni C++ core and raw C API
  round-N/eager-C.json                 JMH avgt mode, gc profiler (tfjni, tfJava)
  rss-C-CASE.jsonl                     RSS probe lines {"contender", "case", "calls", "rss_kb", ...}
  instructions/instructions.jsonl      callgrind counts per call (scripts/bench/bench-instructions.sh)
  runtimes/                            TensorFlow, LiteRT and ONNX Runtime paired in one process
                                       (scripts/bench/bench-runtimes.sh; scripts/bench/runtimes_report.py
                                       writes its section)
  paired/paired-H-CASE.jsonl           the floor, the fast path and the map API paired in one
                                       process (scripts/bench/bench-paired.sh): a line per pair, a
                                       summary per thread count; absent from runs before it existed
                                       (and the map API absent from runs before it was paired)
H is the threading configuration, pooled (inter-op pool of 2) or caller (inter-op
-1: every op on the calling thread); it is read from the results themselves (the
floor's context inter_op_threads, JMH's parameter threading, the instruction
lines' threading), so results from before it existed read as pooled.
Every number in the report is computed here from those files (medians over the
rounds, or over the pairs); nothing is typed in by hand. Missing files show as "—".
Where the paired run measured a latency or throughput ratio to the floor, its median
over the pairs judges the target and the separate processes' ratio is shown beside it.
"""
import argparse
import json
import os
import re
import statistics
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

import batching_table
import swaps_report

ROOT = Path(__file__).resolve().parents[2]
FLOOR = "c_api"
TF_JAVA = "tfJava"
MODEL_CONTENDERS = [FLOOR, "tfjniFast", "tfjniMap", TF_JAVA]
EAGER_CONTENDERS = [FLOOR, "core", "tfjni", TF_JAVA]
NAMES = {
    FLOOR: "C API from C++ (floor)",
    "tfjniFast": "tfjni fast path",
    "tfjniMap": "tfjni map API",
    TF_JAVA: "TensorFlow Java",
    "core": "tfjni C++ core",
    "tfjni": "tfjni (Java)",
}
CASE_TITLES = {
    "mlp": "tiny MLP (overhead-dominated)",
    "cnn": "MobileNetV2-sized CNN (compute-dominated)",
    "text": "text model, string input",
}
THREADS = [1, 2, 4]
POOLED, CALLER = "pooled", "caller"
THREADINGS = [POOLED, CALLER]
THREADING_NAMES = {POOLED: "pooled", CALLER: "caller thread"}
# The caller-thread targets on mlp_b1 with every op on the calling thread.
CALLER_FAST_MAX_RATIO = 1.05
CALLER_MAP_MAX_RATIO = 1.15
CALLER_FAST_MIN_THROUGHPUT_RATIO = 0.9


def key(contender, threading=POOLED):
    """The results' key of a contender in a threading: the pooled one keeps the plain name."""
    return contender if threading == POOLED else f"{contender}@{threading}"


def split_key(k):
    contender, _, threading = k.partition("@")
    return contender, threading or POOLED


def name(k):
    contender, threading = split_key(k)
    return NAMES[contender] + ("" if threading == POOLED else f", {THREADING_NAMES[threading]}")


def threading_of_inter_op(inter_op):
    return CALLER if int(inter_op) < 0 else POOLED


# The targets.
FAST_MAX_RATIO = 1.10
MAP_MAX_RATIO = 1.25
ZERO_ALLOC_BELOW = 0.5  # B/call: JMH's normalised allocation rounds to 0
RSS_MAX_GROWTH_MB = 5.0
TARGET_CASE = "mlp_b1"

US_PER = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}


def us_per_op(value, unit):
    return value * US_PER[unit.split("/")[0]]


def ops_per_s(value, unit):
    return value / US_PER[unit.split("/")[1]] * 1e6


def case_param(jmh_result):
    """The case a JMH result ran (bench/ names the @Param caseName: `case` is reserved in Java)."""
    params = jmh_result.get("params", {})
    return params.get("caseName", params.get("case"))


def jmh_key(jmh_result):
    """The results' key of a JMH result: its benchmark method and its threading parameter."""
    return key(jmh_result["benchmark"].rsplit(".", 1)[1],
               jmh_result.get("params", {}).get("threading", POOLED))


def load_json(path):
    with open(path) as f:
        return json.load(f)


PAIRED_RATIOS = ("calls_per_s_ratio", "calls_per_cpu_s_ratio", "p50_ratio")


def paired_summary(line):
    """A PairedCallerBench summary with each Java contender's ratios to the floor in its own entry
    ("tfjniFast": {"p50_ratio": ...}); runs from before the map API was paired kept the fast path's
    ratios at the top of the line."""
    if "calls_per_s_ratio" in line:
        line = dict(line, tfjniFast=dict(line["tfjniFast"], **{r: line.get(r) for r in PAIRED_RATIOS}))
    return line


class Results:
    """Per-round values of every metric, keyed by (contender, case)."""

    def __init__(self, results_dir):
        self.dir = Path(results_dir)
        self.meta = load_json(self.dir / "meta.json")
        self.models = load_json(Path(self.meta["models"]) / "bench_models.json")
        self.cases = [c["name"] for c in self.models["cases"]]
        self.values = defaultdict(lambda: defaultdict(list))  # (contender, case) -> metric -> [per round]
        self.eager = defaultdict(lambda: defaultdict(list))  # contender -> metric -> [per round]
        self.rss = {}  # (contender, case) -> {calls: rss_kb}
        self.call_alloc = {}  # (contender, case) -> {calls: bytes the calling thread allocated}
        self.floor_context = {}  # the pooled floor's Google Benchmark context
        self.floor_contexts = {}  # threading -> its floor's context
        self.jmh_info = {}
        rounds = sorted(self.dir.glob("round-*"), key=lambda p: int(p.name.split("-")[1]))
        self.rounds = len(rounds)
        for round_dir in rounds:
            self._read_round(round_dir)
        for path in sorted(self.dir.glob("rss-*.jsonl")):
            self._read_rss(path)
        self.instructions = {}  # (contender, case) -> one line of instructions.jsonl
        counts = self.dir / "instructions" / "instructions.jsonl"
        if counts.exists():
            for line in counts.read_text().splitlines():
                p = json.loads(line)
                self.instructions[(key(p["contender"], p.get("threading", POOLED)), p["case"])] = p
        self.paired = {}  # (threading, case, threads) -> the summary line of PairedCallerBench
        for path in sorted(self.dir.glob("paired/paired-*.jsonl")):
            for line in path.read_text().splitlines():
                if line.startswith("{"):
                    p = json.loads(line)
                    if p.get("kind") == "summary":
                        self.paired[(p["threading"], p["case"], p["threads"])] = paired_summary(p)
        # A partial run (BENCH_CASES) reports only the cases it ran.
        self.cases = [c for c in self.cases if any(case == c for (_, case) in self.values)] or self.cases

    def _read_round(self, d):
        for path in d.glob("floor-*.json"):
            data = load_json(path)
            threading = threading_of_inter_op(data["context"].get("inter_op_threads", 2))
            self.floor_contexts[threading] = data["context"]
            self.floor_context = self.floor_contexts.get(POOLED, data["context"])
            for b in data["benchmarks"]:
                if b.get("error_occurred") or "p50_us" not in b:
                    continue
                v = self.values[(key(FLOOR, threading), b["label"])]
                v[f"calls_per_s_t{b['threads']}"].append(b["calls_per_s"])
                if b["threads"] == 1:
                    v["p50_us"].append(b["p50_us"])
                    v["p99_us"].append(b["p99_us"])
        for path in d.glob("latency-*.json"):
            for r in load_json(path):
                contender, case = jmh_key(r), case_param(r)
                self._remember_jmh(r)
                m, v = r["primaryMetric"], self.values[(contender, case)]
                p = m["scorePercentiles"]
                v["p50_us"].append(us_per_op(p["50.0"], m["scoreUnit"]))
                v["p99_us"].append(us_per_op(p["99.0"], m["scoreUnit"]))
        for path in d.glob("throughput-t*.json"):
            for r in load_json(path):
                contender, case = jmh_key(r), case_param(r)
                m, v = r["primaryMetric"], self.values[(contender, case)]
                v[f"calls_per_s_t{r['threads']}"].append(ops_per_s(m["score"], m["scoreUnit"]))
                # Bytes per call from one thread in thrpt mode: sample mode boxes its samples.
                if r["threads"] == 1:
                    self._read_gc(r, v)
        if (d / "eager-cpp.json").exists():
            for b in load_json(d / "eager-cpp.json")["benchmarks"]:
                contender = {"BM_CApiAdd": FLOOR, "BM_CoreAdd": "core"}.get(b["name"])
                if contender and not b.get("error_occurred"):
                    self.eager[contender]["ns"].append(us_per_op(b["real_time"], b["time_unit"] + "/op") * 1e3)
        for path in d.glob("eager-*.json"):
            if path.name == "eager-cpp.json":
                continue
            for r in load_json(path):
                self._remember_jmh(r)
                m, v = r["primaryMetric"], self.eager[r["benchmark"].rsplit(".", 1)[1]]
                v["ns"].append(us_per_op(m["score"], m["scoreUnit"]) * 1e3)
                self._read_gc(r, v)

    @staticmethod
    def _read_gc(r, v):
        secondary = r.get("secondaryMetrics", {})
        if "gc.alloc.rate.norm" in secondary:
            v["bytes_per_call"].append(secondary["gc.alloc.rate.norm"]["score"])
        if "gc.count" in secondary:
            v["gc_count"].append(secondary["gc.count"]["score"])
        else:
            v["gc_count"].append(0.0)  # the gc profiler omits gc.count when no GC ran

    def _remember_jmh(self, r):
        for key in ("jmhVersion", "jdkVersion", "vmName", "vmVersion", "jvmArgs"):
            if key in r:
                self.jmh_info[key] = r[key]

    def _read_rss(self, path):
        for line in path.read_text().splitlines():
            if line.strip().startswith("{"):
                p = json.loads(line)
                self.rss.setdefault((p["contender"], p["case"]), {})[p["calls"]] = p["rss_kb"]
                if p.get("call_alloc_bytes") is not None:
                    self.call_alloc.setdefault((p["contender"], p["case"]), {})[p["calls"]] = \
                        p["call_alloc_bytes"]

    def median(self, contender, case, metric):
        values = self.values.get((contender, case), {}).get(metric)
        return statistics.median(values) if values else None

    def spread(self, contender, case, metric):
        """(max - min) / median over rounds, as a fraction."""
        values = self.values.get((contender, case), {}).get(metric)
        if not values or len(values) < 2:
            return None
        return (max(values) - min(values)) / statistics.median(values)

    def eager_median(self, contender, metric):
        values = self.eager.get(contender, {}).get(metric)
        return statistics.median(values) if values else None

    def steady_bytes_per_call(self, contender, case):
        """The calling thread's bytes allocated inside the calls between the RSS probe's first and
        last checkpoint, per call: exact, with no harness of JMH's counted in."""
        points = self.call_alloc.get((contender, case))
        if not points or len(points) < 2:
            return None
        calls = sorted(points)
        return (points[calls[-1]] - points[calls[0]]) / (calls[-1] - calls[0])

    def rss_growth_mb(self, contender, case):
        """RSS at the last checkpoint minus the first, in MB (10^6 bytes)."""
        points = self.rss.get((contender, case))
        if not points or len(points) < 2:
            return None
        calls = sorted(points)
        return (points[calls[-1]] - points[calls[0]]) * 1024 / 1e6


# ---- formatting ----

DASH = "—"


def num(x, digits=3):
    """Three significant digits, thousands separated; DASH for None."""
    if x is None:
        return DASH
    if x == 0:
        return "0"
    if abs(x) >= 10 ** digits:
        return f"{x:,.0f}"
    decimals = max(0, digits - 1 - int(f"{abs(x):e}".split("e")[1]))
    return f"{x:,.{decimals}f}"


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def times(x):
    return DASH if x is None else f"{x:.2f}×"


def percent(x):
    return DASH if x is None else f"±{x * 50:.0f}%"


def byte_count(b):
    """Bytes per call: two decimals below 10, so 0.01 is not shown as a round 0."""
    return DASH if b is None else f"{b:,.2f}" if b < 10 else f"{b:,.0f}"


def quartiles(q):
    """A paired ratio: its median over the pairs, then the middle half of the pairs and, where
    given, the medians of the first and the second half of the pairs."""
    if not q:
        return DASH
    halves = f"; halves {q['halves'][0]:.2f}, {q['halves'][1]:.2f}" if q.get("halves") else ""
    return f"{q['median']:.2f}× [{q['q1']:.2f}–{q['q3']:.2f}{halves}]"


def mb(kb):
    return None if kb is None else kb * 1024 / 1e6


def table(header, rows, numeric=True):
    """Markdown table; numeric columns (all but the first) align right."""
    align = ["---"] + ["---:" if numeric else "---"] * (len(header) - 1)
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


# ---- the report ----


def tf_java_version(pom):
    """TensorFlow Java's version as the JMH module's pom.xml asks for it."""
    pom = Path(pom)
    if not pom.exists():
        return None
    ns = {"m": "http://maven.apache.org/POM/4.0.0"}
    tree = ET.parse(pom).getroot()
    props = {p.tag.split("}")[1]: p.text for p in tree.findall("m:properties/*", ns)}
    for dep in tree.iter("{%s}dependency" % ns["m"]):
        if dep.findtext("m:artifactId", namespaces=ns) == "tensorflow-core-api":
            version = dep.findtext("m:version", namespaces=ns) or ""
            return re.sub(r"\$\{([^}]+)\}", lambda m: props.get(m.group(1), m.group(0)), version)
    return None


def jvm_flags(jmh):
    """The forks' JVM flags, without the paths bench-java.sh passes as -Dtfjni.* properties."""
    flags = [a for a in jmh.get("jvmArgs", []) if not a.startswith("-Dtfjni.")]
    return " ".join(f"`{a}`" for a in dict.fromkeys(flags)) or DASH


def case_info(res, name):
    c = next(c for c in res.models["cases"] if c["name"] == name)
    shape = "×".join(str(d) for d in c["input_shape"])
    return f"{CASE_TITLES.get(c['model'], c['model'])}; input {c['input_dtype']} [{shape}]"


def verdict(ok):
    return "no data" if ok is None else ("PASS" if ok else "**MISS**")


class TargetsTable:
    """The targets of one threading configuration. Where the paired run measured that configuration,
    a ratio target shows the median over its pairs beside the separate processes' median over the
    rounds and is judged by the paired one; its result says which judged."""

    def __init__(self, res, threading):
        self.paired = any(t == threading and c == TARGET_CASE for (t, c, _) in res.paired)
        self.rows = []

    def ratio(self, target, separate, separate_ratio, pair, pair_ratio, judge):
        """judge(ratio) -> bool, or None for a ratio that is only reported."""
        r = pair_ratio if pair_ratio is not None else separate_ratio
        result = "reported" if judge is None else verdict(None if r is None else judge(r))
        if self.paired and judge is not None and r is not None:
            result += " (paired)" if pair_ratio is not None else " (separate)"
        self.rows.append([target] + ([pair] if self.paired else []) + [separate, result])

    def measured(self, target, value, ok):
        """A target the paired run does not measure (bytes, RSS)."""
        self.rows.append([target] + ([DASH] if self.paired else []) + [value, verdict(ok)])

    def markdown(self):
        header = ["target"] + (["paired, same process: median [quartiles; halves] of the pairs"] if self.paired
                               else []) + \
            ["separate processes: median over rounds" if self.paired else "measured (median over rounds)", "result"]
        return table(header, self.rows, numeric=False)


def ratio_target(res, targets, label, threading, contender, judge, threads=None):
    """A contender over the floor on TARGET_CASE, both in `threading`: median latency at one caller,
    or calls/s at `threads` callers. The paired run's ratio where it measured it, beside the
    separate processes' ratio of medians."""
    metric, paired_metric, unit = ("p50_us", "p50_us", " µs") if threads is None else \
        (f"calls_per_s_t{threads}", "calls_per_s", "")
    value = res.median(key(contender, threading), TARGET_CASE, metric)
    floor = res.median(key(FLOOR, threading), TARGET_CASE, metric)
    r = ratio(value, floor)
    p = res.paired.get((threading, TARGET_CASE, threads or 1))
    q = p and p.get(contender, {}).get("p50_ratio" if threads is None else "calls_per_s_ratio")
    pair = DASH if not q else (f"{quartiles(q)} ({num(p[contender][paired_metric])} vs "
                               f"{num(p[FLOOR][paired_metric])}{unit}, {p['pairs']} pairs)")
    targets.ratio(label, f"{times(r)} ({num(value)} vs {num(floor)}{unit})" if r else DASH, r,
                  pair, q["median"] if q else None, judge)


def at_most(limit):
    return lambda r: r <= limit


def at_least(limit):
    return lambda r: r >= limit


def targets(res):
    """The pooled configuration's targets: latency ratios to the floor, bytes per call, RSS growth."""
    rows = TargetsTable(res, POOLED)
    for contender, limit in (("tfjniFast", FAST_MAX_RATIO), ("tfjniMap", MAP_MAX_RATIO)):
        ratio_target(res, rows, f"{NAMES[contender]}: {TARGET_CASE} median latency ≤ {limit:.2f}× the C API floor",
                     POOLED, contender, at_most(limit))
    b = res.median("tfjniFast", TARGET_CASE, "bytes_per_call")
    rows.measured(f"{NAMES['tfjniFast']}: 0 B allocated per call, {TARGET_CASE} (JMH gc profiler)",
                  DASH if b is None else f"{b:.3f} B/call", None if b is None else b < ZERO_ALLOC_BELOW)
    # JMH's B/call also counts JMH's own few KB per iteration, which the CNN's few calls per
    # iteration cannot dilute; the RSS probe counts the calling thread's bytes inside the calls only.
    for case in res.meta["settings"]["rss_cases"]:
        b = res.steady_bytes_per_call("tfjniFast", case)
        rows.measured(f"{NAMES['tfjniFast']}: 0 B allocated per call, {case} (thread's allocated "
                      f"bytes over {calls_range(res, 'tfjniFast', case)} calls)",
                      DASH if b is None else f"{b:.4f} B/call", None if b is None else b < ZERO_ALLOC_BELOW)
    for contender in ("tfjniFast", "tfjniMap"):
        for case in res.meta["settings"]["rss_cases"]:
            g = res.rss_growth_mb(contender, case)
            rows.measured(f"{NAMES[contender]}: RSS growth from {calls_range(res, contender, case)} calls "
                          f"≤ {RSS_MAX_GROWTH_MB:.0f} MB, {case}",
                          DASH if g is None else f"{g:+.2f} MB", None if g is None else g <= RSS_MAX_GROWTH_MB)
    return rows.markdown()


def caller_targets(res):
    """The caller-thread targets: mlp_b1 with every op on the calling thread, against the floor in the
    same configuration; TensorFlow Java's ratios are reported, not judged."""
    rows = TargetsTable(res, CALLER)
    for contender, limit in (("tfjniFast", CALLER_FAST_MAX_RATIO), ("tfjniMap", CALLER_MAP_MAX_RATIO),
                             (TF_JAVA, None)):
        bound = f" ≤ {limit:.2f}×" if limit else ""
        ratio_target(res, rows, f"{NAMES[contender]}: {TARGET_CASE} median latency{bound} the floor's "
                     "(both caller thread)", CALLER, contender, at_most(limit) if limit else None)
    for contender, limit in (("tfjniFast", CALLER_FAST_MIN_THROUGHPUT_RATIO), (TF_JAVA, None)):
        for t in (2, 4):
            bound = f" ≥ {limit:.2f}×" if limit else ""
            ratio_target(res, rows, f"{NAMES[contender]}: {TARGET_CASE} calls/s at {t} callers{bound} the "
                         "floor's (both caller thread)", CALLER, contender,
                         at_least(limit) if limit else None, threads=t)
    return rows.markdown()


PAIRED_CONTENDERS = ["tfjniFast", "tfjniMap"]
PAIRED_JUDGES = (" A ratio to the floor is judged by the paired run (`scripts/bench/bench-paired.sh`: the floor, "
                 "the fast path and the map API in one process, in turn in short slices; see \"How it was "
                 "measured\") where it measured it, \"(paired)\"; else by the separate processes' medians, "
                 "\"(separate)\".")


def paired_table(res, case):
    """The floor and each Java contender paired in one process, beside the separate processes' ratios."""
    rows = []
    for (threading, c, threads), p in sorted(res.paired.items(),
                                             key=lambda kv: (THREADINGS.index(kv[0][0]), kv[0][2])):
        if c != case:
            continue
        contenders = [j for j in PAIRED_CONTENDERS if p.get(j, {}).get("calls_per_s_ratio")]
        floor = key(FLOOR, threading)
        for contender in contenders:
            k = key(contender, threading)
            separate_rate = ratio(res.median(k, case, f"calls_per_s_t{threads}"),
                                  res.median(floor, case, f"calls_per_s_t{threads}"))
            separate_p50 = ratio(res.median(k, case, "p50_us"), res.median(floor, case, "p50_us"))
            mine = p[contender]
            rows.append([THREADING_NAMES[threading], threads, NAMES[contender],
                         f"{p['pairs']} × {1 + len(contenders)} × {p['slice_ms']} ms",
                         num(p[FLOOR]["calls_per_s"]), num(mine["calls_per_s"]),
                         quartiles(mine["calls_per_s_ratio"]), times(separate_rate),
                         quartiles(mine.get("calls_per_cpu_s_ratio")),
                         num(p[FLOOR]["p50_us"]), num(mine["p50_us"]),
                         quartiles(mine.get("p50_ratio")), times(separate_p50) if threads == 1 else DASH])
    return table(["threading", "callers", "contender", "slices", "floor calls/s", "calls/s",
                  "÷ floor calls/s, paired", "separate", "÷ floor calls per CPU-s, paired",
                  "floor p50 µs", "p50 µs", "÷ floor p50, paired", "separate"], rows)


def session_threads(res):
    threadings = res.meta["settings"].get("threadings")
    if not threadings:  # results from before the caller-thread configuration
        ctx = res.floor_context
        return (f"intra-op {ctx.get('intra_op_threads', DASH)}, inter-op {ctx.get('inter_op_threads', DASH)} "
                "for every contender")
    return "; ".join(f"{THREADING_NAMES[t]}: intra-op {c['intra_op_threads']}, inter-op {c['inter_op_threads']}"
                     for t, c in threadings.items()) + " (every contender in each)"


def calls_range(res, contender, case):
    points = res.rss.get((contender, case)) or next(iter(res.rss.values()), {})
    calls = sorted(points)
    return f"{calls[0]:,} to {calls[-1]:,}" if len(calls) >= 2 else "first to last checkpoint"


def case_table(res, case):
    contenders = [key(c, t) for t in THREADINGS for c in MODEL_CONTENDERS if (key(c, t), case) in res.values]
    has_rss = any((c, case) in res.rss for c in contenders)
    has_caller = any(split_key(c)[1] == CALLER for c in contenders)
    header = ["contender", "p50 µs", "p99 µs", "p50 spread", "p50 ÷ floor", "p50 ÷ TF Java"]
    if has_caller:
        header += ["p50 ÷ pooled"]
    header += ["calls/s 1 thr", "2 thr", "4 thr", "B/call", "GCs"]
    if has_rss:
        first, last = calls_range(res, contenders[0], case).split(" to ") if res.rss else ("", "")
        header += [f"RSS MB @{first}", f"RSS MB @{last}", "RSS growth MB"]
    rows = []
    for c in contenders:
        contender, threading = split_key(c)
        # Ratios within the same threading; "÷ pooled" compares the contender with itself pooled.
        floor = res.median(key(FLOOR, threading), case, "p50_us")
        tf_java = res.median(key(TF_JAVA, threading), case, "p50_us")
        p50 = res.median(c, case, "p50_us")
        row = [name(c), num(p50), num(res.median(c, case, "p99_us")), percent(res.spread(c, case, "p50_us")),
               times(ratio(p50, floor)), times(ratio(p50, tf_java))]
        if has_caller:
            row += [DASH if threading == POOLED else times(ratio(p50, res.median(contender, case, "p50_us")))]
        row += [num(res.median(c, case, f"calls_per_s_t{t}")) for t in THREADS]
        b = res.median(c, case, "bytes_per_call")
        row += [byte_count(b), num(res.median(c, case, "gc_count"))]
        if has_rss:
            points = res.rss.get((c, case), {})
            calls = sorted(points)
            growth = res.rss_growth_mb(c, case)
            row += [num(mb(points.get(calls[0]))) if calls else DASH,
                    num(mb(points.get(calls[-1]))) if calls else DASH,
                    DASH if growth is None else f"{growth:+.2f}"]
        rows.append(row)
    return table(header, rows)


def eager_table(res):
    rows = []
    floor, tf_java = res.eager_median(FLOOR, "ns"), res.eager_median(TF_JAVA, "ns")
    for c in EAGER_CONTENDERS:
        ns = res.eager_median(c, "ns")
        if ns is None:
            continue
        b = res.eager_median(c, "bytes_per_call")
        rows.append([NAMES[c], num(ns), times(ratio(ns, floor)), times(ratio(ns, tf_java)),
                     byte_count(b), num(res.eager_median(c, "gc_count"))])
    return table(["contender", "ns per op (mean)", "÷ C API", "÷ TF Java", "B/op", "GCs"], rows)


INSTRUCTION_CONTENDERS = [FLOOR, "core", "tfjniFast", "tfjniMap", TF_JAVA]


def instructions_table(res, case, threading=POOLED):
    floor = res.instructions.get((key(FLOOR, threading), case))
    rows = []
    for c in INSTRUCTION_CONTENDERS:
        p = res.instructions.get((key(c, threading), case))
        if p is None:
            continue
        total, outside = p["instructions_per_call"], p["outside_session_run_per_call"]
        rows.append([NAMES[c], f"{total:,}", times(ratio(total, floor and floor["instructions_per_call"])),
                     f"{outside:,}",
                     DASH if floor is None else f"{outside - floor['outside_session_run_per_call']:+,}"])
    return table(["contender", "instructions per call", "÷ floor", "outside TF_SessionRun",
                  "binding's own (outside, − floor's)"], rows)


# The report's last part is written by hand: measurements behind design choices (docs/DESIGN.md
# points at them), from this heading to the end. A regenerated report keeps it as it was.
HAND_WRITTEN_HEADING = "## Measurements behind design choices"


def report_text(generated, md_path):
    """The report to write: the generated lines, then the hand-written part (its heading to the
    end) of the report at md_path, where it has one."""
    lines = md_path.read_text().splitlines() if md_path.exists() else []
    kept = lines[lines.index(HAND_WRITTEN_HEADING):] if HAND_WRITTEN_HEADING in lines else []
    return "\n".join(generated + kept + ([""] if kept else []))


def write_markdown(res, md_path, png_path):
    meta, ctx, jmh = res.meta, res.floor_context, res.jmh_info
    s = meta["settings"]
    tf_java = tf_java_version(meta.get("java_pom", ROOT / "bench" / "pom.xml"))
    image = os.path.relpath(png_path, md_path.parent)
    out = ["# Benchmarks", ""]
    if meta.get("quick") or meta.get("partial"):
        out += ["> **Trial run** (quick or partial): not for publication.", ""]
    out += [
        f"Generated by `scripts/bench/bench_report.py` from the raw results of one run "
        f"(`build/bench-results/{meta['started_utc']}/`, not committed); do not edit by hand above "
        f"\"{HAND_WRITTEN_HEADING[3:]}\", which is kept as written. "
        f"Regenerate everything with:",
        "",
        "```sh",
        meta["command"],
        "```",
        "",
        f"Run of {meta['started_utc']} at commit `{meta['commit']}`: {meta['rounds']} round(s), "
        f"{meta['duration_s'] // 60} min {meta['duration_s'] % 60} s in all."
        + (f" Steps that failed: {', '.join(meta['failed'])}." if meta["failed"] else ""),
        "",
        f"![latency ratio to the C API floor, throughput against caller threads]({image})",
        "",
        "## Machine and versions",
        "",
        table(["", ""], [
            ["CPU", f"{meta['cpu_model']}, {meta['cores']} cores"],
            ["memory", f"{meta['memory_kb'] / 1024 / 1024:.1f} GiB"],
            ["kernel", f"Linux {meta['kernel']}"],
            ["TensorFlow", f"{ctx.get('tensorflow', DASH)} (`libtensorflow_cc.so.2` of the tensorflow-cpu wheel, "
                           f"loaded by the floor and tfjni); models written by TensorFlow Python "
                           f"{res.models['tensorflow']}"],
            ["TensorFlow Java", f"{tf_java or DASH} (`tensorflow-core-api` + `tensorflow-core-native` "
                                f"linux-x86_64, which carries its own TensorFlow build)"],
            ["JDK", f"{jmh['vmName']} {jmh['vmVersion']}" if "vmName" in jmh else meta["jdk"]],
            ["JVM flags", jvm_flags(jmh)],
            ["JMH", jmh.get("jmhVersion", DASH)],
            ["C++", f"{meta['compiler']}; Google Benchmark {meta['google_benchmark']}"],
            ["session threads", session_threads(res)],
        ], numeric=False),
        "",
        "## Targets",
        "",
        "With TensorFlow's inter-op pool (the pooled configuration)."
        + (PAIRED_JUDGES if TargetsTable(res, POOLED).paired else ""),
        "",
        targets(res),
        "",
    ]
    if any(split_key(c)[1] == CALLER for (c, _) in res.values):
        out += [
            "## Targets with every op on the calling thread",
            "",
            "Each contender and the floor with inter-op threads -1 (`SessionOptions.runOnCallerThread()` "
            "in tfjni, the same ConfigProto for the floor and TensorFlow Java)."
            + (PAIRED_JUDGES if TargetsTable(res, CALLER).paired else ""),
            "",
            caller_targets(res),
            "",
        ]
    out += [
        "## Per model",
        "",
        "Medians over the rounds. Latency is per call at one caller thread: JMH sample mode for the "
        "Java contenders, every call timed for the floor. \"p50 spread\" is half the range of the "
        "rounds' medians around their median. Calls/s at 1, 2 and 4 caller threads (sharing one "
        "model): JMH's throughput mode and the floor's count of calls over the wall time. B/call and "
        "GCs come from JMH's gc profiler over the measured iterations of the 1-thread throughput run "
        "(`gc.alloc.rate.norm`, `gc.count`; not from sample mode, which boxes its own samples on the "
        "benchmark thread; where a call takes milliseconds, JMH's own few KB per iteration are divided "
        "over few calls and show as some hundred B/call); the floor has no Java heap. RSS is the process's VmRSS "
        "after the given number of calls on one thread (MB = 10⁶ bytes). Where a case runs few calls "
        "per round (the CNN), its p99 is close to the slowest call. Rows marked \"caller thread\" ran "
        "with inter-op threads -1 (every op on the calling thread); their ratios to the floor and to "
        "TensorFlow Java are to those in the same configuration, and \"p50 ÷ pooled\" compares the "
        "contender with itself in the pooled configuration.",
        "",
    ]
    for case in res.cases:
        out += [f"### {case}", "", case_info(res, case), "", case_table(res, case), ""]
        if any(c == case for (_, c, _) in res.paired):
            out += [
                f"#### {case}: floor, fast path and map API paired in one process",
                "",
                "The C API floor and tfjni's fast path and map API in one JVM, on the same threads and the "
                "same libtensorflow, in slices (`scripts/bench/bench-paired.sh`): per pair and Java contender, the "
                "ratio of its calls/s (summed over the callers) to the floor's in the slice next to its own "
                "and, at one caller, of its median latency to the floor's; shown as the median of the pairs with, in brackets, the middle "
                "half of them and the medians of the first and the second half of the pairs (how far the "
                "median moved during the run). \"separate\" is the same "
                "ratio from the table above, whose contenders ran in their own processes minutes apart. "
                "Calls per CPU-second divide a slice's calls by the CPU time of the whole process in it "
                "(every thread: callers, TensorFlow's pools, the JVM's own), which other processes on the "
                "machine cannot take away: the ratio of the contenders' costs per call, reported, not judged.",
                "",
                paired_table(res, case),
                "",
            ]
    for case, threading in sorted({(case, split_key(k)[1]) for (k, case) in res.instructions},
                                  key=lambda ct: (ct[0], THREADINGS.index(ct[1]))):
        calls = next(p["calls"] for (_, c), p in res.instructions.items() if c == case)
        caller_note = []
        if threading == CALLER:
            caller_note = [
                "With every op on the calling thread (inter-op -1) the calling thread also runs the "
                "kernels, which it does not in the pooled table above: compare contenders within a "
                "table, not a count here with one there.",
                "",
            ]
        out += [
            f"## Instructions per call, {case}, {THREADING_NAMES[threading]} (callgrind)",
            "",
            f"Counted, not timed, so the machine's load cannot change them: valgrind's callgrind over "
            f"{calls:,} calls after warm-up (the Java contenders' loop compiled by the JIT first), on the "
            "calling thread only, which does all of a binding's work (`scripts/bench/bench-instructions.sh`). "
            "TensorFlow's pool threads run the kernels alike for every contender and spin while idle "
            "for as long as scheduling lets them, so they are left out. \"Outside TF_SessionRun\" is "
            "what the contender spends around TensorFlow's run (its own code, the output copy, freeing "
            "the output); the last column takes the floor's share of that away: the binding's own cost. "
            "TF_SessionRun's own count moves by a few hundred instructions between runs with how long "
            "it waits for the pool.",
            "",
        ] + caller_note + [
            instructions_table(res, case, threading),
            "",
        ]
    djl = res.dir / "djl" / "djl.md"
    if djl.exists():
        out += [
            "## DJL engines",
            "",
            "DJL's `Predictor.predict` as a DJL user calls it (`float[]` in, a Translator, `float[]` "
            "out; `java/tfjni-bench` `DjlBench`) through (a) tfjni-djl and (b) DJL's own TensorFlow "
            "engine 0.36.0 on TensorFlow Java's native library 1.0.0-rc.1 (TensorFlow 2.16.1), and "
            "(c) tfjni's prepared path for reference; the same threads for all, in two threadings: "
            "\"pooled\" (2 intra-op, 2 inter-op threads) and \"caller\" (2 intra-op, inter-op -1: "
            "the session's ops run on the calling thread), "
            "measured side by side in this run (`scripts/bench/bench-djl.sh`). Latency and bytes per "
            "predict: JMH average time with the gc profiler, 1 thread; throughput at 1, 2, 4 "
            "threads, each with its own Predictor. Targets: (a)/(b) throughput ≥ 2× on mlp_b1 at "
            "1 and 4 threads, bytes per predict ≤ 0.25.",
            "",
            djl.read_text().strip(),
            "",
        ]
    batching_rounds = batching_table.complete_rounds(sorted((res.dir / "batching").glob("round-*")))
    if batching_rounds:
        out += [
            "## Batching across callers",
            "",
            "`tfjni bench --batch_max 64 --batch_delay 0 --inter_op_threads -1` per round "
            "(`scripts/bench/bench-batching.sh`): 1, 4, 16 and 64 caller threads with one row each, first "
            "unbatched (each its own run), then right after through one `BatchingPredictor` "
            "(docs/BATCHING.md). Ratios per round, then the median over the rounds "
            "(`scripts/bench/batching_table.py`).",
            "",
        ] + batching_table.markdown(batching_rounds) + [""]
    out += swaps_report.section(res.dir)
    out += [
        "## Eager dispatch",
        "",
        "One `AddV2` of two 1-element float tensors, result freed: mean time per op (JMH average-time "
        "mode; Google Benchmark for C++).",
        "",
        eager_table(res),
        "",
    ] + runtimes_section(res.dir) + [
        "## How it was measured",
        "",
        f"* {meta['rounds']} round(s); each runs every contender on every case before the next round "
        "starts, in an order rotated per round, so the machine's drift hits all contenders alike.",
        f"* JMH, one fork each: latency `-bm sample -t 1 {s['jmh_latency']}`; throughput "
        f"`-bm thrpt -prof gc {s['jmh_throughput']}`; eager `-bm avgt -prof gc {s['jmh_eager']}`.",
        f"* Every call runs the model on an input made once per thread and copies the whole output "
        f"into an array made once. The floor (`native/bench/model_floor_bench.cpp`): `TF_SessionRun`, "
        f"`memcpy`, `TF_DeleteTensor`; output checked against TensorFlow Python's "
        f"before timing; `{s['floor']}`. Eager C++: `native/bench/eager_dispatch_bench.cpp` "
        f"(`--benchmark_min_time={s['eager_min_time_s']}`).",
        f"* RSS probes: one process per contender and case, VmRSS after {s['rss_calls'].replace(',', ' and ')} "
        "calls.",
    ]
    if res.paired:
        out += [
            "* Paired, same process (`scripts/bench/bench-paired.sh`, `io.tfjni.bench.PairedCallerBench`): this "
            "machine's speed drifts by up to 1.6× between minutes, and the rounds above measure the floor "
            "and each Java contender in separate processes minutes apart, so their throughput ratios swing "
            "with the drift from round to round. The paired run puts the floor (the same C++ call, looped "
            "in C++ through JNI: `native/bench/floor_loop_jni.cpp`), tfjni's fast path and its map API in "
            "one JVM, on the same worker threads and the same libtensorflow, and runs them in turn: all "
            "threads run one contender for a slice, then all the next. A pair is three slices with the "
            "floor's in the middle; the fast path and the map API swap sides every pair, so each is compared "
            "with a floor slice next to its own and runs before it in half of the pairs, after it in the "
            "other half; warm-up pairs come first. Drift slower than a pair hits both sides of a ratio alike, so each pair's ratio is "
            "taken under one machine speed; the median of the pairs judges every latency and throughput "
            "ratio target it measured (both threading configurations), the quartiles show how much the "
            "pairs still disagree and the medians of the two halves how far the median moved in the run.",
        ]
    out += [""]
    md_path.write_text(report_text(out, md_path))


def runtimes_section(results_dir):
    """The three runtimes' section (scripts/bench/runtimes_report.py) where the run has
    scripts/bench/bench-runtimes.sh's results, else nothing."""
    import runtimes_report  # it imports this module's formatting

    runtimes = Path(results_dir) / "runtimes"
    return runtimes_report.markdown(runtimes) + [""] if (runtimes / "meta.json").exists() else []


def write_chart(res, png_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colors = {FLOOR: "#444444", "tfjniFast": "#1b9e77", "tfjniMap": "#7570b3", TF_JAVA: "#d95f02",
              "core": "#66a61e", "tfjni": "#1b9e77"}
    fig = plt.figure(figsize=(15, 8.5), layout="constrained")
    columns = max(2, len(res.cases))  # the latency bars, the eager bars; one throughput panel per case
    grid = fig.add_gridspec(2, columns)
    title = f"tfjni benchmarks: {res.meta['cpu_model']}, {res.meta['cores']} cores, medians of {res.rounds} round(s)"
    fig.suptitle(title + (" — TRIAL RUN" if res.meta.get("quick") or res.meta.get("partial") else ""))

    ax = fig.add_subplot(grid[0, : columns - 1])
    threadings = [t for t in THREADINGS if any((key(FLOOR, t), case) in res.values for case in res.cases)]
    java = [(c, t) for t in threadings for c in MODEL_CONTENDERS if c != FLOOR]
    width = 0.8 / len(java)
    for i, (c, t) in enumerate(java):
        # Each bar: the contender's median over the floor's in the same threading.
        ratios = [ratio(res.median(key(c, t), case, "p50_us"), res.median(key(FLOOR, t), case, "p50_us"))
                  for case in res.cases]
        xs = [k + (i - (len(java) - 1) / 2) * width for k in range(len(res.cases))]
        bars = ax.bar(xs, [r or 0 for r in ratios], width, label=name(key(c, t)), color=colors[c],
                      hatch="//" if t == CALLER else None, edgecolor="white" if t == CALLER else None)
        ax.bar_label(bars, labels=["" if r is None else f"{r:.2f}" for r in ratios], fontsize=7)
    ax.axhline(1.0, color=colors[FLOOR], linewidth=1, label="C API floor")
    ax.axhline(FAST_MAX_RATIO, color=colors["tfjniFast"], linestyle="--", linewidth=1, label="fast-path target")
    ax.axhline(MAP_MAX_RATIO, color=colors["tfjniMap"], linestyle=":", linewidth=1, label="map-API target")
    ax.set_xticks(range(len(res.cases)), res.cases)
    ax.set_ylabel("median latency ÷ C API floor (same threading)")
    ax.set_title("Latency per call, 1 thread (lower is better)")
    ax.legend(fontsize=8, ncols=2)

    ax = fig.add_subplot(grid[0, -1])
    eager = [c for c in EAGER_CONTENDERS if res.eager_median(c, "ns") is not None]
    values = [res.eager_median(c, "ns") for c in eager]
    bars = ax.bar(range(len(eager)), values, color=[colors[c] for c in eager])
    ax.bar_label(bars, labels=[num(v) for v in values], fontsize=8)
    ax.set_xticks(range(len(eager)), [NAMES[c].replace(" (floor)", "").replace(" from ", "\nfrom ") for c in eager],
                  fontsize=8)
    if values and max(values) > 20 * min(values):
        ax.set_yscale("log")  # else the fastest bars vanish
    ax.set_ylabel("ns per op")
    ax.set_title("Eager AddV2 dispatch")

    for k, case in enumerate(res.cases):
        ax = fig.add_subplot(grid[1, k])
        for c, threading in [(c, t) for t in THREADINGS for c in MODEL_CONTENDERS]:
            ys = [res.median(key(c, threading), case, f"calls_per_s_t{t}") for t in THREADS]
            if any(y is not None for y in ys):
                ax.plot(THREADS, [float("nan") if y is None else y for y in ys], marker="o",
                        label=name(key(c, threading)), color=colors[c],
                        linestyle="--" if threading == CALLER else "-")
        ax.set_xticks(THREADS)
        ax.set_xlabel("caller threads")
        ax.set_ylim(bottom=0)
        ax.set_title(f"{case}: throughput")
        if k == 0:
            ax.set_ylabel("calls/s")
            ax.legend(fontsize=7)
    fig.savefig(png_path, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results_dir")
    parser.add_argument("--md", type=Path, default=ROOT / "docs" / "BENCHMARKS.md")
    parser.add_argument("--png", type=Path, default=ROOT / "docs" / "benchmarks.png")
    args = parser.parse_args()
    res = Results(args.results_dir)
    write_chart(res, args.png)
    write_markdown(res, args.md, args.png)
    print(f"wrote {args.md} and {args.png}")


if __name__ == "__main__":
    main()
