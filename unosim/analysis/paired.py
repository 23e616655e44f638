"""Comparisons of two cells (house rule A vs B, lineup A vs B), paired when they share decks.

Cells that share the deck and player count under common random numbers deal the same shuffled deck in
game ``g`` of both, so outcomes are compared game by game (matched by game index). Round-level
outcomes use each game's first round only: in match modes later rounds diverge and are not independent
of the first, while first rounds of distinct games are independent pairs.

* win/loss of a seat: McNemar's exact test on the discordant pairs; the difference of win rates
  (B − A) with a Wald interval for paired proportions. Unpaired: Newcombe's hybrid score interval and
  a pooled two-proportion z test.
* lengths: mean difference (B − A) with a paired t interval and the Wilcoxon signed-rank test.
  Unpaired: Welch's t interval and the Mann-Whitney U test.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import polars as pl
from scipy import stats

from .intervals import wilson_interval, z_value

Selector = Mapping[str, object]


def _select(frame: pl.LazyFrame | pl.DataFrame, cell: Selector) -> pl.LazyFrame:
    lazy = frame.lazy().filter(pl.col("round") == 0)
    for column, value in cell.items():
        lazy = lazy.filter(pl.col(column).cast(pl.String) == str(value))
    return lazy


def compare_wins(seats: pl.LazyFrame | pl.DataFrame, a: Selector, b: Selector, *, paired: bool,
                 confidence: float = 0.95) -> pl.DataFrame:
    """One row per seat: win rates of A and B, ``estimate`` = B − A with ``ci_low``/``ci_high``,
    ``n`` (pairs, or rounds of A when unpaired), ``p_value`` and ``test``."""
    cols = ["game", "seat", "won"]
    frame_a = _select(seats, a).select(cols).collect()
    frame_b = _select(seats, b).select(cols).collect()
    rows = []
    for seat in sorted(set(frame_a["seat"]) & set(frame_b["seat"])):
        wa = frame_a.filter(pl.col("seat") == seat)
        wb = frame_b.filter(pl.col("seat") == seat)
        if paired:
            joined = wa.join(wb, on="game", suffix="_b")
            rows.append({"seat": seat, **_mcnemar(joined["won"].to_numpy(), joined["won_b"].to_numpy(),
                                                   confidence)})
        else:
            rows.append({"seat": seat, **_two_proportions(wa["won"].to_numpy(), wb["won"].to_numpy(),
                                                          confidence)})
    return pl.DataFrame(rows, schema_overrides={"seat": pl.Int8})


def compare_lengths(rounds: pl.LazyFrame | pl.DataFrame, a: Selector, b: Selector, metric: str, *,
                    paired: bool, confidence: float = 0.95) -> dict[str, object]:
    """Mean of ``metric`` in A and B, ``estimate`` = mean(B − A) with its interval, ``p_value``, ``test``."""
    xa = _select(rounds, a).select("game", metric).collect()
    xb = _select(rounds, b).select("game", metric).collect()
    if paired:
        joined = xa.join(xb, on="game", suffix="_b")
        return {"metric": metric, **_paired_means(joined[metric].to_numpy().astype(np.float64),
                                                  joined[f"{metric}_b"].to_numpy().astype(np.float64),
                                                  confidence)}
    return {"metric": metric, **_welch(xa[metric].to_numpy().astype(np.float64),
                                       xb[metric].to_numpy().astype(np.float64), confidence)}


def _mcnemar(won_a: np.ndarray, won_b: np.ndarray, confidence: float) -> dict[str, object]:
    n = len(won_a)
    only_a = int(np.sum(won_a & ~won_b))
    only_b = int(np.sum(~won_a & won_b))
    diff = (only_b - only_a) / n
    var = ((only_a + only_b) - (only_b - only_a) ** 2 / n) / n**2
    half = z_value(confidence) * np.sqrt(max(var, 0.0))
    discordant = only_a + only_b
    p_value = stats.binomtest(only_a, discordant, 0.5).pvalue if discordant else 1.0
    return {"rate_a": float(np.mean(won_a)), "rate_b": float(np.mean(won_b)), "estimate": diff,
            "ci_low": diff - half, "ci_high": diff + half, "n": n, "only_a_won": only_a, "only_b_won": only_b,
            "p_value": float(p_value), "test": "mcnemar_exact"}


def _two_proportions(won_a: np.ndarray, won_b: np.ndarray, confidence: float) -> dict[str, object]:
    na, nb, ka, kb = len(won_a), len(won_b), int(won_a.sum()), int(won_b.sum())
    pa, pb = ka / na, kb / nb
    la, ua = wilson_interval(ka, na, confidence)
    lb, ub = wilson_interval(kb, nb, confidence)
    diff = pb - pa
    pooled = (ka + kb) / (na + nb)
    se = np.sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb))
    p_value = 2 * stats.norm.sf(abs(diff) / se) if se > 0 else 1.0
    return {"rate_a": pa, "rate_b": pb, "estimate": diff,
            "ci_low": diff - np.sqrt((pb - lb) ** 2 + (ua - pa) ** 2),
            "ci_high": diff + np.sqrt((ub - pb) ** 2 + (pa - la) ** 2), "n": na, "only_a_won": None,
            "only_b_won": None, "p_value": float(p_value), "test": "two_proportion_z"}


def _paired_means(xa: np.ndarray, xb: np.ndarray, confidence: float) -> dict[str, object]:
    d = xb - xa
    n = len(d)
    mean, se = float(d.mean()), float(d.std(ddof=1) / np.sqrt(n))
    half = stats.t.ppf(0.5 + confidence / 2, n - 1) * se
    p_value = stats.wilcoxon(d, zero_method="zsplit").pvalue if np.any(d != 0) else 1.0
    return {"mean_a": float(xa.mean()), "mean_b": float(xb.mean()), "estimate": mean, "ci_low": mean - half,
            "ci_high": mean + half, "n": n, "p_value": float(p_value), "test": "wilcoxon_signed_rank"}


def _welch(xa: np.ndarray, xb: np.ndarray, confidence: float) -> dict[str, object]:
    va, vb = xa.var(ddof=1) / len(xa), xb.var(ddof=1) / len(xb)
    dof = (va + vb) ** 2 / (va**2 / (len(xa) - 1) + vb**2 / (len(xb) - 1))
    mean = float(xb.mean() - xa.mean())
    half = stats.t.ppf(0.5 + confidence / 2, dof) * np.sqrt(va + vb)
    p_value = stats.mannwhitneyu(xb, xa).pvalue
    return {"mean_a": float(xa.mean()), "mean_b": float(xb.mean()), "estimate": mean, "ci_low": mean - half,
            "ci_high": mean + half, "n": len(xa), "p_value": float(p_value), "test": "mann_whitney_u"}
