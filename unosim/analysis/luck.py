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


def majority_chance(n: int, q: float, share: float = 0.5) -> float:
    """The chance of winning more than ``share`` of ``n`` independent rounds, each won with probability ``q``.

    Parameters
    ----------
    n : int
        The rounds.
    q : float
        The chance of winning a round.
    share : float, default 0.5
        The share of the rounds to beat (½: more than the one opponent; 1/N: more than a fair share).

    Returns
    -------
    float
        P(Bin(n, q) > ⌊n · share⌋), exact.

    Examples
    --------
    >>> round(majority_chance(19, 0.7), 4), round(majority_chance(9, 0.5, share=1 / 3), 4)
    (0.9674, 0.7461)
    """
    from scipy import stats  # a second to import: only when used (see .distributions)
    return float(stats.binom.sf(math.floor(n * share + 1e-9), n, q))


def rounds_needed(q: float, goal: float = GOAL, share: float = 0.5) -> int | None:
    """The fewest rounds ``n`` from which on the chance of having won more than ``share`` of them stays at
    ``goal`` or above: ``majority_chance(m, q, share) >= goal`` for every ``m >= n``.

    Parameters
    ----------
    q : float
        The chance of winning a round (0 ≤ q ≤ 1).
    goal : float, default 0.95
        The chance to keep.
    share : float, default 0.5
        A fair share 1/N, N ≥ 2 (½: more rounds than the one opponent).

    Returns
    -------
    int or None
        The rounds; None when q ≤ share (never) or the answer exceeds ``MAX_ROUNDS``.

    Raises
    ------
    ValueError
        When ``q`` is not a probability or ``share`` is not 1/N.

    Notes
    -----
    The chance is a saw-tooth in ``n``: the count to beat, ⌊n / N⌋, stays put for N consecutive ``n``
    (a run) and the chance rises within a run, then drops where the next run starts (at ``n = kN`` one
    more win is needed). So the chance after ``n`` is lowest at the run starts, where it is
    c(k) = P(Bin(kN, q) > k), and c rises with k for q > 1/N (checked for N = 2…10 and k ≤ 4,000 in the
    tests). The answer lies in the run before the first k whose c(k) reaches the goal (found by
    bisection): its first ``n`` that reaches the goal, else that k's run start. The first ``n`` where
    the chance reaches the goal can be smaller (17 at q = 0.7 with ½, where 18 falls back below: the
    answer is 19).

    References
    ----------
    - Duersch, P., Lambrecht, M. & Oechssler, J. (2020). Measuring skill and chance in games. *European
      Economic Review* 127, 103472.
      (the question this answers: how many rounds until skill shows).

    Examples
    --------
    >>> rounds_needed(0.7), rounds_needed(0.55), rounds_needed(0.4, share=1 / 4), rounds_needed(0.5)
    (19, 289, 33, None)

    Below 19 rounds the chance at q = 0.7 reaches 95 % once, at 17, and falls back at 18:

    >>> [n for n in range(1, 19) if majority_chance(n, 0.7) >= 0.95]
    [17]
    """
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
    """:func:`rounds_needed` at a share's estimate and at the ends of its interval.

    The high share gives the low count (a Wald interval that overshoots [0, 1] on few deals is clipped to
    it). When the interval of the share reaches the fair share (no edge is ruled out) there is no point
    value and no upper end (None): only the low end.

    Parameters
    ----------
    estimate, ci_low, ci_high : float
        The share of rounds won and its interval.
    share : float, default 0.5
        The fair share 1/N.

    Returns
    -------
    dict
        ``rounds_needed``, ``rounds_needed_ci_low`` and ``rounds_needed_ci_high`` (int or None).

    Examples
    --------
    >>> rounds_needed_row(0.6, 0.55, 0.65)
    {'rounds_needed': 75, 'rounds_needed_ci_low': 35, 'rounds_needed_ci_high': 289}
    >>> rounds_needed_row(0.6, 0.48, 0.72)
    {'rounds_needed': None, 'rounds_needed_ci_low': 17, 'rounds_needed_ci_high': None}
    """
    def clip(x: float) -> float:
        return min(max(x, 0.0), 1.0)
    if ci_low <= share:
        return {"rounds_needed": None, "rounds_needed_ci_low": rounds_needed(clip(ci_high), share=share),
                "rounds_needed_ci_high": None}
    return {"rounds_needed": rounds_needed(clip(estimate), share=share),
            "rounds_needed_ci_low": rounds_needed(clip(ci_high), share=share),
            "rounds_needed_ci_high": rounds_needed(clip(ci_low), share=share)}


