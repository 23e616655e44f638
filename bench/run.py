"""``make bench``: throughput and memory figures, each as a ratio to a baseline measured in the same run.

Shared machines are noisy, so absolute figures do not compare across runs; ratios taken within one run
do. The baseline is single-core :func:`unosim.simulate` throughput (tables included) on classic,
4 players, ``random``, single rounds, in calls of 100,000 games after a warm-up call. Printed and written as JSON (``--json``, default
``data/bench-results.json``) with the commit, so a regression can be compared across commits:

* kernel throughput (the compiled rounds alone, single core, per CPU-second) per variant and player
  count, ÷ the baseline, and classic 4p ÷ the C reference implementation (``bench/c_reference``,
  built with ``cc -O3 -march=native``: numba compiles for the host CPU with LLVM at -O3, so that is
  the fair yardstick) on the same core, in the same run;
* study throughput (end to end to parquet, ``workers`` processes) ÷ (workers × baseline): jobs of
  100,000 games like the baseline's calls, workers started and warm like the baseline's process (their
  start is timed and printed apart);
* ``unosim analyze`` of that study in a fresh process: games/s ÷ baseline, and peak memory;
* the ``weighted`` presets' kernel throughput ÷ ``random``'s (classic 4p; :mod:`bench.policies`);
* peak memory and time of a large ``simulate`` call in a fresh process, and the first call's time;
* the ``lookahead`` policy's games per CPU-second, one seat at its default budget, every variant at
  2-6 players (:mod:`bench.lookahead`).

Every figure is measured on the engine build its call needs (``unosim.engine.build_for``), each
compiled once in a child process first, so the bench measures code loaded from the cache, as users
run it. The default run takes under 3 minutes on 2 cores once those builds are compiled. ``--full`` (``make bench-full``) adds the long runs:
a 1,000,000-round ``simulate``, a 10,000,000-game study and its analyses, greedy lineups, and
no_mercy's round endings over a million rounds per player count.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

import unosim
from bench import lookahead as bench_lookahead
from bench import policies as bench_policies
from bench import study as bench_study
from unosim import engine
from unosim.game import protocol as L
from unosim.game.rules import FAMILIES
from unosim.game.version import commit, machine
from unosim.play.simulate import resolve, run_compiled
from unosim.store.atomic import write_text_atomic

SINGLE = {"match_mode": "single_round"}
DEFAULT_JSON = Path("data") / "bench-results.json"
C_REFERENCE = Path(__file__).resolve().parent / "c_reference"
C_FLAGS = ("-O3", "-march=native")


def rules_for(variant: str) -> dict:
    return {**SINGLE, **({"n_blank": 0} if variant == "classic" else {})}


def _median_rate(run, games: int, repeats: int) -> dict[str, float]:
    """Median games per wall second and per CPU second of ``run(seed)`` over ``repeats`` calls."""
    wall, cpu = [], []
    for k in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        run(k + 1)
        wall.append(games / (time.perf_counter() - t0))
        cpu.append(games / (time.process_time() - c0))
    return {"games_per_s": round(statistics.median(wall)), "games_per_cpu_s": round(statistics.median(cpu))}


def simulate_rate(variant: str, players: int, lineup: str, games: int, repeats: int) -> dict[str, float]:
    """Single-core throughput of simulate() with its three tables built, after a warm-up call."""
    rules = rules_for(variant)

    def run(seed: int) -> None:
        res = unosim.simulate(variant, players=players, games=games, seed=seed, lineup=lineup, rules=rules)
        res.rounds, res.seats, res.matches  # noqa: B018 (the tables are part of the measured work)

    unosim.simulate(variant, players=players, games=100, seed=0, lineup=lineup, rules=rules)
    return _median_rate(run, games, repeats)


def kernel_rate(variant: str, players: int, lineup: str, games: int, repeats: int) -> dict[str, float]:
    """Single-core throughput of the compiled rounds alone (no tables) on the call's own engine build,
    after a warm-up call."""
    rs, specs = resolve(variant, players, lineup, rules_for(variant))
    build = engine.build_for(rs, specs)
    run_compiled(rs, players, specs, 0, 0, 100, build=build)
    return _median_rate(lambda seed: run_compiled(rs, players, specs, seed, 0, games, build=build), games,
                        repeats)


def c_reference_rate(rounds: int, repeats: int) -> dict[str, Any] | None:
    """Rounds per CPU-second of the C reference (classic, 4 players, random, single rounds), or None
    without a C compiler. Built with ``cc -O3 -march=native`` (:data:`C_FLAGS`) into a temporary
    directory."""
    source = C_REFERENCE / "classic_rounds.c"
    if not source.exists():
        return None
    with tempfile.TemporaryDirectory(prefix="unosim-cref-") as tmp:
        binary = Path(tmp) / "classic_rounds"
        try:
            subprocess.run(["cc", *C_FLAGS, "-o", str(binary), str(source)], check=True, capture_output=True)
        except (OSError, subprocess.CalledProcessError) as exc:
            print(f"C reference not built ({exc}); its ratio is skipped", file=sys.stderr)
            return None
        rates, summary = [], {}
        for k in range(repeats):
            out = subprocess.run([str(binary), str(rounds), str(k + 1)], check=True, capture_output=True, text=True)
            summary = json.loads(out.stdout)
            rates.append(summary["rounds"] / summary["seconds"])
    return {"games_per_cpu_s": round(statistics.median(rates)), "mean_turns": summary["mean_turns"],
            "mean_points": summary["mean_points"], "flags": " ".join(C_FLAGS)}


_CHILD = """
import json, resource, sys, time
t0 = time.perf_counter()
import unosim
res = unosim.simulate("classic", players=4, games={games}, seed=1, rules={{"n_blank": 0, "match_mode": "single_round"}})
res.rounds, res.seats, res.matches
print(json.dumps({{"seconds": time.perf_counter() - t0,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""


def fresh_process(games: int) -> dict:
    """Run one simulate() call in a new interpreter; its wall time (import included) and peak RSS."""
    out = subprocess.run([sys.executable, "-c", _CHILD.format(games=games)], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def bench_builds(full: bool) -> list[engine.Build]:
    """The engine builds the bench's calls run on: every family with the basic policies (kernel, study,
    baseline), classic with the weighted presets, and every family with a lookahead seat."""
    calls = [(variant, lineup) for variant in FAMILIES for lineup in ("random", bench_lookahead.LINEUP)]
    calls += [("classic", "by_colour")]
    builds = {engine.build_for(*resolve(variant, 4, lineup, rules_for(variant))) for variant, lineup in calls}
    return sorted(builds, key=lambda b: (b.size, b.key))


def compile_in_child(builds: list[engine.Build]) -> None:
    """Compile the builds into the cache in a child process (announced there, on this stderr)."""
    keys = [b.key for b in builds]
    code = ("import sys\nfrom unosim import engine\n"
            "for key in sys.argv[1:]:\n    engine.kernel(engine.Build.from_key(key))\n")
    subprocess.run([sys.executable, "-c", code, *keys], check=True)


def no_mercy_endings(rounds: int) -> dict[int, dict[str, int]]:
    """How no_mercy rounds end (random, single rounds), per player count."""
    out = {}
    for players in range(2, 7):
        rs, lineup = resolve("no_mercy", players, "random", SINGLE)
        ends = run_compiled(rs, players, lineup, 2024, 0, rounds).rounds[:, L.RC_END]
        counts = np.bincount(ends, minlength=len(L.END_NAMES))
        out[players] = {name: int(c) for name, c in zip(L.END_NAMES, counts, strict=True)}
    return out


def study_and_analyses(games: int, workers: int, repeats: int) -> dict[str, Any]:
    """The study's wall-clock rate ÷ (workers × the baseline's), and its games per CPU-second (parent
    and workers) ÷ the baseline's; the same study from the command line; the analyses' wall-clock rate ÷
    the baseline's. Each ratio takes a baseline measured just before it: this host's speed drifts by tens
    of percent within minutes, and a baseline from the start of the bench made one run's ratios 1.5× too
    high."""
    def baseline() -> dict[str, float]:
        return simulate_rate("classic", 4, "random", bench_study.BENCH_CHUNK, repeats)

    with tempfile.TemporaryDirectory(prefix="unosim-bench-") as tmp:
        near = baseline()
        run = bench_study.bench_study_run(tmp, games, n_jobs=workers)
        run["baseline_games_per_s"] = near["games_per_s"]
        run["ratio"] = round(run["games_per_s"] / (workers * near["games_per_s"]), 3)
        run["cpu_ratio"] = round(games / run["cpu_s"] / near["games_per_cpu_s"], 3)
        analyses = bench_study.bench_analyses(run.pop("path"))
        analyses["games_per_s"] = round(games / analyses["seconds"])
        analyses["ratio"] = round(analyses["games_per_s"] / near["games_per_s"], 3)
        near = baseline()
        cli = bench_study.bench_study_cli(tmp, games, n_jobs=workers)
        run["cli"] = {**cli, "baseline_games_per_s": near["games_per_s"],
                      "ratio": round(cli["games_per_s"] / (workers * near["games_per_s"]), 3)}
    return {"study": run, "analyses": analyses}


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], capture_output=True, text=True, check=True,
                              cwd=Path(__file__).parent).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="add the long runs (make bench-full)")
    parser.add_argument("--no-study", action="store_true", help="skip the study and analyses")
    parser.add_argument("--workers", type=int, default=2, help="study workers (default 2)")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help=f"results file (default {DEFAULT_JSON})")
    args = parser.parse_args(argv)
    full = args.full
    games, repeats = (200_000, 5) if full else (40_000, 3)
    start = time.perf_counter()
    # Compile into the disk cache in a child first, so this process loads the engine from it: code numba
    # has just compiled measured 5-17% slower than the same code loaded from the cache.
    compile_in_child(bench_builds(full))
    results: dict[str, Any] = {
        "commit": commit(), "dirty": bool(_git("status", "--porcelain", "--untracked-files=no")),
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "mode": "full" if full else "default",
        "unosim": unosim.__version__, "engine": unosim.ENGINE_VERSION, "python": platform.python_version(),
        "cpus": os.cpu_count(), "machine": machine(), "load_average_at_start": list(os.getloadavg()),
    }

    base = simulate_rate("classic", 4, "random", bench_study.BENCH_CHUNK, repeats)
    baseline = base["games_per_s"]
    results["baseline"] = {"what": "simulate() incl. tables, classic 4p random single rounds, one core", **base}
    print(f"unosim {unosim.__version__} ({results['commit'][:10] or 'no git'}): baseline = single-core simulate() "
          f"classic 4p random single rounds = {baseline:,} games/s ({base['games_per_cpu_s']:,} per CPU-s)")

    cref = c_reference_rate(games * 10, repeats)
    results["c_reference"] = cref
    kernel = []
    print(f"\nkernel alone, one core ({games:,} single rounds, median of {repeats})")
    print(f"{'variant':<10} {'players':>7} {'lineup':<14} {'games/s':>10} {'per CPU-s':>10} {'÷ baseline':>10} {'÷ C':>6}")
    for variant in FAMILIES:
        for lineup in ("random", "greedy_points") if full else ("random",):
            for players in (2, 4, 6):
                rate = kernel_rate(variant, players, lineup, games, repeats)
                row = {"variant": variant, "players": players, "lineup": lineup, **rate,
                       "ratio": round(rate["games_per_cpu_s"] / base["games_per_cpu_s"], 3)}
                if cref and (variant, players, lineup) == ("classic", 4, "random"):
                    row["ratio_to_c"] = round(rate["games_per_cpu_s"] / cref["games_per_cpu_s"], 3)
                kernel.append(row)
                to_c = f"{row['ratio_to_c']:>6.2f}" if "ratio_to_c" in row else f"{'':>6}"
                print(f"{variant:<10} {players:>7} {lineup:<14} {row['games_per_s']:>10,} {row['games_per_cpu_s']:>10,} "
                      f"{row['ratio']:>10.2f} {to_c}",
                      flush=True)
    results["kernel"] = kernel
    if cref:
        print(f"C reference (bench/c_reference, built with cc {cref['flags']}), classic 4p random single "
              f"rounds: {cref['games_per_cpu_s']:,} games per CPU-s, measured in this run")

    # five repeats at least: a lineup's median of three was hit by two bursts of load in 2 of 12 runs
    policy_repeats = max(repeats, 5)
    results["policies"] = bench_policies.policy_rates(games, policy_repeats)
    bench_policies.print_rates(results["policies"], games, policy_repeats)
    results["lookahead"] = bench_lookahead.bench_lookahead()

    big_games = 1_000_000 if full else 200_000
    first = fresh_process(10)
    big = fresh_process(big_games)
    results["memory"] = {"first_call_s": round(first["seconds"], 2), "simulate_games": big_games,
                         "simulate_s": round(big["seconds"], 2), "simulate_peak_mb": round(big["peak_mb"])}
    print(f"\nfresh process: first call {first['seconds']:.2f} s (import included); {big_games:,}-game simulate() "
          f"{big['seconds']:.1f} s, peak memory {big['peak_mb']:,.0f} MB")

    if full:
        results["no_mercy_endings"] = endings = no_mercy_endings(1_000_000)
        print("\nno_mercy round endings over 1,000,000 rounds per player count (random, single rounds)")
        for players, counts in endings.items():
            print(f"  {players} players: " + ", ".join(f"{k} {v:,}" for k, v in counts.items()), flush=True)

    if not args.no_study:
        study_games = bench_study.BENCH_GAMES if full else bench_study.QUICK_GAMES
        out = study_and_analyses(study_games, args.workers, repeats)
        results.update(out)
        run, analyses = out["study"], out["analyses"]
        print(f"\nstudy of {study_games:,} games on {args.workers} ready workers (threads, the engine loaded): {run['games_per_s']:,} games/s "
              f"= {run['ratio']:.2f} × ({args.workers} × baseline, re-measured just before: "
              f"{run['baseline_games_per_s']:,} games/s); per CPU-s {run['cpu_ratio']:.2f} × baseline; "
              f"{run['wall_s']:.1f} s, {run['rounds_bytes_per_row']:.2f} bytes per round row; starting the "
              f"workers took {run['workers_start_s']:.1f} s more")
        cli = run["cli"]
        print(f"the same study from the command line (`unosim study run`, a fresh process: interpreter, workers and "
              f"engine load included): {cli['wall_s']:.1f} s = {cli['games_per_s']:,} games/s = {cli['ratio']:.2f} × "
              f"({args.workers} × baseline, re-measured just before: {cli['baseline_games_per_s']:,} games/s)")
        print(f"unosim analyze of it (fresh process): {analyses['seconds']:.1f} s = {analyses['games_per_s']:,} "
              f"games/s = {analyses['ratio']:.2f} × baseline; peak memory {analyses['peak_rss_gb']:.2f} GB")

    results["seconds"] = round(time.perf_counter() - start, 1)
    results["peak_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    write_text_atomic(args.json, json.dumps(results, indent=2) + "\n")
    print(f"\n{results['seconds']:.0f} s; results in {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
