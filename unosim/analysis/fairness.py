"""Seat fairness per cell: how much the win rate depends on the position after the dealer.

Position 1 is the seat left of the dealer (dealt first), 0 the dealer (docs/rules.md §1.3). Over all
rounds of a cell (a round without a winner is a loss for every seat, §1.13), with ``p_i`` the win rate
of position ``i``:

* ``spread`` (``estimate``) — the largest minus the smallest win rate, max ``p_i − p_j``, with an
  interval from Tukey's simultaneous intervals for every pairwise difference:
  ``p̂_i − p̂_j ± q · se_ij`` with ``se_ij² = (p̂_i + p̂_j − (p̂_i − p̂_j)²) / n`` (the multinomial variance
  of a difference) and ``q`` the 95 % point of the studentized range of ``N`` means over √2. The spread
  lies in [max(0, max lower bound), max upper bound] whenever every pairwise interval holds, so the
  interval covers the true spread at least at the nominal rate — and for a fair game (spread 0) at the
  nominal rate itself (tests/analysis/test_fairness_calibration.py checks it on simulated fair cells). The
  percentile bootstrap of the sample spread that this replaces never covered 0: the sample spread is
  biased upwards;
* ``range_p`` — the test the interval inverts (Tukey's studentized range test of "every position wins
  equally often"): the interval excludes 0 exactly when ``range_p`` < 0.05; ``p_holm`` adjusts it over
  the cells of the study (one Holm family, named "seat fairness" in the report);
* the omnibus χ² goodness-of-fit test over the won rounds (``chi2``, ``dof``, ``chi2_p``), for
  reference.

In match modes the rounds of a match are not independent: with ``cluster="game"`` each ``se_ij`` is
the cluster-robust one over matches (the χ² reference test stays per round).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence

import numpy as np
import polars as pl

from .twin_cells import Cell, with_holm
from .win_rates import CELL


def spread_interval(wins: np.ndarray, n: int, confidence: float = 0.95,
                    per_cluster: np.ndarray | None = None, cluster_rounds: np.ndarray | None = None) -> dict[str, float]:
    """The spread of the win rates over positions, its simultaneous interval and the range test's p-value.

    Every pairwise difference of win rates gets Tukey's simultaneous interval ``p̂_i − p̂_j ± q · se_ij``
    (``q`` the studentized range quantile of the positions over √2, ``se_ij`` the multinomial standard
    error of the difference); the spread's interval runs from the largest lower bound (at least 0) to the
    largest upper bound, and the studentized range test of "every position wins equally often" is the
    test it inverts (see the module docstring).

    Parameters
    ----------
    wins : array_like
        The won rounds of each position.
    n : int
        The rounds (a round without a winner is a loss for every position).
    confidence : float, default 0.95
        Simultaneous coverage of the pairwise intervals.
    per_cluster : numpy.ndarray, optional
        Shape (G, positions): the wins of each position in each of ``G`` clusters (matches); with
        ``cluster_rounds`` the standard errors are the cluster-robust ones.
    cluster_rounds : numpy.ndarray, optional
        Shape (G,): the rounds of each cluster.

    Returns
    -------
    dict
        ``estimate`` (the largest minus the smallest win rate), ``ci_low``, ``ci_high`` and ``range_p``.

    References
    ----------
    - Tukey, J. W. (1953). *The Problem of Multiple Comparisons*. Unpublished manuscript, in *The
      Collected Works of John W. Tukey* VIII (1994). Chapman & Hall.
    - Kramer, C. Y. (1956). Extension of multiple range tests to group means with unequal numbers of
      replications. *Biometrics* 12(3), 307–310.

    Examples
    --------
    >>> r = spread_interval([220, 300, 250, 230], 1000)
    >>> [round(r[k], 4) for k in ("estimate", "ci_low", "ci_high", "range_p")]
    [0.08, 0.0218, 0.1382, 0.0023]

    Equal win rates: a spread of 0, inside an interval that starts at 0.

    >>> r = spread_interval([250, 250, 250, 250], 1000)
    >>> [round(r[k], 4) for k in ("estimate", "ci_low", "ci_high", "range_p")]
    [0.0, 0.0, 0.0574, 1.0]
    """
    wins = np.asarray(wins, np.float64)
    k = len(wins)
    rates = wins / n
    spread = float(rates.max() - rates.min())
    if k < 2 or n <= 0:
        return {"estimate": spread, "ci_low": spread, "ci_high": spread, "range_p": 1.0}
    q = _studentized_range_quantile(confidence, k) / math.sqrt(2)
    diff = rates[:, None] - rates[None, :]
    if per_cluster is None:
        se = np.sqrt(np.maximum(rates[:, None] + rates[None, :] - diff**2, 0.0) / n)
    else:
        g = len(cluster_rounds)
        pair = per_cluster[:, :, None] - per_cluster[:, None, :] - diff[None] * cluster_rounds[:, None, None]
        se = np.sqrt((pair**2).sum(axis=0) * g / max(g - 1, 1)) / n
    from scipy import stats  # a second to import: only when used (see .distributions)
    upper = diff + q * se
    lower = diff - q * se
    off = ~np.eye(k, dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(se > 0, np.abs(diff) / se, 0.0)
    largest = float(z[off].max())
    p_value = float(stats.studentized_range.sf(largest * math.sqrt(2), k, np.inf)) if largest > 0 else 1.0
    return {"estimate": spread, "ci_low": max(0.0, float(lower[off].max())), "ci_high": float(upper[off].max()),
            "range_p": min(p_value, 1.0)}


def seat_fairness(rounds: pl.LazyFrame | pl.DataFrame, by: Sequence[str] = CELL, confidence: float = 0.95,
                  seed: int = 0, cluster: str | None = None) -> pl.DataFrame:
    """Seat fairness of every cell: the spread of win rates over positions after the dealer, tested.

    Parameters
    ----------
    rounds : polars.LazyFrame or polars.DataFrame
        The rounds table: the ``by`` columns, ``winner_seat`` (−1: no winner), ``dealer_seat`` and
        ``players``.
    by : sequence of str, default ("variant", "players", "lineup")
        The columns that name a cell.
    confidence : float, default 0.95
        Coverage of the intervals.
    seed : int, default 0
        Accepted for callers of the bootstrap version; the interval needs no random draws.
    cluster : str, optional
        A column whose rounds are not independent (``"game"`` in match modes): the intervals are
        clustered by it (the χ² reference test stays per round).

    Returns
    -------
    polars.DataFrame
        One row per cell: the ``by`` columns, the spread as ``estimate`` with ``ci_low``/``ci_high`` and
        ``range_p`` (:func:`spread_interval`), ``chi2``, ``dof`` and ``chi2_p`` (Pearson's test over the won
        rounds), ``best``/``worst`` position, ``n`` (rounds), ``won_rounds`` and ``p_holm``
        (:func:`with_fairness_holm`).

    References
    ----------
    - Tukey, J. W. (1953). *The Problem of Multiple Comparisons*. Unpublished manuscript, in *The
      Collected Works of John W. Tukey* VIII (1994). Chapman & Hall.
    - Pearson, K. (1900). On the criterion that a given system of deviations from the probable in the
      case of a correlated system of variables is such that it can be reasonably supposed to have arisen
      from random sampling. *Philosophical Magazine* 50(302), 157–175.
    - Holm, S. (1979). A simple sequentially rejective multiple test procedure. *Scandinavian Journal of
      Statistics* 6(2), 65–70.

    Examples
    --------
    1,000 rounds dealt by seat 0: position 1 (left of the dealer) wins 300 of them, the dealer 220.

    >>> import polars as pl
    >>> winners = [1] * 300 + [2] * 250 + [3] * 230 + [0] * 220
    >>> rounds = pl.DataFrame({"variant": "classic", "players": 4, "lineup": "random", "dealer_seat": 0,
    ...                        "winner_seat": winners})
    >>> table = seat_fairness(rounds)
    >>> table.select("best", "worst", "n", pl.col("estimate", "ci_low", "range_p", "chi2_p").round(4)).rows()
    [(1, 0, 1000, 0.08, 0.0218, 0.0023, 0.0017)]
    """
    from scipy.stats import chisquare  # a second to import: only when used (see .distributions)
    keys = [*by, cluster] if cluster else list(by)
    counts = (rounds.lazy()
              .with_columns(position=pl.when(pl.col("winner_seat") >= 0)
                            .then((pl.col("winner_seat").cast(pl.Int32) - pl.col("dealer_seat").cast(pl.Int32))
                                  % pl.col("players").cast(pl.Int32)).otherwise(-1))
              .group_by([*keys, "position"]).agg(count=pl.len()).sort([*keys, "position"]).collect())
    rows = []
    for key, group in counts.group_by(list(by), maintain_order=True):
        players = int(dict(zip(by, key, strict=True)).get("players", group["position"].max() + 1))
        full = np.zeros(players + 1, np.int64)
        np.add.at(full, group["position"].to_numpy() + 1, group["count"].to_numpy())
        n, wins = int(full.sum()), full[1:]
        clustered = {}
        if cluster:
            ids, index = np.unique(group[cluster].to_numpy(), return_inverse=True)
            per = np.zeros((len(ids), players + 1))
            np.add.at(per, (index, group["position"].to_numpy() + 1), group["count"].to_numpy())
            clustered = {"per_cluster": per[:, 1:], "cluster_rounds": per.sum(axis=1)}
        test = chisquare(wins) if wins.sum() > 0 else None
        rates = wins / n
        rows.append({**dict(zip(by, key, strict=True)), **spread_interval(wins, n, confidence, **clustered),
                     "chi2": float(test.statistic) if test else None, "dof": players - 1,
                     "chi2_p": float(test.pvalue) if test else None,
                     "best": int(np.argmax(rates)), "worst": int(np.argmin(rates)),
                     "n": n, "won_rounds": int(wins.sum())})
    table = pl.DataFrame(rows)
    return with_fairness_holm(table)


def with_fairness_holm(table: pl.DataFrame, twins: Mapping[Cell, str] | None = None) -> pl.DataFrame:
    """A fairness table with ``p_holm``: Holm's adjustment of ``range_p`` over its rows.

    Parameters
    ----------
    table : polars.DataFrame
        One row per cell with ``range_p`` (null: no test, left out of the family).
    twins : mapping, optional
        The cell whose very games each cell plays (:func:`unosim.analysis.twin_cells.game_twins`): a cell
        listed twice is one test, counted once (and ``holm_test`` names each row's test). None: every row
        is a test of its own.

    Returns
    -------
    polars.DataFrame
        ``table`` with ``p_holm`` (NaN where ``range_p`` is null), and ``holm_test`` with ``twins``.

    References
    ----------
    - Holm, S. (1979). A simple sequentially rejective multiple test procedure. *Scandinavian Journal of
      Statistics* 6(2), 65–70.

    Examples
    --------
    >>> import polars as pl
    >>> with_fairness_holm(pl.DataFrame({"range_p": [0.01, 0.2, None]}))["p_holm"].to_list()
    [0.02, 0.2, nan]
    """
    return with_holm(table, "range_p", twins)


@functools.cache
def _studentized_range_quantile(confidence: float, k: int) -> float:
    """scipy's quantile of the studentized range of ``k`` means (infinite degrees of freedom): a root
    search, most of a spread interval's time, for the few (confidence, k) an analysis asks."""
    from scipy import stats  # a second to import: only when used (see .distributions)
    return float(stats.studentized_range.ppf(confidence, k, np.inf))
