"""Comparisons of two cells (house rule A vs B, lineup A vs B), paired when they share decks.

Cells that share the deck and player count under common random numbers deal the same shuffled deck in
game ``g`` of both, so outcomes are compared game by game (matched by game index). Round-level
outcomes use each game's first round only: in match modes later rounds diverge and are not independent
of the first, while first rounds of distinct games are independent pairs.

* win/loss of a seat: the difference of win rates (B − A) and its paired t interval and test (the
  large-sample equivalent of McNemar's test); unpaired: Welch's interval and test.
* lengths: mean difference (B − A) with the paired t interval and test; unpaired: Welch's.

The interval and the p-value always come from the same test, so the interval excludes 0 exactly when
p < 0.05 (:mod:`unosim.analysis.inference`).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import polars as pl

from .inference import paired_difference, unpaired_difference

Selector = Mapping[str, object]


#: the columns of a cell's first rounds that the comparisons read (:func:`compared_rows`)
WIN_COLUMNS = ("game", "seat", "won")
LENGTH_METRICS = ("n_turns", "n_plays", "n_draws")


def _select(frame: pl.LazyFrame | pl.DataFrame, cell: Selector) -> pl.LazyFrame:
    lazy = frame.lazy().filter(pl.col("round") == 0)
    for column, value in cell.items():
        lazy = lazy.filter(pl.col(column).cast(pl.String) == str(value))
    return lazy


def compared_rows(seats: pl.LazyFrame | pl.DataFrame, rounds: pl.LazyFrame | pl.DataFrame,
                  cell: Selector) -> tuple[pl.DataFrame, pl.DataFrame]:
    """A cell's first rounds as :func:`seat_wins` and :func:`length_difference` read them: its seats'
    wins and its rounds' lengths (one query each, for a side that takes part in several comparisons)."""
    return (_select(seats, cell).select(WIN_COLUMNS).collect(),
            _select(rounds, cell).select("game", *LENGTH_METRICS).collect())


def compare_wins(seats: pl.LazyFrame | pl.DataFrame, a: Selector, b: Selector, *, paired: bool,
                 confidence: float = 0.95) -> pl.DataFrame:
    """One row per seat: win rates of A and B, ``estimate`` = B − A with ``ci_low``/``ci_high``,
    ``n`` (pairs, or rounds of A when unpaired), ``p_value`` and ``test``."""
    return seat_wins(*(_select(seats, cell).select(WIN_COLUMNS).collect() for cell in (a, b)), paired=paired,
                     confidence=confidence)


def seat_wins(frame_a: pl.DataFrame, frame_b: pl.DataFrame, *, paired: bool,
              confidence: float = 0.95) -> pl.DataFrame:
    """:func:`compare_wins` of two cells' first rounds (``game``, ``seat``, ``won``)."""
    rows = []
    for seat in sorted(set(frame_a["seat"]) & set(frame_b["seat"])):
        wa = frame_a.filter(pl.col("seat") == seat)
        wb = frame_b.filter(pl.col("seat") == seat)
        if paired:
            joined = wa.join(wb, on="game", suffix="_b")
            rows.append({"seat": seat, **_paired_wins(joined["won"].to_numpy(), joined["won_b"].to_numpy(),
                                                       confidence)})
        else:
            rows.append({"seat": seat, **_unpaired_wins(wa["won"].to_numpy(), wb["won"].to_numpy(),
                                                        confidence)})
    return pl.DataFrame(rows, schema_overrides={"seat": pl.Int8})


def compare_lengths(rounds: pl.LazyFrame | pl.DataFrame, a: Selector, b: Selector, metric: str, *,
                    paired: bool, confidence: float = 0.95) -> dict[str, object]:
    """Mean of ``metric`` in A and B, ``estimate`` = mean(B − A) with its interval, ``p_value``, ``test``."""
    return length_difference(*(_select(rounds, cell).select("game", metric).collect() for cell in (a, b)), metric,
                             paired=paired, confidence=confidence)


def length_difference(xa: pl.DataFrame, xb: pl.DataFrame, metric: str, *, paired: bool,
                      confidence: float = 0.95) -> dict[str, object]:
    """:func:`compare_lengths` of two cells' first rounds (``game`` and ``metric``)."""
    if paired:
        joined = xa.join(xb, on="game", suffix="_b")
        effect = paired_difference(joined[metric].to_numpy(), joined[f"{metric}_b"].to_numpy(), confidence)
        test = "paired t"
    else:
        effect = unpaired_difference(xa[metric].to_numpy(), xb[metric].to_numpy(), confidence)
        test = "Welch t"
    return {"metric": metric, "mean_a": effect["mean_a"], "mean_b": effect["mean_b"], **_core(effect),
            "test": test}


def _paired_wins(won_a: np.ndarray, won_b: np.ndarray, confidence: float) -> dict[str, object]:
    effect = paired_difference(won_a, won_b, confidence)
    return {"rate_a": effect["mean_a"], "rate_b": effect["mean_b"], **_core(effect),
            "only_a_won": int(np.sum(won_a & ~won_b)), "only_b_won": int(np.sum(~won_a & won_b)),
            "test": "paired t"}


def _unpaired_wins(won_a: np.ndarray, won_b: np.ndarray, confidence: float) -> dict[str, object]:
    effect = unpaired_difference(won_a, won_b, confidence)
    return {"rate_a": effect["mean_a"], "rate_b": effect["mean_b"], **_core(effect), "only_a_won": None,
            "only_b_won": None, "test": "Welch t"}


def _core(effect: dict) -> dict[str, object]:
    return {k: effect[k] for k in ("estimate", "ci_low", "ci_high", "n", "p_value")}
