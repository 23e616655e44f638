"""Round lengths under a turn cap: truncated rounds are right-censored, not short.

A round stopped at ``max_turns_per_round`` (``end = truncated``, docs/rules.md §1.6) would have lasted
longer than the cap; counting it as a round of exactly cap turns biases the mean and the survival curve
down. The Kaplan–Meier estimator treats it as censored at the cap: S(t) = P(turns > t) is estimated
without bias for every t up to the cap (beyond it nothing is known). The *restricted* mean is the area
under S up to the largest observed length (the cap when rounds were truncated): the mean of
min(turns, cap), labelled as such, never the plain mean.

The estimator works on counts per (length, truncated) — memory stays bounded at any dataset size —
and is checked against :func:`scipy.stats.ecdf` on the raw lengths in the tests (scipy needs every
raw length in memory). Intervals use Greenwood's variance, as scipy's default linear interval.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from .distributions import normal_quantile
from .win_rates import CELL


def kaplan_meier(times: np.ndarray, events: np.ndarray, censored: np.ndarray,
                 confidence: float = 0.95) -> dict[str, np.ndarray]:
    """The Kaplan–Meier estimate of S(t) = P(T > t) from counts, with Greenwood's pointwise interval.

    Parameters
    ----------
    times : array_like
        The distinct observed times, ascending.
    events : array_like
        At each time, the number of observed ends.
    censored : array_like
        At each time, the number of right-censored observations (rounds stopped by the turn cap).
    confidence : float, default 0.95
        Coverage of the pointwise interval.

    Returns
    -------
    dict of numpy.ndarray
        ``time``; ``survival``, the product of (1 − events / at_risk) up to each time; ``ci_low`` and
        ``ci_high``, the linear interval from Greenwood's variance clipped to [0, 1] (the default of
        :func:`scipy.stats.ecdf`); ``at_risk``, the observations not ended or censored before each time.

    References
    ----------
    - Kaplan, E. L. & Meier, P. (1958). Nonparametric estimation from incomplete observations. *Journal
      of the American Statistical Association* 53(282), 457–481.
    - Greenwood, M. (1926). *The Natural Duration of Cancer*. Reports on Public Health and Medical
      Subjects 33. HMSO.

    Examples
    --------
    Six rounds: two end at turn 10, two at 20, one at 30 and one is stopped at the cap of 30.

    >>> km = kaplan_meier([10, 20, 30], [2, 2, 1], [0, 0, 1])
    >>> km["survival"].round(4).tolist(), km["at_risk"].tolist()
    ([0.6667, 0.3333, 0.1667], [6, 4, 2])
    >>> km["ci_high"].round(4).tolist()
    [1.0, 0.7105, 0.4649]
    """
    times, events, censored = (np.asarray(x) for x in (times, events, censored))
    n = events.sum() + censored.sum()
    at_risk = n - np.concatenate([[0], np.cumsum(events + censored)[:-1]])
    factor = 1 - events / at_risk
    surv = np.cumprod(factor)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(at_risk > events, events / (at_risk * (at_risk - events)), 0.0)
    se = surv * np.sqrt(np.cumsum(terms))
    z = normal_quantile(0.5 + confidence / 2)
    return {"time": times, "survival": surv, "ci_low": np.clip(surv - z * se, 0, 1),
            "ci_high": np.clip(surv + z * se, 0, 1), "at_risk": at_risk}


def _counts(rounds: pl.LazyFrame | pl.DataFrame, by: Sequence[str]) -> pl.DataFrame:
    return (rounds.lazy().with_columns(censored=pl.col("end").cast(pl.String) == "truncated")
            .group_by([*by, "n_turns"])
            .agg(events=(~pl.col("censored")).sum(), censored=pl.col("censored").sum())
            .sort([*by, "n_turns"]).collect())


def turn_survival(rounds: pl.LazyFrame | pl.DataFrame, by: Sequence[str] = CELL,
                  confidence: float = 0.95) -> pl.DataFrame:
    """The Kaplan–Meier survival of turns per round of each cell, rounds stopped by the turn cap censored.

    Parameters
    ----------
    rounds : polars.LazyFrame or polars.DataFrame
        The rounds table: the ``by`` columns, ``n_turns`` and ``end`` (``"truncated"``: stopped by the cap).
    by : sequence of str, default ("variant", "players", "lineup")
        The columns that name a cell.
    confidence : float, default 0.95
        Coverage of the pointwise intervals.

    Returns
    -------
    polars.DataFrame
        One row per cell and observed length: the ``by`` columns, ``value`` (turns), ``estimate`` =
        P(turns > value) with ``ci_low``/``ci_high`` (as :func:`kaplan_meier`), ``at_risk`` and ``n``
        (the cell's rounds).

    References
    ----------
    - Kaplan, E. L. & Meier, P. (1958). Nonparametric estimation from incomplete observations. *Journal
      of the American Statistical Association* 53(282), 457–481.

    Examples
    --------
    >>> import polars as pl
    >>> rounds = pl.DataFrame({"variant": ["classic"] * 6, "n_turns": [12, 18, 18, 25, 30, 30],
    ...                        "end": ["won"] * 5 + ["truncated"]})
    >>> curve = turn_survival(rounds, by=["variant"])
    >>> curve.select("value", pl.col("estimate").round(4)).rows()
    [(12, 0.8333), (18, 0.5), (25, 0.3333), (30, 0.1667)]
    """
    parts = []
    for key, group in _counts(rounds, by).group_by(list(by), maintain_order=True):
        km = kaplan_meier(group["n_turns"].to_numpy(), group["events"].to_numpy(),
                          group["censored"].to_numpy(), confidence)
        parts.append(pl.DataFrame({"value": km["time"], "estimate": km["survival"], "ci_low": km["ci_low"],
                                   "ci_high": km["ci_high"], "at_risk": km["at_risk"],
                                   "n": np.full(len(km["time"]), km["at_risk"][0])})
                     .select(*[pl.lit(v).alias(c) for c, v in zip(by, key, strict=True)], pl.all()))
    return pl.concat(parts) if parts else pl.DataFrame()


def restricted_means(rounds: pl.LazyFrame | pl.DataFrame, by: Sequence[str] = CELL) -> pl.DataFrame:
    """The restricted mean of turns per round of each cell: the area under its Kaplan–Meier curve.

    Up to the largest observed length (the cap, when rounds were truncated) the area is the mean of
    min(turns, cap): the plain mean is not known when rounds were stopped.

    Parameters
    ----------
    rounds : polars.LazyFrame or polars.DataFrame
        The rounds table, as :func:`turn_survival` reads it.
    by : sequence of str, default ("variant", "players", "lineup")
        The columns that name a cell.

    Returns
    -------
    polars.DataFrame
        One row per cell: the ``by`` columns, ``truncated_share`` (rounds stopped by the turn cap),
        ``restricted_mean`` and ``restricted_to`` (the largest observed length).

    References
    ----------
    - Irwin, J. O. (1949). The standard error of an estimate of expectation of life, with special
      reference to expectation of tumourless life in experiments with mice. *Journal of Hygiene* 47(2),
      188–189.
    - Royston, P. & Parmar, M. K. B. (2013). Restricted mean survival time: an alternative to the hazard
      ratio for the design and analysis of randomized trials with a time-to-event outcome. *BMC Medical
      Research Methodology* 13, 152.

    Examples
    --------
    The area is the mean of min(turns, 30), (12 + 18 + 18 + 25 + 30 + 30) / 6:

    >>> import polars as pl
    >>> rounds = pl.DataFrame({"variant": ["classic"] * 6, "n_turns": [12, 18, 18, 25, 30, 30],
    ...                        "end": ["won"] * 5 + ["truncated"]})
    >>> row = restricted_means(rounds, by=["variant"]).row(0, named=True)
    >>> round(row["restricted_mean"], 4), row["restricted_to"], round(row["truncated_share"], 4)
    (22.1667, 30, 0.1667)
    """
    rows = []
    for key, group in _counts(rounds, by).group_by(list(by), maintain_order=True):
        times, events, censored = (group[c].to_numpy() for c in ("n_turns", "events", "censored"))
        km = kaplan_meier(times, events, censored)
        # S is a step function: S(t) = 1 before the first time, km survival from each time onwards
        widths = np.diff(np.concatenate([[0], times]))
        area = float(np.sum(widths * np.concatenate([[1.0], km["survival"][:-1]])))
        n = int(events.sum() + censored.sum())
        rows.append({**dict(zip(by, key, strict=True)), "truncated_share": float(censored.sum() / n),
                     "restricted_mean": area, "restricted_to": int(times[-1])})
    return pl.DataFrame(rows)
