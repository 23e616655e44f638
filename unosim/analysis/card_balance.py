"""Card-value balance: which cards the printed points under- or over-value, and the smallest fix the evidence demands.

Input: the table of :func:`unosim.analysis.card_values` (per cell and card kind: ``points``, the
estimated ``estimate`` = change in win probability from holding the card instead of an average card,
``std_error``, ``mean_count``). Within one cell:

* the value the printed points *promise* is the weighted least-squares line of value on points
  (weights: how often the card is held); a card's ``mismatch`` is its value minus that line: positive
  = worth more than its points say (**under-valued** by the scoring), negative = **over-valued**. The
  interval treats the line as known (its error is much smaller than one card's with a dozen cards);
* ``rank`` 1 is the most under-valued card;
* ``suggested_points``: the printed points unless the evidence says they are wrong. A card moves only
  when its mismatch is supported by Holm's adjustment (over the table: one Holm family, "card values"
  in the report) *and* at least :data:`MIN_MISMATCH` in size, and when the line rises (more points,
  more value: otherwise points say nothing about value and no card is moved). It then moves to the
  points the line gives the edge of its 95 % interval nearest to the line — the smallest change the
  evidence demands, shrunk towards the printed points — rounded to whole points and never below 0.
  Every other card keeps its printed points, so sampling noise never rewrites the table (an isotonic
  fit of every card moved whole groups of number cards on noise). ``slope`` is the line's change in
  value per printed point.
* ``worth`` (with ``worth_low``/``worth_high``): the printed points the card's value is worth on the
  line, ``points + estimate / slope`` — a declared card's price (:mod:`.card_prices`); null when the line
  does not rise.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import polars as pl

from .card_prices import PRICE_COLUMNS, price_columns
from .distributions import normal_quantile, normal_sf
from .twin_cells import Cell, with_holm
from .win_rates import CELL

ALPHA = 0.05
#: smallest mismatch (change in win probability) worth acting on: half a percentage point
MIN_MISMATCH = 0.005


def card_balance(values: pl.DataFrame, confidence: float = 0.95, twins: Mapping[Cell, str] | None = None) -> pl.DataFrame:
    """One row per cell and card: ``card``, ``points``, ``value`` (with ``value_low``/``value_high``),
    ``expected`` (value the points promise), ``estimate`` = mismatch with ``ci_low``/``ci_high`` and
    the z test ``p_value`` (Holm over the table: ``p_holm``, a cell listed twice counted once with ``twins``,
    :mod:`.twin_cells`), ``rank`` and ``suggested_points``."""
    by = [c for c in CELL if c in values.columns]
    if values.is_empty():   # no card values (too few games): no rows, the same columns
        floats = ("value", "value_low", "value_high", "expected", "slope", "estimate", "ci_low", "ci_high",
                  "p_value", "p_holm", *PRICE_COLUMNS)
        return pl.DataFrame(schema={**{c: values.schema[c] for c in (*by, "card", "points", "n")},
                                    **{c: pl.Float64 for c in floats}, "suggested_points": pl.Int64,
                                    "rank": pl.Int64})
    z = float(normal_quantile(0.5 + confidence / 2))
    parts = []
    for _, cell in values.group_by(by, maintain_order=True):
        points = cell["points"].to_numpy().astype(np.float64)
        value = cell["estimate"].to_numpy()
        expected, slope = _weighted_line(points, value, cell["mean_count"].to_numpy())
        mismatch = value - expected
        se = cell["std_error"].to_numpy()
        parts.append(cell.select(*by, "card", "points", "n", "mean_count").with_columns(
            value=pl.Series(value), value_low=cell["ci_low"], value_high=cell["ci_high"],
            expected=pl.Series(expected), slope=pl.lit(slope), estimate=pl.Series(mismatch),
            ci_low=pl.Series(mismatch - z * se), ci_high=pl.Series(mismatch + z * se),
            p_value=pl.Series(2 * normal_sf(np.abs(mismatch) / se))))
    table = pl.concat(parts)
    table = with_holm(table, "p_value", twins)
    return (pl.concat([_suggest(cell) for _, cell in table.group_by(by, maintain_order=True)]).drop("mean_count")
            .with_columns(price_columns()))


def _suggest(cell: pl.DataFrame) -> pl.DataFrame:
    """``suggested_points`` and ``rank`` of one cell (see the module docstring)."""
    points = cell["points"].to_numpy().astype(np.float64)
    slope = float(cell["slope"][0])
    estimate, low, high = (cell[c].to_numpy() for c in ("estimate", "ci_low", "ci_high"))
    moves = (cell["p_holm"].to_numpy() < ALPHA) & (np.abs(estimate) >= MIN_MISMATCH) & (slope > 0)
    nearest = np.where(estimate > 0, low, high)  # the interval's edge nearest to the line
    with np.errstate(divide="ignore", invalid="ignore"):
        moved = np.maximum(np.round(points + nearest / slope), 0.0)
    suggested = np.where(moves, moved, points)
    return (cell.with_columns(suggested_points=pl.Series(suggested.astype(np.int64)),
                              rank=pl.col("estimate").rank("ordinal", descending=True).cast(pl.Int64))
            .sort("rank"))


def _weighted_line(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, float]:
    """The weighted least-squares line's values at ``x`` and its slope (0 when every x is equal)."""
    if np.ptp(x) == 0:
        return np.full_like(y, np.average(y, weights=w)), 0.0
    slope, intercept = np.polyfit(x, y, 1, w=np.sqrt(w))
    return intercept + slope * x, float(slope)
