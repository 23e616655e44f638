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

from .win_rates import CELL
from .distributions import normal_quantile


def kaplan_meier(times: np.ndarray, events: np.ndarray, censored: np.ndarray,
                 confidence: float = 0.95) -> dict[str, np.ndarray]:
    """Kaplan–Meier from counts: distinct ``times`` (ascending) with the number of observed ends
    ``events`` and of right-censored rounds ``censored`` at each. Returns ``time``, ``survival``
    (P(T > time)), ``ci_low``/``ci_high`` (Greenwood's variance, linear interval clipped to [0, 1], the
    default of scipy's ``ecdf``) and ``at_risk``."""
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
    """Kaplan–Meier survival of turns per round, one row per cell and observed length: ``value``,
    ``estimate`` = P(turns > value) with ``ci_low``/``ci_high``, ``at_risk``."""
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
    """Per cell: ``truncated_share`` (rounds stopped by the turn cap), ``restricted_mean`` (area under
    the Kaplan–Meier curve up to ``restricted_to``, the largest observed length) of turns per round."""
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
