"""Tests of bench_report.py's targets: which measurement judges a latency or throughput ratio to the
C API floor, and the batching targets of batching_table.py. The results are written by hand below,
so every expected ratio is their arithmetic.
Run: python3 scripts/test_bench_report.py"""

import json
import pathlib
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import batching_table  # noqa: E402
import bench_report  # noqa: E402

# Median latency of one round, µs: (threading, contender) -> p50. Ratios to the floor in the same
# threading: pooled fast 48/40 = 1.20 (> 1.10), map 52/40 = 1.30 (> 1.25); caller fast
# 10.6/10 = 1.06 (> 1.05), map 11/10 = 1.10 (≤ 1.15), TensorFlow Java 25/10 = 2.50.
SEPARATE_P50 = {
    ("pooled", "c_api"): 40.0, ("pooled", "tfjniFast"): 48.0, ("pooled", "tfjniMap"): 52.0,
    ("caller", "c_api"): 10.0, ("caller", "tfjniFast"): 10.6, ("caller", "tfjniMap"): 11.0,
    ("caller", "tfJava"): 25.0,
}
# Calls/s at 2 callers, caller threading: fast 80,000 / 100,000 = 0.80 (< 0.90).
SEPARATE_CALLS_T2 = {"c_api": 100_000.0, "tfjniFast": 80_000.0, "tfJava": 30_000.0}


def ratios(median, q1=None, q3=None, halves=None):
    return {"q1": q1 or median - 0.02, "median": median, "q3": q3 or median + 0.02,
            "halves": halves or [median - 0.01, median + 0.01]}


def summary(threading, threads, fast, map_api):
    """A PairedCallerBench summary line; fast and map_api: (p50 ratio, calls/s ratio)."""
    line = {"kind": "summary", "case": "mlp_b1", "threading": threading, "threads": threads, "pairs": 100,
            "slice_ms": 100, "c_api": {"calls_per_s": 1000.0, "calls_per_cpu_s": 1000.0,
                                       "p50_us": 10.0 if threads == 1 else None}}
    for name, (p50_ratio, rate_ratio) in (("tfjniFast", fast), ("tfjniMap", map_api)):
        line[name] = {"calls_per_s": 1000.0 * rate_ratio, "calls_per_cpu_s": 1000.0 * rate_ratio,
                      "p50_us": 10.0 * p50_ratio if threads == 1 else None,
                      "calls_per_s_ratio": ratios(rate_ratio), "calls_per_cpu_s_ratio": ratios(rate_ratio),
                      "p50_ratio": ratios(p50_ratio) if threads == 1 else None}
    return line


# The paired run disagrees with the separate processes in both directions: pooled fast 1.05 and map
# 1.20 pass where the separate ratios miss; caller map 1.18 misses where the separate 1.10 passes;
# caller fast calls/s at 2 callers 0.95 passes where the separate 0.80 misses.
PAIRED = {
    "pooled": [summary("pooled", 1, (1.05, 0.95), (1.20, 0.85)), summary("pooled", 2, (1.0, 0.97), (1.0, 0.9))],
    "caller": [summary("caller", 1, (1.03, 0.97), (1.18, 0.85)), summary("caller", 2, (1.0, 0.95), (1.0, 0.9))],
}


def write_results(root, paired=None):
    """A results directory of one round; paired: threading -> summary lines, or None for no paired run."""
    models = root / "models"
    models.mkdir()
    (models / "bench_models.json").write_text(json.dumps({"tensorflow": "2.18.0", "cases": [
        {"name": "mlp_b1", "model": "mlp", "input_dtype": "float32", "input_shape": [1, 16]}]}))
    (root / "meta.json").write_text(json.dumps({"models": str(models), "settings": {"rss_cases": []}}))
    round_dir = root / "round-1"
    round_dir.mkdir()
    for threading, inter_op in (("pooled", 2), ("caller", -1)):
        floor = [{"label": "mlp_b1", "threads": 1, "calls_per_s": 1e6 / SEPARATE_P50[(threading, "c_api")],
                  "p50_us": SEPARATE_P50[(threading, "c_api")], "p99_us": 100.0}]
        if threading == "caller":
            floor.append({"label": "mlp_b1", "threads": 2, "calls_per_s": SEPARATE_CALLS_T2["c_api"],
                          "p50_us": 0.0, "p99_us": 0.0})
        (round_dir / f"floor-{threading}-mlp_b1.json").write_text(json.dumps(
            {"context": {"inter_op_threads": inter_op}, "benchmarks": floor}))
    for (threading, contender), p50 in SEPARATE_P50.items():
        if contender == "c_api":
            continue
        jmh = {"benchmark": f"io.tfjni.bench.ModelBench.{contender}",
               "params": {"caseName": "mlp_b1", "threading": threading}}
        (round_dir / f"latency-{threading}-{contender}-mlp_b1.json").write_text(json.dumps([dict(
            jmh, primaryMetric={"scoreUnit": "us/op", "scorePercentiles": {"50.0": p50, "99.0": 2 * p50}})]))
        if threading == "caller" and contender in SEPARATE_CALLS_T2:
            (round_dir / f"throughput-t2-{threading}-{contender}-mlp_b1.json").write_text(json.dumps([dict(
                jmh, threads=2, primaryMetric={"score": SEPARATE_CALLS_T2[contender], "scoreUnit": "ops/s"})]))
    if paired:
        (root / "paired").mkdir()
        for threading, lines in paired.items():
            (root / "paired" / f"paired-{threading}-mlp_b1.jsonl").write_text(
                "".join(json.dumps(line) + "\n" for line in lines))
    return bench_report.Results(root)


