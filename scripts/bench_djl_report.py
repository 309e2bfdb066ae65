"""The table of scripts/bench-djl.sh: DJL's Predictor.predict through tfjni-djl (a) and DJL's
TensorFlow engine (b), tfjni's prepared path (c); latency, bytes per call, throughput at 1/2/4
threads, and the ratios the issue sets targets for ((a) >= 2x (b) throughput on the MLP at 1 and
4 threads; (a) <= 1/4 of (b)'s bytes per predict), per threading ("pooled": inter-op pool of 2;
"caller": inter-op -1). Reads OUT_DIR/<contender>-<threading>-<mode>-t<n>.json.

  python scripts/bench_djl_report.py OUT_DIR
"""
import json
import sys
from pathlib import Path

THREADINGS = ["pooled", "caller"]
SPECS = (("avgt", 1), ("thrpt", 1), ("thrpt", 2), ("thrpt", 4))
CONTENDERS = [("tfjniDjl", "(a) tfjni-djl"), ("djlTf", "(b) DJL TensorFlow 0.36.0"),
              ("tfjniFast", "(c) tfjni prepared")]


def results(out, label, threading, mode, threads):
    path = out / ("%s-%s-%s-t%d.json" % (label, threading, mode, threads))
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
    threadings = []
    for threading in THREADINGS:
        found = False
        for label, _ in CONTENDERS:
            for mode, threads in SPECS:
                r = results(out, label, threading, mode, threads)
                cases.update(r)
                found = found or bool(r)
                table[(label, threading, mode, threads)] = r
        if found:
            threadings.append(threading)

    def value(label, threading, mode, threads, case, key="score"):
        return table[(label, threading, mode, threads)].get(case, {}).get(key)

    def cell(label, threading, mode, threads, case, key="score", fmt="%.1f"):
        v = value(label, threading, mode, threads, case, key)
        return (fmt % v) if v is not None else "-"

    print("| case | threading | contender | latency µs | bytes/predict | GCs | ops/s 1 thr "
          "| ops/s 2 thr | ops/s 4 thr |")
    print("|---|---|---|---|---|---|---|---|---|")
    for case in sorted(cases):
        for threading in threadings:
            for label, name in CONTENDERS:
                print("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                    case, threading, name, cell(label, threading, "avgt", 1, case),
                    cell(label, threading, "avgt", 1, case, "bytes", "%.0f"),
                    cell(label, threading, "avgt", 1, case, "gcs", "%.0f"),
                    cell(label, threading, "thrpt", 1, case, fmt="%.0f"),
                    cell(label, threading, "thrpt", 2, case, fmt="%.0f"),
                    cell(label, threading, "thrpt", 4, case, fmt="%.0f")))
    print()
    print("| case | threading | (a)/(b) ops/s 1 thr | (a)/(b) ops/s 2 thr | (a)/(b) ops/s 4 thr "
          "| (a)/(b) bytes/predict |")
    print("|---|---|---|---|---|---|")
    for case in sorted(cases):
        for threading in threadings:
            ratios = []
            for threads in (1, 2, 4):
                a = value("tfjniDjl", threading, "thrpt", threads, case)
                b = value("djlTf", threading, "thrpt", threads, case)
                ratios.append("%.2fx" % (a / b) if a and b else "-")
            a = value("tfjniDjl", threading, "avgt", 1, case, "bytes")
            b = value("djlTf", threading, "avgt", 1, case, "bytes")
            ratios.append("%.2f" % (a / b) if a and b else "-")
            print("| %s | %s | %s |" % (case, threading, " | ".join(ratios)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
