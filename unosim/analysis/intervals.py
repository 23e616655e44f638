"""Confidence intervals as polars expressions (Wilson for proportions, Student t for means)."""

from __future__ import annotations

import numpy as np
import polars as pl

from .distributions import normal_quantile, t_quantile


def z_value(confidence: float) -> float:
    """The two-sided standard-normal quantile of a confidence level.

    Parameters
    ----------
    confidence : float
        The coverage, strictly between 0 and 1.

    Returns
    -------
    float
        z with P(|Z| ≤ z) = ``confidence`` for a standard normal Z.

    Raises
    ------
    ValueError
        When ``confidence`` is not in (0, 1).

    Examples
    --------
    >>> round(z_value(0.95), 4)
    1.96
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence={confidence} must be in (0, 1)")
    return float(normal_quantile(0.5 + confidence / 2))


def wilson_interval(successes, n, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson's score interval of a proportion.

    Parameters
    ----------
    successes, n : array_like
        The successes and the trials (scalars or arrays of one shape).
    confidence : float, default 0.95
        Coverage of the interval.

    Returns
    -------
    tuple of numpy.ndarray
        (low, high), clipped to [0, 1].

    References
    ----------
    - Wilson, E. B. (1927). Probable inference, the law of succession, and statistical inference.
      *Journal of the American Statistical Association* 22(158), 209–212.

    Examples
    --------
    >>> low, high = wilson_interval([3, 60], [10, 100])
    >>> low.round(4).tolist(), high.round(4).tolist()
    ([0.1078, 0.502], [0.6032, 0.6906])
    """
    z = z_value(confidence)
    k, m = np.asarray(successes, np.float64), np.asarray(n, np.float64)
    p = k / m
    centre = (p + z * z / (2 * m)) / (1 + z * z / m)
    half = z / (1 + z * z / m) * np.sqrt(p * (1 - p) / m + z * z / (4 * m * m))
    return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)


def with_wilson(table: pl.DataFrame, successes: str, n: str, confidence: float = 0.95) -> pl.DataFrame:
    """A table with the proportion of each row and its Wilson score interval.

    Parameters
    ----------
    table : polars.DataFrame
        One row per proportion.
    successes, n : str
        The columns of the successes and the trials.
    confidence : float, default 0.95
        Coverage of the interval.

    Returns
    -------
    polars.DataFrame
        ``table`` with ``estimate`` (successes / n), ``ci_low`` and ``ci_high`` (as :func:`wilson_interval`).

    References
    ----------
    - Wilson, E. B. (1927). Probable inference, the law of succession, and statistical inference.
      *Journal of the American Statistical Association* 22(158), 209–212.

    Examples
    --------
    >>> import polars as pl
    >>> table = with_wilson(pl.DataFrame({"wins": [3, 60], "n": [10, 100]}), "wins", "n")
    >>> table.select("estimate", pl.col("ci_low", "ci_high").round(4)).rows()
    [(0.3, 0.1078, 0.6032), (0.6, 0.502, 0.6906)]
    """
    z = z_value(confidence)
    k, m = pl.col(successes).cast(pl.Float64), pl.col(n).cast(pl.Float64)
    p = k / m
    centre = (p + z * z / (2 * m)) / (1 + z * z / m)
    half = z / (1 + z * z / m) * (p * (1 - p) / m + z * z / (4 * m * m)).sqrt()
    return table.with_columns(estimate=p, ci_low=(centre - half).clip(0.0, 1.0),
                              ci_high=(centre + half).clip(0.0, 1.0))


def with_mean_ci(table: pl.DataFrame, mean: str, sd: str, n: str, confidence: float = 0.95) -> pl.DataFrame:
    """A table with each row's mean and its Student t interval, from the mean, standard deviation and count.

    Parameters
    ----------
    table : polars.DataFrame
        One row per mean.
    mean, sd, n : str
        The columns of the mean, the sample standard deviation (a null one counts as 0) and the count
        (n − 1 degrees of freedom, at least 1).
    confidence : float, default 0.95
        Coverage of the interval.

    Returns
    -------
    polars.DataFrame
        ``table`` with ``estimate`` (the mean), ``ci_low`` and ``ci_high`` (mean ± t · sd / √n).

    References
    ----------
    - Student (1908). The probable error of a mean. *Biometrika* 6(1), 1–25.

    Examples
    --------
    >>> import polars as pl
    >>> table = with_mean_ci(pl.DataFrame({"mean": [20.0], "sd": [4.0], "n": [16]}), "mean", "sd", "n")
    >>> table.select(pl.col("estimate", "ci_low", "ci_high").round(4)).rows()
    [(20.0, 17.8686, 22.1314)]
    """
    t = pl.Series([float(t_quantile(0.5 + confidence / 2, max(int(v) - 1, 1))) for v in table[n]],
                  dtype=pl.Float64)
    half = t * table[sd].fill_null(0.0) / table[n].cast(pl.Float64).sqrt()
    return table.with_columns(estimate=pl.col(mean), ci_low=table[mean] - half, ci_high=table[mean] + half)


def clustered_rates(per_cluster: pl.DataFrame, by: list[str], successes: str = "wins", n: str = "n",
                    confidence: float = 0.95) -> pl.DataFrame:
    """Rates Σ successes / Σ n per group from one row per cluster, with the cluster-robust standard error.

    The rounds of a cluster (a match) are not independent: the standard error of the ratio r is the
    sandwich one over the ``G`` clusters, ``se² = G/(G−1) · Σ_g (k_g − r·n_g)² / (Σ n)²``, and the
    interval the Wald interval ``estimate ± z·se`` clipped to [0, 1].

    Parameters
    ----------
    per_cluster : polars.DataFrame
        One row per cluster: the ``by`` columns, ``successes`` and ``n``.
    by : list of str
        The columns that name a group.
    successes, n : str, default "wins", "n"
        The columns of the successes and the trials of a cluster.
    confidence : float, default 0.95
        Coverage of the interval.

    Returns
    -------
    polars.DataFrame
        One row per group: ``by``, ``successes``, ``n`` (summed), ``clusters``, ``estimate``, ``se``,
        ``ci_low``, ``ci_high``.

    References
    ----------
    - Liang, K.-Y. & Zeger, S. L. (1986). Longitudinal data analysis using generalized linear models.
      *Biometrika* 73(1), 13–22.
    - Cameron, A. C. & Miller, D. L. (2015). A practitioner's guide to cluster-robust inference.
      *Journal of Human Resources* 50(2), 317–372 (the G/(G−1) factor).

    Examples
    --------
    Four matches of one lineup:

    >>> import polars as pl
    >>> per_match = pl.DataFrame({"lineup": ["x"] * 4, "wins": [2, 1, 3, 0], "n": [3, 2, 4, 3]})
    >>> rates = clustered_rates(per_match, ["lineup"])
    >>> rates.select("wins", "n", "clusters", pl.col("estimate", "se", "ci_low", "ci_high").round(4)).rows()
    [(6, 12, 4, 0.5, 0.18, 0.1472, 0.8528)]
    """
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
