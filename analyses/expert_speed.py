"""Is the pruned expert as strong as the full search, and how much faster? (issue 43 item 7)

Strength: the expert (``lookahead`` at its defaults, pruning on) against the same search without pruning
(``lookahead(prune=0)``: every option searched in every world, deciding as the expert did before pruning,
game for game), in one duplicate tournament: classic (108-card deck) at 4 players, each policy two seats,
every deal under both rotations of the seats (ABAB, BABA), seed 1. Speed: games per CPU-second of each,
one seat against three ``random`` ones, the same games, timed call by call in turn; with ``--before DIR``
(a checkout of the code before pruning, e.g. ``git worktree add --detach ../before a16287e``) also its
``lookahead``, timed in a child process importing that checkout on the same games.

    python analyses/expert_speed.py --deals 20000 [--n-jobs 2] [--before DIR] [--only speed|strength]

Each run replaces the tables it measures in ``--out`` (default docs/results/expert_speed.json) and keeps
the others, each table stamped with its own date, commit and machine.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import polars as pl

from unosim import engine
from unosim.game.policies import parse_policy
from unosim.game.version import measured_since
from unosim.play.simulate import resolve, run_compiled
from unosim.store.atomic import write_text_atomic
from unosim.strategies.tournaments import tournament

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "docs" / "results" / "expert_speed.json"
EXPERT = "lookahead"
FULL_SEARCH = "lookahead(prune=0)"
CLASSIC_108 = {"n_blank": 0}
PLAYERS = 4
SEED = 1
RATE_GAMES = 4_000   # per policy, in calls of RATE_CALL games alternating between the two policies
RATE_CALL = 200
RATE_PARTS = 4       # the checkout before pruning is timed part by part in turn with this code's policies


def rates(first: int, games: int) -> dict[str, float]:
    """CPU seconds of each policy in one seat against three random ones (single rounds) over games
    first..first+games-1: the same games for both, timed call by call in turn, so load on the machine
    hits both alike."""
    cpu = dict.fromkeys((EXPERT, FULL_SEARCH), 0.0)
    runs = {}
    for policy in cpu:
        rs, specs = resolve("classic", PLAYERS, f"{policy},random*", {"match_mode": "single_round", **CLASSIC_108})
        build = engine.build_for(rs, specs)
        run_compiled(rs, PLAYERS, specs, 0, 0, 2, build=build)   # loaded (or compiled) before timing
        runs[policy] = (rs, specs, build)
    for start in range(first, first + games, RATE_CALL):
        for policy, (rs, specs, build) in runs.items():
            clock = time.process_time()
            run_compiled(rs, PLAYERS, specs, SEED, start, RATE_CALL, build=build)
            cpu[policy] += time.process_time() - clock
    return cpu


_BEFORE = """
import sys, time
from unosim import engine
from unosim.play.simulate import resolve, run_compiled
rs, specs = resolve("classic", {players}, "lookahead,random*", {rules!r})
build = engine.build_for(rs, specs)
run_compiled(rs, {players}, specs, 0, 0, 2, build=build)
cpu = 0.0
for start in range({first}, {first} + {games}, {call}):
    clock = time.process_time()
    run_compiled(rs, {players}, specs, {seed}, start, {call}, build=build)
    cpu += time.process_time() - clock
