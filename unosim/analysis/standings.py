"""Standings, head-to-head and rating of a duplicate tournament, from its seats and rounds tables.

Pure functions from tables to tidy tables; nothing here draws or writes.

* **Deal**: one game index ``g``; it is played once under every arrangement (the same cards, see
  :mod:`unosim.game.seating`). A **game** is one (deal, arrangement) pair, one single round.
* **Win rate** of an entrant: the share of its seats (over all games) that won the round; fair is
  ``1/N`` at ``N`` seats (a round without a winner is a loss for every seat, docs/rules.md §1.13).
* **Points**: ``mean_points`` is what the entrant's seat scores per game by the rulebook (the round's
  ``points`` to its winner, 0 to the others; docs/rules.md §1.12 and §2.4.8);
  ``mean_points_left`` the points of the cards left in the seat's hand at the end (lower is better).
* **Ahead**: seat ``a`` finishes ahead of seat ``b`` when it won, or neither won and ``a`` was not
  knocked out while ``b`` was, or both were knocked out and ``a`` later, or neither was and ``a`` holds
  fewer points; equal finishes tie (½ each). ``head_to_head[A, B]`` is the share of (game, seat of A,
  seat of B) comparisons that A finished ahead, ties counting ½, so ``[A, B] + [B, A] = 1``.
* **Confidence intervals** are clustered by deal: within a deal every arrangement replays the same
  cards, so an entrant's results there are correlated. Every deal holds the same arrangements, so the
  clusters have equal size and the cluster-robust standard error is the standard error of the
  per-deal means over the ``D`` deals; intervals are ``mean ± t(0.975, D-1) · SE``.
* **Rating**: a Bradley–Terry model fitted by the ``choix`` library (``ilsr_pairwise_dense``) to the
  head-to-head counts, on the Elo scale (``400·log10`` of strength, mean 0 over the entrants: a gap of
  100 means finishing ahead about 64 % of the time). Its interval is a percentile bootstrap over deals
  (``RATING_BOOTSTRAP`` resamples, seeded by the tournament seed). The rating ranks by finishing order
  (points left among the losers too), the win rate by wins only, so the two orders can differ.

Results are computed in numpy over dense ``(arrangement, deal, seat)`` arrays (memory ~40 bytes per
seat-game), summed in a fixed order: the same dataset gives the same figures to the last bit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import choix
import numpy as np
import polars as pl

from ..game.seating import Entrant
from .distributions import t_quantile, t_sf

CONFIDENCE = 0.95
RATING_BOOTSTRAP = 200
ELO_SCALE = 400 / math.log(10)
_WON, _STILL_IN = 2**40, 2**30  # finish score: a winner > any seat still in > any knocked-out seat


@dataclass(frozen=True)
class Games:
    """Every seat of every game, as ``(arrangement, deal, seat)`` arrays, and who held each seat."""

    deals: np.ndarray        # (D,) game indices
    won: np.ndarray          # (A, D, N) bool
    points: np.ndarray       # (A, D, N) points scored (the round's points to its winner, else 0)
    points_left: np.ndarray  # (A, D, N)
    finish: np.ndarray       # (A, D, N) higher = finished further ahead
    entrant_of: np.ndarray   # (A, N) entrant index of each seat of each arrangement


def games_from_tables(seats: pl.LazyFrame | pl.DataFrame, rounds: pl.LazyFrame | pl.DataFrame,
                      arrangement_map: dict[str, tuple[int, ...]], played_by: dict[str, str] | None = None) -> Games:
    """Dense arrays from a tournament's seats and rounds tables (lineup names = arrangement names).
    ``played_by``: the arrangement whose cell holds each arrangement's games (``seating.played_by``;
    None: every arrangement has its own cell)."""
    played_by = played_by or {name: name for name in arrangement_map}
    cells = list(dict.fromkeys(played_by[name] for name in arrangement_map))
    index = {name: i for i, name in enumerate(cells)}
    players = len(next(iter(arrangement_map.values())))
    scored = rounds.lazy().select(pl.col("lineup").cast(pl.String), "game", "points")
    frame = (seats.lazy().select(pl.col("lineup").cast(pl.String), "game", "seat", "won", "points_left",
                                 "knocked_out", "knockout_turn")
             .join(scored, on=["lineup", "game"], how="left")
             .select(pl.col("lineup").replace_strict(index, return_dtype=pl.Int32).alias("a"), "game", "seat",
                     "won",
                     pl.when(pl.col("won")).then(pl.col("points")).otherwise(0).cast(pl.Int64).alias("points"),
                     pl.col("points_left").cast(pl.Int64),
                     pl.when(pl.col("won")).then(pl.lit(_WON))
                     .when(pl.col("knocked_out")).then(pl.col("knockout_turn").cast(pl.Int64))
                     .otherwise(_STILL_IN - pl.col("points_left").cast(pl.Int64)).alias("finish"))
             .sort("a", "game", "seat").collect())
    deals = np.unique(frame["game"].to_numpy())
    shape = (len(cells), len(deals), players)
    if frame.height != math.prod(shape):
        raise ValueError(f"the tournament tables hold {frame.height:,} seat rows, not {math.prod(shape):,} "
                         f"({shape[0]} arrangements played × {shape[1]:,} deals × {players} seats)")
    cell_of = np.array([index[played_by[name]] for name in arrangement_map], np.int64)

    def column(name: str) -> np.ndarray:
        return frame[name].to_numpy().reshape(shape)[cell_of]

    return Games(deals=deals, won=column("won"), points=column("points"), points_left=column("points_left"),
                 finish=column("finish"), entrant_of=np.array(list(arrangement_map.values()), np.int64))


def _interval(per_deal: np.ndarray) -> tuple[float, float, float]:
    """(mean, ci_low, ci_high) over deals of per-deal values."""
    deals = len(per_deal)
    mean = float(per_deal.mean())
    if deals < 2:
        return mean, mean, mean
    half = float(t_quantile(0.5 + CONFIDENCE / 2, deals - 1)) * float(per_deal.std(ddof=1)) / math.sqrt(deals)
    return mean, mean - half, mean + half


def _t_p_value(per_deal: np.ndarray, centre: float) -> float:
    """Two-sided p-value of the t test of mean = ``centre`` over deals (the test the interval inverts)."""
    deals = len(per_deal)
    se = float(per_deal.std(ddof=1)) / math.sqrt(deals) if deals > 1 else 0.0
    diff = float(per_deal.mean()) - centre
    if se == 0:
        return 1.0 if diff == 0 else 0.0
    return float(2 * t_sf(abs(diff) / se, deals - 1))


def _per_deal_mean(values: np.ndarray, entrant_of: np.ndarray, entrant: int) -> np.ndarray:
    """Per deal: the mean of ``values`` over the seats (of every arrangement) the entrant held."""
    mask = entrant_of == entrant                               # (A, N)
    return (values * mask[:, None, :]).sum(axis=(0, 2)) / mask.sum()


def per_entrant(games: Games, entrants: tuple[Entrant, ...]) -> pl.DataFrame:
    """Win rate, points scored and points left per entrant, with deal-clustered intervals."""
    rows = []
    for e, entrant in enumerate(entrants):
        row = {"policy": entrant.name, "policy_spec": entrant.spec}
        for name, values in (("win_rate", games.won.astype(np.int64)), ("mean_points", games.points),
                             ("mean_points_left", games.points_left)):
            mean, low, high = _interval(_per_deal_mean(values, games.entrant_of, e))
            row.update({name: mean, f"{name}_ci_low": low, f"{name}_ci_high": high})
        row.update(seats=int((games.entrant_of == e).sum()) * len(games.deals), deals=len(games.deals))
        rows.append(row)
    return pl.DataFrame(rows).rename({"win_rate_ci_low": "ci_low", "win_rate_ci_high": "ci_high"})


def pairwise(games: Games, n_entrants: int) -> tuple[np.ndarray, np.ndarray]:
    """(ahead[i, j, d]: comparisons entrant i finished ahead of j in deal d, ties ½; comparisons[i, j]
    per deal), over every arrangement and every pair of seats the two held."""
    n_arr, n_deals, players = games.finish.shape
    ahead = np.zeros((n_entrants, n_entrants, n_deals))
    comparisons = np.zeros((n_entrants, n_entrants), np.int64)
    for a in range(n_arr):
        for s in range(players):
            for t in range(players):
                i, j = games.entrant_of[a, s], games.entrant_of[a, t]
                if i == j:
                    continue
                mine, theirs = games.finish[a, :, s], games.finish[a, :, t]
                ahead[i, j] += (mine > theirs) + 0.5 * (mine == theirs)  # halves: exact sums
                comparisons[i, j] += 1
    return ahead, comparisons


def head_to_head(ahead: np.ndarray, comparisons: np.ndarray, entrants: tuple[Entrant, ...]) -> pl.DataFrame:
    """One row per ordered pair (a, b): share of comparisons a finished ahead of b, deal-clustered CI,
    the t test of parity (½) it inverts (``p_value``) and Holm's ``p_holm`` over the pairs of entrants:
    (a, b) and (b, a) are one test (their shares sum to 1, their p-values are equal), ``holm_test``
    names it, counted once in the family."""
    from .inference import holm
    rows = []
    for i, a in enumerate(entrants):
        for j, b in enumerate(entrants):
            if i != j:
                per_deal = ahead[i, j] / comparisons[i, j]
                mean, low, high = _interval(per_deal)
                rows.append({"a": a.name, "b": b.name, "estimate": mean, "ci_low": low, "ci_high": high,
                             "p_value": _t_p_value(per_deal, 0.5),
                             "comparisons": int(comparisons[i, j]) * ahead.shape[2], "deals": ahead.shape[2]})
    table = pl.DataFrame(rows)
    tests = [" vs ".join(sorted(pair)) for pair in zip(table["a"], table["b"], strict=True)]
    return table.with_columns(p_holm=pl.Series(holm(table["p_value"].to_numpy(), tests)),
                              holm_test=pl.Series(tests, dtype=pl.String))


def bootstrap_ratings(ahead: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(Bradley–Terry ratings of the entrants, RATING_BOOTSTRAP × k ratings of resamples of the deals)."""
    k, _, n_deals = ahead.shape
    per_deal = ahead.reshape(k * k, n_deals).T               # (D, k*k)
    point = _bradley_terry(per_deal.sum(axis=0).reshape(k, k))
    rng = np.random.default_rng(seed)
    weights = rng.multinomial(n_deals, np.full(n_deals, 1 / n_deals), size=RATING_BOOTSTRAP)
    return point, np.array([_bradley_terry(m.reshape(k, k)) for m in weights @ per_deal])


