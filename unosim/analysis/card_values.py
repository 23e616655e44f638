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
:data:`unosim.cards.HAND_CLASS_POINTS`.

The fit streams each group in batches of whole games and never holds the group or a float64 design
matrix in memory (a 10M-game cell has 40M seat rows):

1. The normal equations are exact integer sums. ``[H | won]'[H | won]`` (``H`` the opening counts) is
   a float32 matrix product over slices small enough that every partial sum is an integer below 2**24,
   hence exact; the dummy blocks are per-(seat, dealer position) sums. So ``X'X`` and ``X'y`` equal the
   textbook float64 products bit for bit, and so do the coefficients.
2. A second pass computes each game's score ``Σ_i x_i (y_i − x_i·b)`` in one compiled loop over the int8
   columns, and the cluster-robust meat is the product of those per-game scores.

Games must arrive contiguous; a frame whose game ids do not increase from one game to the next (an
unsorted in-memory frame) is sorted by game first, which holds it in memory.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
import polars as pl
from numba import njit
from scipy import stats
from threadpoolctl import threadpool_limits

from ..cards import HAND_CLASS_POINTS, HAND_CLASSES
from ..engine.layout import MAX_PLAYERS
from .win_rates import CELL

OPEN_COLUMNS = tuple(f"open_{c}" for c in HAND_CLASSES)
FIT_COLUMNS = ("game", "seat", "rel_dealer", "won", *OPEN_COLUMNS)
#: rows per streamed batch; a batch grows by the rows of the one game carried over from the previous one
BATCH_ROWS = 1 << 19
_FLOAT32_EXACT = 1 << 24  # float32 holds every integer up to 2**24 exactly


def card_values(seats: pl.LazyFrame | pl.DataFrame, by: Sequence[str] = CELL,
                confidence: float = 0.95) -> pl.DataFrame:
    """One row per group and card kind present in the deck: ``card``, ``points`` (printed),
    ``estimate`` (value vs an average card, in win probability) with ``ci_low``/``ci_high``,
    ``std_error``, ``mean_count`` (mean held in an opening hand), ``n`` (seat rows), ``games``."""
    seats = seats.lazy()
    groups = seats.select(list(by)).unique().sort(list(by)).collect()
    tables = []
    for key in groups.iter_rows(named=True):
        group = seats.filter(*[pl.col(c) == v for c, v in key.items()]).select(FIT_COLUMNS)
        with threadpool_limits(1, user_api="blas"):  # threaded BLAS is slower here, badly so on busy cores
            fit = fit_card_values(group, confidence)
        tables.append(fit.select(
            *[pl.lit(v, groups.schema[c]).alias(c) for c, v in key.items()], pl.all()))
    return pl.concat(tables) if tables else pl.DataFrame()


def fit_card_values(group: pl.LazyFrame, confidence: float = 0.95) -> pl.DataFrame:
    """The card-value table of one group of seat rows (columns :data:`FIT_COLUMNS`), streamed twice."""
    try:
        sums = _Sums.of(group)
    except _GamesOutOfOrder:
        group = group.sort("game", maintain_order=True)
        sums = _Sums.of(group)
    model = sums.model()
    meat = np.zeros((model.k, model.k))
    for batch in _game_batches(group):
        scores = _game_scores(*_columns(batch), model.cards, model.beta, model.players, model.seat_dummies)
        meat += scores.T @ scores
    return model.table(meat, confidence)


