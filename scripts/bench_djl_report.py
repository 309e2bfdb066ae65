"""The table of scripts/bench-djl.sh: DJL's Predictor.predict through tfjni-djl (a) and DJL's
TensorFlow engine (b), tfjni's prepared path (c); latency, bytes per call, throughput at 1/2/4
threads, and the ratios the issue sets targets for ((a) >= 2x (b) throughput on the MLP at 1 and
4 threads; (a) <= 1/4 of (b)'s bytes per predict). Reads OUT_DIR/<contender>-<mode>-t<n>.json.

  python scripts/bench_djl_report.py OUT_DIR
"""
import json
import sys
from pathlib import Path

CONTENDERS = [("tfjniDjl", "(a) tfjni-djl"), ("djlTf", "(b) DJL TensorFlow 0.36.0"),
              ("tfjniFast", "(c) tfjni prepared")]


def results(out, label, mode, threads):
    path = out / ("%s-%s-t%d.json" % (label, mode, threads))
    if not path.exists():
        return {}
    by_case = {}
    for r in json.loads(path.read_text()):
        case = r["params"]["caseName"]
        metric = r["primaryMetric"]
        scale = 1e6 if metric["scoreUnit"] == "ops/us" else 1.0  # throughput as ops/s
        entry = {"score": metric["score"] * scale}
        norm = r.get("secondaryMetrics", {}).get("gc.alloc.rate.norm")
        if norm:
            entry["bytes"] = norm["score"]
        gcs = r.get("secondaryMetrics", {}).get("gc.count")
        if gcs:
            entry["gcs"] = gcs["score"]
        by_case[case] = entry
    return by_case


def main(argv):
    out = Path(argv[1])
    table = {}
    cases = set()
    for label, _ in CONTENDERS:
        for mode, threads in (("avgt", 1), ("thrpt", 1), ("thrpt", 2), ("thrpt", 4)):
            r = results(out, label, mode, threads)
            cases.update(r)
            table[(label, mode, threads)] = r
    print("| case | contender | latency µs | bytes/predict | GCs | ops/s 1 thr | ops/s 2 thr "
          "| ops/s 4 thr |")
    print("|---|---|---|---|---|---|---|---|")

    def cell(label, mode, threads, case, key="score", fmt="%.1f"):
        v = table[(label, mode, threads)].get(case, {}).get(key)
        return (fmt % v) if v is not None else "-"

    for case in sorted(cases):
        for label, name in CONTENDERS:
            print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                case, name, cell(label, "avgt", 1, case), cell(label, "avgt", 1, case, "bytes", "%.0f"),
                cell(label, "avgt", 1, case, "gcs", "%.0f"),
                cell(label, "thrpt", 1, case, fmt="%.0f"), cell(label, "thrpt", 2, case, fmt="%.0f"),
                cell(label, "thrpt", 4, case, fmt="%.0f")))
    print()
    print("| case | (a)/(b) ops/s 1 thr | (a)/(b) ops/s 2 thr | (a)/(b) ops/s 4 thr "
          "| (a)/(b) bytes/predict |")
    print("|---|---|---|---|---|")
    for case in sorted(cases):
        ratios = []
        for threads in (1, 2, 4):
            a = table[("tfjniDjl", "thrpt", threads)].get(case, {}).get("score")
            b = table[("djlTf", "thrpt", threads)].get(case, {}).get("score")
            ratios.append("%.2fx" % (a / b) if a and b else "-")
        a = table[("tfjniDjl", "avgt", 1)].get(case, {}).get("bytes")
        b = table[("djlTf", "avgt", 1)].get(case, {}).get("bytes")
        ratios.append("%.2f" % (a / b) if a and b else "-")
        print("| %s | %s |" % (case, " | ".join(ratios)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