print(cpu)
"""


def cpu_before(checkout: Path, first: int, games: int) -> float:
    """CPU seconds of ``lookahead`` as the checkout at ``checkout`` plays it, on the games of
    :func:`rates`, in a child process that imports that checkout."""
    code = _BEFORE.format(players=PLAYERS, rules={"match_mode": "single_round", **CLASSIC_108}, games=games,
                          first=first, call=RATE_CALL, seed=SEED)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=checkout,
                         env={**os.environ, "PYTHONPATH": str(checkout.resolve())})
    return float(out.stdout.strip().splitlines()[-1])


def checkout_commit(checkout: Path) -> str:
    out = subprocess.run(["git", "-C", str(checkout), "rev-parse", "HEAD"], capture_output=True, text=True, check=True)
    return out.stdout.strip()[:10]


SETTING = f"variant classic (108-card deck: n_blank=0), {PLAYERS} players"


def speed_table(before: Path | None) -> dict:
    """Each policy's games per CPU-second over RATE_GAMES games, timed in RATE_PARTS parts; with
    ``before``, that checkout's ``lookahead`` is timed on each part just before this code's policies."""
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    part = RATE_GAMES // RATE_PARTS
    cpu = dict.fromkeys((EXPERT, FULL_SEARCH), 0.0)
    then = 0.0
    for first in range(0, RATE_GAMES, part):
        if before is not None:
            then += cpu_before(before, first, part)
        for policy, seconds in rates(first, part).items():
            cpu[policy] += seconds
    rows = [[policy, f"{RATE_GAMES / cpu[policy]:.0f}"] for policy in cpu]
    if before is not None:
        rows.append([f"lookahead at {checkout_commit(before)} (before pruning)", f"{RATE_GAMES / then:.0f}"])
    for row in rows:
        print(f"games per CPU-second: {row[0]} {row[1]}", flush=True)
    return {"caption": "Speed, classic, 4 players",
            "setting": (f"{SETTING}, one seat of the policy and three random; single rounds, the same "
                        f"{RATE_GAMES:,} deals for each (seed {SEED}), one core"),
            "measured": measured_since(started),
            "columns": ["policy", "games per CPU-second", "× the last row"],
            "rows": [row + [f"{float(row[1]) / float(rows[-1][1]):.2f}"] for row in rows]}


def strength_table(deals: int, n_jobs: int) -> dict:
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    expert, full = parse_policy(EXPERT).label, parse_policy(FULL_SEARCH).label
    result = tournament("classic", players=PLAYERS, policies=[EXPERT, FULL_SEARCH], games=deals, seed=SEED,
                        rules=CLASSIC_108, seating="rotations", n_jobs=n_jobs)
    h2h = result.head_to_head.row(by_predicate=(pl.col("a") == expert) & (pl.col("b") == full), named=True)
    print(f"{expert} ahead of {full}: {h2h['estimate']:.4f} [{h2h['ci_low']:.4f}, {h2h['ci_high']:.4f}] "
          f"over {h2h['deals']:,} deals", flush=True)
    return {"caption": "Strength, classic, 4 players",
            "setting": f"{SETTING}, two seats each; single rounds, every deal under both rotations of the seats, "
                       f"seed {SEED}",
            "measured": measured_since(started),
            "columns": ["A", "B", "deals", "A ahead of B", "95 % interval"],
            "rows": [[expert, full, f"{h2h['deals']:,}", f"{h2h['estimate']:.4f}",
                      f"[{h2h['ci_low']:.4f}, {h2h['ci_high']:.4f}]"]]}


ABOUT = ("The expert (`lookahead`, its defaults: at 3 or more players an option trailing its anchor's card by 1 "
         "standard error is no longer searched, docs/rules.md §5.5) at 4 players against the same search without pruning (`lookahead(prune=0)`, which decides "
         "as the expert did before pruning, game for game). Speed: games per CPU-second with one expert seat "
         "and three `random` ones, the same deals for every policy. Strength: a duplicate tournament, each "
         "policy two seats, every deal under both rotations of the seats; the share is how often the pruned "
         "expert finished ahead of the full search (fair 0.5), with its 95 % interval clustered by deal.")


def merged(path: Path, tables: list[dict], deals: int) -> dict:
    """The results page at ``path`` with ``tables`` replacing those of the same caption (a kept table
    without its own stamp takes the page's old one)."""
    old = json.loads(path.read_text()) if path.exists() else {"tables": []}
    fresh = {t["caption"] for t in tables}
    kept = [{**t, "measured": t.get("measured", old.get("measured"))} for t in old["tables"]
            if t["caption"] not in fresh]
    order = ["Speed, classic, 4 players", "Strength, classic, 4 players"]
    every = sorted(kept + tables, key=lambda t: order.index(t["caption"]) if t["caption"] in order else len(order))
    stamps = [t["measured"] for t in every]
    dates = sorted(d for s in stamps for d in s["date"].split(" to "))
    return {"title": "The expert's speed and strength with pruning", "about": ABOUT,
            "command": f"python analyses/expert_speed.py --deals {deals} --before DIR",
            "measured": {"date": f"{dates[0]} to {dates[-1]}",
                         "commit": " and ".join(dict.fromkeys(s["commit"] for s in stamps)),
                         "machine": " and ".join(dict.fromkeys(s["machine"] for s in stamps))},
            "tables": every}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--before", type=Path, help="a checkout of the code before pruning (its speed is timed too)")
    parser.add_argument("--only", choices=("speed", "strength"), help="measure one table, keep the other")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    tables = []
    if args.only != "strength":
        tables.append(speed_table(args.before))
    if args.only != "speed":
        tables.append(strength_table(args.deals, args.n_jobs))
    write_text_atomic(args.out, json.dumps(merged(args.out, tables, args.deals), indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