def ratings(ahead: np.ndarray, entrants: tuple[Entrant, ...], seed: int) -> pl.DataFrame:
    """Bradley–Terry rating (Elo scale, mean 0) with a bootstrap-over-deals percentile interval."""
    point, boot = bootstrap_ratings(ahead, seed)
    tail = (1 - CONFIDENCE) / 2 * 100
    return pl.DataFrame({"policy": [e.name for e in entrants], "rating": point,
                         "rating_ci_low": np.percentile(boot, tail, axis=0),
                         "rating_ci_high": np.percentile(boot, 100 - tail, axis=0)})


def _bradley_terry(comparisons: np.ndarray) -> np.ndarray:
    """Elo-scale Bradley–Terry ratings (mean 0) of a k×k matrix of 'i ahead of j' counts.

    A tiny regularisation (``alpha``) keeps the estimate finite when one entrant was never behind.
    """
    theta = choix.ilsr_pairwise_dense(comparisons, alpha=1e-6, max_iter=1000)
    return ELO_SCALE * (theta - theta.mean())


def standings(games: Games, ahead: np.ndarray, entrants: tuple[Entrant, ...], seed: int) -> pl.DataFrame:
    """One row per entrant, highest win rate first: policy, win rate, points and rating with intervals."""
    table = per_entrant(games, entrants).join(ratings(ahead, entrants, seed), on="policy")
    return (table.select("policy", "policy_spec", "win_rate", "ci_low", "ci_high", "mean_points",
                         "mean_points_ci_low", "mean_points_ci_high", "mean_points_left",
                         "mean_points_left_ci_low", "mean_points_left_ci_high", "rating", "rating_ci_low",
                         "rating_ci_high", "seats", "deals")
            .sort("win_rate", descending=True, maintain_order=True))
