"""Is the pruned expert as strong as the full search, and how much faster? (issue 43 item 7)

The expert (``lookahead`` at its defaults, pruning on) against the same search without pruning
(``lookahead(prune=0)``: every option searched in every world, the expert before pruning, decision for
decision), in one duplicate tournament: classic (108-card deck) at 4 players, each policy two seats,
every deal under both rotations of the seats (ABAB, BABA), seed 1. Its throughput: games per CPU-second
of each, one seat against three ``random`` ones, the same seeds, in this process.

    python analyses/expert_speed.py --deals 20000 [--n-jobs 2] [--out docs/results/expert_speed.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import polars as pl

from unosim import engine
from unosim.game.policies import parse_policy
from unosim.game.version import commit, machine
from unosim.play.simulate import resolve, run_compiled
from unosim.store.atomic import write_text_atomic
from unosim.strategies.tournaments import tournament

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "docs" / "results" / "expert_speed.json"
EXPERT = "lookahead"
FULL_SEARCH = "lookahead(prune=0)"
RULES = {"n_blank": 0}
PLAYERS = 4
SEED = 1
RATE_GAMES = 2_000   # per policy, in calls of RATE_CALL games alternating between the two policies
RATE_CALL = 200


def rates(games: int = RATE_GAMES) -> dict[str, float]:
    """Games per CPU-second of each policy in one seat against three random ones (single rounds): the
    same games (seeds) for both, timed call by call in turn, so load on the machine hits both alike."""
    runs = {}
    for policy in (EXPERT, FULL_SEARCH):
        rs, specs = resolve("classic", PLAYERS, f"{policy},random*", {"match_mode": "single_round", **RULES})
        build = engine.build_for(rs, specs)
        run_compiled(rs, PLAYERS, specs, 0, 0, 2, build=build)   # loaded (or compiled) before timing
        runs[policy] = (rs, specs, build)
    cpu = dict.fromkeys(runs, 0.0)
    for first in range(0, games, RATE_CALL):
        for policy, (rs, specs, build) in runs.items():
            start = time.process_time()
            run_compiled(rs, PLAYERS, specs, SEED, first, RATE_CALL, build=build)
            cpu[policy] += time.process_time() - start
    return {policy: games / seconds for policy, seconds in cpu.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    speed = rates()
    print(f"games per CPU-second: {EXPERT} {speed[EXPERT]:.0f}, {FULL_SEARCH} {speed[FULL_SEARCH]:.0f}", flush=True)
    expert, full = parse_policy(EXPERT).label, parse_policy(FULL_SEARCH).label
    result = tournament("classic", players=PLAYERS, policies=[EXPERT, FULL_SEARCH], games=args.deals, seed=SEED,
                        rules=RULES, seating="rotations", n_jobs=args.n_jobs)
    h2h = result.head_to_head.row(by_predicate=(pl.col("a") == expert) & (pl.col("b") == full), named=True)
    print(f"{expert} ahead of {full}: {h2h['estimate']:.4f} [{h2h['ci_low']:.4f}, {h2h['ci_high']:.4f}] "
          f"over {h2h['deals']:,} deals", flush=True)
    page = {
        "title": "The expert's speed and strength with pruning",
        "about": ("The expert (`lookahead`, its defaults: an option trailing by 1 standard error is no longer "
                  "searched, docs/rules.md §2.6 of the search) against the same search without pruning "
                  "(`lookahead(prune=0)`, which decides as the expert did before pruning). Speed: games per "
                  "CPU-second with one expert seat and three `random` ones, the same games for both, timed in "
                  "turn. Strength: a duplicate tournament, each policy two seats, every deal under both rotations "
                  "of the seats; the share is how often the pruned expert finished ahead of the full search "
                  "(fair 0.5), with its 95 % interval clustered by deal."),
        "command": f"python analyses/expert_speed.py --deals {args.deals}",
        "measured": {"date": f"{started} to {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
                     "commit": commit() or "unknown", "machine": machine()},
        "tables": [
            {"caption": "Speed, classic, 4 players",
             "setting": (f"variant classic (108-card deck: n_blank=0), {PLAYERS} players, one seat of the policy and "
                         f"three random; single rounds, {RATE_GAMES:,} games each (seeds {SEED}, games "
                         f"0-{RATE_GAMES - 1}), one core"),
             "columns": ["policy", "games per CPU-second", "× the full search"],
             "rows": [[policy, f"{speed[policy]:.0f}", f"{speed[policy] / speed[FULL_SEARCH]:.2f}"]
                      for policy in (EXPERT, FULL_SEARCH)]},
            {"caption": "Strength, classic, 4 players",
             "setting": (f"variant classic (108-card deck: n_blank=0), {PLAYERS} players, two seats each; single "
                         f"rounds, every deal under both rotations of the seats, seed {SEED}"),
             "columns": ["A", "B", "deals", "A ahead of B", "95 % interval"],
             "rows": [[expert, full, f"{h2h['deals']:,}", f"{h2h['estimate']:.4f}",
                       f"[{h2h['ci_low']:.4f}, {h2h['ci_high']:.4f}]"]]},
        ],
    }
    write_text_atomic(args.out, json.dumps(page, indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
