"""Cells that play the very same games, and the tests they would repeat in a Holm family.

A study can hold one cell twice: a variant listed under two names with the same rules, a design of a
search's confirmation equal to the base game or to another confirmed design. Two cells with the same rules
(the manifest's canonical ``rules_key``: every rule and the deck), table size, effective lineup, games and
seed play the very same games (the engine is deterministic), so a test of one is the same test, on the
same data, of the other. Counted twice in a family, it would raise every other test's Holm multiplier
without testing anything new. So a family counts each test once (docs/rules.md §8.1): rows that test one
hypothesis on the same games share a label (``holm_test``) and one adjusted p-value
(:func:`unosim.analysis.inference.holm`), and a comparison of a cell with its own twin is no test at all
(its label is empty). Cells whose games merely turned out equal (a rule that never acted) are the
``identical`` rows of the effects table (§8.5); cells of the same rules on other seeds are other games, and
each is a test of its own.
"""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl

from .inference import holm

#: the manifest's cell columns that decide a cell's games
GAMES_OF = ("rules_key", "players", "lineup_effective", "games", "seed")
#: the columns that tell one test of a cell (or a pair of cells) from another: the measure, seat, card …
WITHIN = ("measure", "metric", "seat", "policy", "card")

Cell = tuple[str, int, str]


def game_twins(cells: pl.DataFrame) -> dict[Cell, str]:
    """Each cell (variant, players, lineup) with the name of the first cell, in the manifest's order, that
    plays its very games (its own name when none before it does). ``cells``: a manifest's cells
    (:meth:`unosim.store.reader.Dataset.cells`); without the columns that decide the games (or a name),
    every cell is its own."""
    known = all(c in cells.columns for c in GAMES_OF)
    first: dict[tuple, str] = {}
    twins = {}
    for row in cells.iter_rows(named=True):
        cell = (str(row["variant"]), int(row["players"]), str(row["lineup"]))
        name = row.get("name") or "/".join(map(str, cell))
        twins[cell] = first.setdefault(tuple(row[c] for c in GAMES_OF) if known else name, name)
    return twins


def test_labels(table: pl.DataFrame, twins: Mapping[Cell, str]) -> list[str | None]:
    """Each row's test: the twin of its cell (a per-cell table: ``variant``, ``players``, ``lineup``) or of
    its two cells (a comparison: ``a`` and ``b`` on the ``axis``, ``variant`` when the table has none), and
    the row's :data:`WITHIN` columns. None for a comparison of a cell with its twin."""
    within = [c for c in WITHIN if c in table.columns]
    labels: list[str | None] = []
    for row in table.iter_rows(named=True):
        rest = "|".join(str(row[c]) for c in within)
        if "a" in row and "b" in row:
            a, b = (_twin(twins, row, side) for side in ("a", "b"))
            labels.append(None if a == b else f"{a} vs {b}|{rest}")
        else:
            labels.append(f"{_twin(twins, row, None)}|{rest}")
    return labels


def _twin(twins: Mapping[Cell, str], row: Mapping, side: str | None) -> str:
    cell = {"variant": row.get("variant"), "players": row["players"], "lineup": row.get("lineup")}
    if side is not None:
        cell[row.get("axis") or "variant"] = row[side]
    key = (str(cell["variant"]), int(cell["players"]), str(cell["lineup"]))
    return twins.get(key, "/".join(map(str, key)))


def with_holm(table: pl.DataFrame, p_column: str, twins: Mapping[Cell, str] | None) -> pl.DataFrame:
    """``table`` with ``p_holm``, Holm's adjustment of ``p_column`` over its rows, each test counted once,
    and ``holm_test``, each row's test (:func:`test_labels`; without ``twins`` every row is its own)."""
    labels = test_labels(table, twins) if twins is not None else None
    p = table[p_column].cast(pl.Float64).fill_null(float("nan")).to_numpy()
    out = table.with_columns(p_holm=pl.Series(holm(p, labels), dtype=pl.Float64))
    return out.with_columns(holm_test=pl.Series(labels, dtype=pl.String)) if labels is not None else out
