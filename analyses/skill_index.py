"""How much is skill, on scales published games and sports are measured on: every variant at 2 and 4 players.

For each variant and table size, one duplicate tournament (``seating="rotations"``, seed 1) of a fixed
population of programs (default ``random``, ``greedy_points``, ``colour_counter`` and the expert
``lookahead``), from whose raw games :mod:`unosim.analysis.skill_index` computes the true-score
decomposition (skill share, rounds until skill explains half), the expert's edge ``s = 2q − 1`` over
``random`` and the rating spread of several policy sets with its noise floor. Each finished cell is
stored with its raw games (``--cells``: each seat's finishing order, a few kB), so an interrupted run
resumes and the figures are computed again from the games on every run; ``docs/results/skill_index.json``
is rebuilt from every stored cell of the current deal counts, with the published reference values beside
them.

    nice -n 10 python analyses/skill_index.py --deals-2p 400 --deals-4p 150

Cost: the expert plays most games (~120 games per CPU-second at classic 4p, fewer in no_mercy); at 2
players each deal is played 12 times, at 4 players 8 times.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl

from unosim.analysis import skill_index as si
from unosim.analysis import standings as st
from unosim.game.rules import get_variant, variant_names
from unosim.game.version import commit, machine, measured_over
from unosim.store.atomic import write_text_atomic
from unosim.store.reader import open_dataset
from unosim.strategies.tournaments import tournament

ROOT = Path(__file__).resolve().parents[1]
CELLS = ROOT / "data" / "results" / "skill_index"
RESULTS = ROOT / "docs" / "results" / "skill_index.json"
SEED = 1
VARIANTS = ("classic", "minions", "spin", "no_mercy", "flip")
PLAYERS = (2, 4)
POPULATION = ("random", "greedy_points", "colour_counter", "lookahead")
EXPERT, BASELINE = "lookahead", "random"
SEASON = 100   # the skill share is also stated after this many rounds

#: Published values of the true-score decomposition (rounds, here games, until skill explains half of
#: the variance of the standings), each with where it was read. The share after a season is derived:
#: n / (n + n½).
PUBLISHED = [
    {"name": "NBA basketball", "rounds_to_half": 14, "season": 82,
     "source": "T. Tango, as cited by P. Birnbaum, \"Does the NHL's 'loser point' help weaker teams?\", "
               "Sabermetric Research blog, 2018-12-18"},
    {"name": "NFL football", "rounds_to_half": 12, "season": 16,
     "source": "T. Tango, as cited by B. Burke, \"Luck: Epilogue\", Advanced NFL Stats, August 2007"},
    {"name": "MLB baseball", "rounds_to_half": 69, "season": 162,
     "source": "T. Tango, as cited by B. Burke, \"Luck: Epilogue\", Advanced NFL Stats, August 2007 "
               "(P. Birnbaum's worked example, seasons to 2009: 74)"},
    {"name": "NHL hockey", "rounds_to_half": 73, "season": 82,
     "source": "P. Birnbaum, \"Luck vs. talent in the NHL standings\", Sabermetric Research blog, "
               "2013-01-21 (seasons 2006-07 to 2011-12; Tango's older data: 36)"},
]
SPREAD_SOURCE = ("P. Duersch, M. Lambrecht & J. Oechssler, \"Measuring skill and chance in games\", European "
                 "Economic Review, August 2020: the spread of best-fit Elo ratings of a game's (human, online) "
                 "players; poker has about as much skill as chess with 3 of 4 results replaced by a coin flip")


def policy_sets(population: list[str]) -> dict[str, list[int]]:
    """The sets of entrants whose rating spread is stated: how it moves as the policy set changes."""
    index = {name: i for i, name in enumerate(population)}
    everyone = list(range(len(population)))
    sets = {"all": everyone,
            "without the expert": [i for i in everyone if i != index[EXPERT]],
            "without random": [i for i in everyone if i != index[BASELINE]],
            "expert and random": [index[EXPERT], index[BASELINE]]}
    return {name: members for name, members in sets.items() if len(members) >= 2}


def play_cell(variant: str, players: int, deals: int, population: list[str], n_jobs: int) -> tuple[dict, dict]:
    """One tournament of ``population``: (what it was played under, its raw games). The games are every
    seat's finish as the number of seats of its game it finished ahead of (``beaten``: arrangements ×
    deals × seats, int8; the order is all the indices read) and the entrant of each seat
    (``entrant_of``)."""
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="unosim-skill-index-") as tmp:
        result = tournament(variant, players=players, policies=population, games=deals, seed=SEED,
                            seating="rotations", n_jobs=n_jobs, out=tmp)
        ds = open_dataset(result.path)
        games = st.games_from_tables(ds.seats, ds.rounds, result.arrangements, result.played_by)
        no_winner = float(ds.rounds.select((pl.col("winner_seat") < 0).mean()).collect().item())
    beaten = finishing_order(games.finish)
    meta = {"variant": variant, "players": players, "deals": deals, "seed": SEED,
            "population": [e.name for e in result.entrants], "deck": int(get_variant(variant).deck_counts().sum()),
            "no_winner_share": no_winner, "games": int(beaten.shape[0] * beaten.shape[1]),
            "seconds": round(time.perf_counter() - start, 1),
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "commit": commit() or "unknown",
            "machine": machine()}
    return meta, {"beaten": beaten, "entrant_of": games.entrant_of}


def finishing_order(finish: np.ndarray) -> np.ndarray:
    """Each seat's finish as the number of seats of its game it finished ahead of (int8): the same order,
    ties kept, in a byte."""
    return (finish[..., :, None] > finish[..., None, :]).sum(axis=-1).astype(np.int8)


def cell_figures(meta: dict, games: dict) -> dict:
    """The cell's skill figures from its stored games (:mod:`unosim.analysis.skill_index`)."""
    finish, entrant_of = games["beaten"].astype(np.int64), games["entrant_of"]
    names = meta["population"]
    ahead = si.ahead_counts(finish, entrant_of)
    return {**meta,
            "decomposition": si.decompose(si.rounds_by_player(finish, entrant_of), seed=SEED, season=SEASON),
            "edge": si.edge(ahead, names.index(EXPERT), names.index(BASELINE), seed=SEED),
            "spreads": si.spread_with_floor(finish, entrant_of, policy_sets(names), seed=SEED)}


