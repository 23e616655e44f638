"""Strength table: duplicate tournaments of one policy against another, one pair at a time.

    python analyses/strength.py --pairs save_wilds:random,lookahead:save_wilds --deals 20000
        [--variants classic,no_mercy] [--players 2,4] [--seed 1] [--n-jobs 2] [--seating rotations]
        [--caption "Presets against random"] [--out docs/results/strength.json]

For every variant, player count and pair ``A:B`` it plays ``unosim.tournament`` with the two policies
(each takes half the seats; every deal under every arrangement) and measures one row: A's win rate
(fair share 1/N) and head-to-head share against B (fair 1/2), each with its 95% interval clustered by
deal, and the verdict: which policy is stronger when that interval excludes parity. ``A:B+C+D`` plays
one tournament of the four policies (one seat each at four players) and gives a row per opponent: A's
head-to-head share against each, in that field; with a slow A (``lookahead``) this costs less than a
pair at a time. ``--seating rotations`` plays each deal under fewer arrangements (at four seats ABAB and
BABA instead of the six orders of AABB): the scheme for the slow ``lookahead``.

The rows go into the results file ``--out`` (default docs/results/strength.json, from which the docs page
"Strength of the strategies" is generated) as the table ``--caption``, replacing a table of that caption:
stamped with the date, commit and machine, and the deck and rules of every variant. Each row is also
printed as it is measured, with its seconds.
"""

import argparse
import json
import time
from pathlib import Path

import polars as pl

import unosim
from unosim.game.version import commit, machine
from unosim.store.atomic import write_text_atomic

RESULTS = Path(__file__).parents[1] / "docs" / "results" / "strength.json"
COLUMNS = ["variant", "players", "A", "B", "deals", "A's win rate", "A ahead of B", "verdict"]
ABOUT = ("Duplicate tournaments of two policies, each taking half the seats, every deal under every seat "
         "arrangement. Each head-to-head share is how often the first policy finished ahead of the second "
         "(fair share 0.5), with its 95 % interval clustered by deal.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", required=True,
                        help="comma-separated A:B pairs of policy specs (A:B+C+D: one tournament of A, B, C and D)")
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--variants", default="classic,no_mercy")
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--seating", default="permutations", help="tournament arrangement scheme")
    parser.add_argument("--caption", help="the table's caption in the results file (default: the pairs)")
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"the results file (default {RESULTS})")
    args = parser.parse_args()
    variants = args.variants.split(",")
    rows = []
    for variant in variants:
        for players in (int(p) for p in args.players.split(",")):
            for pair in args.pairs.split(","):
                rows += measure(variant, players, pair, args)
    write_table(args.out, {
        "caption": args.caption or f"Pairs {args.pairs.replace(',', ', ')}",
        "setting": setting(variants, args), "columns": COLUMNS, "rows": rows,
        "measured": {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "commit": commit() or "unknown",
                     "machine": machine()}})
    print(f"wrote {len(rows)} rows to {args.out}")


def measure(variant: str, players: int, pair: str, args) -> list[list]:
    """A's rows against each opponent of ``pair`` (``A:B`` or ``A:B+C+D``), printed as they are measured."""
    a, field = pair.split(":")
    opponents = field.split("+")
    start = time.perf_counter()
    result = unosim.tournament(variant, players=players, policies=[a, *opponents], games=args.deals,
                               seed=args.seed, n_jobs=args.n_jobs, seating=args.seating)
    row = result.standings.row(by_predicate=pl.col("policy") == a, named=True)
    out = []
    for b in opponents:
        h2h = result.head_to_head.row(by_predicate=(pl.col("a") == a) & (pl.col("b") == b), named=True)
        verdict = (f"{a} stronger" if h2h["ci_low"] > 0.5 else f"{b} stronger" if h2h["ci_high"] < 0.5
                   else "no clear difference")
        out.append([variant, players, a, b if len(opponents) == 1 else f"{b} (in {field})", args.deals,
                    f"{row['win_rate']:.3f} [{row['ci_low']:.3f}, {row['ci_high']:.3f}]",
                    f"{h2h['estimate']:.3f} [{h2h['ci_low']:.3f}, {h2h['ci_high']:.3f}]", verdict])
        print(" | ".join(map(str, out[-1])) + f" | {time.perf_counter() - start:.0f} s", flush=True)
    return out


def setting(variants: list[str], args) -> str:
    """What the figures apply to: the deck and rules of every variant, the deals, seed and seating."""
    decks = "; ".join(f"{v}: {unosim.get_variant(v).deck_size} cards, rules `{unosim.get_variant(v).key}`"
                      for v in variants)
    return (f"{args.deals:,} deals per tournament, seed {args.seed}, seating {args.seating}; {decks} "
            f"(docs/rules.md §2)")


def write_table(path: Path, table: dict) -> None:
    """Put ``table`` into the results file at ``path`` (replacing the table of its caption; a new file gets
    the title, the description and the table's stamp), atomically."""
    data = (json.loads(path.read_text(encoding="utf-8")) if path.exists() else
            {"title": "Strength of the strategies", "about": ABOUT,
             "command": "python analyses/strength.py --pairs A:B --deals 20000", "measured": table["measured"],
             "tables": []})
    data["tables"] = [t for t in data["tables"] if t["caption"] != table["caption"]] + [table]
    write_text_atomic(path, json.dumps(data, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
