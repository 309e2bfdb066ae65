#!/usr/bin/env python3
"""Judges a soak run (scripts/test/soak.sh): reads OUT_DIR/samples.csv and meta.properties,
writes OUT_DIR/summary.md and OUT_DIR/soak.png, prints the summary, exits 1 on failure.

Definitions (also written into the summary):
  D  work duration; W  warm-up = min(120 s, D/4), excluded from every judgement;
  L  window = min(120 s, (D - W)/2), so the two windows never overlap;
  reference = median over [W, W+L), final = median over [D-L, D] (per-second samples).
  RSS passes if final - reference <= 5 MiB.
  Live native objects pass if every per-second sample while working stays <= the bound
  (live after loading the models + 64 per worker) and, once the work has stopped and everything
  is closed, the count equals the baseline taken before any model was loaded.
"""
import csv
import os
import re
import statistics
import sys

RSS_LIMIT_MIB = 5.0
WORKERS_TEXT = (
    "Workers: `digits-reused` (digits CNN, batch 8, one allocated input filled in place and one "
    "reused RunResult, outputs checked against TensorFlow Python's hold-out probabilities), "
    "`digits-fresh-eager` (new input tensor and result per run, outputs through eager argMax/topK "
    "in a sub-manager, labels checked), `map-api` (multi `add`/`scale` and strings `transform` "
    "with heap-allocated strings through the map API, checked by arithmetic), `eager-math` "
    "(matMul, softmax, transpose, concat in sub-managers, checked by arithmetic), "
    "`eager-predictor` (eager arrays fed to the multi `any_rank` predictor through `toTensor`, its "
    "outputs back into eager ops). Each worker also closes and re-creates its predictor and "
    "root manager every few hundred to few thousand operations.")


def read_meta(path):
    meta = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            key, _, value = line.rstrip("\n").partition("=")
            meta[key] = value
    return meta


