"""Game length distributions: mean (t interval), quantiles, and the full distribution with survival.

Lengths are per round, in turns, plays and draws as defined in docs/rules.md §1.13; every round counts,
including rounds that ended without a winner (stalemate, truncated at the turn cap).
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from .intervals import with_mean_ci, with_wilson
from .win_rates import CELL

LENGTH_METRICS = ("n_turns", "n_plays", "n_draws")
QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9, 0.99)


def length_summary(rounds: pl.LazyFrame | pl.DataFrame, by: Sequence[str] = CELL,
                   metrics: Sequence[str] = LENGTH_METRICS, confidence: float = 0.95) -> pl.DataFrame:
    """One row per group and metric: ``estimate`` (mean) with its interval, ``sd``, ``n`` and quantiles
    ``q10 … q99`` (lower-nearest values of the sample)."""
    parts = []
    for metric in metrics:
        x = pl.col(metric)
        quantiles = [x.quantile(q, "lower").alias(f"q{round(q * 100)}") for q in QUANTILES]
        parts.append(rounds.lazy().group_by(list(by))
                     .agg(*quantiles, mean=x.mean(), sd=x.std(), n=pl.len())
                     .with_columns(metric=pl.lit(metric)))
    table = pl.concat(parts).sort([*by, "metric"]).collect()
    table = with_mean_ci(table, "mean", "sd", "n", confidence).drop("mean")
    return table.select(*by, "metric", "estimate", "ci_low", "ci_high", "n", "sd", pl.col("^q\\d+$"))


def distribution(frame: pl.LazyFrame | pl.DataFrame, column: str, by: Sequence[str] = CELL,
                 confidence: float = 0.95) -> pl.DataFrame:
    """The distribution of an integer column per group: one row per observed value with ``count``,
    ``pmf`` and the survival function ``estimate`` = P(X > value) with its Wilson interval."""
    table = (frame.lazy().group_by([*by, column]).agg(count=pl.len()).sort([*by, column]).collect()
             .rename({column: "value"}))
    over = list(by) if by else None
    total = pl.col("count").sum().over(over) if over else pl.col("count").sum()
    above = (total - pl.col("count").cum_sum().over(over)) if over else total - pl.col("count").cum_sum()
    table = table.with_columns(n=total, above=above).with_columns(pmf=pl.col("count") / pl.col("n"))
    return with_wilson(table, "above", "n", confidence).drop("above").with_columns(metric=pl.lit(column))


def length_distributions(rounds: pl.LazyFrame | pl.DataFrame, by: Sequence[str] = CELL,
                         metrics: Sequence[str] = LENGTH_METRICS, confidence: float = 0.95) -> pl.DataFrame:
    """:func:`distribution` of each length metric, stacked (column ``metric``)."""
    return pl.concat([distribution(rounds, m, by, confidence) for m in metrics])
