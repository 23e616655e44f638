"""Declared cards priced by the card-value fit (unosim.analysis.card_prices), checked by a paired study.

Every run below plays the same deals (same seed, same deck layout: a declared card takes the same deck
positions in each run), so a card that copies the Draw Two must be worth what the Draw Two is worth,
and a Draw Three at least as much. The tolerances treat the two estimates as independent, which
overstates the error of a difference of positively correlated estimates: the checks are conservative.
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
    DeclaredClass,
    card_prices,
    declared_classes,
    price_columns,
    price_line,
)
from unosim.analysis.card_values import OPEN_COLUMNS, card_values
from unosim.analysis.checker import check_claims
from unosim.analysis.findings import claims

GAMES, PLAYERS, Z = 60_000, 4, 3.0


@cache
def priced(name: str, effect: str, points: int) -> tuple[pl.DataFrame, pl.Series]:
    """The card-value table of classic at 4 players, random play, with ``count=2`` of a declared card
    per colour, and the rest of each opening hand that the built-in classes leave."""
    rules = {"match_mode": "single_round",
             "cards": {name: {"coloured": True, "effects": [effect], "points": points, "count": 2}}}
    run = unosim.simulate("classic", players=PLAYERS, games=GAMES, seed=11, rules=rules)
    seats = run.seats.with_columns(variant=pl.lit("v"), lineup=pl.lit("random"))
    rest = seats.select(run.rules.hand_size - pl.sum_horizontal(OPEN_COLUMNS)).to_series()
    assert rest.min() >= 0
    table = card_values(seats, declared={"v": DeclaredClass(name, points, run.rules.hand_size)})
    return table, rest


def value(table: pl.DataFrame, card: str) -> tuple[float, float]:
    row = table.row(by_predicate=pl.col("card") == card, named=True)
    return row["estimate"], row["std_error"]


def test_the_declared_class_is_the_rest_of_the_hand_and_takes_the_cards_name():
    table, rest = priced("my_draw_two", "draw:2", 21)
    # 8 copies in classic's 119-card deck (108, 3 blanks, 8 declared): 7 · 8 / 119 held on average
    expected = 7 * 8 / 119
    assert abs(rest.mean() - expected) < Z * rest.std() / np.sqrt(len(rest))
    row = table.row(by_predicate=pl.col("card") == "my_draw_two", named=True)
    assert row["points"] == 21 and row["mean_count"] == pytest.approx(rest.mean())
    assert "declared" not in table["card"].to_list()


def test_a_declared_copy_of_the_draw_two_is_priced_as_the_draw_two():
    table, _ = priced("my_draw_two", "draw:2", 21)
    (copy, se_copy), (builtin, se_builtin) = value(table, "my_draw_two"), value(table, "draw_two")
    assert builtin > 0   # a Draw Two is worth more than an average card: the fit sees the cards at all
    assert abs(copy - builtin) <= Z * np.hypot(se_copy, se_builtin)


def test_a_draw_three_is_priced_at_least_as_a_draw_two_on_the_same_deals():
    threes, _ = priced("draw_three", "draw:3", 20)
    twos, _ = priced("my_draw_two", "draw:2", 21)
    held = [c for c in twos["card"] if c != "my_draw_two"]
    same_deals = threes.filter(pl.col("card").is_in(held)).select("card", "mean_count")
    assert same_deals.equals(twos.filter(pl.col("card").is_in(held)).select("card", "mean_count"))
    (three, se_three), (two, se_two) = value(threes, "draw_three"), value(twos, "my_draw_two")
    assert three - two >= -Z * np.hypot(se_three, se_two)


def test_the_price_is_the_points_its_value_is_worth_on_the_points_line():
    table, _ = priced("draw_three", "draw:3", 20)
    balance = card_balance(table)
    prices = card_prices(balance)
    assert prices["card"].to_list() == ["draw_three"]
    row = prices.row(0, named=True)
    line = balance.row(by_predicate=pl.col("card") == "draw_three", named=True)
    assert line["slope"] > 0
    # the points whose place on the line is the card's value
    assert line["expected"] + (row["worth"] - 20) * line["slope"] == pytest.approx(row["value"])
    assert row["worth_low"] < row["worth"] < row["worth_high"]
    assert price_line(row) == (f"draw_three: worth about {row['worth']:.0f} points at 4 players "
                               f"[{row['worth_low']:.0f}, {row['worth_high']:.0f}] (printed 20)")


def test_a_cell_whose_points_line_does_not_rise_prices_nothing():
    table, _ = priced("draw_three", "draw:3", 20)
    flat = card_balance(table).with_columns(slope=pl.lit(-0.001)).with_columns(price_columns())
    row = card_prices(flat).row(0, named=True)
    assert row["worth"] is None
    assert price_line(row).startswith("draw_three: no price at 4 players (printed 20)")


def test_declared_classes_read_the_cells_rules_keys():
    one = "classic(cards=[draw_three:coloured,effects=draw:3,points=20,count=2])"
    two = ("classic(cards=[draw_three:coloured,effects=draw:3,points=20,count=2;"
           "everyone_draws:wild,effects=wild+others_draw:1,points=40,count=4])")
    same = "classic(cards=[my_skip:coloured,effects=skip,points=20,count=1])"   # is the built-in Skip
    cells = pl.DataFrame({"variant": ["a", "b", "c", "plain"], "rules_key": [one, two, same, "classic"]})
    classes = declared_classes(cells)
    assert classes == {"a": DeclaredClass("draw_three", 20, 7),
                       # 8 copies at 20 and 4 at 40: their mean, 26.7, rounded
                       "b": DeclaredClass("draw_three+everyone_draws", 27, 7)}


def test_the_price_is_a_finding_checked_against_the_card_balance_table():
    table, _ = priced("draw_three", "draw:3", 20)
    tables = {"card_balance": card_balance(table)}
    found = claims(tables)
    prices = [c for c in found if c.subject == PRICE_SUBJECT + "draw_three"]
    row = card_prices(tables["card_balance"]).row(0, named=True)
    assert [c.text.split(": the printed")[0] for c in prices] == [
        f"draw_three (v, lineup random): worth about {row['worth']:.0f} points at 4 players "
        f"[{row['worth_low']:.0f}, {row['worth_high']:.0f}] (printed 20)"]
    assert check_claims(tables, found) == []
    dearer = tables["card_balance"].with_columns(
        worth=pl.when(pl.col("card") == "draw_three").then(pl.col("worth") + 5).otherwise(pl.col("worth")))
    assert any(p.startswith(PRICE_SUBJECT + "draw_three") for p in check_claims({"card_balance": dearer}, found))
