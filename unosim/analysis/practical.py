"""Practical significance decided on intervals (docs/rules.md §8.2): an equivalence test, not a point estimate.

Each row of an analysis table is placed on its measure's scale (:func:`scaled`: the relative change for a
relative measure, the difference for a share or a probability) beside its measure's minimum effect ``m``
(:mod:`.measures`), and classed by its raw 95 % interval:

* ``practical`` — the row is Holm-supported and the whole interval lies outside ±m (at least m away from
  no change): an effect worth acting on;
* ``negligible`` — the whole interval lies inside ±m (two one-sided tests at 2.5 % each: the effect is
  smaller than the minimum whatever its sign);
* ``inconclusive`` — anything else: the interval reaches across ±m, so this sample cannot tell. Its
  :func:`games_to_decide` is the sample that would decide, from the interval's half-width scaling as
  1/√n around the same estimate (None when the estimate sits on ±m, the interval is unbounded, or only
  the Holm adjustment is missing);
* ``identical`` — the cells played identical games (no interval: the rule never acted).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .measures import MEASURES

ALPHA = 0.05
PRACTICAL, NEGLIGIBLE, INCONCLUSIVE, IDENTICAL = "practical", "negligible", "inconclusive", "identical"
CLASSES = (PRACTICAL, NEGLIGIBLE, INCONCLUSIVE, IDENTICAL)
MAX_GAMES = 10**12   # the most games a study spec allows per cell: beyond, "games to decide" is not said


@dataclass(frozen=True)
class Scaled:
    """A row on its measure's scale: ``value`` in [``low``, ``high``] (infinite ends: unbounded), against
    the minimum effect ``minimum``; ``relative``: a relative change (B/A − 1), else a difference."""

    value: float
    low: float
    high: float
    minimum: float
    relative: bool


def number(value) -> float | None:
    """A table's value as a float, None when missing.

    Parameters
    ----------
    value : object
        A number, None or NaN.

    Returns
    -------
    float or None
        ``float(value)``; None for None and NaN.

    Examples
    --------
    >>> number(3), number(None), number(float("nan"))
    (3.0, None, None)
    """
    if value is None:
        return None
    value = float(value)
    return None if math.isnan(value) else value


def scaled(measure: str, row: dict) -> Scaled | None:
    """A row of an analysis table on the scale of its measure, beside the measure's minimum effect.

    A relative measure uses the relative change and its Fieller interval when mean A is nonzero and the
    interval bounded, else the absolute difference against its zero-baseline minimum (as the sentences
    do); any other measure uses the difference from its centre.

    Parameters
    ----------
    measure : str
        A measure of :data:`unosim.analysis.measures.MEASURES`.
    row : dict
        The row: ``estimate``, ``ci_low``, ``ci_high`` and, for a relative measure, ``mean_a``,
        ``rel_change``, ``rel_low``, ``rel_high``.

    Returns
    -------
    Scaled or None
        None without an estimate; a missing end of the interval is infinite.

    Examples
    --------
    >>> row = {"estimate": 1.2, "ci_low": 0.9, "ci_high": 1.5, "mean_a": 30.0, "rel_change": 0.04,
    ...        "rel_low": 0.03, "rel_high": 0.05}
    >>> scaled("length", row)
    Scaled(value=0.04, low=0.03, high=0.05, minimum=0.02, relative=True)
    """
    info = MEASURES[measure]
    estimate = number(row.get("estimate"))
    if estimate is None:
        return None
    low, high = number(row.get("ci_low")), number(row.get("ci_high"))
    low = -math.inf if low is None else low - info.centre
    high = math.inf if high is None else high - info.centre
    if info.relative:
        rel = [number(row.get(c)) for c in ("rel_change", "rel_low", "rel_high")]
        if number(row.get("mean_a")) not in (None, 0.0) and None not in rel:
            return Scaled(rel[0], rel[1], rel[2], info.minimum, True)
        return Scaled(estimate, low, high, info.zero_baseline or info.minimum, False)
    return Scaled(estimate - info.centre, low, high, info.minimum, False)


def supported(row: dict) -> bool:
    """Whether a row is Holm-supported: its ``p_holm`` is below α = 0.05.

    Parameters
    ----------
    row : dict
        The row (``p_holm`` missing or NaN: not supported).

    Returns
    -------
    bool

    References
    ----------
    - Holm, S. (1979). A simple sequentially rejective multiple test procedure. *Scandinavian Journal of
      Statistics* 6(2), 65–70.

    Examples
    --------
    >>> supported({"p_holm": 0.01}), supported({"p_holm": 0.2}), supported({})
    (True, False, False)
    """
    p = number(row.get("p_holm"))
    return p is not None and p < ALPHA


def classify(measure: str, row: dict) -> str:
    """The practical class of a row, decided on its interval against ±m (see the module docstring).

    Parameters
    ----------
    measure : str
        A measure of :data:`unosim.analysis.measures.MEASURES` (its minimum effect is m).
    row : dict
        The row, as :func:`scaled` reads it, with ``p_holm`` and ``identical``.

    Returns
    -------
    str
        ``"identical"`` (the cells played identical games), ``"negligible"`` (the interval lies inside
        ±m: two one-sided tests), ``"practical"`` (Holm-supported and the interval outside ±m) or
        ``"inconclusive"``.

    References
    ----------
    - Schuirmann, D. J. (1987). A comparison of the two one-sided tests procedure and the power approach
      for assessing the equivalence of average bioavailability. *Journal of Pharmacokinetics and
      Biopharmaceutics* 15(6), 657–680.
    - Lakens, D. (2017). Equivalence tests: a practical primer for t tests, correlations, and
      meta-analyses. *Social Psychological and Personality Science* 8(4), 355–362.

    Examples
    --------
    Games without a winner (minimum effect 0.01, a difference of shares):

    >>> classify("no_winner", {"estimate": 0.002, "ci_low": -0.004, "ci_high": 0.008, "p_holm": 0.6})
    'negligible'
    >>> classify("no_winner", {"estimate": 0.03, "ci_low": 0.02, "ci_high": 0.04, "p_holm": 0.001})
    'practical'
    >>> classify("no_winner", {"estimate": 0.012, "ci_low": 0.004, "ci_high": 0.02, "p_holm": 0.01})
    'inconclusive'
    """
    if row.get("identical") is True:
        return IDENTICAL
    s = scaled(measure, row)
    if s is None:
        return INCONCLUSIVE
    if -s.minimum < s.low and s.high < s.minimum:
        return NEGLIGIBLE
    if supported(row) and (s.low >= s.minimum or s.high <= -s.minimum):
        return PRACTICAL
    return INCONCLUSIVE


def games_to_decide(measure: str, row: dict, n: float | None = None) -> int | None:
    """For an inconclusive row: the games per cell after which its interval would decide.

    An interval of the same centre, its half-width shrunk as 1/√n, lies wholly inside or wholly outside
    ±m from ``n · (half-width / |estimate − ±m|)²`` games on.

    Parameters
    ----------
    measure : str
        A measure of :data:`unosim.analysis.measures.MEASURES`.
    row : dict
        The row, as :func:`classify` reads it.
    n : float, optional
        The games the interval rests on (default: the row's ``n``).

    Returns
    -------
    int or None
        The games; None for a row that is not inconclusive, or when it cannot be said: an estimate on
        ±m, an unbounded interval, an interval already clear of ±m that only lacks the Holm adjustment,
        or more than :data:`MAX_GAMES`.

    Examples
    --------
    A half-width of 0.008 around 0.012, 0.002 from m = 0.01, after 1,000 games: 16 times the games.

    >>> games_to_decide("no_winner", {"estimate": 0.012, "ci_low": 0.004, "ci_high": 0.02, "p_holm": 0.01,
    ...                               "n": 1000})
    16000
    """
    if classify(measure, row) != INCONCLUSIVE:
        return None
    s = scaled(measure, row)
    n = number(row.get("n")) if n is None else n
    if s is None or n is None or not (math.isfinite(s.low) and math.isfinite(s.high)):
        return None
    half = (s.high - s.low) / 2
    target = abs(abs(s.value) - s.minimum)
    if target <= 0 or half <= target:
        return None
    games = math.ceil(n * (half / target) ** 2)
    return games if games <= MAX_GAMES else None


def size(measure: str, row: dict) -> float:
    """The size of a row's effect in multiples of its measure's minimum effect: the ranking scale.

    Parameters
    ----------
    measure : str
        A measure of :data:`unosim.analysis.measures.MEASURES`.
    row : dict
        The row, as :func:`scaled` reads it.

    Returns
    -------
    float
        |effect| / m on the measure's scale; NaN without an estimate.

    Examples
    --------
    >>> size("no_winner", {"estimate": 0.012, "ci_low": 0.004, "ci_high": 0.02})
    1.2
    """
    s = scaled(measure, row)
    return math.nan if s is None else abs(s.value) / s.minimum