def read_samples(path):
    with open(path, encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        for key in row:
            if key != "phase":
                row[key] = float(row[key])
    return rows


def median_in(rows, key, lo, hi):
    values = [r[key] for r in rows if lo <= r["t"] < hi]
    return statistics.median(values) if values else float("nan"), len(values)


def nmt_growth(out):
    """JVM areas whose committed memory changed between warm-up's end and the work's end (KiB)."""
    path = os.path.join(out, "nmt-diff.txt")
    if not os.path.exists(path):
        return []
    pattern = re.compile(r"^-\s+(.+?) \(reserved=\d+KB(?: [+-]\d+KB)?, committed=\d+KB(?: ([+-]\d+)KB)?")
    changes = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = pattern.match(line)
            if m and m.group(2):
                changes.append((m.group(1).strip(), int(m.group(2))))
    return sorted(changes, key=lambda c: -abs(c[1]))


def machine():
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores"


def main(out):
    meta = read_meta(os.path.join(out, "meta.properties"))
    samples = read_samples(os.path.join(out, "samples.csv"))
    start = float(meta["work_start_s"])
    stop = float(meta["work_stop_s"])
    for s in samples:
        s["t"] = s["t_s"] - start  # seconds since the work started
        s["rss_mib"] = s["rss_kib"] / 1024
        s["heap_mib"] = s["heap_used_bytes"] / 2**20
        # RSS beyond the JVM's own committed native memory (Native Memory Tracking), if sampled.
        jvm = s.get("jvm_committed_kib", -1)
        s["jvm_mib"] = jvm / 1024 if jvm is not None and jvm >= 0 else float("nan")
        s["outside_mib"] = s["rss_mib"] - s["jvm_mib"]
    run = [s for s in samples if s["phase"] == "run"]
    after = [s for s in samples if s["phase"] == "after"]
    duration = stop - start
    warmup = min(120.0, duration / 4)
    window = min(120.0, (duration - warmup) / 2)
    ref_lo, ref_hi = warmup, warmup + window
    fin_lo, fin_hi = duration - window, duration + 1e-9

    rss_ref, n_ref = median_in(run, "rss_mib", ref_lo, ref_hi)
    rss_fin, n_fin = median_in(run, "rss_mib", fin_lo, fin_hi)
    growth = rss_fin - rss_ref
    post = [s for s in run if s["t"] >= warmup]
    # Least-squares slope after warm-up, for information (MiB per hour).
    if len(post) > 2:
        xs = [s["t"] for s in post]
        ys = [s["rss_mib"] for s in post]
        mx, my = statistics.fmean(xs), statistics.fmean(ys)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        slope_per_hour = slope * 3600
    else:
        slope_per_hour = float("nan")
    jvm_ref, _ = median_in(run, "jvm_mib", ref_lo, ref_hi)
    jvm_fin, _ = median_in(run, "jvm_mib", fin_lo, fin_hi)
    out_ref, _ = median_in(run, "outside_mib", ref_lo, ref_hi)
    out_fin, _ = median_in(run, "outside_mib", fin_lo, fin_hi)
    heap_ref, _ = median_in(run, "heap_mib", ref_lo, ref_hi)
    heap_fin, _ = median_in(run, "heap_mib", fin_lo, fin_hi)

    baseline = int(meta["live_baseline"])
    loaded = int(meta["live_loaded"])
    bound = int(meta["live_bound"])
    live_max = int(max(s["live_total"] for s in run)) if run else -1
    live_ref, _ = median_in(run, "live_total", ref_lo, ref_hi)
    live_fin, _ = median_in(run, "live_total", fin_lo, fin_hi)
    live_end = int(after[-1]["live_total"]) if after else -1
    errors = int(meta["errors"])
    ops = int(meta["ops_total"])

    checks = [
        (f"RSS growth after warm-up <= {RSS_LIMIT_MIB:g} MiB", growth <= RSS_LIMIT_MIB,
         f"{growth:+.2f} MiB (median {rss_ref:.1f} -> {rss_fin:.1f} MiB)"),
        ("live native objects bounded while working", 0 <= live_max <= bound,
         f"max {live_max} <= bound {bound}"),
        ("live native objects back to the baseline after the work", live_end == baseline,
         f"{live_end} after, baseline {baseline}"),
        ("every result right, no unexpected exception", errors == 0, f"{errors} errors"),
        ("enough samples in both windows", n_ref >= 10 and n_fin >= 10,
         f"{n_ref} and {n_fin} samples"),
    ]
    passed = all(ok for _, ok, _ in checks)

    # A soak driver other than SoakDriver names itself and its work (SwapSoakDriver does).
    command = meta.get("command", "scripts/test/soak.sh")
    work = meta.get("description", WORKERS_TEXT)
    lines = [
        f"# {meta.get('title', 'Soak test')}",
        "",
        f"`{command} {float(meta['minutes']):g}`: **{'PASS' if passed else 'FAIL'}**. "
        f"{duration / 60:.1f} minutes of {meta.get('work', 'mixed predictor and eager work')} in "
        f"{meta['workers']} threads ({ops:,} checked operations), sampled every second.",
        "",
        "| check | result | value |",
        "|---|---|---|",
    ]
    lines += [f"| {name} | {'pass' if ok else '**FAIL**'} | {value} |" for name, ok, value in checks]
    lines += [
        "",
        "| measure | value |",
        "|---|---|",
        f"| warm-up (excluded) | first {warmup:.0f} s |",
        f"| reference window (after warm-up) | {ref_lo:.0f}-{ref_hi:.0f} s, {n_ref} samples |",
        f"| final window | {fin_lo:.0f}-{duration:.0f} s, {n_fin} samples |",
        f"| RSS median, reference / final window | {rss_ref:.1f} / {rss_fin:.1f} MiB |",
        f"| RSS first sample after warm-up / last sample | "
        f"{post[0]['rss_mib'] if post else float('nan'):.1f} / "
        f"{run[-1]['rss_mib'] if run else float('nan'):.1f} MiB |",
        f"| RSS max while working | {max(s['rss_mib'] for s in run):.1f} MiB |",
        f"| RSS trend after warm-up (least squares) | {slope_per_hour:+.2f} MiB/hour |",
        f"| JVM's own committed memory (NMT), median reference / final window | "
        f"{jvm_ref:.1f} / {jvm_fin:.1f} MiB ({jvm_fin - jvm_ref:+.2f}) |",
        f"| RSS beyond the JVM's own (TensorFlow, tfjni, C allocator), reference / final | "
        f"{out_ref:.1f} / {out_fin:.1f} MiB ({out_fin - out_ref:+.2f}) |",
        f"| Java heap used, median reference / final window | {heap_ref:.1f} / {heap_fin:.1f} MiB |",
        f"| live native objects: baseline / after loading models / bound | "
        f"{baseline} / {loaded} / {bound} |",
        f"| live native objects: median reference / final window, max | "
        f"{live_ref:.0f} / {live_fin:.0f}, {live_max} |",
        f"| live native objects after the work, models closed | {live_end} "
        f"({meta.get('live_after_detail', '')}) |",
    ]
    growth_by_area = nmt_growth(out)
    if growth_by_area:
        lines += ["| JVM areas that changed after warm-up (NMT committed) | " + ", ".join(
            f"{name} {kib:+,} KiB" for name, kib in growth_by_area[:6]) + " |"]
    lines += [f"| operations: {key[4:]} | {int(value):,} |"
              for key, value in meta.items() if key.startswith("ops.")]
    lines += [
        f"| machine | {machine()} (shared with other work during the run) |",
        f"| TensorFlow / Java | {meta['tensorflow']} / {meta['java']} |",
        f"| JVM options | `{meta['jvm_args']}` |",
        "",
        work,
        "",
        "Definitions: warm-up W = min(120 s, D/4) of the work duration D; window L = min(120 s, "
        "(D - W)/2); reference = median over [W, W+L), final = median over [D-L, D]. RSS is "
        "VmRSS from /proc/self/status; \"beyond the JVM's own\" subtracts the JVM's committed native "
        "memory as Native Memory Tracking reports it (heap, code cache, metaspace, thread stacks, "
        "GC), leaving TensorFlow's, tfjni's and the C allocator's; the Java heap is fixed and pre-touched (-Xms = -Xmx, "
        "AlwaysPreTouch) so that heap growth cannot pass for native growth. The live-object bound is "
        f"the count after loading the models plus {meta['live_per_worker']} per worker (a worker holds far fewer at a "
        "time; a leak of one object per operation crosses it within a second).",
        "",
        "![RSS, heap and live native objects over time](soak.png)",
        "",
    ]
    if errors:
        lines += ["First errors:", "", "```", meta.get("first_errors", ""), "```", ""]
    summary = "\n".join(lines)
    with open(os.path.join(out, "summary.md"), "w", encoding="utf-8") as f:
        f.write(summary)
    chart(samples, run, warmup, (ref_lo, ref_hi), (fin_lo, duration), bound, baseline,
          os.path.join(out, "soak.png"))
    print(summary)
    return 0 if passed else 1


def chart(samples, run, warmup, ref, fin, bound, baseline, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    timed = [s for s in samples if s["phase"] != "baseline"]
    minutes = [s["t"] / 60 for s in timed]
    fig, axes = plt.subplots(5, 1, figsize=(10, 12), sharex=True)
    series = [
        ("RSS (MiB)", [s["rss_mib"] for s in timed]),
        ("RSS beyond the\nJVM's own (MiB)", [s["outside_mib"] for s in timed]),
        ("Java heap used (MiB)", [s["heap_mib"] for s in timed]),
        ("live native objects", [s["live_total"] for s in timed]),
    ]
    for ax, (label, values) in zip(axes, series):
        ax.plot(minutes, values, linewidth=0.8)
        ax.set_ylabel(label)
    live = axes[3]
    live.axhline(baseline, color="gray", linestyle=":", linewidth=0.8, label="baseline")
    top = max(s["live_total"] for s in timed)
    if bound <= top * 1.5:
        live.axhline(bound, color="red", linestyle="--", linewidth=0.8, label="bound")
    else:
        live.set_ylim(0, top * 1.5)  # the bound is far above: keep the data readable
        live.set_title(f"live-object bound {bound}: above the chart", fontsize=8, loc="right")
    live.legend(loc="upper left", fontsize=8)
    # Throughput per second from the cumulative operation count.
    rates = [(b["t"] / 60, (b["ops_total"] - a["ops_total"]) / max(b["t"] - a["t"], 1e-9))
             for a, b in zip(run, run[1:])]
    axes[4].plot([r[0] for r in rates], [r[1] for r in rates], linewidth=0.6)
    axes[4].set_ylabel("operations / s")
    axes[4].set_xlabel("minutes since the work started (after: models closed)")
    for ax in axes:
        ax.axvspan(0, warmup / 60, color="gray", alpha=0.15)
        ax.axvspan(ref[0] / 60, ref[1] / 60, color="green", alpha=0.1)
        ax.axvspan(fin[0] / 60, fin[1] / 60, color="blue", alpha=0.1)
        ax.grid(alpha=0.3)
    axes[0].set_title("tfjni soak: warm-up (gray), reference (green) and final (blue) windows")
    fig.tight_layout()
    fig.savefig(path, dpi=90)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: soak_report.py OUT_DIR", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
