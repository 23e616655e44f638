"""``make bench``: the ``weighted`` presets' kernel throughput as a ratio to ``random`` measured in the
same run (classic, 4 players, single rounds, one core; target ≥ 0.8 ×).

The lineups are timed in turn within each repeat (so a burst of load hits them alike) and the median
per CPU-second is kept. Games and turns per CPU-second are both reported: a preset's games may be
shorter or longer than random's, and turns per second is the cost of a decision.
"""

from __future__ import annotations

import statistics
import time

from unosim import engine
from unosim.game import protocol as L
from unosim.game.policies import PRESETS
from unosim.play.simulate import resolve, run_compiled

BENCH_RULES = {"match_mode": "single_round", "n_blank": 0}


def policy_rates(games: int, repeats: int, players: int = 4, own_builds: bool = True) -> list[dict]:
    """One row per lineup (``random`` first, then every preset in every seat): median games and turns
    per CPU-second and their ratios to random's. ``own_builds``: each lineup on the engine build it
    needs, as a user runs it (random's has no weighted policy compiled in); else on whichever build
    ``unosim.engine.choose`` picks."""
    lineups = ["random", *PRESETS]
    runs = {lineup: resolve("classic", players, lineup, BENCH_RULES) for lineup in lineups}
    builds = {lineup: engine.build_for(*run) if own_builds else None for lineup, run in runs.items()}
    for lineup, (rs, specs) in runs.items():   # warm-up (compiles on a cold cache)
        run_compiled(rs, players, specs, 0, 0, 100, build=builds[lineup])
    samples: dict[str, list[tuple[float, float]]] = {lineup: [] for lineup in lineups}
    for k in range(repeats):
        for lineup in lineups:
            rs, specs = runs[lineup]
            c0 = time.process_time()
            raw = run_compiled(rs, players, specs, k + 1, 0, games, build=builds[lineup])
            seconds = time.process_time() - c0
            samples[lineup].append((games / seconds, raw.rounds[:, L.RC_TURNS].sum() / seconds))
    rows = []
    for lineup in lineups:
        games_rate = statistics.median(g for g, _ in samples[lineup])
        turns_rate = statistics.median(t for _, t in samples[lineup])
        rows.append({"lineup": lineup, "games_per_cpu_s": round(games_rate), "turns_per_cpu_s": round(turns_rate)})
    for row in rows:
        row["ratio"] = round(row["games_per_cpu_s"] / rows[0]["games_per_cpu_s"], 3)
        row["turns_ratio"] = round(row["turns_per_cpu_s"] / rows[0]["turns_per_cpu_s"], 3)
    return rows


def print_rates(rows: list[dict], games: int, repeats: int) -> None:
    print(f"\nweighted presets vs random, kernel alone, classic 4p, one core ({games:,} single rounds, median "
          f"of {repeats}; target ≥ 0.80 × random games/s)")
    print(f"{'lineup':<15} {'games/CPU-s':>12} {'÷ random':>9} {'turns/CPU-s':>12} {'÷ random':>9}")
    for row in rows:
        print(f"{row['lineup']:<15} {row['games_per_cpu_s']:>12,} {row['ratio']:>9.2f} "
              f"{row['turns_per_cpu_s']:>12,} {row['turns_ratio']:>9.2f}", flush=True)
