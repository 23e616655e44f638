"""Declared cards priced by the card-value fit (unosim.analysis.card_prices), each card on its own.

Two decks of classic at 4 players, random play, single rounds: one declares a Draw Three and a wild
"everyone draws one", the other a copy of the Skip printed at 21 points (so that it is not merged into
the Skips), a coloured Draw Four and a card that makes its own player draw two. Tolerances are
``Z`` standard errors, the two estimates of a difference treated as independent.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import polars as pl
import pytest

import unosim
from unosim.analysis.card_balance import card_balance
from unosim.analysis.card_prices import (
    PRICE_SUBJECT,
    DeclaredCard,
    card_prices,
    declared_by_variant,
    declared_cards,
    price_columns,
    price_line,
)
from unosim.analysis.card_values import OPEN_COLUMNS, card_values
from unosim.analysis.checker import check_claims
from unosim.analysis.findings import claims
from unosim.game.custom_cards import OPEN_DECLARED

GAMES, PLAYERS, Z = 60_000, 4, 3.0
TWO_CARDS = {"draw_three": {"coloured": True, "effects": ["draw:3"], "points": 20, "count": 2},
             "everyone_draws": {"wild": True, "effects": ["wild", "others_draw:1"], "points": 40, "count": 4}}
THREE_CARDS = {"my_skip": {"coloured": True, "effects": ["skip"], "points": 21, "count": 2},
               "hard_draw": {"coloured": True, "effects": ["draw:4"], "points": 20, "count": 1},
               "burden": {"coloured": True, "effects": ["self_draw:2"], "points": 20, "count": 1}}
DECKS = {"two": TWO_CARDS, "three": THREE_CARDS}
pytestmark = pytest.mark.slow


@cache
def played(deck: str) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(the seats, the card-value table) of classic at 4 players with the deck's declared cards."""
    run = unosim.simulate("classic", players=PLAYERS, games=GAMES, seed=11,
                          rules={"match_mode": "single_round", "cards": DECKS[deck]})
    seats = run.seats.with_columns(variant=pl.lit("v"), lineup=pl.lit("random"))
    return seats, card_values(seats, declared={"v": declared_cards(run.rules)})


def row(table: pl.DataFrame, card: str) -> dict:
    return table.row(by_predicate=pl.col("card") == card, named=True)


def points_se(r: dict) -> float:
    """The standard error of a price, in points (its 95 % interval's half-width over 1.96)."""
    return (r["worth_high"] - r["worth_low"]) / (2 * 1.959964)


def test_each_declared_card_is_counted_in_its_own_column():
    seats, _ = played("two")
    # classic's 108 cards, 3 blanks, 8 Draw Threes and 4 everyone-draws: 7 · copies / 123 held on average
    for column, copies in (("open_declared_1", 8), ("open_declared_2", 4)):
        held = seats[column].cast(pl.Float64)
        assert abs(held.mean() - 7 * copies / 123) < Z * held.std() / np.sqrt(len(held))
    assert seats.select(OPEN_DECLARED[2:]).max().row(0) == (0,) * len(OPEN_DECLARED[2:])
    # every card of an opening hand is counted once: the built-in classes and the declared cards
    assert (seats.select(pl.sum_horizontal(*OPEN_COLUMNS, *OPEN_DECLARED)).to_series() == 7).all()


def test_two_declared_cards_get_a_value_and_a_price_each():
    seats, table = played("two")
    for name, column, points in (("draw_three", "open_declared_1", 20), ("everyone_draws", "open_declared_2", 40)):
        r = row(table, name)
        assert r["points"] == points and r["mean_count"] == pytest.approx(seats[column].cast(pl.Float64).mean())
    prices = card_prices(card_balance(table))
    assert prices["card"].sort().to_list() == ["draw_three", "everyone_draws"]
    assert all(r["worth_low"] < r["worth"] < r["worth_high"] for r in prices.iter_rows(named=True))


