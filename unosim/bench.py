"""``make bench``: engine throughput, memory and start-up, printed as tables.

Throughput is measured through :func:`unosim.simulate` (tables included), single core, after a warm-up
call, as the median of several runs; rounds per CPU-second (``time.process_time``) are printed beside
wall-clock rounds per second because shared machines are noisy. Peak memory and first-call time are
measured in fresh subprocesses; no_mercy's round endings are counted over a million rounds per player
count. ``python -m unosim.bench --quick`` runs a shorter version.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time

import numpy as np

import unosim
from unosim import protocol as L
from unosim.rules import FAMILIES
from unosim.simulate import resolve, run_compiled

SINGLE = {"match_mode": "single_round"}


def throughput(variant: str, players: int, lineup: str, games: int, repeats: int) -> tuple[float, float]:
    """(median rounds/s wall, median rounds per CPU-second) of simulate() incl. building its tables."""
    rules = {**SINGLE, **({"n_blank": 0} if variant == "classic" else {})}
    unosim.simulate(variant, players=players, games=100, seed=0, lineup=lineup, rules=rules)
    wall, cpu = [], []
    for k in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        res = unosim.simulate(variant, players=players, games=games, seed=k + 1, lineup=lineup, rules=rules)
        res.rounds, res.seats, res.matches  # noqa: B018 (the tables are part of the measured work)
        wall.append(games / (time.perf_counter() - t0))
        cpu.append(games / (time.process_time() - c0))
    return statistics.median(wall), statistics.median(cpu)


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and repeats")
    parser.add_argument("--no-study", action="store_true", help="skip the end-to-end study benchmark")
    args = parser.parse_args(argv)
    games, repeats = (50_000, 3) if args.quick else (200_000, 5)

    print(f"unosim {unosim.__version__}, engine {unosim.ENGINE_VERSION}: single-core throughput through "
          f"simulate() ({games:,} rounds, single_round, median of {repeats}; classic without blanks)")
    print(f"{'variant':<10} {'players':>7} {'lineup':<14} {'rounds/s':>12} {'rounds/CPU-s':>13}")
    for variant in FAMILIES:
        for lineup in ("random", "greedy_points"):
            for players in (2, 4, 6):
                wall, cpu = throughput(variant, players, lineup, games, repeats)
                print(f"{variant:<10} {players:>7} {lineup:<14} {wall:>12,.0f} {cpu:>13,.0f}", flush=True)

    rounds = 100_000 if args.quick else 1_000_000
    print(f"\nno_mercy round endings over {rounds:,} rounds per player count (random, single_round)")
    print(f"{'players':>7} {'won':>9} {'knockout':>9} {'stalemate':>9} {'truncated':>9}")
    for players in range(2, 7):
        rs, lineup = resolve("no_mercy", players, "random", SINGLE)
        ends = run_compiled(rs, players, lineup, 2024, 0, rounds).rounds[:, L.RC_END]
        counts = np.bincount(ends, minlength=len(L.END_NAMES))
        print(f"{players:>7} " + " ".join(f"{int(c):>9,}" for c in counts), flush=True)

    fresh_process(10)  # make sure the disk cache is warm before timing a first call
    first = fresh_process(10)
    print(f"\nfirst call in a fresh process (numba cache warm, import included): {first['seconds']:.2f} s")
    big = fresh_process(1_000_000)
    print(f"1,000,000-round simulate() (classic, 4 players): {big['seconds']:.1f} s, "
          f"peak memory {big['peak_mb']:,.0f} MB")

    if not args.no_study:
        from unosim import bench_study
        bench_study.main(quick=args.quick)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory of this benchmark process: {peak:,.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
