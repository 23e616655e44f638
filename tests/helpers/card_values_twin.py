"""The card-value regression as first written (whole float64 design, numpy products): the slow, obvious
twin that :mod:`unosim.analysis.card_values` (streamed, exact integer sums, compiled scores) must match.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

import numpy as np
import polars as pl
from scipy import stats
from threadpoolctl import threadpool_limits

from unosim.analysis.win_rates import CELL
from unosim.game.cards import HAND_CLASS_POINTS, HAND_CLASSES

OPEN_COLUMNS = tuple(f"open_{c}" for c in HAND_CLASSES)
BATCH_ROWS = 1_000_000


def card_values_twin(seats: pl.LazyFrame | pl.DataFrame, by: Sequence[str] = CELL,
                confidence: float = 0.95) -> pl.DataFrame:
    """One row per group and card kind present in the deck: ``card``, ``points`` (printed),
    ``estimate`` (value vs an average card, in win probability) with ``ci_low``/``ci_high``,
    ``std_error``, ``mean_count`` (mean held in an opening hand), ``n`` (seat rows), ``games``."""
    seats = seats.lazy()
    groups = seats.select(list(by)).unique().sort(list(by)).collect()
    tables = []
    for key in groups.iter_rows(named=True):
        group = seats.filter(*[pl.col(c) == v for c, v in key.items()])
        design, won, starts, cards = _design(group)
        with threadpool_limits(1, user_api="blas"):  # threaded BLAS is slower here, badly so on busy cores
            fit = _fit(design, won, starts, cards, confidence)
        tables.append(fit.select(
            *[pl.lit(v, groups.schema[c]).alias(c) for c, v in key.items()], pl.all()))
    return pl.concat(tables) if tables else pl.DataFrame()


def _design(group: pl.LazyFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
    """(int8 design matrix: card counts then dummies, won, first row of each game, card names).

    Built column by column into one preallocated array: at 10M games the seat rows are 40M, and the
    frame plus the matrix must stay well under the 4 GB the analyses may use.
    """
    frame = _games_contiguous(group.select("game", "seat", "rel_dealer", "won", *OPEN_COLUMNS).collect())
    present = [c for c in OPEN_COLUMNS if frame[c].max() > 0]
    players = int(frame["seat"].max()) + 1
    seat_varies = frame.select(pl.struct("seat", "rel_dealer").n_unique()).item() > players
    seat, rel_dealer = frame["seat"].to_numpy(), frame["rel_dealer"].to_numpy()
    dummies = [rel_dealer == r for r in range(1, players)]
    if seat_varies:
        dummies += [seat == s for s in range(1, players)]
    design = np.empty((frame.height, len(present) + len(dummies)), np.int8, order="F")
    for j, column in enumerate(present):
        design[:, j] = frame[column].to_numpy()
    for j, dummy in enumerate(dummies, start=len(present)):
        design[:, j] = dummy
    starts = _game_starts(frame["game"].to_numpy())
    return design, frame["won"].to_numpy(), starts, [c.removeprefix("open_") for c in present]


def _fit(design: np.ndarray, won: np.ndarray, starts: np.ndarray, cards: list[str],
         confidence: float) -> pl.DataFrame:
    n, k = design.shape
    batches = _batches(starts, n)
    xtx, xty = np.zeros((k, k)), np.zeros(k)
    for lo, hi in batches:
        x = design[lo:hi].astype(np.float64, order="C")
        xtx += x.T @ x
        xty += x.T @ won[lo:hi]
    beta = np.linalg.solve(xtx, xty)
    meat = np.zeros((k, k))
    for lo, hi in batches:
        x = design[lo:hi].astype(np.float64, order="C")
        score = x * (won[lo:hi] - x @ beta)[:, None]
        local = starts[(starts >= lo) & (starts < hi)] - lo
        per_game = np.add.reduceat(score, local, axis=0)
        meat += per_game.T @ per_game
    g = len(starts)
    bread = np.linalg.inv(xtx)
    cov = bread @ meat @ bread * (g / (g - 1)) * ((n - 1) / (n - k))

    c = len(cards)
    mean_count = design[:, :c].mean(axis=0)
    weights = mean_count / mean_count.sum()
    contrasts = np.zeros((c, k))
    contrasts[:, :c] = np.eye(c) - weights[None, :]
    estimate = contrasts @ beta
    se = np.sqrt(np.einsum("ij,jk,ik->i", contrasts, cov, contrasts))
    z = stats.norm.ppf(0.5 + confidence / 2)
    return pl.DataFrame({
        "card": cards, "points": [HAND_CLASS_POINTS[HAND_CLASSES.index(card)] for card in cards],
        "estimate": estimate, "ci_low": estimate - z * se, "ci_high": estimate + z * se, "std_error": se,
        "mean_count": mean_count, "n": [n] * c, "games": [g] * c,
    })


def _games_contiguous(frame: pl.DataFrame) -> pl.DataFrame:
    """The rows of each game in one block (a dataset scan already is; other frames get sorted)."""
    games = frame["game"]
    if (games.diff().fill_null(0) != 0).sum() + 1 == games.n_unique():
        return frame
    return frame.sort("game", maintain_order=True)


def _game_starts(games: np.ndarray) -> np.ndarray:
    return np.flatnonzero(np.r_[True, games[1:] != games[:-1]])


def _batches(starts: np.ndarray, n: int) -> list[tuple[int, int]]:
    """Row ranges of about BATCH_ROWS rows that never split a game."""
    cuts = [0]
    while n - cuts[-1] > BATCH_ROWS:
        cuts.append(int(starts[np.searchsorted(starts, cuts[-1] + BATCH_ROWS)]) if
                    starts[-1] > cuts[-1] + BATCH_ROWS else n)
    if cuts[-1] != n:
        cuts.append(n)
    return list(pairwise(cuts))