def rating_spread(point: np.ndarray, boot: np.ndarray, confidence: float = 0.95) -> dict[str, float]:
    """The spread of the ratings, their standard deviation, with the percentile bootstrap interval.

    Parameters
    ----------
    point : numpy.ndarray
        The ratings, one per policy (Elo units).
    boot : numpy.ndarray
        Shape (resamples, policies): the ratings of each bootstrap resample of the deals.
    confidence : float, default 0.95
        Coverage of the interval.

    Returns
    -------
    dict
        ``rating_spread`` with ``rating_spread_ci_low`` and ``rating_spread_ci_high``.

    References
    ----------
    - Duersch, P., Lambrecht, M. & Oechssler, J. (2020). Measuring skill and chance in games. *European
      Economic Review* 127, 103472.
    - Efron, B. & Tibshirani, R. J. (1993). *An Introduction to the Bootstrap*, chapter 13 (the
      percentile interval). Chapman & Hall.

    Examples
    --------
    >>> import numpy as np
    >>> boot = np.array([[-90, 0, 90], [-110, 0, 110], [-100, 10, 90], [-120, 0, 100]])
    >>> {k: round(v, 1) for k, v in rating_spread(np.array([-100, 0, 100]), boot).items()}
    {'rating_spread': 81.6, 'rating_spread_ci_low': 73.8, 'rating_spread_ci_high': 89.9}
    """
    spreads = boot.std(axis=1)
    tail = (1 - confidence) / 2 * 100
    return {"rating_spread": float(point.std()), "rating_spread_ci_low": float(np.percentile(spreads, tail)),
            "rating_spread_ci_high": float(np.percentile(spreads, 100 - tail))}


def share(head_to_head: pl.DataFrame, a: str, b: str) -> dict[str, float]:
    """The share of rounds ``a`` finished ahead of ``b`` in the ladder's head-to-head, with its interval.

    Parameters
    ----------
    head_to_head : polars.DataFrame
        One row per ordered pair of policies: ``a``, ``b``, ``estimate``, ``ci_low``, ``ci_high``.
    a, b : str
        The two policies.

    Returns
    -------
    dict
        ``estimate``, ``ci_low`` and ``ci_high`` of the row of ``a`` against ``b``.

    Raises
    ------
    ValueError
        When the table has no such row.

    Examples
    --------
    >>> import polars as pl
    >>> table = pl.DataFrame({"a": ["expert"], "b": ["random"], "estimate": [0.7], "ci_low": [0.66],
    ...                       "ci_high": [0.74]})
    >>> share(table, "expert", "random")
    {'estimate': 0.7, 'ci_low': 0.66, 'ci_high': 0.74}
    """
    row = head_to_head.filter(pl.col("a") == a, pl.col("b") == b)
    if row.is_empty():
        raise ValueError(f"no head-to-head of {a!r} against {b!r}: the ladder holds {sorted(set(head_to_head['a']))}")
    return row.select("estimate", "ci_low", "ci_high").row(0, named=True)


