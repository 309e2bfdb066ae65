#!/usr/bin/env python3
"""The "Swaps" section of docs/BENCHMARKS.md: latency of the runs around version swaps against the
steady runs, over rounds of scripts/bench/bench-swaps.sh (tfjni bench --swap_every).

Usage:  python3 scripts/bench/swaps_report.py ROUND_DIR [ROUND_DIR...]

Each ROUND_DIR holds one run's swaps.json. Per caller thread count it prints, as a Markdown table,
the medians over the rounds of: the swaps, their mean time, the runs around swaps and the steady
runs with p50, p99 and max of each; then, per thread count, the verdict on "the runs around swaps
are no slower than the steady runs at p50 and p99", judged by the median over the rounds of each
round's ratio around / steady (both kinds of runs of a round were measured in the same process at
the same time). bench_report.py includes the section when a make bench run has swaps/round-*.
"""
import json
import shlex
import statistics
import sys
from pathlib import Path

HEADING = "## Swaps"
RESULTS = "swaps.json"
PERCENTILES = ("p50_ms", "p99_ms", "max_ms")
JUDGED = ("p50_ms", "p99_ms")


def complete_rounds(dirs):
    """The round directories that hold a swaps.json (a failed run leaves one out)."""
    return [Path(d) for d in dirs if (Path(d) / RESULTS).is_file()]


def load(dirs):
    """Each round's report, in the order given."""
    return [json.loads((Path(d) / RESULTS).read_text()) for d in dirs]


def phases_by_threads(reports):
    """Thread count -> that thread count's phase in every round that measured it."""
    by_threads = {}
    for report in reports:
        for phase in report["swaps"]["results"]:
            by_threads.setdefault(phase["threads"], []).append(phase)
    return dict(sorted(by_threads.items()))


def around_over_steady(phases, percentile):
    """The median over the rounds of each round's around / steady ratio at this percentile, or None
    where no round had runs of both kinds (a phase too short for a swap)."""
    ratios = [p["around_swaps"][percentile] / p["steady"][percentile] for p in phases
              if p["around_swaps"]["runs"] > 0 and p["steady"]["runs"] > 0
              and p["steady"][percentile] > 0]
    return statistics.median(ratios) if ratios else None


def judge(phases):
    """(p50 ratio, p99 ratio, verdict): PASS where both ratios are at most 1, MISS where one is
    above, "not judged" where a ratio could not be taken."""
    ratios = [around_over_steady(phases, q) for q in JUDGED]
    if any(r is None for r in ratios):
        return (*ratios, "not judged")
    return (*ratios, "PASS" if all(r <= 1.0 for r in ratios) else "MISS")


def command(report):
    """The scripts/bench/bench-swaps.sh command that reproduces one round with this round's settings."""
    swaps, config = report["swaps"], report["config"]
    settings = {"SWAP_THREADS": ",".join(str(t) for t in config["threads"]),
                "SWAP_EVERY": str(swaps["every_runs"]), "SWAP_WINDOW": f"{swaps['window_ms']:g}ms"}
    if config.get("duration_seconds") is not None:
        settings["SWAP_DURATION"] = f"{config['duration_seconds']:g}s"
    return " ".join(f"{k}={shlex.quote(v)}" for k, v in settings.items()) \
        + " scripts/bench/bench-swaps.sh OUT_DIR"


def markdown(dirs):
    """The section's lines, without its heading."""
    reports = load(dirs)
    first = reports[0]
    by_threads = phases_by_threads(reports)
    med = lambda phases, f: statistics.median(f(p) for p in phases)
    out = []
    line = out.append
    line(f"`tfjni bench --swap_every {first['swaps']['every_runs']} --inter_op_threads -1` per round"
         " (`scripts/bench/bench-swaps.sh`): a base path whose versions are the test exports `versioned_a`"
         " and `versioned_b` (a [1, 3] row in, different answers) is served through a"
         " `VersionedModel`; every that many measured runs a thread of its own publishes the next"
         " version into the bench's own base path, polls it in (load, warm-up, swap) and removes the"
         " previous one while the callers keep calling. A run is around a swap if it overlaps the"
         " time from the new version's copy to the old version's close, or"
         f" {first['swaps']['window_ms']:g} ms after it; the other runs are steady. Medians of"
         f" {len(reports)} round(s); swap ms: copy, load, warm-up and swap. Reproduce one round"
         " with:\n")
    line("```sh")
    line(command(first))
    line("```\n")
    line("| callers | swaps | swap ms | runs around / steady | p50 ms around / steady |"
         " p99 ms around / steady | max ms around / steady |")
    line("|---:|---:|---:|---:|---:|---:|---:|")
    for threads, phases in by_threads.items():
        cells = [str(threads), f"{med(phases, lambda p: p['swaps']):g}",
                 f"{med(phases, lambda p: p['swap_ms_mean']):.1f}",
                 f"{med(phases, lambda p: p['around_swaps']['runs']):,.0f} /"
                 f" {med(phases, lambda p: p['steady']['runs']):,.0f}"]
        for q in PERCENTILES:
            cells.append(f"{med(phases, lambda p: p['around_swaps'][q]):.3f} /"
                         f" {med(phases, lambda p: p['steady'][q]):.3f}")
        line("| " + " | ".join(cells) + " |")
    line("\n| target | measured: around ÷ steady, p50 and p99 | verdict |")
    line("|---|---|---|")
    for threads, phases in by_threads.items():
        p50, p99, verdict = judge(phases)
        who = "1 caller" if threads == 1 else f"{threads} callers"
        measured = "no runs around a swap" if verdict == "not judged" \
            else f"{p50:.2f}× and {p99:.2f}×"
        line(f"| {who}: runs around swaps no slower than steady runs at p50 and p99 | {measured} |"
             f" {verdict} |")
    return out


def section(results_dir):
    """The section with its heading, where a make bench run has swaps/round-*, else nothing."""
    rounds = complete_rounds(sorted((Path(results_dir) / "swaps").glob("round-*")))
    return [HEADING, ""] + markdown(rounds) + [""] if rounds else []


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    rounds = complete_rounds(sys.argv[1:])
    if not rounds:
        raise SystemExit(f"no {RESULTS} in {' '.join(sys.argv[1:])}")
    print("\n".join(markdown(rounds)))