def rows(markdown):
    """A markdown table's rows, each a list of its cells (the header row included)."""
    return [[c.strip() for c in line.strip("|").split("|")] for line in markdown.splitlines()
            if line.startswith("|") and not line.startswith("|---")]


def row(markdown, target_start):
    (found,) = [r for r in rows(markdown) if r[0].startswith(target_start)]
    return found


FAST_LATENCY = "tfjni fast path: mlp_b1 median latency"
MAP_LATENCY = "tfjni map API: mlp_b1 median latency"


class InTempDir(unittest.TestCase):
    """A test with its own temporary directory, self.root."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = pathlib.Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()


class BenchReportTargetsTest(InTempDir):
    def test_paired_medians_judge_the_pooled_latency_targets(self):
        table = bench_report.targets(write_results(self.root, PAIRED))
        self.assertEqual(rows(table)[0], ["target", "paired, same process: median [quartiles; halves] of the pairs",
                                          "separate processes: median over rounds", "result"])
        fast = row(table, FAST_LATENCY)
        self.assertEqual(fast[1], "1.05× [1.03–1.07; halves 1.04, 1.06] (10.5 vs 10.0 µs, 100 pairs)")
        self.assertEqual(fast[2], "1.20× (48.0 vs 40.0 µs)")
        self.assertEqual(fast[3], "PASS (paired)")
        self.assertEqual(row(table, MAP_LATENCY)[1:], [
            "1.20× [1.18–1.22; halves 1.19, 1.21] (12.0 vs 10.0 µs, 100 pairs)", "1.30× (52.0 vs 40.0 µs)",
            "PASS (paired)"])

    def test_a_paired_miss_is_a_miss_where_the_separate_ratio_passes(self):
        table = bench_report.caller_targets(write_results(self.root, PAIRED))
        self.assertEqual(row(table, MAP_LATENCY)[2:], ["1.10× (11.0 vs 10.0 µs)", "**MISS** (paired)"])
        self.assertEqual(row(table, FAST_LATENCY)[3], "PASS (paired)")
        rate = row(table, "tfjni fast path: mlp_b1 calls/s at 2 callers")
        self.assertEqual(rate[1], "0.95× [0.93–0.97; halves 0.94, 0.96] (950 vs 1,000, 100 pairs)")
        self.assertEqual(rate[2:], ["0.80× (80,000 vs 100,000)", "PASS (paired)"])
        java = row(table, "TensorFlow Java: mlp_b1 median latency")
        self.assertEqual(java[1:], ["—", "2.50× (25.0 vs 10.0 µs)", "reported"])

    def test_without_a_paired_run_the_separate_medians_judge_as_before(self):
        res = write_results(self.root)
        table = bench_report.targets(res)
        self.assertEqual(rows(table)[0], ["target", "measured (median over rounds)", "result"])
        self.assertEqual(row(table, FAST_LATENCY)[1:], ["1.20× (48.0 vs 40.0 µs)", "**MISS**"])
        self.assertEqual(row(table, MAP_LATENCY)[1:], ["1.30× (52.0 vs 40.0 µs)", "**MISS**"])
        caller = bench_report.caller_targets(res)
        self.assertEqual(row(caller, FAST_LATENCY)[1:], ["1.06× (10.6 vs 10.0 µs)", "**MISS**"])
        self.assertEqual(row(caller, MAP_LATENCY)[1:], ["1.10× (11.0 vs 10.0 µs)", "PASS"])

    def test_a_paired_run_of_one_threading_leaves_the_other_to_the_separate_medians(self):
        res = write_results(self.root, {"caller": PAIRED["caller"]})
        self.assertEqual(row(bench_report.targets(res), FAST_LATENCY)[1:], ["1.20× (48.0 vs 40.0 µs)", "**MISS**"])
        self.assertEqual(row(bench_report.caller_targets(res), FAST_LATENCY)[3], "PASS (paired)")

    def test_a_paired_run_of_the_fast_path_alone_leaves_the_map_api_to_the_separate_medians(self):
        # The summary lines written before the map API was paired: the fast path's ratios at the top.
        old = []
        for line in PAIRED["pooled"]:
            fast = line["tfjniFast"]
            old.append({k: v for k, v in line.items() if k != "tfjniMap"} | {
                "tfjniFast": {m: fast[m] for m in ("calls_per_s", "calls_per_cpu_s", "p50_us")},
                **{r: fast[r] for r in bench_report.PAIRED_RATIOS}})
        table = bench_report.targets(write_results(self.root, {"pooled": old}))
        self.assertEqual(row(table, FAST_LATENCY)[3], "PASS (paired)")
        self.assertEqual(row(table, MAP_LATENCY)[1:], ["—", "1.30× (52.0 vs 40.0 µs)", "**MISS** (separate)"])

    def test_the_paired_table_shows_each_java_contender_against_the_floor(self):
        res = write_results(self.root, PAIRED)
        table = rows(bench_report.paired_table(res, "mlp_b1"))
        self.assertEqual([r[:3] for r in table[1:]], [
            ["pooled", "1", "tfjni fast path"], ["pooled", "1", "tfjni map API"],
            ["pooled", "2", "tfjni fast path"], ["pooled", "2", "tfjni map API"],
            ["caller thread", "1", "tfjni fast path"], ["caller thread", "1", "tfjni map API"],
            ["caller thread", "2", "tfjni fast path"], ["caller thread", "2", "tfjni map API"]])
        pooled_map = table[2]
        self.assertEqual(pooled_map[3], "100 × 3 × 100 ms")
        self.assertEqual(pooled_map[11:], ["1.20× [1.18–1.22; halves 1.19, 1.21]", "1.30×"])


def write_batching_round(directory, run16_p50_ms):
    """One round of bench-batching.sh at 1 and 16 callers; run16_p50_ms: model -> the 16-row run's p50
    (ms), a model left out having no 16-row run in this round."""
    directory.mkdir(parents=True)
    for model in batching_table.MODELS:
        def result(threads, rate, p50, p99):
            return {"threads": threads, "items_per_second": rate, "latency_ms": {"p50": p50, "p99": p99}}
        # 1 caller: unbatched p50 8.7 µs, batched 9.2 µs. 16 callers: batched p99 1.1 ms.
        (directory / f"{model}.json").write_text(json.dumps({
            "results": [result(1, 1000.0, 0.0087, 0.02), result(16, 1000.0, 0.5, 2.0)],
            "batched_results": [result(1, 1000.0, 0.0092, 0.02), result(16, 4000.0, 0.6, 1.1)],
            "batching": {"delay_ms": 0.0, "max_calls": 64, "leader": "thread", "concurrent_batches": 1,
                         "calls_per_batch": [1.0, 15.0]}}))
        if model in run16_p50_ms:
            (directory / f"{model}-run16.json").write_text(json.dumps(
                {"results": [result(1, 1.0, run16_p50_ms[model], 1.0)]}))


class BatchingTargetsTest(InTempDir):
    def target_rows(self, runs16):
        dirs = []
        for i, run16 in enumerate(runs16):
            write_batching_round(self.root / f"round-{i}", run16)
            dirs.append(self.root / f"round-{i}")
        return {r[0]: r[1:] for r in rows("\n".join(batching_table.markdown(dirs))) if "callers:" in r[0] or "caller:" in r[0]}

    def test_the_tail_target_is_twice_the_median_16_row_run(self):
        # dense: runs of 0.5, 0.6 and 0.7 ms, median 0.6, bound 1.2 ≥ p99 1.1: PASS.
        # mlp: 0.4, 0.5 and 0.9 ms, median 0.5, bound 1.0 < 1.1: MISS.
        targets = self.target_rows([{"dense": 0.5, "mlp": 0.9}, {"dense": 0.6, "mlp": 0.4},
                                    {"dense": 0.7, "mlp": 0.5}])
        tail = "batched p99 ≤ delay + 2 × the run of 16 rows"
        self.assertEqual(targets[f"dense, 16 callers: {tail} (its p50 alone: 0.600 ms)"],
                         ["1.100 ms against 1.200 ms", "PASS"])
        self.assertEqual(targets[f"mlp, 16 callers: {tail} (its p50 alone: 0.500 ms)"],
                         ["1.100 ms against 1.000 ms", "MISS"])

    def test_a_model_without_a_16_row_run_in_every_round_is_not_judged(self):
        targets = self.target_rows([{"dense": 0.5}, {}])
        self.assertFalse([t for t in targets if "p99" in t])

    def test_the_single_caller_target_shows_a_sub_microsecond_difference(self):
        targets = self.target_rows([{}])
        self.assertEqual(targets["mlp, 1 caller: batched p50 ≤ unbatched p50 + delay (0 ms)"],
                         ["9.2 µs against 8.7 µs", "MISS"])


if __name__ == "__main__":
    unittest.main()
