"""The table of scripts/bench/bench-djl.sh: DJL's Predictor.predict through tfjni-djl (a) and DJL's
TensorFlow engine (b), tfjni's prepared path (c); latency, bytes per call, throughput at 1/2/4
threads, and the ratios the issue sets targets for ((a) >= 2x (b) throughput on the MLP at 1 and
4 threads; (a) <= 1/4 of (b)'s bytes per predict), per threading ("pooled": inter-op pool of 2;
"caller": inter-op -1). Reads OUT_DIR/<contender>-<threading>-<mode>-t<n>.json and the repeated
runs <...>-t<n>-r<round>.json: a cell measured several times shows the median, a ratio the median
of the per-round ratios (the contenders of a round ran next to each other). With
OUT_DIR/instructions/instructions.jsonl (scripts/bench/bench-instructions.sh), also the instructions per
predict on the calling thread.

  python scripts/bench/bench_djl_report.py OUT_DIR
"""
import json
import statistics
import sys
from pathlib import Path

THREADINGS = ["pooled", "caller"]
SPECS = (("avgt", 1), ("thrpt", 1), ("thrpt", 2), ("thrpt", 4))
CONTENDERS = [("tfjniDjl", "(a) tfjni-djl"), ("djlTf", "(b) DJL TensorFlow 0.36.0"),
              ("tfjniFast", "(c) tfjni prepared")]


def round_paths(out, label, threading, mode, threads):
    """The first run's file, then the repeated rounds' in round order (those that exist)."""
    stem = "%s-%s-%s-t%d" % (label, threading, mode, threads)
    paths = [out / (stem + ".json")]
    repeats = {}
    for path in out.glob(stem + "-r*.json"):
        suffix = path.name[len(stem) + 2:-len(".json")]
        if suffix.isdigit():
            repeats[int(suffix)] = path
    return [p for p in paths if p.exists()] + [repeats[k] for k in sorted(repeats)]


def results(out, label, threading, mode, threads):
    by_case = {}
    for path in round_paths(out, label, threading, mode, threads):
        for r in json.loads(path.read_text()):
            case = r["params"]["caseName"]
            metric = r["primaryMetric"]
            scale = 1e6 if metric["scoreUnit"] == "ops/us" else 1.0  # throughput as ops/s
            entry = by_case.setdefault(case, {"runs": []})
            entry["runs"].append(metric["score"] * scale)
            norm = r.get("secondaryMetrics", {}).get("gc.alloc.rate.norm")
            if norm and "bytes" not in entry:
                entry["bytes"] = norm["score"]
            gcs = r.get("secondaryMetrics", {}).get("gc.count")
            if gcs and "gcs" not in entry:
                entry["gcs"] = gcs["score"]
    for entry in by_case.values():
        entry["score"] = statistics.median(entry["runs"])
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
    repeated = []
    for case in sorted(cases):
        for threading in threadings:
            ratios = []
            for threads in (1, 2, 4):
                a = value("tfjniDjl", threading, "thrpt", threads, case, "runs") or []
                b = value("djlTf", threading, "thrpt", threads, case, "runs") or []
                if a and b:
                    paired = [x / y for x, y in zip(a, b)] if len(a) == len(b) else [
                        statistics.median(a) / statistics.median(b)]
                    ratios.append("%.2fx" % statistics.median(paired))
                    if len(paired) > 1:
                        repeated.append((case, threading, threads, paired))
                else:
                    ratios.append("-")
            a = value("tfjniDjl", threading, "avgt", 1, case, "bytes")
            b = value("djlTf", threading, "avgt", 1, case, "bytes")
            ratios.append("%.2f" % (a / b) if a and b else "-")
            print("| %s | %s | %s |" % (case, threading, " | ".join(ratios)))
    if repeated:
        print()
        print("Measured in several rounds, the contenders alternating: ops/s are medians, (a)/(b) the "
              "median of the rounds' ratios (%s)." % "; ".join(
                  "%s %s %d thr: %s" % (case, threading, threads,
                                        " ".join("%.2f" % r for r in paired))
                  for case, threading, threads, paired in repeated))
    instructions_table(out / "instructions" / "instructions.jsonl")
    return 0


def instructions_table(path):
    """Callgrind's counts per predict, if bench-djl.sh counted them (counted, not timed)."""
    if not path.exists():
        return
    counts = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    by_key = {(c["contender"], c["case"], c["threading"]): c for c in counts}
    print()
    print("Instructions per predict on the calling thread (callgrind over %s calls after warm-up; "
          "`scripts/bench/bench-instructions.sh`): counted, not timed, so the machine's load cannot move "
          "them. With inter-op -1 the calling thread does all of a predict's work except the garbage "
          "collector's. Every contender runs with explicit null checks here (under valgrind the JVM "
          "crashes at an implicit one, which both DJL engines meet)."
          % ", ".join(sorted({"{:,}".format(c["calls"]) for c in counts})))
    print()
    print("| case | threading | contender | instructions | in TF_SessionRun | outside it "
          "| (b) ÷ this |")
    print("|---|---|---|---|---|---|---|")
    for case, threading in sorted({(c["case"], c["threading"]) for c in counts}):
        b = by_key.get(("djlTf", case, threading))
        for label, name in CONTENDERS:
            c = by_key.get((label, case, threading))
            if c is None:
                continue
            total, outside = c["instructions_per_call"], c["outside_session_run_per_call"]
            ratio = "%.2fx" % (b["instructions_per_call"] / total) if b else "-"
            print(f"| {case} | {threading} | {name} | {total:,} | {total - outside:,} "
                  f"| {outside:,} | {ratio} |")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