def skill_row(head_to_head: pl.DataFrame, ratings: pl.DataFrame, expert: str, baseline: str,
              spread: dict[str, float]) -> dict:
    """One variant's skill figures: the expert's share against the baseline and against the best other
    policy, the rounds needed against each, and the rating spread.

    Parameters
    ----------
    head_to_head : polars.DataFrame
        The ladder's head-to-head shares (as :func:`share` reads them).
    ratings : polars.DataFrame
        One row per policy: ``policy`` and ``rating``.
    expert, baseline : str
        The expert policy and the baseline (``random``).
    spread : dict
        The rating spread (:func:`rating_spread`), copied into the row.

    Returns
    -------
    dict
        ``expert``, ``best_other`` (the best-rated policy other than the two), ``vs_random`` and
        ``vs_best`` with their intervals (``_ci_low``, ``_ci_high``), ``rounds_needed_vs_random`` and
        ``rounds_needed_vs_best`` with theirs (:func:`rounds_needed_row`), and the keys of ``spread``.

    References
    ----------
    - Duersch, P., Lambrecht, M. & Oechssler, J. (2020). Measuring skill and chance in games. *European
      Economic Review* 127, 103472.

    Examples
    --------
    >>> import polars as pl
    >>> h2h = pl.DataFrame({"a": ["expert", "expert"], "b": ["random", "greedy"], "estimate": [0.7, 0.6],
    ...                     "ci_low": [0.66, 0.56], "ci_high": [0.74, 0.64]})
    >>> ratings = pl.DataFrame({"policy": ["expert", "greedy", "random"], "rating": [150.0, 40.0, 0.0]})
    >>> row = skill_row(h2h, ratings, "expert", "random", {"rating_spread": 61.0})
    >>> row["best_other"], row["vs_best"], row["rounds_needed_vs_random"], row["rounds_needed_vs_best"]
    ('greedy', 0.6, 19, 75)
    """
    others = ratings.filter(~pl.col("policy").is_in([expert, baseline])).sort("rating", descending=True)
    best = others["policy"][0]
    row: dict = {"expert": expert, "best_other": best}
    for tag, opponent in (("random", baseline), ("best", best)):
        s = share(head_to_head, expert, opponent)
        row.update({f"vs_{tag}": s["estimate"], f"vs_{tag}_ci_low": s["ci_low"], f"vs_{tag}_ci_high": s["ci_high"]})
        row.update({f"{k}_vs_{tag}": v for k, v in rounds_needed_row(s["estimate"], s["ci_low"], s["ci_high"]).items()})
    return {**row, **spread}


def inconsistencies(ratings: pl.DataFrame, head_to_head: pl.DataFrame) -> pl.DataFrame:
    """The pairs the ladder orders against their own head-to-head.

    Parameters
    ----------
    ratings : polars.DataFrame
        One row per policy: ``policy`` and ``rating``.
    head_to_head : polars.DataFrame
        The ladder's head-to-head shares (as :func:`share` reads them).

    Returns
    -------
    polars.DataFrame
        One row per pair whose ``higher`` is rated above ``lower`` while its share against it has an
        interval entirely below ½: ``higher``, ``lower``, ``estimate``, ``ci_low``, ``ci_high``. Empty: the
        ladder is consistent.

    Examples
    --------
    ``random`` finishes behind ``greedy`` in 55 % of their rounds, yet is rated above it:

    >>> import polars as pl
    >>> h2h = pl.DataFrame({"a": ["random", "greedy"], "b": ["greedy", "random"], "estimate": [0.45, 0.55],
    ...                     "ci_low": [0.41, 0.51], "ci_high": [0.49, 0.59]})
    >>> ratings = pl.DataFrame({"policy": ["greedy", "random"], "rating": [-10.0, 0.0]})
    >>> inconsistencies(ratings, h2h).rows()
    [('random', 'greedy', 0.45, 0.41, 0.49)]
    """
    rated = ratings.select(pl.col("policy"), pl.col("rating"))
    return (head_to_head.filter(pl.col("ci_high") < 0.5)
            .join(rated.rename({"policy": "a", "rating": "rating_a"}), on="a")
            .join(rated.rename({"policy": "b", "rating": "rating_b"}), on="b")
            .filter(pl.col("rating_a") > pl.col("rating_b"))
            .select(pl.col("a").alias("higher"), pl.col("b").alias("lower"), "estimate", "ci_low", "ci_high"))
