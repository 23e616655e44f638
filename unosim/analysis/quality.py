"""Game-quality measures per cell: tension (lead changes), comebacks, the largest hand.

Per round (docs/rules.md §1.13): ``lead_changes``; a comeback is a round won by a seat that had been
at least :data:`~unosim.analysis.measures.COMEBACK_DEFICIT` cards behind the smallest active hand
(``winner_max_deficit``); ``max_hand``. Means with Student t intervals: lead changes and comebacks over
the rounds with a winner (a truncated round's lead changes and its missing winner would say more about
the turn cap than about the game), the largest hand over all rounds; ``n`` is the rounds counted.
Measures whose column the dataset lacks are left out.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from .effects import MEASURE_LABELS, MEASURES
from .intervals import with_mean_ci
from .win_rates import CELL

QUALITY_MEASURES = ("lead_changes", "comebacks", "max_hand")


def game_quality(rounds: pl.LazyFrame | pl.DataFrame, by: Sequence[str] = CELL,
                 confidence: float = 0.95) -> pl.DataFrame:
    """One row per cell and measure: ``measure``, ``label``, ``estimate`` (mean) with ``ci_low``/
    ``ci_high``, ``sd``, ``n``."""
    lazy = rounds.lazy()
    present = set(lazy.collect_schema().names())
    chosen = [m for m in MEASURES if m.name in QUALITY_MEASURES and set(m.columns) <= present]
    if not chosen:
        return pl.DataFrame()
    parts = [lazy.group_by(list(by)).agg(mean=m.expr().mean(), sd=m.expr().std(), n=m.expr().count())
             .with_columns(measure=pl.lit(m.name), label=pl.lit(MEASURE_LABELS[m.name])) for m in chosen]
    table = pl.concat(parts).sort([*by, "measure"]).collect()
    return with_mean_ci(table, "mean", "sd", "n", confidence).drop("mean").select(
        *by, "measure", "label", "estimate", "ci_low", "ci_high", "sd", "n")
