#!/usr/bin/env python3
"""Median table of batched against unbatched over rounds of scripts/bench/bench-batching.sh.

Usage:  python3 scripts/bench/batching_table.py ROUND_DIR [ROUND_DIR...]

Each ROUND_DIR holds one run's <model>.json (tfjni bench --json with --batch_max). Per model and
number of callers it prints, as a Markdown table, the medians over the rounds of: unbatched and
batched rows/s, their ratio (the median of each round's ratio: both modes of a round ran side by
side), p50 and p99 of both, and calls per batch; then the targets with their verdicts: batched
rows/s against unbatched; the dense model's multiples at 16 and 64 callers, or 90% of the model's
own ceiling where that is lower (where the rounds hold <model>-runN.json: the model run at batch N
by 1 and by as many threads as the machine has cores, the ceiling the higher); a lone caller's p50
against unbatched, paired by round (each round's two phases ran back to back in one process, so
the median of the per-round differences judges); and the 16-caller tail latency (where the rounds
hold <model>-run16.json, its 1-thread p50).
"""
import json
import statistics
import sys
from pathlib import Path

MODELS = ["mlp", "dense", "digits"]
CALLERS = (1, 4, 16, 64)
# (model, callers, minimum batched/unbatched rows/s): the throughput targets. Batching never loses:
# at least 0.95× at every number of callers, on every model.
THROUGHPUT_TARGETS = [(model, callers, 0.95) for model in MODELS for callers in CALLERS] + [
    ("mlp", 64, 1.5)]
# (model, callers, multiple): batched rows/s ≥ multiple × unbatched, or, where the model's own
# ceiling is lower (its rows/s at full batches of that many rows on all cores,
# <model>-run<callers>.json), ≥ CEILING_SHARE of the ceiling.
CEILING_TARGETS = [("dense", 16, 4.0), ("dense", 64, 6.0)]
CEILING_SHARE = 0.9
# A lone caller's batched p50 at most this much over its unbatched p50, in ms (1 µs).
LONE_CALLER_MS = 0.001
# The tail latency target: batched p99 at this many callers of one row ≤ the delay + twice the run
# time of the largest batch they can make (this many rows).
TAIL_CALLERS = 16


def complete_rounds(dirs):
    """The round directories that hold every model's results (a failed run leaves one out)."""
    return [d for d in dirs if all((Path(d) / f"{m}.json").is_file() for m in MODELS)]


def ceiling(run):
    """A model's rows/s at full batches on all cores: the best thread count of its runN.json."""
    return max(r["items_per_second"] for r in run["results"])


def ceiling_target(dirs, model, callers, multiple, rates):
    """The line of a multiple-or-ceiling target; rates: each round's (unbatched, batched) rows/s.
    Where every round has the model's run of `callers` rows, each round's batched rows/s is held to
    the lower of multiple × its unbatched and CEILING_SHARE × its ceiling, and the median over the
    rounds of batched / that bound judges; otherwise the multiple alone."""
    ratio = statistics.median(b / u for u, b in rates)
    runs = [Path(d) / f"{model}-run{callers}.json" for d in dirs]
    who = f"{model}, {callers} callers"
    if not all(r.is_file() for r in runs):
        return (f"| {who}: batched rows/s ≥ {multiple:g}× unbatched | {ratio:.2f}× |"
                f" {'PASS' if ratio >= multiple else 'MISS'} |")
    ceilings = [ceiling(json.loads(r.read_text())) for r in runs]
    of_ceiling = statistics.median(b / c for (u, b), c in zip(rates, ceilings))
    ceiling_ratio = statistics.median(c / u for (u, b), c in zip(rates, ceilings))
    of_bound = statistics.median(b / min(multiple * u, CEILING_SHARE * c)
                                 for (u, b), c in zip(rates, ceilings))
    return (f"| {who}: batched rows/s ≥ {multiple:g}× unbatched, or ≥ {CEILING_SHARE:.0%} of the"
            f" ceiling (the model at batch {callers} on all cores) where that is lower |"
            f" {ratio:.2f}× unbatched; {of_ceiling:.0%} of the ceiling, which is"
            f" {ceiling_ratio:.2f}× unbatched | {'PASS' if of_bound >= 1 else 'MISS'} |")


def lone_caller_target(model, differences_ms):
    """The line of the lone caller's p50 target: the median over the rounds of each round's batched
    p50 minus its unbatched p50 (the two phases of one process, back to back)."""
    median = statistics.median(differences_ms)
    per_round = ", ".join(f"{d * 1000:+.1f}" for d in differences_ms)
    # In µs to a tenth: the lone caller's cost is below the table's 1 µs resolution.
    return (f"| {model}, 1 caller: batched p50 within {LONE_CALLER_MS * 1000:g} µs of unbatched,"
            f" paired by round | {median * 1000:+.1f} µs (rounds: {per_round} µs) |"
            f" {'PASS' if round(median, 9) <= LONE_CALLER_MS else 'MISS'} |")


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
    rates_of = {}
    p50_differences = {}
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
            rates_of[(model, callers)] = [(u["items_per_second"], b["items_per_second"])
                                          for u, b, c in per_round]
            p50_differences[(model, callers)] = [b["latency_ms"]["p50"] - u["latency_ms"]["p50"]
                                                 for u, b, c in per_round]
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
    for model, callers, multiple in CEILING_TARGETS:
        if (model, callers) in rates_of:
            line(ceiling_target(dirs, model, callers, multiple, rates_of[(model, callers)]))
    for model in MODELS:
        if (model, 1) in p50_differences:
            line(lone_caller_target(model, p50_differences[(model, 1)]))
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
