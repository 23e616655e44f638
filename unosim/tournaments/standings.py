"""Standings, head-to-head and rating of a duplicate tournament, from its seats and rounds tables.

Pure functions from frames to tidy tables; nothing here draws or writes.

* **Deal**: one game index ``g``; it is played once under every arrangement (the same cards, see
  :mod:`.seating`). A **game** is one (deal, arrangement) pair, one single round.
* **Win rate** of an entrant: the share of its seats (over all games) that won the round; fair is
  ``1/N`` at ``N`` seats (a round without a winner is a loss for every seat, docs/rules.md §1.13).
* **Points**: ``mean_points`` is what the entrant's seat scores per game by the rulebook (the round's
  ``points`` to its winner, 0 to the others; docs/rules.md §1.12 and §2.4.8);
  ``mean_points_left`` the points of the cards left in the seat's hand at the end (lower is better).
* **Ahead**: seat ``a`` finishes ahead of seat ``b`` when it won, or neither won and ``a`` was not
  knocked out while ``b`` was, or both were knocked out and ``a`` later, or neither was and ``a`` holds
  fewer points; otherwise they tie (counted ½ each) or ``b`` is ahead. ``head_to_head[A, B]`` is the
  share of (game, seat of A, seat of B) comparisons that A finished ahead, ties counting ½, so
  ``[A, B] + [B, A] = 1``.
* **Confidence intervals** are clustered by deal: within a deal every arrangement replays the same
  cards, so an entrant's results there are correlated. Every deal holds the same arrangements, so the
  clusters have equal size and the cluster-robust standard error is the standard error of the
  per-deal means over the ``D`` deals; intervals are ``mean ± t(0.975, D-1) · SE``.
* **Rating**: a Bradley–Terry model fitted (by the ``choix`` library, ``ilsr_pairwise_dense``) to the
  head-to-head counts, on the Elo scale (``400·log10`` of strength, mean 0 over the entrants: a gap of
  100 means finishing ahead about 64 % of the time). Its interval is a percentile bootstrap over deals
  (``RATING_BOOTSTRAP`` resamples, seeded by the tournament seed).
"""

from __future__ import annotations

import math

import choix
import numpy as np
import polars as pl
from scipy import stats

from .seating import Entrant

CONFIDENCE = 0.95
RATING_BOOTSTRAP = 200
ELO_SCALE = 400 / math.log(10)
_WON, _STILL_IN = 2**40, 2**30  # finish score: a winner > any seat still in > any knocked-out seat


def seat_entrants(arrangement_map: dict[str, tuple[int, ...]], entrants: tuple[Entrant, ...]) -> pl.DataFrame:
    """(lineup, seat) → entrant: which entrant each seat of each arrangement holds."""
    rows = [(name, seat, entrants[e].name) for name, arrangement in arrangement_map.items()
            for seat, e in enumerate(arrangement)]
    return pl.DataFrame(rows, schema={"lineup": pl.String, "seat": pl.Int8, "entrant": pl.String}, orient="row")


def seat_results(seats: pl.LazyFrame | pl.DataFrame, rounds: pl.LazyFrame | pl.DataFrame,
                 seating: pl.DataFrame) -> pl.DataFrame:
    """One row per seat per game: entrant, won, points (scored), points_left, finish (higher = ahead)."""
    seats = seats.lazy().select("lineup", "game", "seat", "won", "points_left", "knocked_out",
                                "knockout_turn").with_columns(pl.col("lineup").cast(pl.String))
    scored = rounds.lazy().select(pl.col("lineup").cast(pl.String), "game", "points")
    return (seats.join(scored, on=["lineup", "game"], how="left")
            .join(seating.lazy(), on=["lineup", "seat"], how="inner")
            .select("entrant", "game", "lineup", "seat", "won",
                    pl.when(pl.col("won")).then(pl.col("points")).otherwise(0).cast(pl.Int64).alias("points"),
                    pl.col("points_left").cast(pl.Int64),
                    pl.when(pl.col("won")).then(pl.lit(_WON))
                    .when(pl.col("knocked_out")).then(pl.col("knockout_turn").cast(pl.Int64))
                    .otherwise(_STILL_IN - pl.col("points_left").cast(pl.Int64)).alias("finish"))
            .collect())


def _clustered(per_deal: pl.DataFrame, keys: list[str], columns: dict[str, str]) -> pl.DataFrame:
    """Mean and CI bounds over deals of per-deal columns (``column -> output prefix``), one row per key.

    Computed in numpy over rows sorted by deal, so the sums run in a fixed order and the figures are the
    same to the last bit on every run (polars' threaded group-by would sum in varying order).
    """
    frame = per_deal.sort([*keys, "game"])
    rows = []
    for key, group in frame.group_by(keys, maintain_order=True):
        deals = group.height
        t = float(stats.t.ppf(0.5 + CONFIDENCE / 2, max(deals - 1, 1)))
        row = dict(zip(keys, key, strict=True))
        for column, prefix in columns.items():
            values = group[column].to_numpy()
            mean = float(values.mean())
            half = t * float(values.std(ddof=1)) / math.sqrt(deals) if deals > 1 else 0.0
            row.update({prefix: mean, f"{prefix}_ci_low": mean - half, f"{prefix}_ci_high": mean + half})
        row["deals"] = deals
        rows.append(row)
    return pl.DataFrame(rows)


