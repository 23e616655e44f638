"""The standard analyses of a study dataset: every table the report shows, by name."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from .. import table_store
from ..dataset import Dataset
from .card_values import card_values
from .cells import CellScan, streaming, tables_by_cell
from .lengths import length_distributions, length_summary
from .matches import match_ends, match_vs_round_wins, rounds_per_match
from .paired import compare_lengths, compare_wins
from .win_rates import CELL, points_when_winning, win_rates, win_rates_by_dealer_position

TABLE_DIR = "analysis"


def standard_tables(ds: Dataset, confidence: float = 0.95) -> dict[str, pl.DataFrame]:
    """Win rates, lengths, card values, match statistics and the spec's comparisons, as tidy tables.

    The per-cell tables are computed one cell at a time (:mod:`unosim.analysis.cells`)."""
    tables = tables_by_cell(ds, lambda cell: cell_tables(cell, confidence))
    if ds.manifest["study"]["comparisons"]:
        with streaming():
            tables["compare_wins"], tables["compare_lengths"] = comparisons(ds, confidence)
    return tables


def cell_tables(ds: Dataset | CellScan, confidence: float = 0.95) -> dict[str, pl.DataFrame]:
    """The tables grouped by cell, of the rows of ``ds`` (a whole dataset or one cell)."""
    tables = {
        "win_rates": win_rates(ds.seats, confidence=confidence),
        "win_rates_dealer": win_rates_by_dealer_position(ds.seats, confidence=confidence),
        "points": points_when_winning(ds.rounds, confidence=confidence),
        "lengths": length_summary(ds.rounds, confidence=confidence),
        "length_distributions": length_distributions(ds.rounds, confidence=confidence),
        "card_values": card_values(ds.seats, confidence=confidence),
    }
    if ds.manifest["study"]["mode"] != "single_round":
        tables["rounds_per_match"] = rounds_per_match(ds.matches, confidence=confidence)
        tables["match_ends"] = match_ends(ds.matches, confidence=confidence)
        tables["match_wins"] = match_vs_round_wins(ds.seats, ds.matches, confidence=confidence)
    return tables


def comparisons(ds: Dataset, confidence: float = 0.95) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Every ``[[comparisons]]`` entry of the spec at each shared value of the other axes: win rates per
    seat and the length metrics, paired when the two cells share decks."""
    cells = ds.cells()
    wins, lengths = [], []
    for spec in ds.manifest["study"]["comparisons"]:
        axis, other = spec["axis"], [c for c in CELL if c != spec["axis"]]
        side_a = cells.filter(pl.col(axis) == spec["a"])
        side_b = cells.filter(pl.col(axis) == spec["b"])
        for row in side_a.join(side_b, on=other, suffix="_b").iter_rows(named=True):
            shared = {c: row[c] for c in other}
            a, b = {**shared, axis: spec["a"]}, {**shared, axis: spec["b"]}
            paired = ds.shares_decks(row["name"], row["name_b"])
            label = {"axis": axis, "a": spec["a"], "b": spec["b"], **shared, "paired": paired}
            wins.append(compare_wins(ds.seats, a, b, paired=paired, confidence=confidence)
                        .select(*[pl.lit(v).alias(k) for k, v in label.items()], pl.all()))
            for metric in ("n_turns", "n_plays", "n_draws"):
                lengths.append({**label, **compare_lengths(ds.rounds, a, b, metric, paired=paired,
                                                           confidence=confidence)})
    return pl.concat(wins, how="diagonal_relaxed"), pl.DataFrame(lengths)


def write_tables(tables: dict[str, pl.DataFrame], directory: str | Path) -> list[Path]:
    """Each table as ``<directory>/<name>.csv`` (atomically, with a checksummed index); returns the paths."""
    return table_store.write_tables(tables, directory)


def read_tables(directory: str | Path) -> dict[str, pl.DataFrame]:
    """The tables written by :func:`write_tables` that its index vouches for (stale ones left out)."""
    return table_store.read_tables(directory)
