"""The distribution functions the analyses use most, from :mod:`scipy.special`.

``scipy.stats`` takes about a second to import, and every command that touches an analysis paid it
(``unosim simulate`` prints win rates with intervals). ``scipy.stats`` computes these very functions with
``scipy.special``, so the values are the same to the bit (tests/analysis/test_distributions.py). The rarer ones
(binomial tails, the studentized range, Pearson's chi-square test, the empirical CDF) import
``scipy.stats`` in the function that uses them.
"""

from __future__ import annotations

from scipy import special


def normal_quantile(p):
    """``scipy.stats.norm.ppf(p)``."""
    return special.ndtri(p)


def normal_sf(x):
    """``scipy.stats.norm.sf(x)``: P(Z > x)."""
    return special.ndtr(-x)


def t_quantile(p, dof):
    """``scipy.stats.t.ppf(p, dof)``."""
    return special.stdtrit(dof, p)


def t_sf(x, dof):
    """``scipy.stats.t.sf(x, dof)``: P(T > x)."""
    return special.stdtr(dof, -x)


def chi2_sf(x, dof):
    """``scipy.stats.chi2.sf(x, dof)``: P(X > x)."""
    return special.chdtrc(dof, x)