def cell_path(folder: Path, variant: str, players: int, deals: int, population: list[str]) -> Path:
    """Where the cell's description is stored (``.json``); its games beside it (``.npz``)."""
    return folder / f"{variant}__p{players}__{deals}__{'+'.join(population)}.json"


def _interval(row: dict, name: str, digits: int, scale: float = 1.0) -> str:
    def show(v):
        return "∞" if v is None else f"{v * scale:,.{digits}f}"
    return f"{show(row[name])} [{show(row[f'{name}_ci_low'])}, {show(row[f'{name}_ci_high'])}]"


def results_file(cells: list[dict], deals: dict[int, int], population: list[str]) -> dict:
    """The results file: the comparable-index table (a row per variant and table size), and for the
    generated pages (docs/gen/skill_pages.py) the published values and every cell's figures."""
    cells = sorted(cells, key=lambda c: (VARIANTS.index(c["variant"]) if c["variant"] in VARIANTS else 99,
                                         c["variant"], c["players"]))
    rows = []
    for c in cells:
        d, e = c["decomposition"], c["edge"]
        everyone = next(s for s in c["spreads"] if s["policy_set"] == "all")
        rows.append([f"[{c['variant']}](skill/{c['variant']}.md)", str(c["players"]), f"{c['deals']:,}",
                     _interval(d, "share_one", 1, 100), _interval(d, "share_season", 0, 100),
                     _interval(d, "rounds_to_half", 1), _interval(e, "s", 3),
                     _interval(everyone, "spread", 0), _interval(everyone, "floor", 1),
                     _interval(everyone, "corrected", 0)])
    setting = (f"population {', '.join(population)}; duplicate tournaments (every deal under every rotation of "
               f"the seats), seed {SEED}; {deals[2]:,} deals at 2 players, {deals[4]:,} at 4; single rounds, "
               "rules as published; intervals 95 %, bootstrap over deals; figures computed from the stored games "
               f"(data/results/skill_index) at commit {(commit() or 'unknown')[:10]}")
    about = (
        "How much of each UNO variant is skill, on the scales published games and sports are measured on "
        "([the rules, §8.6](../rules.md)). **Skill share** and **rounds to half** are the true-score decomposition sports "
        "analysts use for leagues (var(observed) = var(true) + var(luck)): the share of the variance of the "
        "players' results that is skill after one round and after "
        f"{SEASON} rounds, and the rounds after which skill explains half of it. **s = 2q − 1** is the expert's "
        "edge over `random`: q the share of rounds it finishes ahead of `random` at the same table (0: a coin, "
        "1: always). **Rating spread** is the standard deviation of the best-fit Elo ratings (Duersch, "
        "Lambrecht & Oechssler 2020) with its **noise floor**, the spread identical players show over the same "
        "games, and the spread corrected for it.\n\n"
        "**What compares with what.** Rounds to half and the skill share are defined as for the sports leagues "
        "below (a round is a game; its result a win, a loss or a tie; luck is that of independent rounds), so "
        "the 2-player figures sit on their scale — but every figure is a property of the population: a league's "
        "teams there, a set of four programs here, of which one (the expert) is much stronger than the rest. "
        "A league of four programs is not a league of thirty human teams, and a stronger expert would lower "
        "every UNO figure of rounds to half. At 4 players a round is one game of four seats and its result the "
        "share of the other three seats beaten; that is not a two-team game, so the 4-player figures compare "
        "UNO variants with each other, not with the leagues. s has no published counterpart we could check. "
        "The rating spread's published values are spreads of human players on online platforms, which a spread "
        "of programs does not compare with; it compares variants rated with the same policy set, and moves "
        "with that set (each variant's page).")
    stamp = measured_over(cells)
    return {
        "kind": "skill_index", "title": "How much is skill", "about": about,
        "command": f"nice -n 10 python analyses/skill_index.py --deals-2p {deals[2]} --deals-4p {deals[4]}",
        "measured": stamp, "season": SEASON, "population": population, "cells": cells,
        "published": [{**p, "season_share": si.share_after(p["rounds_to_half"], p["season"])} for p in PUBLISHED],
        "spread_source": SPREAD_SOURCE,
        "tables": [
            {"caption": "The comparable index, every variant at 2 and 4 players", "setting": setting,
             "columns": ["variant", "players", "deals", "skill share of one round (%)",
                         f"skill share after {SEASON} rounds (%)", "rounds to half", "s = 2q − 1 (expert vs random)",
                         "rating spread (Elo)", "noise floor", "spread above the floor"],
             "rows": rows},
        ]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", default=",".join(VARIANTS), help=f"comma-separated (default: all of {VARIANTS})")
    parser.add_argument("--deals-2p", type=int, default=400, help="deals per tournament at 2 players")
    parser.add_argument("--deals-4p", type=int, default=150, help="deals per tournament at 4 players")
    parser.add_argument("--population", default=",".join(POPULATION),
                        help=f"comma-separated policies, with {EXPERT} and {BASELINE} (default: {','.join(POPULATION)})")
    parser.add_argument("--n-jobs", type=int, default=-1)
    parser.add_argument("--cells", type=Path, default=CELLS, help="where each finished cell is stored")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    variants = [v for v in args.variants.split(",") if v]
    unknown = [v for v in variants if v not in variant_names()]
    if unknown:
        parser.error(f"--variants: {unknown} unknown; valid are {variant_names()}")
    population = [p for p in args.population.split(",") if p]
    if EXPERT not in population or BASELINE not in population:
        parser.error(f"--population {args.population!r}: must hold {EXPERT!r} and {BASELINE!r}")
    deals = {2: args.deals_2p, 4: args.deals_4p}
    if min(deals.values()) < 2:
        parser.error(f"--deals-2p {args.deals_2p} / --deals-4p {args.deals_4p}: valid is at least 2 deals")
    args.cells.mkdir(parents=True, exist_ok=True)
    cells = []
    for variant in variants:
        for players in PLAYERS:
            path = cell_path(args.cells, variant, players, deals[players], population)
            if not path.exists():
                meta, games = play_cell(variant, players, deals[players], population, args.n_jobs)
                with tempfile.NamedTemporaryFile(dir=args.cells, suffix=".npz", delete=False) as tmp:
                    np.savez_compressed(tmp, **games)
                Path(tmp.name).replace(path.with_suffix(".npz"))       # the games first: a cell is its .json
                write_text_atomic(path, json.dumps(meta, indent=1) + "\n")
                print(f"{variant}, {players} players: {meta['games']:,} games ({meta['seconds']:.0f} s)", flush=True)
            with np.load(path.with_suffix(".npz")) as games:
                cell = cell_figures(json.loads(path.read_text()), dict(games))
            d = cell["decomposition"]
            print(f"{variant}, {players} players: rounds to half {_interval(d, 'rounds_to_half', 1)}, "
                  f"s {_interval(cell['edge'], 's', 3)}", flush=True)
            cells.append(cell)
    write_text_atomic(args.out, json.dumps(results_file(cells, deals, population), indent=1) + "\n")
    print(f"results: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