# ---- pass 1: exact integer sums ---------------------------------------------------------------------
@dataclass
class _Sums:
    """Exact sufficient statistics of the normal equations of one group."""

    #: [H | won]'[H | won] over all rows (H: the opening counts of every hand class)
    gram: np.ndarray = field(default_factory=lambda: np.zeros((len(HAND_CLASSES) + 1,) * 2, np.int64))
    #: per (seat, rel_dealer): Σ H (one column per hand class), Σ won, row count
    position: np.ndarray = field(
        default_factory=lambda: np.zeros((MAX_PLAYERS * MAX_PLAYERS, len(HAND_CLASSES) + 2), np.int64))
    games: int = 0

    @classmethod
    def of(cls, group: pl.LazyFrame) -> _Sums:
        sums = cls()
        for batch in _game_batches(group):
            sums.add(batch)
        return sums

    def add(self, batch: pl.DataFrame) -> None:
        games, seat, rel_dealer, won, counts = _columns(batch)
        n, c = counts.shape
        a = np.empty((n, c + 1), np.float32, order="F")
        a[:, :c] = counts
        a[:, c] = won
        largest = max(int(counts.max(initial=0)), 1)
        step = max(_FLOAT32_EXACT // (largest * largest) - 1, 1)
        for lo in range(0, n, step):
            part = a[lo:lo + step]
            self.gram += np.rint(part.T @ part).astype(np.int64)
        key = seat.astype(np.int64) * MAX_PLAYERS + rel_dealer
        size = MAX_PLAYERS * MAX_PLAYERS
        for j in range(c + 1):
            self.position[:, j] += np.rint(np.bincount(key, weights=a[:, j], minlength=size)).astype(np.int64)
        self.position[:, c + 1] += np.bincount(key, minlength=size)
        self.games += int(np.count_nonzero(games[1:] != games[:-1])) + 1 if n else 0

    def model(self) -> _Model:
        """The design (present cards, dummies), X'X and X'y, and the least-squares coefficients."""
        c_all = len(HAND_CLASSES)
        counts = self.position[:, c_all + 1].reshape(MAX_PLAYERS, MAX_PLAYERS)  # [seat, rel_dealer]
        col_sums = self.position[:, :c_all].sum(axis=0)
        cards = np.flatnonzero(col_sums > 0)
        players = int(np.flatnonzero(counts.sum(axis=1))[-1]) + 1
        seat_dummies = np.count_nonzero(counts) > players
        h = self.position[:, :c_all].reshape(MAX_PLAYERS, MAX_PLAYERS, c_all)[:, :, cards]
        y = self.position[:, c_all].reshape(MAX_PLAYERS, MAX_PLAYERS)
        # the columns of X: counts of the present cards, [rel_dealer = r] for r ≥ 1, [seat = s] for s ≥ 1
        blocks_h = [h.sum(axis=0)[1:players].T]                       # Σ counts over rows with rel_dealer = r
        blocks_n = [np.diag(counts.sum(axis=0)[1:players])]
        blocks_y = [y.sum(axis=0)[1:players]]
        if seat_dummies:
            blocks_h.append(h.sum(axis=1)[1:players].T)
            blocks_y.append(y.sum(axis=1)[1:players])
            cross = counts[1:players, 1:players].T                  # [rel r, seat s]: rows with both
            blocks_n = [np.block([[blocks_n[0], cross], [cross.T, np.diag(counts.sum(axis=1)[1:players])]])]
        hh = self.gram[np.ix_(cards, cards)]
        hd = np.hstack(blocks_h)
        xtx = np.block([[hh, hd], [hd.T, blocks_n[0]]]).astype(np.float64)
        xty = np.concatenate([self.gram[cards, c_all], *blocks_y]).astype(np.float64)
        n = int(counts.sum())
        return _Model(cards=cards, players=players, seat_dummies=bool(seat_dummies), xtx=xtx,
                      beta=np.linalg.solve(xtx, xty), n=n, games=self.games, mean_count=col_sums[cards] / n)


@dataclass
class _Model:
    cards: np.ndarray         # indices into HAND_CLASSES of the cards present
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

    def table(self, meat: np.ndarray, confidence: float) -> pl.DataFrame:
        n, k, g = self.n, self.k, self.games
        bread = np.linalg.inv(self.xtx)
        cov = bread @ meat @ bread * (g / (g - 1)) * ((n - 1) / (n - k))
        c = len(self.cards)
        weights = self.mean_count / self.mean_count.sum()
        contrasts = np.zeros((c, k))
        contrasts[:, :c] = np.eye(c) - weights[None, :]
        estimate = contrasts @ self.beta
        se = np.sqrt(np.einsum("ij,jk,ik->i", contrasts, cov, contrasts))
        z = stats.norm.ppf(0.5 + confidence / 2)
        return pl.DataFrame({
            "card": [HAND_CLASSES[i] for i in self.cards], "points": [HAND_CLASS_POINTS[i] for i in self.cards],
            "estimate": estimate, "ci_low": estimate - z * se, "ci_high": estimate + z * se, "std_error": se,
            "mean_count": self.mean_count, "n": [n] * c, "games": [g] * c,
        })


# ---- pass 2: per-game scores ------------------------------------------------------------------------
@njit(cache=True)
def _game_scores(games, seat, rel_dealer, won, counts, cards, beta, players, seat_dummies):
    """Row g: Σ over the rows i of the batch's g-th game of x_i (y_i − x_i·beta), x_i as in ``_Model``."""
    n, c = counts.shape[0], len(cards)
    n_games = 0
    for i in range(n):
        if i == 0 or games[i] != games[i - 1]:
            n_games += 1
    out = np.zeros((n_games, len(beta)))
    g = -1
    for i in range(n):
        if i == 0 or games[i] != games[i - 1]:
            g += 1
        r, s = rel_dealer[i], seat[i]
        fitted = 0.0
        for j in range(c):
            fitted += counts[i, cards[j]] * beta[j]
        if r > 0:
            fitted += beta[c + r - 1]
        if seat_dummies and s > 0:
            fitted += beta[c + players - 1 + s - 1]
        residual = won[i] - fitted
        for j in range(c):
            out[g, j] += counts[i, cards[j]] * residual
        if r > 0:
            out[g, c + r - 1] += residual
        if seat_dummies and s > 0:
            out[g, c + players - 1 + s - 1] += residual
    return out


# ---- streaming ------------------------------------------------------------------------------------
def _columns(batch: pl.DataFrame) -> tuple[np.ndarray, ...]:
    """(game, seat, rel_dealer, won as int8, counts as a C-ordered int8 matrix over all hand classes)."""
    counts = np.empty((batch.height, len(OPEN_COLUMNS)), np.int8)
    for j, column in enumerate(OPEN_COLUMNS):
        counts[:, j] = batch[column].to_numpy()
    return (batch["game"].to_numpy(), batch["seat"].to_numpy(), batch["rel_dealer"].to_numpy(),
            batch["won"].cast(pl.Int8).to_numpy(), counts)


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
