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
    """``value`` as a float, None when missing or NaN."""
    if value is None:
        return None
    value = float(value)
    return None if math.isnan(value) else value


def scaled(measure: str, row: dict) -> Scaled | None:
    """``row`` on the scale of ``measure`` (None without an estimate). A relative measure uses the relative
    change and its Fieller interval when mean A is nonzero and the interval bounded, else the absolute
    difference against its zero-baseline minimum (as the sentences do)."""
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
    """Holm-supported: the row's ``p_holm`` is below α."""
    p = number(row.get("p_holm"))
    return p is not None and p < ALPHA


def classify(measure: str, row: dict) -> str:
    """The row's class (module docstring)."""
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
    """For an inconclusive row: the games per cell after which an interval of the same centre, its
    half-width shrunk as 1/√n, would lie wholly inside or wholly outside ±m (None when that cannot be
    said: an estimate on ±m, an unbounded interval, an interval already clear of ±m that only lacks
    the Holm adjustment, or more than :data:`MAX_GAMES`). ``n``: the games the interval rests on (default: the row's ``n``)."""
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
    """|effect| in multiples of the minimum effect (NaN without an estimate): the ranking scale."""
    s = scaled(measure, row)
    return math.nan if s is None else abs(s.value) / s.minimum
