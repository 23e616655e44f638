"""Card-value balance: what one more card of a kind in the opening hand is worth in win probability.

For each group (variant, players, lineup) a linear probability model of a seat winning its round::

    won = Σ_k b_k · open_k + Σ_r c_r · [rel_dealer = r] + Σ_s d_s · [seat = s] + error

is fitted by least squares over all seat rows. The opening hand always holds ``hand_size`` cards, so
the counts sum to a constant and stand in for the intercept, and each ``b_k`` is identified only up to
a common shift. The reported value of card kind ``k`` is therefore a contrast that needs no reference
card: ``b_k − Σ_j w_j b_j`` with ``w_j`` the share of kind ``j`` among all dealt cards — the change in
win probability from holding a ``k`` instead of an average card of the deal. Standard errors are
cluster-robust by game (CR1; the seats of one round, and the rounds of one match, are dependent). Seat
dummies are included only when seat and dealer position are not collinear (a fixed first dealer).
Card kinds absent from the deck are left out; their printed points come from
:data:`unosim.game.cards.HAND_CLASS_POINTS`. Each declared card of a variant (docs/rules.md §2.7) is a
class of its own, counted by the engines in its slot's column (:mod:`unosim.analysis.card_prices`),
named and printed as declared.

The fit streams each group in batches of whole games and never holds the group or a float64 design
matrix in memory (a 10M-game cell has 40M seat rows):

1. The normal equations are exact integer sums: ``A'A`` for ``A = [opening counts | won | one-hot
   rel_dealer | one-hot seat]`` holds every entry of ``X'X`` and ``X'y``. It is a float32 matrix
   product over slices small enough that every partial sum is an integer below 2**24, hence exact. So
   ``X'X`` and ``X'y`` equal the textbook float64 products bit for bit, and so do the coefficients.
2. A second pass computes each game's score ``Σ_i x_i (y_i − x_i·b)`` in compiled loops over the int8
   columns, and the cluster-robust meat is the product of those per-game scores (summed in another
   order than the textbook product, so it agrees to rounding).

Games must arrive contiguous. A frame whose game ids decrease somewhere (an unsorted in-memory frame)
is sorted by game first, which holds it in memory; a dataset's parts hold increasing game ids.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np
import polars as pl
from numba import njit
from threadpoolctl import threadpool_limits

from ..game.cards import HAND_CLASS_POINTS, HAND_CLASSES
from ..game.custom_cards import OPEN_DECLARED
from ..game.protocol import MAX_PLAYERS
from .card_prices import DeclaredCard
from .distributions import normal_quantile
from .win_rates import CELL

OPEN_COLUMNS = tuple(f"open_{c}" for c in HAND_CLASSES)
COUNT_COLUMNS = (*OPEN_COLUMNS, *OPEN_DECLARED)
FIT_COLUMNS = ("game", "seat", "rel_dealer", "won", *COUNT_COLUMNS)
#: rows per streamed batch; a batch grows by the rows of the one game carried over from the previous one
BATCH_ROWS = 1 << 17
_FLOAT32_EXACT = 1 << 24  # float32 holds every integer up to 2**24 exactly
THREADS = 2  # batches worked on at once
T = TypeVar("T")


def card_values(seats: pl.LazyFrame | pl.DataFrame, by: Sequence[str] = CELL, confidence: float = 0.95,
                declared: Mapping[str, Sequence[DeclaredCard]] | None = None) -> pl.DataFrame:
    """One row per group and card kind present in the deck: ``card``, ``points`` (printed),
    ``estimate`` (value vs an average card, in win probability) with ``ci_low``/``ci_high``,
    ``std_error``, ``mean_count`` (mean held in an opening hand), ``n`` (seat rows), ``games``.
    ``declared``: per variant, its declared cards (:func:`.card_prices.declared_by_variant`), each a row
    of its own; ``by`` then holds ``variant``. A ValueError when a group holds declared cards that
    ``declared`` does not name, or when the seats predate their columns (a dataset of engine version 5)."""
    declared = declared or {}
    if declared and "variant" not in by:
        raise ValueError(f"card_values: declared cards are priced per variant; by={list(by)} lacks 'variant'")
    seats = seats.lazy()
    missing = [c for c in OPEN_DECLARED if c not in seats.collect_schema()]
    if missing:
        if declared:
            raise ValueError(f"card_values: the seats lack {missing[0]!r} (written before each declared card was "
                             f"counted, engine version 5): play the study again to price its declared cards")
        seats = seats.with_columns(pl.lit(0, pl.Int8).alias(c) for c in missing)   # no declared card then
    groups = seats.select(list(by)).unique().sort(list(by)).collect()
    tables = []
    for key in groups.iter_rows(named=True):
        group = seats.filter(*[pl.col(c) == v for c, v in key.items()]).select(FIT_COLUMNS)
        with threadpool_limits(1, user_api="blas"):  # threaded BLAS is slower here, badly so on busy cores
            fit = fit_card_values(group, confidence, declared.get(key.get("variant"), ()))
        tables.append(fit.select(
            *[pl.lit(v, groups.schema[c]).alias(c) for c, v in key.items()], pl.all()))
    return pl.concat(tables) if tables else pl.DataFrame()


def fit_card_values(group: pl.LazyFrame, confidence: float = 0.95,
                    declared: Sequence[DeclaredCard] = ()) -> pl.DataFrame:
    """The card-value table of one group of seat rows (columns :data:`FIT_COLUMNS`), streamed twice;
    ``declared`` names and prints the cards of the :data:`~unosim.game.custom_cards.OPEN_DECLARED`
    columns."""
    with ThreadPoolExecutor(1) as loader:
        loader.submit(_load_game_scores)  # numba's first load takes a second or two: overlap it with pass 1
        try:
            sums = _Sums.of(group)
        except _GamesOutOfOrder:
            group = group.sort("game", maintain_order=True)
            sums = _Sums.of(group)
    model = sums.model()
    if model is None:   # too few games to tell the cards' values apart: no row rather than a wrong one
        return _Model.empty_table()
    held = [COUNT_COLUMNS[i] for i in model.cards]
    named = {d.column: d for d in declared}
    unnamed = [c for c in held if c in OPEN_DECLARED and c not in named]
    if unnamed:
        raise ValueError(f"card_values: the seats hold declared cards in {unnamed[0]!r} but no card is declared "
                         f"there: pass declared= (card_prices.declared_by_variant of the cells)")

    def batch_meat(batch: pl.DataFrame) -> np.ndarray:
        scores = _game_scores(*_columns(batch, held), model.beta, model.players, model.seat_dummies)
        return scores @ scores.T

    meat = np.zeros((model.k, model.k))
    for part in _in_threads(batch_meat, _game_batches(group.select(*FIT_COLUMNS[:4], *held))):
        meat += part
    names = (*HAND_CLASSES, *(named[c].name if c in named else c for c in OPEN_DECLARED))
    points = (*HAND_CLASS_POINTS, *(named[c].points if c in named else 0 for c in OPEN_DECLARED))
    return model.table(meat, confidence, names, points)


# ---- pass 1: exact integer sums ---------------------------------------------------------------------
_C = len(COUNT_COLUMNS)
_Y, _REL, _SEAT = _C, _C + 1, _C + 1 + MAX_PLAYERS  # positions in _Sums.gram after the hand classes


@dataclass
class _Sums:
    """Exact sufficient statistics of the normal equations of one group: ``gram`` is A'A for the rows
    A = [opening counts of every hand class and declared card | won | one-hot rel_dealer | one-hot seat]."""

    gram: np.ndarray = field(default_factory=lambda: np.zeros((_SEAT + MAX_PLAYERS,) * 2, np.int64))
    games: int = 0

    @classmethod
    def of(cls, group: pl.LazyFrame) -> _Sums:
        sums = cls()
        for gram, games in _in_threads(lambda batch: cls.of_batch(*_columns(batch)), _game_batches(group)):
            sums.gram += gram
            sums.games += games
        return sums

    @staticmethod
    def of_batch(games, seat, rel_dealer, won, counts) -> tuple[np.ndarray, int]:
        """(the batch's part of ``gram``, its number of games)."""
        gram = np.zeros((_SEAT + MAX_PLAYERS,) * 2, np.int64)
        held = np.flatnonzero(counts.max(axis=0) > 0)
        positions = range(int(max(seat.max(), rel_dealer.max())) + 1)
        columns = [*held, _Y, *(_REL + r for r in positions), *(_SEAT + s for s in positions)]
        a = np.empty((len(seat), len(columns)), np.float32, order="F")
        for j, card in enumerate(held):
            a[:, j] = counts[:, card]
        a[:, len(held)] = won
        for r in positions:
            a[:, len(held) + 1 + r] = rel_dealer == r
            a[:, len(held) + 1 + len(positions) + r] = seat == r
        largest = max(int(counts.max(initial=0)), 1)
        step = max(_FLOAT32_EXACT // (largest * largest) - 1, 1)
        at = np.ix_(columns, columns)
        for lo in range(0, len(seat), step):
            part = a[lo:lo + step]
            gram[at] += np.rint(part.T @ part).astype(np.int64)
        return gram, int(np.count_nonzero(games[1:] != games[:-1])) + 1

    def model(self) -> _Model | None:
        """The design (present cards, dummies), X'X and X'y, and the least-squares coefficients; None when
        the games do not identify them (fewer than two games, fewer rows than coefficients, or a card
        count that moves with another: a singular X'X)."""
        gram = self.gram
        pairs = gram[_SEAT:, _REL:_SEAT]                                  # [seat, rel_dealer]: rows
        card_sums = gram[:_C, _REL:_SEAT].sum(axis=1)
        cards = np.flatnonzero(card_sums > 0)
        players = int(np.flatnonzero(pairs.sum(axis=1))[-1]) + 1
        seat_dummies = np.count_nonzero(pairs) > players
        # the columns of X: counts of the present cards, [rel_dealer = r] for r ≥ 1, [seat = s] for s ≥ 1
        columns = [*cards, *(_REL + r for r in range(1, players))]
        if seat_dummies:
            columns += [_SEAT + s for s in range(1, players)]
        xtx = gram[np.ix_(columns, columns)].astype(np.float64)
        xty = gram[columns, _Y].astype(np.float64)
        n = int(pairs.sum())
        if self.games < 2 or n <= len(columns) or np.linalg.matrix_rank(xtx) < len(columns):
            return None
        return _Model(cards=cards, players=players, seat_dummies=bool(seat_dummies), xtx=xtx,
                      beta=np.linalg.solve(xtx, xty), n=n, games=self.games, mean_count=card_sums[cards] / n)


@dataclass
class _Model:
    cards: np.ndarray         # indices into COUNT_COLUMNS of the cards present
    players: int
    seat_dummies: bool
    xtx: np.ndarray
    beta: np.ndarray
    n: int                    # seat rows
    games: int                # clusters
    mean_count: np.ndarray

    @property
    def k(self) -> int:
        return len(self.beta)

    @staticmethod
    def empty_table() -> pl.DataFrame:
        return pl.DataFrame(schema={"card": pl.String, "points": pl.Int64, **{c: pl.Float64 for c in (
            "estimate", "ci_low", "ci_high", "std_error", "mean_count")}, "n": pl.Int64, "games": pl.Int64})

    def table(self, meat: np.ndarray, confidence: float, names: Sequence[str],
              points: Sequence[int]) -> pl.DataFrame:
        n, k, g = self.n, self.k, self.games
        bread = np.linalg.inv(self.xtx)
        cov = bread @ meat @ bread * (g / (g - 1)) * ((n - 1) / (n - k))
        c = len(self.cards)
        weights = self.mean_count / self.mean_count.sum()
        contrasts = np.zeros((c, k))
        contrasts[:, :c] = np.eye(c) - weights[None, :]
        estimate = contrasts @ self.beta
        se = np.sqrt(np.einsum("ij,jk,ik->i", contrasts, cov, contrasts))
        z = normal_quantile(0.5 + confidence / 2)
        return pl.DataFrame({
            "card": [names[i] for i in self.cards], "points": [points[i] for i in self.cards],
            "estimate": estimate, "ci_low": estimate - z * se, "ci_high": estimate + z * se, "std_error": se,
            "mean_count": self.mean_count, "n": [n] * c, "games": [g] * c,
        })


# ---- pass 2: per-game scores ------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _game_scores(games, seat, rel_dealer, won, counts, beta, players, seat_dummies):
    """Column g: Σ over the rows i of the batch's g-th game of x_i (y_i − x_i·beta), x_i as in ``_Model``
    (``counts``: the present cards' columns only).

    Column by column over the (column-major) counts, which keeps every inner loop sequential."""
    n, c, k = counts.shape[0], counts.shape[1], len(beta)
    game = np.empty(n, np.int64)
    g = -1
    for i in range(n):
        if i == 0 or games[i] != games[i - 1]:
            g += 1
        game[i] = g
    rel_term, seat_term = np.zeros(MAX_PLAYERS), np.zeros(MAX_PLAYERS)
    for r in range(1, players):
        rel_term[r] = beta[c + r - 1]
        if seat_dummies:
            seat_term[r] = beta[c + players - 2 + r]
    residual = np.empty(n)
    for i in range(n):
        residual[i] = won[i] - rel_term[rel_dealer[i]] - seat_term[seat[i]]
    for j in range(c):
        column, b = counts[:, j], beta[j]
        for i in range(n):
            residual[i] -= column[i] * b
    out = np.zeros((k, g + 1))
    for j in range(c):
        column, row = counts[:, j], out[j]
        for i in range(n):
            row[game[i]] += column[i] * residual[i]
    for i in range(n):
        r, s = rel_dealer[i], seat[i]
        if r > 0:
            out[c + r - 1, game[i]] += residual[i]
        if seat_dummies and s > 0:
            out[c + players - 2 + s, game[i]] += residual[i]
    return out


def _load_game_scores() -> None:
    """Call :func:`_game_scores` once with the argument types of a dataset, so that it is loaded."""
    small = np.zeros(1, np.int8)
    _game_scores(np.zeros(1, np.int64), small, small, small, np.zeros((1, 1), np.int8, order="F"),
                 np.zeros(1), 1, False)


# ---- streaming ------------------------------------------------------------------------------------
def _columns(batch: pl.DataFrame, counts: Sequence[str] = COUNT_COLUMNS) -> tuple[np.ndarray, ...]:
    """(game, seat, rel_dealer, won as int8, the ``counts`` columns as a column-major int8 matrix)."""
    return (batch["game"].to_numpy(), batch["seat"].to_numpy(), batch["rel_dealer"].to_numpy(),
            batch["won"].cast(pl.Int8).to_numpy(), batch.select(counts).to_numpy(order="fortran"))


def _in_threads(work: Callable[[pl.DataFrame], T], batches: Iterable[pl.DataFrame]) -> Iterator[T]:
    """``work(batch)`` for every batch on THREADS threads (the matrix products and the compiled loops
    release the GIL), results in the order of the batches; at most THREADS + 1 batches in memory."""
    with ThreadPoolExecutor(THREADS) as pool:
        pending: deque[Future[T]] = deque()
        for batch in batches:
            pending.append(pool.submit(work, batch))
            if len(pending) > THREADS:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


class _GamesOutOfOrder(Exception):
    """Game ids decrease somewhere: the rows of a game may not be contiguous."""


def _game_batches(group: pl.LazyFrame) -> Iterator[pl.DataFrame]:
    """The group's rows in batches of about BATCH_ROWS that never split a game. Raises
    :class:`_GamesOutOfOrder` unless game ids never decrease (so that each game is contiguous)."""
    carry, previous = None, None
    for chunk in group.collect_batches(chunk_size=BATCH_ROWS, maintain_order=True):
        if chunk.height == 0:
            continue
        games = chunk["game"].to_numpy()
        if (previous is not None and games[0] < previous) or np.any(games[1:] < games[:-1]):
            raise _GamesOutOfOrder
        previous = games[-1]
        batch = chunk if carry is None else pl.concat([carry, chunk])
        games = batch["game"].to_numpy()
        tail = int(np.flatnonzero(np.r_[True, games[1:] != games[:-1]])[-1])  # the last game may go on
        if tail:
            yield batch.slice(0, tail)
        carry = batch.slice(tail)
    if carry is not None and carry.height:
        yield carry
