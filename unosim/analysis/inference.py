"""Effect estimates whose interval and p-value always agree, and Holm's adjustment.

Every function returns the estimate, a (1 − α) interval and the p-value of the test that the interval
inverts, so "the interval excludes 0" and "p < α" are the same statement (up to floating point):

* :func:`paired_difference` — mean of B − A over pairs: Student t interval and the paired t test;
  the relative change B/A − 1 gets Fieller's interval for a ratio of paired means, which contains 0
  exactly when the paired t test does not reject (both use the same t quantile and the same variance
  of the difference at ratio 1).
* :func:`paired_ratio_difference` — the same for measures taken only on some rounds of each cell (lead
  changes and comebacks over each cell's *own* rounds with a winner): each cell's mean over its own rounds
  is a ratio of means, and the pair's difference gets the delta method's variance over games (the
  influence of each game on both ratios; with every round counted it *is* the paired t test), so it stays
  valid when a rule changes which rounds count. :func:`ratio_contrast` is the general form (a sum of
  such ratios with signs: a change of a skilled seat's edge over its twin).
* :func:`unpaired_difference` — Welch's t interval and test; Fieller's interval with independent
  means (Welch degrees of freedom at ratio 1, so again the interval and the test agree).
* exact tests of rare 0/1 events and a proportion against a fixed value: :mod:`.proportions`.
* :func:`holm` — Holm's step-down adjustment of a family of p-values.
"""

from __future__ import annotations

import math

import numpy as np

from .distributions import t_quantile, t_sf


def paired_difference(a: np.ndarray, b: np.ndarray, confidence: float = 0.95) -> dict[str, float]:
    """Mean of B − A over pairs, with the Student t interval and the paired t test, and the relative change
    with Fieller's interval.

    Parameters
    ----------
    a, b : array_like
        The values of the two cells, pair by pair (equal lengths, at least 1 pair).
    confidence : float, default 0.95
        Coverage of the intervals.

    Returns
    -------
    dict
        ``estimate`` (mean of B − A), ``ci_low``/``ci_high`` (t interval with n − 1 degrees of freedom),
        ``p_value`` (two-sided paired t test), ``mean_a``, ``mean_b``, ``n`` (pairs), and ``rel_change`` =
        mean_b / mean_a − 1 with Fieller's ``rel_low``/``rel_high`` (NaN when mean A is not clearly away
        from 0). With one pair: the estimate alone, every interval and the p-value NaN.

    Raises
    ------
    ValueError
        With no pair.

    References
    ----------
    - Student (1908). The probable error of a mean. *Biometrika* 6(1), 1–25.
    - Fieller, E. C. (1954). Some problems in interval estimation. *Journal of the Royal Statistical
      Society B* 16(2), 175–185.

    Examples
    --------
    >>> r = paired_difference([3, 5, 4, 6, 5, 4], [4, 6, 4, 7, 6, 5])
    >>> [round(float(r[k]), 4) for k in ("estimate", "ci_low", "ci_high", "p_value")]
    [0.8333, 0.4049, 1.2618, 0.0041]
    >>> [round(float(r[k]), 4) for k in ("rel_change", "rel_low", "rel_high")]
    [0.1852, 0.0926, 0.2898]
    """
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


def _linearized(x: np.ndarray, w: np.ndarray) -> tuple[float, np.ndarray]:
    """The ratio R = Σx / Σw and each game's influence on it, (x − R·w) / mean(w) (the delta method)."""
    x, w = np.asarray(x, np.float64), np.asarray(w, np.float64)
    if w.sum() <= 0:
        raise ValueError("a ratio of means needs at least one counted round (every weight is 0)")
    ratio = float(x.sum() / w.sum())
    return ratio, (x - ratio * w) / w.mean()


