"""The ``unosim ladder`` command: policies rated on one scale per variant, and how much of each is skill."""

from __future__ import annotations

import argparse


def add_parser(sub) -> None:
    from ..game.policies import LADDER_POLICIES
    p = sub.add_parser("ladder", help="a skill ladder: random, the presets and the expert rated on one "
                                      "Bradley–Terry scale per variant; prints how much of each is skill")
    p.add_argument("--variant", action="append", required=True, metavar="V",
                   help="a variant, optionally with rules: classic, classic:n_blank=0 (repeatable)")
    p.add_argument("--players", "-n", type=int, default=2, help="number of seats (default 2)")
    p.add_argument("--games", type=int, required=True, help="deals per tournament (each pair plays every one)")
    p.add_argument("--seed", type=int, default=1, help="the seed (default 1)")
    p.add_argument("--policies", help=f"comma-separated policy specs (default: {','.join(LADDER_POLICIES)}); "
                                      "they must include lookahead and random")
    p.add_argument("--n-jobs", type=int, default=-1, help="parallel workers (default -1: all cores)")
    p.add_argument("--out", help="write the results file (JSON) here, and its chart beside it (.png)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=cmd_ladder)


def _rounds(value, low, high) -> str:
    """Rounds needed with its interval; without a point value (the share's interval reaches ½) only the
    low end: "≥ 289 (no edge ruled out)"."""
    if value is None:
        return "none" if low is None else f"≥ {low:,} (no edge ruled out)"
    return _interval(value, low, high, 0)


def _interval(value, low, high, digits: int) -> str:
    shown = ["∞" if v is None else f"{v:.{digits}f}" if isinstance(v, float) else f"{v:,}" for v in (value, low, high)]
    return f"{shown[0]} [{shown[1]}, {shown[2]}]"


def cmd_ladder(args: argparse.Namespace) -> None:
    from ..strategies.tournaments.ladder import ladder
    from .table import print_table as _print_table
    result = ladder(args.variant, players=args.players, games=args.games, seed=args.seed, policies=args.policies,
                    n_jobs=args.n_jobs, progress=False if args.quiet else None)
    print(f"skill ladder, {result.players} players, {result.games:,} deals per tournament (seed {result.seed}); "
          "ratings on the Elo scale (mean 0), intervals 95% (bootstrap / clustered by deal)")
    for rung in result.rungs:
        rows = result.ratings.filter(result.ratings["variant"] == rung.label)
        print(f"\n{rung.label}")
        _print_table([{"rank": r["rank"], "policy": r["policy"],
                       "rating": _interval(r["rating"], r["rating_ci_low"], r["rating_ci_high"], 0),
                       "win rate": _interval(r["win_rate"], r["ci_low"], r["ci_high"], 3)}
                      for r in rows.iter_rows(named=True)])
    print("\nhow much is skill: the expert's head-to-head share, the rounds it needs for a 95% chance of "
          "winning more of them, and the rating spread (Duersch, Lambrecht & Oechssler 2020)")
    _print_table([{"variant": r["variant"],
                   "vs random": _interval(r["vs_random"], r["vs_random_ci_low"], r["vs_random_ci_high"], 3),
                   "rounds (vs random)": _rounds(r["rounds_needed_vs_random"], r["rounds_needed_ci_low_vs_random"],
                                                 r["rounds_needed_ci_high_vs_random"]),
                   "vs best other": f"{r['best_other']} "
                                     + _interval(r["vs_best"], r["vs_best_ci_low"], r["vs_best_ci_high"], 3),
                   "rounds (vs best)": _rounds(r["rounds_needed_vs_best"], r["rounds_needed_ci_low_vs_best"],
                                               r["rounds_needed_ci_high_vs_best"]),
                   "rating spread": _interval(r["rating_spread"], r["rating_spread_ci_low"],
                                              r["rating_spread_ci_high"], 0)}
                  for r in result.skill.iter_rows(named=True)])
    if result.inconsistencies.is_empty():
        print("\nconsistent: no policy is rated above one that beats it head to head (interval below 0.5)")
    else:
        print("\nINCONSISTENT: rated higher, yet losing head to head with an interval below 0.5:")
        _print_table(result.inconsistencies.to_dicts())
    if args.out:
        print(f"\nresults: {result.write(args.out)}")
