#!/usr/bin/env python3
"""Median table of batched against unbatched over rounds of scripts/bench-batching.sh.

Usage:  python3 scripts/batching_table.py ROUND_DIR [ROUND_DIR...]

Each ROUND_DIR holds one run's <model>.json (tfjni bench --json with --batch_max). Per model and
number of callers it prints, as a Markdown table, the medians over the rounds of: unbatched and
batched rows/s, their ratio (the median of each round's ratio: both modes of a round ran side by
side), p50 and p99 of both, and calls per batch; then the throughput, single-caller latency and
16-caller tail latency targets with their verdicts (the last where the rounds hold
<model>-run16.json, the model run alone at batch 16).
"""
import json
import statistics
import sys
from pathlib import Path

MODELS = ["mlp", "dense", "digits"]
# (model, callers, minimum batched/unbatched rows/s): the throughput targets.
THROUGHPUT_TARGETS = [("dense", 16, 4.0), ("mlp", 64, 1.5)] + [
    ("digits", callers, 0.95) for callers in (1, 4, 16, 64)]
# The tail latency target: batched p99 at this many callers of one row ≤ the delay + twice the run
# time of the largest batch they can make (this many rows).
TAIL_CALLERS = 16


def complete_rounds(dirs):
    """The round directories that hold every model's results (a failed run leaves one out)."""
    return [d for d in dirs if all((Path(d) / f"{m}.json").is_file() for m in MODELS)]


def markdown(dirs):
    """The tables and the targets' verdicts, as Markdown lines."""
    out = []
    line = out.append
    rounds = [{m: json.loads((Path(d) / f"{m}.json").read_text()) for m in MODELS} for d in dirs]
    first = rounds[0][MODELS[0]]
    delay_ms = first["batching"]["delay_ms"]
    line(f"Medians of {len(rounds)} round(s); batching: up to {first['batching']['max_calls']}"
          f" calls per run, delay {delay_ms:g} ms, {first['batching']['leader']} leads,"
          f" {first['batching']['concurrent_batches']} batch at once.\n")
    line("| model | callers | unbatched rows/s | batched rows/s | batched / unbatched |"
          " p50 ms unbatched / batched | p99 ms unbatched / batched | calls per batch |")
    line("|---|---:|---:|---:|---:|---:|---:|---:|")
    ratio_of = {}
    p50_of = {}
    p99_of = {}
    for model in MODELS:
        callers_list = [r["threads"] for r in rounds[0][model]["results"]]
        for i, callers in enumerate(callers_list):
            per_round = []
            for rnd in rounds:
                rep = rnd[model]
                u = rep["results"][i]
                b = rep["batched_results"][i]
                per_round.append((u, b, rep["batching"]["calls_per_batch"][i]))
            med = lambda f: statistics.median(f(u, b, c) for u, b, c in per_round)
            u_rate = med(lambda u, b, c: u["items_per_second"])
            b_rate = med(lambda u, b, c: b["items_per_second"])
            ratio = med(lambda u, b, c: b["items_per_second"] / u["items_per_second"])
            u50 = med(lambda u, b, c: u["latency_ms"]["p50"])
            b50 = med(lambda u, b, c: b["latency_ms"]["p50"])
            u99 = med(lambda u, b, c: u["latency_ms"]["p99"])
            b99 = med(lambda u, b, c: b["latency_ms"]["p99"])
            calls = med(lambda u, b, c: c)
            ratio_of[(model, callers)] = ratio
            p50_of[(model, callers)] = (u50, b50)
            p99_of[(model, callers)] = b99
            line(f"| {model} | {callers} | {u_rate:,.0f} | {b_rate:,.0f} | {ratio:.2f}× |"
                  f" {u50:.3f} / {b50:.3f} | {u99:.3f} / {b99:.3f} | {calls:.1f} |")
    line("\n| target | measured | verdict |")
    line("|---|---|---|")
    for model, callers, floor in THROUGHPUT_TARGETS:
        ratio = ratio_of.get((model, callers))
        if ratio is None:
            continue
        who = "1 caller" if callers == 1 else f"{callers} callers"
        line(f"| {model}, {who}: batched rows/s ≥ {floor:g}× unbatched |"
              f" {ratio:.2f}× | {'PASS' if ratio >= floor else 'MISS'} |")
    for model in MODELS:
        if (model, 1) in p50_of:
            u50, b50 = p50_of[(model, 1)]
            # In µs to a tenth: the lone caller's cost is below the table's 1 µs resolution.
            line(f"| {model}, 1 caller: batched p50 ≤ unbatched p50 + delay ({delay_ms:g} ms) |"
                  f" {b50 * 1000:.1f} µs against {(u50 + delay_ms) * 1000:.1f} µs |"
                  f" {'PASS' if b50 <= u50 + delay_ms else 'MISS'} |")
    for model in MODELS:
        runs = [Path(d) / f"{model}-run{TAIL_CALLERS}.json" for d in dirs]
        if (model, TAIL_CALLERS) not in p99_of or not all(r.is_file() for r in runs):
            continue
        run_ms = statistics.median(
            json.loads(r.read_text())["results"][0]["latency_ms"]["p50"] for r in runs)
        bound = delay_ms + 2 * run_ms
        b99 = p99_of[(model, TAIL_CALLERS)]
        line(f"| {model}, {TAIL_CALLERS} callers: batched p99 ≤ delay + 2 × the run of"
              f" {TAIL_CALLERS} rows (its p50 alone: {run_ms:.3f} ms) | {b99:.3f} ms against"
              f" {bound:.3f} ms | {'PASS' if b99 <= bound else 'MISS'} |")
    return out


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    print("\n".join(markdown(sys.argv[1:])))
