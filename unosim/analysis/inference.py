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
* :func:`exact_paired_proportions` — B − A of a rare 0/1 event on paired rounds (rounds with no winner):
  the exact McNemar test on the discordant pairs, where a t test is anticonservative, with Newcombe's
  score interval (the one exception here: the test and the interval are not one inversion);
  :func:`exact_unpaired_proportions` the same for independent cells (Fisher's exact test).
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


def exact_paired_proportions(a: np.ndarray, b: np.ndarray, confidence: float = 0.95) -> dict[str, float]:
    """B − A of a 0/1 event on paired rounds: the exact McNemar test and Newcombe's score interval.

    Of the ``m`` pairs that differ, the ``k`` where only B has the event are Bin(m, ½) under no change; p is
    twice the smaller tail, capped at 1. Newcombe's interval (his method 10: the two Wilson intervals and
    the pairs' correlation) keeps its coverage for rare events where the Wald interval does not. The two
    are not one inversion, so "supported" is the test's and the practical class the interval's.

    Parameters
    ----------
    a, b : array_like of bool
        Whether the event happened, pair by pair (equal lengths, at least 2 pairs).
    confidence : float, default 0.95
        Coverage of the interval.

    Returns
    -------
    dict
        ``mean_a``/``mean_b`` (the two shares), ``estimate`` (B − A), ``ci_low``/``ci_high``, ``p_value``,
        ``n`` (pairs) and ``rel_change`` = B/A − 1 without an interval (``rel_low``/``rel_high`` NaN: a
        share is stated in points).

    Raises
    ------
    ValueError
        With fewer than 2 pairs.

    References
    ----------
    - McNemar, Q. (1947). Note on the sampling error of the difference between correlated proportions
      or percentages. *Psychometrika* 12(2), 153–157.
    - Newcombe, R. G. (1998). Improved confidence intervals for the difference between binomial
      proportions based on paired data. *Statistics in Medicine* 17(22), 2635–2650.
    - Wilson, E. B. (1927). Probable inference, the law of succession, and statistical inference.
      *Journal of the American Statistical Association* 22(158), 209–212.

    Examples
    --------
    100 paired rounds: the event in 10 rounds of A, in the same 10 and 8 more of B.

    >>> a = [False] * 90 + [True] * 10
    >>> b = [True] * 8 + [False] * 82 + [True] * 10
    >>> r = exact_paired_proportions(a, b)
    >>> [round(r[k], 4) for k in ("estimate", "ci_low", "ci_high", "p_value")]
    [0.08, 0.0268, 0.1432, 0.0078]
    """
    from scipy import stats  # a second to import: only when used (see .distributions)
    a, b = np.asarray(a, bool), np.asarray(b, bool)
    n = len(a)
    if n < 2:
        raise ValueError(f"a paired difference needs at least 2 pairs, got {n}")
    both, only_a, only_b = int(np.sum(a & b)), int(np.sum(a & ~b)), int(np.sum(b & ~a))
    neither = n - both - only_a - only_b
    m = only_a + only_b
    p_value = 1.0 if m == 0 else float(min(1.0, 2 * min(stats.binom.cdf(only_b, m, 0.5),
                                                       stats.binom.sf(only_b - 1, m, 0.5))))
    pa, pb = (both + only_a) / n, (both + only_b) / n
    (la, ua), (lb, ub) = _wilson(both + only_a, n, confidence), _wilson(both + only_b, n, confidence)
    margins = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    phi = (both * neither - only_a * only_b) / math.sqrt(margins) if margins > 0 else 0.0
    down = math.sqrt(max((pb - lb) ** 2 - 2 * phi * (pb - lb) * (ua - pa) + (ua - pa) ** 2, 0.0))
    up = math.sqrt(max((ub - pb) ** 2 - 2 * phi * (ub - pb) * (pa - la) + (pa - la) ** 2, 0.0))
    return {"mean_a": pa, "mean_b": pb, "estimate": pb - pa, "ci_low": pb - pa - down, "ci_high": pb - pa + up,
            "p_value": p_value, "n": n, "rel_change": pb / pa - 1 if pa else math.nan,
            "rel_low": math.nan, "rel_high": math.nan}


def exact_unpaired_proportions(a: np.ndarray, b: np.ndarray, confidence: float = 0.95) -> dict[str, float]:
    """B − A of a 0/1 event in two independent samples: Fisher's exact test and Newcombe's score interval.

    The test is Fisher's exact test (two-sided); the interval Newcombe's hybrid score interval for a
    difference of independent proportions (his method 10, from the two Wilson intervals). Not one
    inversion, as :func:`exact_paired_proportions`.

    Parameters
    ----------
    a, b : array_like of bool
        Whether the event happened, in each sample (at least 2 values each).
    confidence : float, default 0.95
        Coverage of the interval.

    Returns
    -------
    dict
        The keys of :func:`exact_paired_proportions`; ``n`` is the smaller sample.

    Raises
    ------
    ValueError
        With fewer than 2 values on a side.

    References
    ----------
    - Fisher, R. A. (1935). *The Design of Experiments*, §2 (the lady tasting tea). Oliver and Boyd.
    - Newcombe, R. G. (1998). Interval estimation for the difference between independent proportions:
      comparison of eleven methods. *Statistics in Medicine* 17(8), 873–890.
    - Wilson, E. B. (1927). Probable inference, the law of succession, and statistical inference.
      *Journal of the American Statistical Association* 22(158), 209–212.

    Examples
    --------
    >>> r = exact_unpaired_proportions([True] * 3 + [False] * 97, [True] * 12 + [False] * 88)
    >>> [round(r[k], 4) for k in ("estimate", "ci_low", "ci_high", "p_value")]
    [0.09, 0.016, 0.1706, 0.0287]
    """
    from scipy import stats  # a second to import: only when used (see .distributions)
    a, b = np.asarray(a, bool), np.asarray(b, bool)
    na, nb = len(a), len(b)
    if na < 2 or nb < 2:
        raise ValueError(f"an unpaired difference needs at least 2 values per side, got {na} and {nb}")
    ka, kb = int(a.sum()), int(b.sum())
    p_value = float(stats.fisher_exact([[ka, na - ka], [kb, nb - kb]]).pvalue)
    pa, pb = ka / na, kb / nb
    (la, ua), (lb, ub) = _wilson(ka, na, confidence), _wilson(kb, nb, confidence)
    return {"mean_a": pa, "mean_b": pb, "estimate": pb - pa, "ci_low": pb - pa - math.hypot(pb - lb, ua - pa),
            "ci_high": pb - pa + math.hypot(ub - pb, pa - la), "p_value": p_value, "n": min(na, nb),
            "rel_change": pb / pa - 1 if pa else math.nan, "rel_low": math.nan, "rel_high": math.nan}


def _wilson(k: int, n: int, confidence: float) -> tuple[float, float]:
    z = float(normal_quantile(0.5 + confidence / 2))
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(centre - half, 0.0), min(centre + half, 1.0)


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


def score_test_proportion(successes: int, n: int, p0: float, confidence: float = 0.95) -> dict[str, float]:
    """A proportion against a fixed value: Wilson's interval and the score test it inverts.

    Parameters
    ----------
    successes : int
        The successes among ``n``.
    n : int
        The trials (positive).
    p0 : float
        The proportion tested, strictly between 0 and 1.
    confidence : float, default 0.95
        Coverage of the interval.

    Returns
    -------
    dict
        ``rate`` (successes / n), ``estimate`` (rate − p0) with ``ci_low``/``ci_high`` (Wilson's interval
        shifted by p0), ``p_value`` (two-sided score test of rate = p0) and ``n``.

    Raises
    ------
    ValueError
        When ``n`` is not positive.

    References
    ----------
    - Wilson, E. B. (1927). Probable inference, the law of succession, and statistical inference.
      *Journal of the American Statistical Association* 22(158), 209–212.

    Examples
    --------
    >>> r = score_test_proportion(60, 100, 0.5)
    >>> [round(r[k], 4) for k in ("rate", "estimate", "ci_low", "ci_high", "p_value")]
    [0.6, 0.1, 0.002, 0.1906, 0.0455]
    """
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
    """Holm's step-down adjusted p-values of a family of tests.

    Parameters
    ----------
    p_values : array_like
        The raw p-values; NaN (no test) stays NaN and is not counted in the family.

    Returns
    -------
    numpy.ndarray
        The adjusted p-values, in the order given: the k-th smallest of the m is multiplied by
        m − k + 1, made non-decreasing in that order and capped at 1.

    References
    ----------
    - Holm, S. (1979). A simple sequentially rejective multiple test procedure. *Scandinavian Journal of
      Statistics* 6(2), 65–70.

    Examples
    --------
    >>> holm([0.01, 0.04, float("nan"), 0.03]).tolist()
    [0.03, 0.06, nan, 0.06]
    """
    p = np.asarray(p_values, np.float64)
    out = np.full(p.shape, np.nan)
    valid = np.flatnonzero(~np.isnan(p))
    order = valid[np.argsort(p[valid], kind="stable")]
    m = len(order)
    adjusted = np.maximum.accumulate((m - np.arange(m)) * p[order]) if m else np.empty(0)
    out[order] = np.minimum(adjusted, 1.0)
    return out
