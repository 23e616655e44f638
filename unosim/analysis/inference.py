"""Effect estimates whose interval and p-value always agree, and Holm's adjustment.

Every function returns the estimate, a (1 − α) interval and the p-value of the test that the interval
inverts, so "the interval excludes 0" and "p < α" are the same statement (up to floating point):

* :func:`paired_difference` — mean of B − A over pairs: Student t interval and the paired t test;
  the relative change B/A − 1 gets Fieller's interval for a ratio of paired means, which contains 0
  exactly when the paired t test does not reject (both use the same t quantile and the same variance
  of the difference at ratio 1).
* :func:`unpaired_difference` — Welch's t interval and test; Fieller's interval with independent
  means (Welch degrees of freedom at ratio 1, so again the interval and the test agree).
* :func:`score_test_proportion` — a proportion against a fixed value: Wilson's interval is the
  inversion of the score test, so it excludes the value exactly when the score test rejects.
* :func:`holm` — Holm's step-down adjustment of a family of p-values.
"""

from __future__ import annotations

import math

import numpy as np
from .distributions import normal_quantile, normal_sf, t_quantile, t_sf


def paired_difference(a: np.ndarray, b: np.ndarray, confidence: float = 0.95) -> dict[str, float]:
    """B − A over pairs (arrays of equal length): ``estimate``, ``ci_low``, ``ci_high``, ``p_value``,
    ``mean_a``, ``mean_b``, ``n`` and the relative change ``rel_change`` = mean_b / mean_a − 1 with
    Fieller's ``rel_low``/``rel_high`` (NaN when mean A is not clearly away from 0)."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    n = len(a)
    if n < 1:
        raise ValueError("a paired difference needs at least 1 pair, got 0")
    if n < 2:
        return _without_interval(a, b, n)
    d = b - a
    mean = float(d.mean())
    cov = np.cov(np.vstack([a, b]), ddof=1) / n  # covariance of the two means
    var_d = max(float(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]), 0.0)
    t = float(t_quantile(0.5 + confidence / 2, n - 1))
    p_value = _t_p_value(mean, var_d, n - 1)
    half = t * math.sqrt(var_d)
    rel = _fieller(float(a.mean()), float(b.mean()), cov[0, 0], cov[1, 1], cov[0, 1], t)
    return {"mean_a": float(a.mean()), "mean_b": float(b.mean()), "estimate": mean, "ci_low": mean - half,
            "ci_high": mean + half, "p_value": p_value, "n": n, **rel}


def unpaired_difference(a: np.ndarray, b: np.ndarray, confidence: float = 0.95) -> dict[str, float]:
    """mean(B) − mean(A) of independent samples: Welch's interval and test, Fieller's relative change."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if len(a) < 1 or len(b) < 1:
        raise ValueError(f"an unpaired difference needs at least 1 value per side, got {len(a)} and {len(b)}")
    if len(a) < 2 or len(b) < 2:
        return _without_interval(a, b, min(len(a), len(b)))
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    mean = float(b.mean() - a.mean())
    var_d = va + vb
    dof = var_d**2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1)) if var_d > 0 else len(a) + len(b) - 2
    t = float(t_quantile(0.5 + confidence / 2, dof))
    half = t * math.sqrt(var_d)
    rel = _fieller(float(a.mean()), float(b.mean()), va, vb, 0.0, t)
    return {"mean_a": float(a.mean()), "mean_b": float(b.mean()), "estimate": mean, "ci_low": mean - half,
            "ci_high": mean + half, "p_value": _t_p_value(mean, var_d, dof), "n": min(len(a), len(b)), **rel}


def _without_interval(a: np.ndarray, b: np.ndarray, n: int) -> dict[str, float]:
    """The difference of one game: an estimate, but too few games for an interval or a test (NaN, which
    tables write empty and Holm's adjustment leaves out)."""
    ma, mb = float(a.mean()), float(b.mean())
    return {"mean_a": ma, "mean_b": mb, "estimate": mb - ma, "ci_low": math.nan, "ci_high": math.nan,
            "p_value": math.nan, "n": n, "rel_change": mb / ma - 1 if ma != 0 else math.nan,
            "rel_low": math.nan, "rel_high": math.nan}


def _t_p_value(mean: float, var: float, dof: float) -> float:
    if var <= 0:
        return 1.0 if mean == 0 else 0.0
    return float(2 * t_sf(abs(mean) / math.sqrt(var), dof))


def _fieller(ma: float, mb: float, vaa: float, vbb: float, vab: float, t: float) -> dict[str, float]:
    """Relative change mb / ma − 1 and Fieller's interval: the ratios R with
    (mb − R·ma)² ≤ t² · Var(mb − R·ma). At R = 1 this is the t test of the difference, so the interval
    excludes 0 (R = 1) exactly when that test rejects. NaN bounds when the set is unbounded."""
    q = t * t
    a2 = ma * ma - q * vaa
    a1 = ma * mb - q * vab
    a0 = mb * mb - q * vbb
    rel = mb / ma - 1 if ma != 0 else math.nan
    if a2 <= 0:
        return {"rel_change": rel, "rel_low": math.nan, "rel_high": math.nan}
    root = math.sqrt(max(a1 * a1 - a2 * a0, 0.0))
    return {"rel_change": rel, "rel_low": (a1 - root) / a2 - 1, "rel_high": (a1 + root) / a2 - 1}


def score_test_proportion(successes: int, n: int, p0: float, confidence: float = 0.95) -> dict[str, float]:
    """Rate − p0 with Wilson's interval (shifted by p0) and the two-sided score test of rate = p0."""
    if n <= 0:
        raise ValueError(f"n={n} must be positive")
    z = float(normal_quantile(0.5 + confidence / 2))
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    p_value = float(2 * normal_sf(abs(p - p0) / math.sqrt(p0 * (1 - p0) / n)))
    return {"rate": p, "estimate": p - p0, "ci_low": centre - half - p0, "ci_high": centre + half - p0,
            "p_value": p_value, "n": n}


def holm(p_values) -> np.ndarray:
    """Holm's step-down adjusted p-values (NaN stays NaN and is not counted in the family)."""
    p = np.asarray(p_values, np.float64)
    out = np.full(p.shape, np.nan)
    valid = np.flatnonzero(~np.isnan(p))
    order = valid[np.argsort(p[valid], kind="stable")]
    m = len(order)
    adjusted = np.maximum.accumulate((m - np.arange(m)) * p[order]) if m else np.empty(0)
    out[order] = np.minimum(adjusted, 1.0)
    return out