def per_entrant(results: pl.DataFrame, entrants: tuple[Entrant, ...]) -> pl.DataFrame:
    """Win rate, points scored and points left per entrant, with deal-clustered intervals."""
    per_deal = results.group_by("entrant", "game").agg(  # integer sums: exact whatever the order
        (pl.col("won").cast(pl.Int64).sum() / pl.len()).alias("w"), (pl.col("points").sum() / pl.len()).alias("p"),
        (pl.col("points_left").sum() / pl.len()).alias("l"), pl.len().alias("seats"))
    table = _clustered(per_deal, ["entrant"], {"w": "win_rate", "p": "mean_points", "l": "mean_points_left"})
    table = table.join(per_deal.group_by("entrant").agg(pl.col("seats").sum()), on="entrant")
    order = pl.DataFrame({"entrant": [e.name for e in entrants], "policy_spec": [e.spec for e in entrants]})
    return (order.join(table, on="entrant", how="left")
            .rename({"win_rate_ci_low": "ci_low", "win_rate_ci_high": "ci_high"}))


def pairwise(results: pl.DataFrame) -> pl.DataFrame:
    """Per deal and ordered pair (a, b): ahead = share of seat comparisons a finished ahead (ties ½)."""
    side = results.select("game", "lineup", "entrant", "finish")
    pairs = (side.join(side, on=["game", "lineup"], suffix="_b")
             .filter(pl.col("entrant") != pl.col("entrant_b"))
             .select(pl.col("entrant").alias("a"), pl.col("entrant_b").alias("b"), "game",
                     ((pl.col("finish") > pl.col("finish_b")).cast(pl.Float64)
                      + 0.5 * (pl.col("finish") == pl.col("finish_b")).cast(pl.Float64)).alias("ahead")))
    # sums of halves are exact in floating point, so the per-deal shares do not depend on the order
    return pairs.group_by("a", "b", "game").agg(pl.col("ahead").mean(), pl.col("ahead").sum().alias("ahead_total"),
                                                 pl.len().alias("comparisons"))


def head_to_head(per_deal_pairs: pl.DataFrame, entrants: tuple[Entrant, ...]) -> pl.DataFrame:
    """One row per ordered pair: share of comparisons A finished ahead of B, deal-clustered CI."""
    table = _clustered(per_deal_pairs, ["a", "b"], {"ahead": "estimate"}).join(
        per_deal_pairs.group_by("a", "b").agg(pl.col("comparisons").sum()), on=["a", "b"])
    names = [e.name for e in entrants]
    order = pl.DataFrame([(a, b) for a in names for b in names if a != b], schema=["a", "b"], orient="row")
    return (order.join(table, on=["a", "b"], how="left")
            .rename({"estimate_ci_low": "ci_low", "estimate_ci_high": "ci_high"}))


def ratings(per_deal_pairs: pl.DataFrame, entrants: tuple[Entrant, ...], seed: int) -> pl.DataFrame:
    """Bradley–Terry rating (Elo scale, mean 0) with a bootstrap-over-deals percentile interval."""
    names = [e.name for e in entrants]
    index = {n: i for i, n in enumerate(names)}
    k = len(names)
    frame = per_deal_pairs.with_columns(
        pl.col("a").replace_strict(index, return_dtype=pl.Int64).alias("i"),
        pl.col("b").replace_strict(index, return_dtype=pl.Int64).alias("j"))
    games = np.sort(frame["game"].unique().to_numpy())
    row = np.searchsorted(games, frame["game"].to_numpy())
    counts = np.zeros((len(games), k * k))  # per deal: times i finished ahead of j (ties ½)
    np.add.at(counts, (row, frame["i"].to_numpy() * k + frame["j"].to_numpy()), frame["ahead_total"].to_numpy())
    point = _bradley_terry(counts.sum(axis=0).reshape(k, k))
    rng = np.random.default_rng(seed)
    weights = rng.multinomial(len(games), np.full(len(games), 1 / len(games)), size=RATING_BOOTSTRAP)
    boot = np.array([_bradley_terry(m.reshape(k, k)) for m in weights @ counts])
    tail = (1 - CONFIDENCE) / 2 * 100
    return pl.DataFrame({"entrant": names, "rating": point,
                         "rating_ci_low": np.percentile(boot, tail, axis=0),
                         "rating_ci_high": np.percentile(boot, 100 - tail, axis=0)})


def _bradley_terry(comparisons: np.ndarray) -> np.ndarray:
    """Elo-scale Bradley–Terry ratings (mean 0) of a k×k matrix of 'i ahead of j' counts.

    A tiny regularisation (``alpha``) keeps the estimate finite when one entrant was never behind.
    """
    theta = choix.ilsr_pairwise_dense(comparisons, alpha=1e-6, max_iter=1000)
    theta = theta - theta.mean()
    return ELO_SCALE * theta


def standings(results: pl.DataFrame, per_deal_pairs: pl.DataFrame, entrants: tuple[Entrant, ...],
              seed: int) -> pl.DataFrame:
    """One row per entrant, best rating first: policy, win rate, points and rating with intervals."""
    table = per_entrant(results, entrants).join(ratings(per_deal_pairs, entrants, seed), on="entrant")
    return (table.rename({"entrant": "policy"})
            .select("policy", "policy_spec", "win_rate", "ci_low", "ci_high", "mean_points",
                    "mean_points_ci_low", "mean_points_ci_high", "mean_points_left",
                    "mean_points_left_ci_low", "mean_points_left_ci_high", "rating", "rating_ci_low",
                    "rating_ci_high", "seats", "deals")
            .sort("rating", descending=True, maintain_order=True))
