"""How much skill matters: the win rate of the one skilled seat of a lineup against its fair share.

For every cell whose lineup has exactly one seat with a policy other than ``random`` (e.g.
``greedy_points,random*``), the skill edge is that seat's win rate minus 1/N over all rounds, with
Wilson's interval and the score test (the interval is the inversion of the test, so they agree). When
the study also has the all-``random`` lineup for the same variant and player count, that seat's win
rate there is shown beside it (``random_rate``): at 1/N the seats are symmetric, and any difference
comes from the seat's position, not its policy. How a house rule changes the edge is the
``skill_edge`` measure of :mod:`unosim.analysis.effects`.
"""

from __future__ import annotations

import polars as pl

from .effects import all_random, skilled_seat
from .inference import holm, score_test_proportion


def skill_edges(rounds: pl.LazyFrame | pl.DataFrame, cells: pl.DataFrame, confidence: float = 0.95) -> pl.DataFrame:
    """One row per cell with a skilled seat: ``seat``, ``policy``, ``win_rate``, ``estimate`` = win rate
    − 1/N with ``ci_low``/``ci_high``, ``p_value``, ``p_holm``, ``n`` and ``random_rate``."""
    wins = (rounds.lazy().group_by("variant", "players", "lineup", "winner_seat").agg(count=pl.len())
            .collect().with_columns(pl.col("variant", "lineup").cast(pl.String)))
    rows = []
    for cell in cells.iter_rows(named=True):
        players = int(cell["players"])
        seat = skilled_seat(cell["lineup_spec"], players)
        if seat is None:
            continue
        here = wins.filter(pl.col("variant") == cell["variant"], pl.col("players") == players)
        mine = here.filter(pl.col("lineup") == cell["lineup"])
        n = int(mine["count"].sum())
        k = int(mine.filter(pl.col("winner_seat") == seat)["count"].sum())
        random_rate = None
        for other in cells.filter(pl.col("variant") == cell["variant"], pl.col("players") == players) \
                .iter_rows(named=True):
            if all_random(other["lineup_spec"], players):
                theirs = here.filter(pl.col("lineup") == other["lineup"])
                random_rate = int(theirs.filter(pl.col("winner_seat") == seat)["count"].sum()) / int(
                    theirs["count"].sum())
        test = score_test_proportion(k, n, 1 / players, confidence)
        policy = cell["lineup_label"].split(",")[seat]
        rows.append({"variant": cell["variant"], "players": players, "lineup": cell["lineup"], "seat": seat,
                     "policy": policy, "win_rate": test["rate"], "fair_share": 1 / players,
                     "estimate": test["estimate"], "ci_low": test["ci_low"], "ci_high": test["ci_high"],
                     "p_value": test["p_value"], "n": n, "random_rate": random_rate})
    table = pl.DataFrame(rows)
    if table.is_empty():
        return table
    return table.with_columns(p_holm=pl.Series(holm(table["p_value"].to_numpy())))
