"""Declared cards' prices checked by a paired study (unosim.analysis.price_check).

Classic at 4 players, random play, single rounds; each deck declares one card in slot 1 (coloured, 2 per
colour), and deck B a copy of the Draw Two printed at 21 points there: one seed deals the same hands to
all three. At 40,000 games a value's standard error is about 0.0023 (win probability per copy), so the
fit and the paired study must agree within ``Z`` of the combined error, and a card that makes its own
player draw two (value about −0.037 against the Draw Two) is told apart from the Draw Two by far more.
"""

from __future__ import annotations

from functools import cache

import polars as pl
import pytest

import unosim
from unosim.analysis.card_prices import declared_cards
from unosim.analysis.card_values import card_values
from unosim.analysis.price_check import agreement, paired_copy_effect

GAMES, PLAYERS, SEED, Z = 40_000, 4, 5, 3.0
COLUMN = "open_declared_1"
pytestmark = pytest.mark.slow


@cache
def played(name: str, effect: str, points: int = 20, seed: int = SEED) -> tuple[pl.DataFrame, tuple]:
    """(the seats, the declared cards) of classic with the card declared."""
    run = unosim.simulate("classic", players=PLAYERS, games=GAMES, seed=seed, rules={
        "match_mode": "single_round",
        "cards": {name: {"coloured": True, "effects": [effect], "points": points, "count": 2}}})
    return run.seats.with_columns(variant=pl.lit("v"), lineup=pl.lit("random")), declared_cards(run.rules)


def stand_in() -> pl.DataFrame:
    return played("copy_of_draw_two", "draw:2", 21)[0]


@pytest.mark.parametrize("name, effect", [("draw_three", "draw:3"), ("burden", "self_draw:2")])
def test_the_fit_of_one_deck_agrees_with_the_paired_study(name, effect):
    seats, declared = played(name, effect)
    values = card_values(seats, declared={"v": declared})
    check = agreement(values, name, "draw_two", paired_copy_effect(seats, stand_in(), COLUMN))
    assert abs(check["z"]) <= Z, check


def test_the_paired_study_tells_a_bad_card_from_the_draw_two():
    seats, _ = played("burden", "self_draw:2")
    paired = paired_copy_effect(seats, stand_in(), COLUMN)
    assert paired["ci_high"] < 0 and paired["estimate"] < -Z * paired["std_error"]
    assert paired["games"] == GAMES


def test_decks_that_deal_other_hands_are_not_paired():
    other_seed, _ = played("draw_three", "draw:3", seed=SEED + 1)
    with pytest.raises(ValueError, match="did not deal the same hands game by game"):
        paired_copy_effect(other_seed, stand_in(), COLUMN)