def ratio_contrast(parts, confidence: float = 0.95) -> dict[str, float]:
    """A signed sum of ratios of means on the same games, Σ c·R, with its delta-method interval and t test.

    Each ratio R = Σx / Σw is a mean over the rounds that count (``w`` = 1); its linearisation gives
    every game's influence (x − R·w) / mean(w), and the variance of the sum is that of the summed
    influences over games, so the pairing of the cells is kept.

    Parameters
    ----------
    parts : iterable of (float, array_like, array_like)
        Tuples ``(c, x, w)``: the coefficient ``c`` and, per game, the value ``x`` and its weight ``w``
        (0 or 1), every part over the same games in the same order.
    confidence : float, default 0.95
        Coverage of the interval.

    Returns
    -------
    dict
        ``estimate`` (Σ c·R), ``ci_low``/``ci_high``, ``p_value`` (two-sided t test with n − 1 degrees of
        freedom on the summed influences), ``n`` (games) and ``ratios`` (each R, in the order of ``parts``).

    Raises
    ------
    ValueError
        With fewer than 2 games, or a part whose weights are all 0.

    References
    ----------
    - Cochran, W. G. (1977). *Sampling Techniques*, 3rd ed., chapter 6 (the ratio estimator and its
      linearised variance). Wiley.
    - Oehlert, G. W. (1992). A note on the delta method. *The American Statistician* 46(1), 27–29.

    Examples
    --------
    The difference of two ratios is :func:`paired_ratio_difference`:

    >>> x_a, w_a = [3, 0, 5, 2, 0, 4], [1, 0, 1, 1, 0, 1]
    >>> x_b, w_b = [4, 2, 6, 2, 0, 5], [1, 1, 1, 1, 0, 1]
    >>> r = ratio_contrast([(1, x_b, w_b), (-1, x_a, w_a)])
    >>> r["ratios"], [round(r[k], 4) for k in ("estimate", "ci_low", "ci_high", "p_value")]
    ([3.8, 3.5], [0.3, -0.8763, 1.4763, 0.541])
    """
    ratios, influence = [], None
    for c, x, w in parts:
        ratio, psi = _linearized(x, w)
        ratios.append(ratio)
        influence = c * psi if influence is None else influence + c * psi
    n = len(influence)
    if n < 2:
        raise ValueError(f"a paired contrast needs at least 2 games, got {n}")
    estimate = float(sum(c * r for (c, _, _), r in zip(parts, ratios, strict=True)))
    var = float(influence.var(ddof=1)) / n
    t = float(t_quantile(0.5 + confidence / 2, n - 1))
    half = t * math.sqrt(var)
    return {"estimate": estimate, "ci_low": estimate - half, "ci_high": estimate + half,
            "p_value": _t_p_value(estimate, var, n - 1), "n": n, "ratios": ratios}


def paired_ratio_difference(xa: np.ndarray, wa: np.ndarray, xb: np.ndarray, wb: np.ndarray,
                            confidence: float = 0.95) -> dict[str, float]:
    """R_B − R_A of two cells on the same games, each R = Σx / Σw a mean over that cell's own counted rounds,
    with the delta method's interval and test.

    Equal to :func:`paired_difference` when every round counts in both cells; stays valid when a rule
    changes which rounds count (the rounds with a winner, say).

    Parameters
    ----------
    xa, wa : array_like
        Cell A per game: the value and its weight (1 where the round counts, else 0).
    xb, wb : array_like
        Cell B on the same games.
    confidence : float, default 0.95
        Coverage of the intervals.

    Returns
    -------
    dict
        The keys of :func:`paired_difference`, ``mean_a``/``mean_b`` being R_A/R_B, with Fieller's
        relative change from the covariance of the two cells' influences.

    Raises
    ------
    ValueError
        With fewer than 2 games, or a cell whose weights are all 0.

    References
    ----------
    - Cochran, W. G. (1977). *Sampling Techniques*, 3rd ed., chapter 6. Wiley.
    - Fieller, E. C. (1954). Some problems in interval estimation. *Journal of the Royal Statistical
      Society B* 16(2), 175–185.

    Examples
    --------
    >>> r = paired_ratio_difference([3, 0, 5, 2, 0, 4], [1, 0, 1, 1, 0, 1], [4, 2, 6, 2, 0, 5], [1, 1, 1, 1, 0, 1])
    >>> [round(float(r[k]), 4) for k in ("mean_a", "mean_b", "estimate", "ci_low", "ci_high", "p_value")]
    [3.5, 3.8, 0.3, -0.8763, 1.4763, 0.541]
    """
    ra, psi_a = _linearized(xa, wa)
    rb, psi_b = _linearized(xb, wb)
    n = len(psi_a)
    if n < 2:
        raise ValueError(f"a paired difference needs at least 2 pairs, got {n}")
    cov = np.cov(np.vstack([psi_a, psi_b]), ddof=1) / n
    var_d = max(float(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]), 0.0)
    t = float(t_quantile(0.5 + confidence / 2, n - 1))
    mean, half = rb - ra, t * math.sqrt(var_d)
    return {"mean_a": ra, "mean_b": rb, "estimate": mean, "ci_low": mean - half, "ci_high": mean + half,
            "p_value": _t_p_value(mean, var_d, n - 1), "n": n,
            **_fieller(ra, rb, cov[0, 0], cov[1, 1], cov[0, 1], t)}


