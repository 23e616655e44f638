"""Match statistics: rounds per match, how matches end, and match vs round win probability per seat.

A seat's match win counts every match whose ``winners_mask`` has the seat's bit (co-winners of a
``lowest`` match each win); a match without a winner is a loss for every seat, as for rounds.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from ..game.protocol import MAX_PLAYERS
from .intervals import with_wilson
from .lengths import distribution
from .win_rates import CELL, win_rates


def rounds_per_match(matches: pl.LazyFrame | pl.DataFrame, by: Sequence[str] = CELL,
                     confidence: float = 0.95) -> pl.DataFrame:
    """The distribution of ``n_rounds`` per group (see :func:`unosim.analysis.lengths.distribution`)."""
    return distribution(matches, "n_rounds", by, confidence)


def match_ends(matches: pl.LazyFrame | pl.DataFrame, by: Sequence[str] = CELL,
               confidence: float = 0.95) -> pl.DataFrame:
    """Share of matches per ``end`` (won / no_winner / truncated) with Wilson intervals."""
    table = (matches.lazy().with_columns(pl.col("end").cast(pl.String))
             .group_by([*by, "end"]).agg(count=pl.len())
             .with_columns(n=pl.col("count").sum().over(list(by))).sort([*by, "end"]).collect())
    return with_wilson(table, "count", "n", confidence)


def match_vs_round_wins(seats: pl.LazyFrame | pl.DataFrame, matches: pl.LazyFrame | pl.DataFrame,
                        by: Sequence[str] = CELL, confidence: float = 0.95) -> pl.DataFrame:
    """Per group and seat: the round win rate and the match win rate, each with its Wilson interval
    (columns ``round_*`` and ``match_*``)."""
    per_seat = pl.concat([
        matches.lazy().filter(pl.col("players") > seat).select(
            *by, pl.lit(seat, pl.Int8).alias("seat"),
            ((pl.col("winners_mask") // (1 << seat)) % 2 == 1).alias("won"))
        for seat in range(MAX_PLAYERS)])
    match_table = (per_seat.group_by([*by, "seat"]).agg(wins=pl.col("won").sum(), n=pl.len())
                   .sort([*by, "seat"]).collect())
    match_table = with_wilson(match_table, "wins", "n", confidence)
    round_table = win_rates(seats, by=(*by, "seat"), confidence=confidence)
    keys = [*by, "seat"]
    columns = ("wins", "n", "estimate", "ci_low", "ci_high")
    return (round_table.rename({c: f"round_{c}" for c in columns})
            .join(match_table.rename({c: f"match_{c}" for c in columns}), on=keys, how="left").sort(keys))
