"""The streamed card-value regression against its slow obvious twin (tests/helpers/card_values_twin.py).

The coefficients rest on exact integer sums, so the estimates agree to rounding; the standard errors
sum the per-game scores in another order, so they agree to 1e-10 relative.
"""

from __future__ import annotations

import importlib

import numpy as np
import polars as pl
import pytest
from card_values_twin import card_values_twin
from polars.testing import assert_frame_equal

from unosim.game.cards import HAND_CLASSES
from unosim.store.reader import open_dataset

cv = importlib.import_module("unosim.analysis.card_values")  # the package exports the function of that name
FLOATS = ("estimate", "ci_low", "ci_high", "std_error", "mean_count")


def assert_same_fit(new: pl.DataFrame, old: pl.DataFrame) -> None:
    assert_frame_equal(new.drop(FLOATS), old.drop(FLOATS))
    for column in FLOATS:
        np.testing.assert_allclose(new[column].to_numpy(), old[column].to_numpy(), rtol=1e-10, atol=0,
                                   err_msg=column)


def synthetic_seats(games: int, players: int, hand: int, seed: int, dealer_moves: bool) -> pl.DataFrame:
    """Seat rows with multinomial opening hands over 5 card kinds and a known linear win probability."""
    rng = np.random.default_rng(seed)
    counts = rng.multinomial(hand, [0.35, 0.25, 0.2, 0.15, 0.05], size=games * players)
    p_win = np.clip(0.2 + counts @ np.array([0.0, 0.01, 0.04, -0.02, 0.03]) / hand * 7 - 0.1, 0, 1)
    seat = np.tile(np.arange(players), games)
    dealer = rng.integers(0, players, games) if dealer_moves else np.zeros(games, np.int64)
    frame = pl.DataFrame({"game": np.repeat(np.arange(games), players), "seat": seat.astype(np.int8),
                          "rel_dealer": ((seat - np.repeat(dealer, players)) % players).astype(np.int8),
                          "won": rng.random(len(p_win)) < p_win,
                          "variant": "synthetic", "players": np.int8(players), "lineup": "random"})
    opening = {f"open_{c}": np.zeros(len(frame), np.int8) for c in HAND_CLASSES}
    for i, card in enumerate(("n1", "n5", "skip", "wild", "wd4")):
        opening[f"open_{card}"] = counts[:, i].astype(np.int8)
    return frame.with_columns(**opening)


@pytest.mark.parametrize("dealer_moves", [True, False], ids=["seat_dummies", "no_seat_dummies"])
def test_streamed_fit_matches_the_twin_across_many_batches(monkeypatch, dealer_moves):
    frame = synthetic_seats(3000, 4, 7, seed=1, dealer_moves=dealer_moves)
    monkeypatch.setattr(cv, "BATCH_ROWS", 997)  # batches end inside games
    batches = list(cv._game_batches(frame.lazy()))
    assert len(batches) > 10
    assert pl.concat(batches).equals(frame)
    assert all(not set(a["game"]) & set(b["game"]) for a, b in zip(batches, batches[1:], strict=False))
    new, old = cv.card_values(frame), card_values_twin(frame)
    assert (new["std_error"] > 0).all()
    assert_same_fit(new, old)


def test_big_hands_are_summed_exactly_in_small_slices(monkeypatch):
    """Counts up to 40 per kind: the float32 products must be cut into slices whose sums stay exact."""
    frame = synthetic_seats(2000, 3, 40, seed=2, dealer_moves=True)
    monkeypatch.setattr(cv, "_FLOAT32_EXACT", 1 << 16)  # slices of ~40 rows: many partial products
    assert_same_fit(cv.card_values(frame), card_values_twin(frame))


def test_rows_out_of_game_order_are_sorted_first():
    frame = synthetic_seats(1500, 3, 7, seed=3, dealer_moves=True)
    shuffled = frame.sample(fraction=1.0, shuffle=True, seed=4)
    assert_same_fit(cv.card_values(shuffled), card_values_twin(frame))


def test_study_datasets_match_the_twin(monkeypatch, small_dataset, match_dataset):  # noqa: F811
    monkeypatch.setattr(cv, "BATCH_ROWS", 1009)  # matches of several rounds span batches too
    for path in (small_dataset, match_dataset):
        seats = open_dataset(path).seats
        assert_same_fit(cv.card_values(seats), card_values_twin(seats))
