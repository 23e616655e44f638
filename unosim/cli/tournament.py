"""The ``unosim tournament`` command: a duplicate tournament, its standings printed as a table."""

from __future__ import annotations

import argparse

from .values import rule_arguments, rule_overrides


def add_parser(sub) -> None:
    p = sub.add_parser("tournament", help="a fair (duplicate) tournament of policies: the same deals with the "
                                          "policies rotated through the seats; prints the standings")
    p.add_argument("--variant", required=True, help="a registered variant (see `unosim variants`)")
    p.add_argument("--players", "-n", type=int, required=True, help="number of seats")
    p.add_argument("--policies", required=True,
                   help="2 or more policy specs, comma-separated, e.g. 'random,greedy_points,keep_wilds' "
                        "(a policy twice plays against a copy of itself)")
    p.add_argument("--games", type=int, required=True, help="number of deals (each played under every arrangement)")
    p.add_argument("--seed", type=int, default=1, help="the seed (default 1; deal g depends only on seed and g)")
    rule_arguments(p)
    p.add_argument("--out", default="data", help="parent directory of the dataset (default: data)")
    p.add_argument("--name", help="dataset name (default: tournament_<variant>_p<players>)")
    p.add_argument("--n-jobs", type=int, default=-1, help="parallel workers (default -1: all cores)")
    p.add_argument("--force", action="store_true", help="replace an existing dataset of another tournament")
    p.add_argument("--seating", default="permutations",
                   help="arrangement scheme: permutations (default; every seat order at up to 4 players) or "
                        "rotations (fewer replays, for slow policies such as lookahead)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=cmd_tournament)


def cmd_tournament(args: argparse.Namespace) -> None:
    from ..game.rules import get_variant
    from ..strategies.tournaments import tournament
    overrides = rule_overrides(args)
    result = tournament(args.variant, players=args.players, policies=args.policies, games=args.games,
                        seed=args.seed, rules=overrides or None, out=args.out, name=args.name,
                        n_jobs=args.n_jobs, force=args.force, progress=False if args.quiet else None,
                        seating=args.seating)
    from ..reporting.sections import RATING_SENTENCE, order_note
    print(f"{result.title} (seed {result.seed}); intervals 95%, clustered by deal")
    if overrides:   # the rules played, as `unosim rules` names them
        print(f"rules: {get_variant(args.variant, overrides).key}")
    print_standings(result)
    print(f"ranked by win rate. {RATING_SENTENCE}")
    print(order_note(result.standings))
    print()
    print("head-to-head: % of seat comparisons the row policy finished ahead of the column policy [95% interval]")
    print_head_to_head(result)
    print()
    for line in verdicts(result):
        print(line)
    print(f"\ndataset: {result.path}  (standings, head-to-head and chart in {result.path}/tournament/)")


def verdicts(result) -> list[str]:
    """One checked sentence per pair of entrants, from the head-to-head intervals (Holm over the pairs)."""
    from ..analysis.checker import assert_claims
    from ..analysis.findings import claims
    from ..analysis.standard import as_written
    tables = as_written({"head_to_head": result.head_to_head})
    found = claims(tables)
    assert_claims(tables, found)
    return [claim.text for claim in found]


def _interval(row: dict, column: str, low: str, high: str, digits: int) -> str:
    return f"{row[column]:.{digits}f} [{row[low]:.{digits}f}, {row[high]:.{digits}f}]"


def print_standings(result) -> None:
    from .table import print_table
    rows = [{"rank": i + 1, "policy": r["policy"],
             "win rate": _interval(r, "win_rate", "ci_low", "ci_high", 4),
             "points scored": _interval(r, "mean_points", "mean_points_ci_low", "mean_points_ci_high", 1),
             "points left": _interval(r, "mean_points_left", "mean_points_left_ci_low",
                                      "mean_points_left_ci_high", 1),
             "rating": _interval(r, "rating", "rating_ci_low", "rating_ci_high", 1)}
            for i, r in enumerate(result.standings.iter_rows(named=True))]
    print_table(rows)


def print_head_to_head(result) -> None:
    from .table import print_table
    matrix = result.head_to_head_matrix(intervals=True)
    print_table([{"": r["a"], **{k: "—" if v is None else v for k, v in r.items() if k != "a"}}
                  for r in matrix.iter_rows(named=True)])