def test_a_declared_copy_of_the_skip_is_priced_as_the_skip():
    _, table = played("three")
    copy, builtin = row(table, "my_skip"), row(table, "skip")
    assert abs(copy["estimate"] - builtin["estimate"]) <= Z * np.hypot(copy["std_error"], builtin["std_error"])
    balance = card_balance(table)
    copy, builtin = row(balance, "my_skip"), row(balance, "skip")
    assert abs(copy["worth"] - builtin["worth"]) <= Z * np.hypot(points_se(copy), points_se(builtin))


def test_declared_cards_with_opposite_effects_are_priced_in_their_order():
    """Making the next seat draw four is worth more to its holder than drawing two itself; the latter is
    worth less than an average card."""
    _, table = played("three")
    burden = row(table, "burden")
    assert burden["estimate"] < -Z * burden["std_error"]
    balance = card_balance(table)
    attack, burden = row(balance, "hard_draw"), row(balance, "burden")
    assert attack["worth"] - burden["worth"] > Z * np.hypot(points_se(attack), points_se(burden))


def test_the_price_is_the_points_its_value_is_worth_on_the_points_line():
    _, table = played("two")
    balance = card_balance(table)
    r = row(card_prices(balance), "draw_three")
    line = row(balance, "draw_three")
    assert line["slope"] > 0
    # the points whose place on the line is the card's value
    assert line["expected"] + (r["worth"] - 20) * line["slope"] == pytest.approx(r["value"])
    assert r["worth_low"] < r["worth"] < r["worth_high"]
    assert price_line(r) == (f"draw_three: worth about {r['worth']:.0f} points at 4 players "
                             f"[{r['worth_low']:.0f}, {r['worth_high']:.0f}] (printed 20)")


def test_a_cell_whose_points_line_does_not_rise_prices_nothing():
    _, table = played("two")
    flat = card_balance(table).with_columns(slope=pl.lit(-0.001)).with_columns(price_columns())
    r = row(card_prices(flat), "draw_three")
    assert r["worth"] is None
    assert price_line(r).startswith("draw_three: no price at 4 players (printed 20)")


def test_declared_by_variant_reads_the_cells_rules_keys():
    one = "classic(cards=[draw_three:coloured,effects=draw:3,points=20,count=2])"
    two = ("classic(cards=[draw_three:coloured,effects=draw:3,points=20,count=2;"
           "everyone_draws:wild,effects=wild+others_draw:1,points=40,count=4])")
    same = "classic(cards=[my_skip:coloured,effects=skip,points=20,count=1])"   # is the built-in Skip
    cells = pl.DataFrame({"variant": ["a", "b", "c", "plain"], "rules_key": [one, two, same, "classic"]})
    assert declared_by_variant(cells) == {
        "a": (DeclaredCard("draw_three", 20, "open_declared_1"),),
        "b": (DeclaredCard("draw_three", 20, "open_declared_1"), DeclaredCard("everyone_draws", 40, "open_declared_2"))}


def test_each_price_is_a_finding_checked_against_the_card_balance_table():
    _, table = played("two")
    tables = {"card_balance": card_balance(table)}
    found = claims(tables)
    prices = card_prices(tables["card_balance"])
    for name in ("draw_three", "everyone_draws"):
        r = row(prices, name)
        assert [c.text.split(": the printed")[0] for c in found if c.subject == PRICE_SUBJECT + name] == [
            f"{name} (v, lineup random): worth about {r['worth']:.0f} points at 4 players "
            f"[{r['worth_low']:.0f}, {r['worth_high']:.0f}] (printed {r['points']})"]
    assert check_claims(tables, found) == []
    dearer = tables["card_balance"].with_columns(
        worth=pl.when(pl.col("card") == "everyone_draws").then(pl.col("worth") + 5).otherwise(pl.col("worth")))
    assert any(p.startswith(PRICE_SUBJECT + "everyone_draws") for p in check_claims({"card_balance": dearer}, found))


def test_declared_counts_the_caller_does_not_name_are_refused():
    seats, _ = played("two")
    with pytest.raises(ValueError, match="open_declared_1.*but no card is declared there"):
        card_values(seats)
    with pytest.raises(ValueError, match="lack 'open_declared_1'.*play the study again"):
        card_values(seats.drop(OPEN_DECLARED), declared={"v": (DeclaredCard("draw_three", 20, "open_declared_1"),)})
