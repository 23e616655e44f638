"""Win rates per seat (docs/rules.md §1.13): over all rounds, a round without a winner is a loss for every seat.

The ``seats`` table's ``won`` column is exactly that indicator, so a win rate is the mean of ``won``
over a group of seat rows; intervals are Wilson's. In match modes the rounds of one match are not
independent (the same players, scores that decide when it ends): pass ``cluster="game"`` and the
interval is the cluster-robust one over matches (:func:`~.intervals.clustered_rates`).
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from .intervals import clustered_rates, with_mean_ci, with_wilson

CELL = ("variant", "players", "lineup")


def win_rates(seats: pl.LazyFrame | pl.DataFrame, by: Sequence[str] = (*CELL, "seat"),
              confidence: float = 0.95, cluster: str | None = None) -> pl.DataFrame:
    """Win rate of each group of seat rows, with the seat's policy when ``seat`` is in ``by``.

    Columns: ``by``, [``policy``], ``wins``, ``n`` (rounds), ``estimate``, ``ci_low``, ``ci_high``
    (and ``clusters`` with ``cluster``, e.g. ``"game"`` in match modes: intervals clustered by it).
    """
    aggs = [pl.col("won").sum().alias("wins"), pl.len().alias("n")]
    if "seat" in by:
        aggs.insert(0, pl.col("policy").first().cast(pl.String).alias("policy"))
    if cluster is None:
        table = seats.lazy().group_by(list(by)).agg(aggs).sort(list(by)).collect()
        return with_wilson(table, "wins", "n", confidence)
    per_cluster = seats.lazy().group_by([*by, cluster]).agg(aggs).collect()
    table = clustered_rates(per_cluster.drop("policy", strict=False), list(by), "wins", "n", confidence)
    if "seat" in by:
        policy = per_cluster.group_by(list(by)).agg(pl.col("policy").first())
        table = table.join(policy, on=list(by), nulls_equal=True)
    return table.select(*by, *(["policy"] if "seat" in by else []), "wins", "n", "estimate", "ci_low", "ci_high",
                        "clusters").sort(list(by))


def win_rates_by_dealer_position(seats: pl.LazyFrame | pl.DataFrame, confidence: float = 0.95,
                                 cluster: str | None = None) -> pl.DataFrame:
    """Win rate by seat relative to the dealer (``rel_dealer`` 1 = left of the dealer, first dealt)."""
    return win_rates(seats, by=(*CELL, "rel_dealer"), confidence=confidence, cluster=cluster)


def points_when_winning(rounds: pl.LazyFrame | pl.DataFrame, by: Sequence[str] = CELL,
                        confidence: float = 0.95) -> pl.DataFrame:
    """Mean round score of the winner, over won rounds only (docs/rules.md §1.13), with a t interval."""
    table = (rounds.lazy().filter(pl.col("winner_seat") >= 0).group_by(list(by))
             .agg(mean=pl.col("points").mean(), sd=pl.col("points").std(), n=pl.len())
             .sort(list(by)).collect())
    return with_mean_ci(table, "mean", "sd", "n", confidence).drop("mean")
