"""Confidence intervals as polars expressions (Wilson for proportions, Student t for means)."""

from __future__ import annotations

import numpy as np
import polars as pl
from .distributions import normal_quantile, t_quantile


def z_value(confidence: float) -> float:
    """Two-sided standard-normal quantile, e.g. 1.96 for 0.95."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence={confidence} must be in (0, 1)")
    return float(normal_quantile(0.5 + confidence / 2))


def wilson_interval(successes, n, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval (low, high) for ``successes`` out of ``n`` (scalars or arrays)."""
    z = z_value(confidence)
    k, m = np.asarray(successes, np.float64), np.asarray(n, np.float64)
    p = k / m
    centre = (p + z * z / (2 * m)) / (1 + z * z / m)
    half = z / (1 + z * z / m) * np.sqrt(p * (1 - p) / m + z * z / (4 * m * m))
    return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)


def with_wilson(table: pl.DataFrame, successes: str, n: str, confidence: float = 0.95) -> pl.DataFrame:
    """Add ``estimate`` (successes / n), ``ci_low`` and ``ci_high`` (Wilson score interval)."""
    z = z_value(confidence)
    k, m = pl.col(successes).cast(pl.Float64), pl.col(n).cast(pl.Float64)
    p = k / m
    centre = (p + z * z / (2 * m)) / (1 + z * z / m)
    half = z / (1 + z * z / m) * (p * (1 - p) / m + z * z / (4 * m * m)).sqrt()
    return table.with_columns(estimate=p, ci_low=(centre - half).clip(0.0, 1.0),
                              ci_high=(centre + half).clip(0.0, 1.0))


def with_mean_ci(table: pl.DataFrame, mean: str, sd: str, n: str, confidence: float = 0.95) -> pl.DataFrame:
    """Add ``estimate`` (the mean), ``ci_low`` and ``ci_high`` (Student t interval of the mean)."""
    t = pl.Series([float(t_quantile(0.5 + confidence / 2, max(int(v) - 1, 1))) for v in table[n]],
                  dtype=pl.Float64)
    half = t * table[sd].fill_null(0.0) / table[n].cast(pl.Float64).sqrt()
    return table.with_columns(estimate=pl.col(mean), ci_low=table[mean] - half, ci_high=table[mean] + half)


def clustered_rates(per_cluster: pl.DataFrame, by: list[str], successes: str = "wins", n: str = "n",
                    confidence: float = 0.95) -> pl.DataFrame:
    """Rates Σ successes / Σ n per group of ``by`` from one row per cluster (e.g. per match: its rounds
    are not independent), with the cluster-robust (sandwich) standard error of a ratio,
    ``se² = G/(G−1) · Σ_g (k_g − r·n_g)² / (Σ n)²`` over the ``G`` clusters, and the Wald interval
    ``estimate ± z·se`` clipped to [0, 1]. Columns: ``by``, ``successes``, ``n``, ``clusters``,
    ``estimate``, ``se``, ``ci_low``, ``ci_high``."""
    z = z_value(confidence)
    totals = per_cluster.group_by(by).agg(pl.col(successes).sum(), pl.col(n).sum(), clusters=pl.len())
    rate = totals.select(*by, (pl.col(successes) / pl.col(n)).alias("_rate"))
    spread = (per_cluster.join(rate, on=by, nulls_equal=True)
              .group_by(by).agg(_ssq=((pl.col(successes) - pl.col("_rate") * pl.col(n)) ** 2).sum()))
    table = totals.join(spread, on=by, nulls_equal=True).with_columns(
        estimate=pl.col(successes) / pl.col(n),
        se=(pl.col("_ssq") * pl.col("clusters") / (pl.col("clusters") - 1).clip(1)).sqrt() / pl.col(n))
    return table.with_columns(ci_low=(pl.col("estimate") - z * pl.col("se")).clip(0.0, 1.0),
                              ci_high=(pl.col("estimate") + z * pl.col("se")).clip(0.0, 1.0)).drop("_ssq")
