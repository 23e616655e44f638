"""Design search figures: how many designs a default search evaluates, and whether its top design is good.

    python analyses/design_check.py [--minutes 10] [--check-minutes 2] [--random 200] [--games 2000]
        [--out docs/results/design.json] [--work data/design_check]

1. **Throughput**: a search of ``--minutes`` minutes (the default budget) on classic at 4 players with
   three objectives (shorter rounds, fairer seats, more comebacks) and no more than 1 % of rounds without
   a winner, over the whole space of classic (every house rule and card count): designs tried, games
   played, designs per minute.
2. **Quality**: a single-objective search of ``--check-minutes`` minutes (mean turns in the band 20–30,
   classic 4p, the whole space); its top design and ``--random`` designs drawn uniformly from the same
   space are each played on ``--games`` fresh games (a seed neither search played) and scored by the
   distance of their mean turns to the band; the share of random designs the top design beats (ties
   count half) is the figure the issue asks to be ≥ 95 %.

The figures go into ``--out`` (default docs/results/design.json, from which the docs page "Design search"
is generated), stamped with the date, commit, machine and the load average at the start.
"""

import argparse
import json
import os
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

import unosim
from unosim.design import confirm, evaluate, search
from unosim.design.spec import parse
from unosim.game.version import commit, machine
from unosim.store.atomic import write_text_atomic

RESULTS = Path(__file__).parents[1] / "docs" / "results" / "design.json"
FRESH_SEED = 987_654_321


def throughput(minutes: float, work: Path) -> list[list[str]]:
    table = {"name": "throughput_classic4", "variant": "classic", "players": 4,
             "objectives": {"length": "less", "fairness": "less", "comebacks": "more"},
             "constraints": {"no_winner": {"max": 0.01}}, "budget": {"minutes": minutes}}
    start = time.perf_counter()
    trials = unosim.design(table, out=work, confirm=False)
    study = search.open_study(parse(table), work / table["name"], 0)
    seconds = float(study.user_attrs["seconds"])
    tried = int((trials["state"] == "complete").sum())
    refused = int((trials["state"] == "fail").sum())
    games = int(study.user_attrs["games"])
    print(f"throughput: {tried} designs in {seconds:.0f} s ({time.perf_counter() - start:.0f} s in all)")
    return [["designs evaluated (completed)", f"{tried:,}"],
            ["designs the rules refused (no game played)", f"{refused:,}"],
            ["games played by the search", f"{games:,}"],
            ["seconds of search", f"{seconds:.0f}"],
            ["designs per minute", f"{tried / seconds * 60:,.0f}"]]


def quality(minutes: float, n_random: int, games: int, work: Path) -> list[list[str]]:
    table = {"name": "quality_classic4", "variant": "classic", "players": 4, "objectives": {"length": [20, 30]},
             "budget": {"minutes": minutes}}
    spec = parse(table)
    unosim.design(table, out=work, confirm=False)
    study = search.open_study(spec, work / table["name"], 0)
    top = confirm.select(confirm.designs(study), spec, top=1)[0]
    rng = np.random.default_rng(FRESH_SEED)
    drawn = []
    while len(drawn) < n_random:
        values = {d.name: (d.choices[rng.integers(len(d.choices))] if d.choices
                           else int(rng.integers(d.low, d.high + 1))) for d in spec.space.dimensions}
        overrides = spec.space.overrides(values)
        try:
            evaluate.ruleset(spec.variant, overrides).check_players(spec.players)
        except ValueError:
            continue   # the rules refuse it: not a design of the space
        drawn.append(overrides)
    goal = spec.goals[0]

    def score(overrides) -> float:
        job = evaluate.Job("x", spec.variant, overrides, spec.players, spec.lineup, FRESH_SEED, 0, games)
        _, played = evaluate.play(job)
        return goal.score(evaluate.measure(played, ["length"], 0)["length"])
    top_score = score(top.overrides)
    scores = np.array([score(o) for o in drawn])
    beaten = float(np.mean((top_score < scores) + 0.5 * (top_score == scores)))
    print(f"quality: top design distance {top_score:.3f}; beats {beaten:.1%} of {n_random} random designs")
    return [["designs evaluated by the search", f"{len(confirm.designs(study)):,}"],
            ["top design's distance to the band on fresh games (turns)", f"{top_score:.2f}"],
            ["random designs within the band on fresh games", f"{int(np.sum(scores == 0))} of {n_random}"],
            ["share of random designs the top design beats (ties half)", f"{beaten:.1%}"]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--check-minutes", type=float, default=2.0)
    parser.add_argument("--random", type=int, default=200)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--work", type=Path, default=Path("data") / "design_check")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    measured = {"date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S%z"), "commit": commit()[:10],
                "machine": f"{machine()}, load average {load:.1f} at the start"}
    tables = [
        {"caption": f"A {args.minutes:g}-minute search (the default budget)",
         "setting": "classic, 4 players, `random` in every seat, single rounds; objectives shorter rounds, fairer "
                    "seats, more comebacks; rounds with no winner ≤ 1 %; the whole space of classic (14 rules, 15 "
                    "card classes); batches of 24 designs racing over 1,000 / 3,000 / 9,000 games",
         "columns": ["figure", "value"], "rows": throughput(args.minutes, args.work)},
        {"caption": "The top design against designs drawn at random from the same space",
         "setting": f"classic, 4 players, `random`; objective mean turns in 20–30; a {args.check_minutes:g}-minute "
                    f"search; the top design and {args.random} random designs each on {args.games:,} fresh games "
                    f"(seed {FRESH_SEED}, never played by the search)",
         "columns": ["figure", "value"], "rows": quality(args.check_minutes, args.random, args.games, args.work)},
    ]
    data = {"title": "Design search",
            "about": "How many designs `unosim design` evaluates in its default budget, and how its top design "
                     "compares with designs drawn at random from the same space, on games the search never "
                     "played (docs/rules.md §8.8).",
            "command": f"nice -n 10 python analyses/design_check.py --minutes {args.minutes:g} --check-minutes "
                       f"{args.check_minutes:g} --random {args.random} --games {args.games}",
            "measured": measured, "tables": tables}
    write_text_atomic(args.out, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
