"""Strength table: duplicate tournaments of one policy against another, one pair at a time.

    python analyses/strength.py --pairs save_wilds:random,lookahead:save_wilds --deals 20000
        [--variants classic,no_mercy] [--players 2,4] [--seed 1] [--n-jobs 2] [--seating rotations]

For every variant, player count and pair ``A:B`` it plays ``unosim.tournament`` with the two policies
(each takes half the seats; every deal under every arrangement) and prints one markdown row: A's win
rate (fair share 1/N) and head-to-head share against B (fair 1/2), each with its 95% interval
clustered by deal, and the verdict: which policy is stronger when that interval excludes parity. This is how the strength
table of docs/results/strength.json is made. ``A:B+C+D`` plays one tournament of the four policies (one seat each at
four players) and prints a row per opponent: A's head-to-head share against each, in that field; with
a slow A (``lookahead``) this costs less than a pair at a time. ``--seating rotations`` plays each deal under fewer arrangements (at four
seats ABAB and BABA instead of the six orders of AABB): the scheme for the slow ``lookahead``.
"""

import argparse
import time

import polars as pl

import unosim

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--pairs", required=True,
                    help="comma-separated A:B pairs of policy specs (A:B+C+D: one tournament of A, B, C and D)")
parser.add_argument("--deals", type=int, default=20_000)
parser.add_argument("--variants", default="classic,no_mercy")
parser.add_argument("--players", default="2,4")
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("--n-jobs", type=int, default=2)
parser.add_argument("--seating", default="permutations", help="tournament arrangement scheme")
args = parser.parse_args()

print("| variant | players | A | B | deals | A's win rate | A ahead of B | verdict | s |")
print("|---|---|---|---|---|---|---|---|---|")
for variant in args.variants.split(","):
    for players in (int(p) for p in args.players.split(",")):
        for pair in args.pairs.split(","):
            a, field = pair.split(":")
            opponents = field.split("+")
            start = time.perf_counter()
            result = unosim.tournament(variant, players=players, policies=[a, *opponents], games=args.deals,
                                       seed=args.seed, n_jobs=args.n_jobs, seating=args.seating)
            row = result.standings.row(by_predicate=pl.col("policy") == a, named=True)
            for b in opponents:
                h2h = result.head_to_head.row(
                    by_predicate=(pl.col("a") == a) & (pl.col("b") == b), named=True)
                verdict = (f"{a} stronger" if h2h["ci_low"] > 0.5 else f"{b} stronger" if h2h["ci_high"] < 0.5
                           else "no clear difference")
                print(f"| {variant} | {players} | {a} | {b if len(opponents) == 1 else b + ' (in ' + field + ')'} "
                      f"| {args.deals:,} | {row['win_rate']:.3f} [{row['ci_low']:.3f}, {row['ci_high']:.3f}] | "
                      f"{h2h['estimate']:.3f} [{h2h['ci_low']:.3f}, {h2h['ci_high']:.3f}] | {verdict} | "
                      f"{time.perf_counter() - start:.0f} |", flush=True)
