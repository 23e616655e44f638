"""Declared cards' prices checked by a paired study (unosim.analysis.price_check, docs/rules.md §8.9): for
each card, its price on the card-value fit of a deck that declares it, and what swapping its copies for
copies of the Draw Two on the same deals measures.

    python analyses/card_prices.py --games 200000 --players 2,4

Per player count and card, two decks of classic: A declares the card (coloured, 2 per colour, 20 points),
B declares in its place a copy of the Draw Two printed at 21 points (so that it is not merged into the
Draw Twos); one seed for both, so every game deals the same hands. Writes ``docs/results/card_prices.json``
(or ``--out``).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import polars as pl

from unosim.analysis.card_balance import card_balance
from unosim.analysis.card_prices import declared_cards
from unosim.analysis.card_values import card_values
from unosim.analysis.price_check import agreement, paired_copy_effect
from unosim.game.version import measured_since
from unosim.play.simulate import simulate
from unosim.store.atomic import write_text_atomic

RESULTS = Path(__file__).resolve().parents[1] / "docs" / "results" / "card_prices.json"
CARDS = {"draw_three": "draw:3", "skip_two": "skip:2", "burden": "self_draw:2", "draw_until": "draw_until_colour"}
STAND_IN = ("copy_of_draw_two", "draw:2", 21)   # deck B's card: the Draw Two at other points
REFERENCE = "draw_two"
SEED = 5


def deck(name: str, effect: str, points: int) -> dict:
    return {"match_mode": "single_round",
            "cards": {name: {"coloured": True, "effects": [effect], "points": points, "count": 2}}}


def seats(players: int, games: int, name: str, effect: str, points: int):
    run = simulate("classic", players=players, games=games, seed=SEED, rules=deck(name, effect, points))
    return run.seats.with_columns(variant=pl.lit(name), lineup=pl.lit("random")), run.rules


def table(players: int, games: int) -> dict:
    stand_in, _ = seats(players, games, *STAND_IN)
    rows = []
    for name, effect in CARDS.items():
        a, rules = seats(players, games, name, effect, 20)
        values = card_values(a, declared={name: declared_cards(rules)})
        price = card_balance(values).row(by_predicate=pl.col("card") == name, named=True)
        paired = paired_copy_effect(a, stand_in, declared_cards(rules)[0].column)
        check = agreement(values, name, REFERENCE, paired)
        rows.append([f"{name} (`{effect}`)",
                     f"{price['worth']:.0f} [{price['worth_low']:.0f}, {price['worth_high']:.0f}]",
                     f"{check['fit']:+.4f} ± {check['fit_se']:.4f}",
                     f"{check['paired']:+.4f} ± {check['paired_se']:.4f}",
                     f"{check['z']:+.2f}"])
        print(json.dumps(rows[-1], ensure_ascii=False))
    return {"caption": f"classic, {players} players",
            "setting": f"variant classic (108 cards and 3 blanks) plus 8 copies of the card (2 per colour, 20 "
                       f"points), rules as published, single rounds, {players} players, lineup random at every "
                       f"seat; {games:,} games per deck, seed {SEED}; deck B: the same with 8 copies of the Draw "
                       f"Two printed at 21 points in the card's place",
            "columns": ["card", "price, points [95 %]", "fit: v_card − v_draw_two", "paired study: δ",
                        "z (fit − paired)"],
            "rows": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    tables = [table(int(p), args.games) for p in args.players.split(",")]
    data = {
        "title": "Are the declared cards' prices right? A paired check",
        "about": "A declared card's *price* (docs/rules.md §8.9) is the printed points its value is worth on the "
                 "cell's line of value against printed points; its value is what holding one copy in the opening "
                 "hand instead of an average card of the deal changes in the holder's win probability, fitted over "
                 "the seats of one study (the card-value fit, cluster-robust by game). The paired study measures "
                 "the value by intervention: deck B puts a copy of the Draw Two in the card's place, so the same "
                 "seed deals the same hands, and δ, the slope of a seat's won(A) − won(B) on the copies it was "
                 "dealt, is what one copy being the card rather than a Draw Two is worth to its holder. The fit "
                 "predicts it from deck A alone as the card's value minus the Draw Two's. *z* is their difference "
                 "over the root of the sum of the three squared standard errors (conservative: the estimates share "
                 "the deals); |z| < 2 is agreement within the intervals. ± is one standard error, win probability "
                 "per copy.",
        "command": f"python analyses/card_prices.py --games {args.games} --players {args.players}",
        "measured": measured_since(started),
        "tables": tables,
    }
    write_text_atomic(args.out, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
