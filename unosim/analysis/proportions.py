"""Exact tests and score intervals for proportions: rare 0/1 events compared between cells, and a
proportion against a fixed value. Like :mod:`.inference` (whose vocabulary they share: each returns the
estimate, an interval and a p-value), but where a t test on 0/1 outcomes is anticonservative:

* :func:`exact_paired_proportions` — B − A of a rare 0/1 event on paired rounds (rounds with no winner):
  the exact McNemar test on the discordant pairs with Newcombe's score interval (the test and the
  interval are not one inversion);
* :func:`exact_unpaired_proportions` — the same for independent cells (Fisher's exact test);
* :func:`score_test_proportion` — a proportion against a fixed value: Wilson's interval is the
  inversion of the score test, so it excludes the value exactly when the score test rejects.
"""

from __future__ import annotations

import math

import numpy as np

from .distributions import normal_quantile, normal_sf


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
