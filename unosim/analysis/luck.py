"""How much of a game is skill: from a skill ladder's head-to-head shares and ratings.

Pure functions from tables (and the tournament's per-deal comparison counts) to tidy tables; nothing
here plays, draws or writes.

* **Rounds needed** (:func:`rounds_needed`): the fewest rounds ``n`` from which on a player who
  finishes ahead of its opponent with probability ``q`` per round keeps a 95 % chance of having finished
  ahead in more of them than the opponent: ``P(Bin(m, q) > m / 2) >= 0.95`` for every ``m >= n``,
  computed exactly from the binomial distribution (an even count makes a tie of rounds possible, which
  is not more, so the chance is a saw-tooth and its first crossing is not the answer). At ``N`` seats
  (one skilled seat among random ones, :mod:`.skill`) the same question asks for more than its fair
  share ``m / N`` of the rounds. ``n`` falls as ``q`` rises, so the interval of ``n`` is ``n`` at the
  ends of the interval of ``q``; a ``q`` interval reaching down to the fair share has no point value
  and no upper end (None), only its low end.
* **Rating spread** (:func:`rating_spread`): the published measure is Duersch, Lambrecht & Oechssler,
  "Measuring skill and chance in games", European Economic Review 2020: rate every player with a
  best-fit Elo model; the wider the ratings spread, the larger the role of skill. Here the players are
  a fixed set of policies (``random``, the presets, the expert) on one Bradley–Terry scale (Elo units,
  :mod:`unosim.analysis.standings`), so the spread — the standard deviation of the ratings — is
  comparable between variants and house rules rated with the same set, and 0 in a game of pure chance.
  Its interval is a percentile bootstrap over deals (the ratings' own resamples).
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

GOAL = 0.95            # the chance of having finished ahead in more rounds
MAX_ROUNDS = 10**7     # beyond this the edge is called unmeasurable (None)


def rounds_needed(q: float, goal: float = GOAL, share: float = 0.5) -> int | None:
    """The smallest number of rounds ``n`` from which on the chance of having won more than ``share`` of
    them stays at ``goal`` or above: P(Bin(m, q) > ⌊m · share⌋) ≥ ``goal`` for every ``m >= n`` (None
    when q ≤ share or the answer exceeds MAX_ROUNDS). ``share`` is a fair share 1/N (½: more rounds than
    the one opponent).

    The chance is a saw-tooth in ``n``: the count to beat, ⌊n / N⌋, stays put for N consecutive ``n``
    (a run) and the chance rises within a run, then drops where the next run starts (at ``n = kN`` one
    more win is needed). So the chance after ``n`` is lowest at the run starts, where it is
    c(k) = P(Bin(kN, q) > k), and c rises with k for q > 1/N (checked for N = 2…10 and k ≤ 4,000 in the
    tests). The answer lies in the run before the first k whose c(k) reaches the goal (found by
    bisection): its first ``n`` that reaches the goal, else that k's run start. The first ``n`` where
    the chance reaches the goal can be far smaller (19 at q = 0.7 with ½, where 20 falls back below)."""
    if not 0 <= q <= 1 or math.isnan(q):
        raise ValueError(f"q={q!r} is not a probability: valid is 0 ≤ q ≤ 1")
    seats = round(1 / share) if 0 < share < 1 else 0
    if seats < 2 or abs(seats * share - 1) > 1e-9:
        raise ValueError(f"share={share!r} is not a fair share of rounds: valid are 1/N for N ≥ 2 (½, ⅓, ¼, …)")
    if q <= share:
        return None
    from scipy import stats  # a second to import: only when used (see .distributions)

    def start(k: int) -> float:   # the chance at the run start n = kN: more than k of kN rounds
        return float(stats.binom.sf(k, k * seats, q))
    lo, hi = 1, MAX_ROUNDS // seats
    if start(hi) < goal:
        return None
    while lo < hi:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if start(mid) >= goal else (mid + 1, hi)
    run = np.arange(max((lo - 1) * seats, 1), lo * seats)   # the run before: the count to beat is lo − 1
    reached = np.flatnonzero(stats.binom.sf(lo - 1, run, q) >= goal)
    return int(run[reached[0]]) if reached.size else lo * seats


def rounds_needed_row(estimate: float, ci_low: float, ci_high: float, share: float = 0.5) -> dict[str, int | None]:
    """``rounds_needed`` at the estimate and its interval: the high share gives the low count (a Wald
    interval that overshoots [0, 1] on few deals is clipped to it). When the interval of the share
    reaches the fair share (no edge is ruled out) there is no point value and no upper end (None): only
    the low end."""
    def clip(x: float) -> float:
        return min(max(x, 0.0), 1.0)
    if ci_low <= share:
        return {"rounds_needed": None, "rounds_needed_ci_low": rounds_needed(clip(ci_high), share=share),
                "rounds_needed_ci_high": None}
    return {"rounds_needed": rounds_needed(clip(estimate), share=share),
            "rounds_needed_ci_low": rounds_needed(clip(ci_high), share=share),
            "rounds_needed_ci_high": rounds_needed(clip(ci_low), share=share)}


def rating_spread(point: np.ndarray, boot: np.ndarray, confidence: float = 0.95) -> dict[str, float]:
    """The standard deviation of the ratings (``point``: one per policy) with the percentile interval
    of its bootstrap replicates (``boot``: one row of ratings per resample)."""
    spreads = boot.std(axis=1)
    tail = (1 - confidence) / 2 * 100
    return {"rating_spread": float(point.std()), "rating_spread_ci_low": float(np.percentile(spreads, tail)),
            "rating_spread_ci_high": float(np.percentile(spreads, 100 - tail))}


def share(head_to_head: pl.DataFrame, a: str, b: str) -> dict[str, float]:
    """The head-to-head row of ``a`` against ``b`` (estimate, ci_low, ci_high)."""
    row = head_to_head.filter(pl.col("a") == a, pl.col("b") == b)
    if row.is_empty():
        raise ValueError(f"no head-to-head of {a!r} against {b!r}: the ladder holds {sorted(set(head_to_head['a']))}")
    return row.select("estimate", "ci_low", "ci_high").row(0, named=True)


def skill_row(head_to_head: pl.DataFrame, ratings: pl.DataFrame, expert: str, baseline: str,
              spread: dict[str, float]) -> dict:
    """One variant's skill figures: the expert's share against ``baseline`` (random) and against the
    best-rated other policy, rounds needed against each, and the rating spread."""
    others = ratings.filter(~pl.col("policy").is_in([expert, baseline])).sort("rating", descending=True)
    best = others["policy"][0]
    row: dict = {"expert": expert, "best_other": best}
    for tag, opponent in (("random", baseline), ("best", best)):
        s = share(head_to_head, expert, opponent)
        row.update({f"vs_{tag}": s["estimate"], f"vs_{tag}_ci_low": s["ci_low"], f"vs_{tag}_ci_high": s["ci_high"]})
        row.update({f"{k}_vs_{tag}": v for k, v in rounds_needed_row(s["estimate"], s["ci_low"], s["ci_high"]).items()})
    return {**row, **spread}


def inconsistencies(ratings: pl.DataFrame, head_to_head: pl.DataFrame) -> pl.DataFrame:
    """Pairs the ladder orders against their own head-to-head: ``higher`` rated above ``lower`` while its
    share against it has an interval entirely below ½ (an empty table: the ladder is consistent)."""
    rated = ratings.select(pl.col("policy"), pl.col("rating"))
    return (head_to_head.filter(pl.col("ci_high") < 0.5)
            .join(rated.rename({"policy": "a", "rating": "rating_a"}), on="a")
            .join(rated.rename({"policy": "b", "rating": "rating_b"}), on="b")
            .filter(pl.col("rating_a") > pl.col("rating_b"))
            .select(pl.col("a").alias("higher"), pl.col("b").alias("lower"), "estimate", "ci_low", "ci_high"))
