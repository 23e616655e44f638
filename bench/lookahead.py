"""``make bench``: the lookahead policy's throughput (the target of issue 43 item 7), called by :mod:`bench.run`.

One ``lookahead`` seat at its default budget, every other seat ``random``, single rounds, one core:
games per CPU-second for every variant at 2-6 players, the median of :data:`REPEATS` calls (about a
minute in all). The target is
``TARGET_GAMES_PER_S`` games/s for classic at 4 players.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from unosim import engine
from unosim.game.rules import FAMILIES
from unosim.play.simulate import resolve, run_compiled

LINEUP = "lookahead,random*"
TARGET_GAMES_PER_S = 350
PLAYERS = (2, 3, 4, 5, 6)
GAMES = 200   # per call: at >= 350 games/s about half a second
#: timed calls per cell (seeds 1..REPEATS): one call took 71 and 75 games per CPU-s on a slow minute of
#: this shared host where calls of 200 games measured 127-131 a minute later
REPEATS = 3


def lookahead_rate(variant: str, players: int, games: int = GAMES) -> dict[str, Any]:
    """Games per wall second and per CPU-second of one lookahead seat against random (a warm-up first):
    the median of :data:`REPEATS` timed calls of ``games`` games each."""
    rules = {"match_mode": "single_round", **({"n_blank": 0} if variant == "classic" else {})}
    rs, specs = resolve(variant, players, LINEUP, rules)
    build = engine.build_for(rs, specs)   # the call's own build, as a user runs it
    run_compiled(rs, players, specs, 0, 0, 2, build=build)
    walls, cpus = [], []
    for seed in range(1, REPEATS + 1):
        t0, c0 = time.perf_counter(), time.process_time()
        run_compiled(rs, players, specs, seed, 0, games, build=build)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return {"variant": variant, "players": players, "games": games, "repeats": REPEATS,
            "games_per_s": round(games / statistics.median(walls), 1),
            "games_per_cpu_s": round(games / statistics.median(cpus), 1)}


def bench_lookahead() -> dict[str, Any]:
    """Print and return the table, with whether classic at 4 players meets the target."""
    print(f"\nlookahead at its default budget, one seat vs random ({LINEUP!r}), one core, {GAMES} single rounds "
          f"a call, median of {REPEATS}")
    print(f"{'variant':<10} " + " ".join(f"{f'{p} players':>10}" for p in PLAYERS) + "   (games per CPU-s)")
    rows = []
    for variant in FAMILIES:
        cells = [lookahead_rate(variant, players) for players in PLAYERS]
        rows += cells
        print(f"{variant:<10} " + " ".join(f"{c['games_per_cpu_s']:>10,.0f}" for c in cells), flush=True)
    target = next(r for r in rows if (r["variant"], r["players"]) == ("classic", 4))["games_per_cpu_s"]
    met = target >= TARGET_GAMES_PER_S
    print(f"target: classic 4 players ≥ {TARGET_GAMES_PER_S} games/s per core: {target:,.0f} "
          f"({'met' if met else 'NOT met'})")
    return {"lineup": LINEUP, "rates": rows, "target_games_per_cpu_s": TARGET_GAMES_PER_S, "target_met": met}
