"""What a small study's tables could not estimate for want of games, said in words.

Any number of games ≥ 1 gives tables: an estimate from one game has no interval (NaN, written empty),
card values need enough games to tell the cards apart (else the table has no rows). :func:`too_few_games`
names each such gap, so the explorer and ``unosim analyze`` say why a number or a table is missing
rather than show a blank.
"""

from __future__ import annotations

import polars as pl


def too_few_games(tables: dict[str, pl.DataFrame]) -> list[str]:
    """One sentence per gap: rows with an estimate but no interval (per table), card values left out."""
    notes = []
    for name, table in tables.items():
        if not {"estimate", "ci_low"} <= set(table.columns) or table.is_empty():
            continue
        estimated = pl.col("estimate").cast(pl.Float64).fill_nan(None).is_not_null()
        no_interval = pl.col("ci_low").cast(pl.Float64).fill_nan(None).is_null()
        missing = table.filter(estimated & no_interval).height
        if missing:
            notes.append(f"{name}: {missing} of {table.height} estimates have no interval: too few games "
                         f"(an interval needs at least 2 games per side)")
    if "card_values" in tables and tables["card_values"].is_empty():
        notes.append("card_values: too few games to tell the cards' values apart; no card values are estimated")
    return notes
