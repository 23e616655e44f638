"""How much of a game is skill: from a skill ladder's head-to-head shares and ratings.

Pure functions from tables (and the tournament's per-deal comparison counts) to tidy tables; nothing
here plays, draws or writes.

* **Rounds needed** (:func:`rounds_needed`): the fewest rounds ``n`` after which a player who finishes
  ahead of its opponent with probability ``q`` per round has a 95 % chance of having finished ahead in
  more of them than the opponent: the smallest ``n`` with ``P(Bin(n, q) > n / 2) >= 0.95``, computed
  exactly from the binomial distribution (an even ``n`` counts a tie of rounds as not more, so the
  answer is odd). At ``N`` seats (one skilled seat among random ones, :mod:`.skill`) the same question
  asks for more than its fair share ``n / N`` of the rounds. ``n`` falls as ``q`` rises, so the interval of ``n`` is ``n`` at the ends of the
  interval of ``q``; a ``q`` interval reaching down to ½ leaves the upper end unbounded (None).
* **Rating spread** (:func:`rating_spread`): the published measure is Duersch, Lambrecht & Oechssler,
  "Measuring skill and chance in games", European Economic Review 2020: rate every player with a
  best-fit Elo model; the wider the ratings spread, the larger the role of skill. Here the players are
  a fixed set of policies (``random``, the presets, the expert) on one Bradley–Terry scale (Elo units,
  :mod:`unosim.tournaments.standings`), so the spread — the standard deviation of the ratings — is
  comparable between variants and house rules rated with the same set, and 0 in a game of pure chance.
  Its interval is a percentile bootstrap over deals (the ratings' own resamples).
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

GOAL = 0.95            # the chance of having finished ahead in more rounds
MAX_ROUNDS = 10**7     # beyond this the edge is called unmeasurable (None)


def majority_chance(n: int, q: float, share: float = 0.5) -> float:
    """P(more than ``share`` of ``n`` independent rounds won), each won with probability ``q``."""
    from scipy import stats  # a second to import: only when used (see .distributions)
    return float(stats.binom.sf(math.floor(n * share + 1e-9), n, q))


def rounds_needed(q: float, goal: float = GOAL, share: float = 0.5) -> int | None:
    """The smallest number of rounds with ``majority_chance >= goal`` (None when q ≤ share or it exceeds
    MAX_ROUNDS). ``share`` ½ (two players: more rounds than the opponent): over odd ``n`` the chance rises
    with ``n`` (q > ½), so a bisection finds it exactly. Another share (1/N: more than a fair share at N
    seats) makes the chance a saw-tooth in ``n``: the first ``n`` reaching the goal, found by scanning."""
    if not 0 <= q <= 1 or math.isnan(q):
        raise ValueError(f"q={q!r} is not a probability: valid is 0 ≤ q ≤ 1")
    if not 0 < share < 1:
        raise ValueError(f"share={share!r} is not a share of rounds: valid is 0 < share < 1")
    if q <= share or majority_chance(MAX_ROUNDS, q, share) < goal:
        return None
    if share != 0.5:
        return _first_reaching(q, goal, share)
    lo, hi = 0, (MAX_ROUNDS - 1) // 2          # n = 2k + 1
    while lo < hi:
        mid = (lo + hi) // 2
        if majority_chance(2 * mid + 1, q) >= goal:
            hi = mid
        else:
            lo = mid + 1
    return 2 * lo + 1


def _first_reaching(q: float, goal: float, share: float) -> int | None:
    """The first n ≤ MAX_ROUNDS with P(Bin(n, q) > n · share) ≥ goal, in windows that double.

    The threshold ⌊n · share⌋ stays put over runs of consecutive n, and within a run the chance rises
    with n (more rounds, the same count to beat): a run reaches the goal iff its last n does. So each
    window evaluates the binomial only at the ends of its runs (and at its own last n, whose run may go
    on into the next window), a share's worth of the n; in the first run that reaches the goal it then
    takes the first n that does. A run reaching back into an earlier window did not reach the goal
    there: that window's last n, its largest there, missed."""
    from scipy import stats  # a second to import: only when used (see .distributions)
    start, width = 1, 1024
    while start <= MAX_ROUNDS:
        n = np.arange(start, min(start + width, MAX_ROUNDS + 1) + 1)   # one past the window: where runs end
        threshold = np.floor(n * share + 1e-9)
        n, ends, threshold = n[:-1], np.diff(threshold) > 0, threshold[:-1]
        ends[-1] = True
        hits = np.flatnonzero(stats.binom.sf(threshold[ends], n[ends], q) >= goal)
        if hits.size:
            last = np.flatnonzero(ends)[hits[0]]
            run = np.flatnonzero(threshold[:last + 1] == threshold[last])
            first = run[np.flatnonzero(stats.binom.sf(threshold[run], n[run], q) >= goal)[0]]
            return int(n[first])
        start, width = start + width, width * 2
    return None


def rounds_needed_row(estimate: float, ci_low: float, ci_high: float, share: float = 0.5) -> dict[str, int | None]:
    """``rounds_needed`` at the estimate and its interval: the high share gives the low count (a Wald
    interval that overshoots [0, 1] on few deals is clipped to it)."""
    def clip(x: float) -> float:
        return min(max(x, 0.0), 1.0)
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