def unpaired_difference(a: np.ndarray, b: np.ndarray, confidence: float = 0.95) -> dict[str, float]:
    """mean(B) − mean(A) of independent samples: Welch's interval and test, Fieller's relative change.

    Fieller's interval uses the Welch degrees of freedom, so at ratio 1 it is the Welch test: it excludes
    a relative change of 0 exactly when the test rejects.

    Parameters
    ----------
    a, b : array_like
        The two samples (at least 1 value each).
    confidence : float, default 0.95
        Coverage of the intervals.

    Returns
    -------
    dict
        The keys of :func:`paired_difference`, ``n`` being the smaller sample. With a single value on a
        side: the estimate alone, every interval and the p-value NaN.

    Raises
    ------
    ValueError
        With an empty sample.

    References
    ----------
    - Welch, B. L. (1947). The generalization of "Student's" problem when several different population
      variances are involved. *Biometrika* 34(1–2), 28–35.
    - Fieller, E. C. (1954). Some problems in interval estimation. *Journal of the Royal Statistical
      Society B* 16(2), 175–185.

    Examples
    --------
    >>> r = unpaired_difference([3, 5, 4, 6], [5, 7, 6, 8, 6])
    >>> [round(float(r[k]), 4) for k in ("estimate", "ci_low", "ci_high", "p_value")]
    [1.9, -0.103, 3.903, 0.0594]
    """
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


def holm(p_values, tests=None) -> np.ndarray:
    """Holm's step-down adjusted p-values of a family of tests, each test counted once.

    Parameters
    ----------
    p_values : array_like
        The raw p-values; NaN (no test) stays NaN and is not counted in the family.
    tests : sequence, optional
        Which test each p-value is: rows with one label are one test (the same hypothesis on the very
        same games, e.g. a cell listed twice under two names: :mod:`unosim.analysis.twin_cells`), counted
        once, with the first such row's p-value, and each given that test's adjusted p-value; a row
        labelled None is no test (NaN, not counted). None: every row is a test of its own.

    Returns
    -------
    numpy.ndarray
        The adjusted p-values, in the order given: the k-th smallest of the m tests is multiplied by
        m − k + 1, made non-decreasing in that order and capped at 1.

    References
    ----------
    - Holm, S. (1979). A simple sequentially rejective multiple test procedure. *Scandinavian Journal of
      Statistics* 6(2), 65–70.

    Examples
    --------
    >>> holm([0.01, 0.04, float("nan"), 0.03]).tolist()
    [0.03, 0.06, nan, 0.06]
    >>> holm([0.01, 0.04, 0.01, 0.03], tests=["x", "y", "x", "z"]).tolist()   # x twice: a family of 3
    [0.03, 0.06, 0.03, 0.06]
    """
    p = np.asarray(p_values, np.float64)
    labels = list(range(len(p))) if tests is None else list(tests)
    first: dict = {}   # each test's first row with a p-value
    for i, label in enumerate(labels):
        if label is not None and not np.isnan(p[i]):
            first.setdefault(label, i)
    rows = np.fromiter(first.values(), np.int64, len(first))
    order = rows[np.argsort(p[rows], kind="stable")]
    m = len(order)
    adjusted = np.full(p.shape, np.nan)
    adjusted[order] = np.minimum(np.maximum.accumulate((m - np.arange(m)) * p[order]), 1.0) if m else []
    out = np.full(p.shape, np.nan)
    for i, label in enumerate(labels):
        if label in first and not np.isnan(p[i]):
            out[i] = adjusted[first[label]]
    return out
