"""Analysing a dataset one cell at a time, so that the working set is a few cells' rows (one per thread), never
a large study's (a small one is analysed whole: :func:`tables_by_cell`).

Every standard table is grouped by the cell columns (:data:`CELL`), so computing it on each cell's rows
alone and stacking the results in cell order gives exactly the table of the whole dataset. Queries run
on polars' streaming engine, which aggregates a scan batch by batch instead of loading its columns.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import polars as pl

from ..store.reader import Dataset
from .win_rates import CELL

#: threads analysing cells at once
THREADS = min(4, os.cpu_count() or 1)
#: datasets with at most this many seat rows (about 50 MB of columns) are analysed whole, not cell by cell
WHOLE_ROWS = 1_000_000


@dataclass(frozen=True)
class CellScan:
    """The rows of one cell of a dataset: the same ``seats``/``rounds``/``matches``/``manifest``
    interface as :class:`unosim.store.reader.Dataset`, with every scan filtered to the cell (the variant
    and player count select the hive partition's files, the lineup is filtered while reading)."""

    dataset: Dataset
    variant: str
    players: int
    lineup: str

    def scan(self, table: str) -> pl.LazyFrame:
        return self.dataset.scan(table).filter(pl.col("variant") == self.variant,
                                               pl.col("players") == self.players,
                                               pl.col("lineup") == self.lineup)

    @property
    def seats(self) -> pl.LazyFrame:
        return self.scan("seats")

    @property
    def rounds(self) -> pl.LazyFrame:
        return self.scan("rounds")

    @property
    def matches(self) -> pl.LazyFrame:
        return self.scan("matches")

    @property
    def manifest(self) -> dict[str, Any]:
        return self.dataset.manifest


def cell_scans(ds: Dataset) -> Iterator[CellScan]:
    """One :class:`CellScan` per distinct (variant, players, lineup) of the manifest, in that order."""
    seen = set()
    for cell in ds.manifest["study"]["cells"]:
        key = tuple(cell[c] for c in CELL)
        if key not in seen:
            seen.add(key)
            yield CellScan(ds, *key)


#: tables that stack whole-dataset tables of one kind (a block per value of the column named here, in
#: order of appearance) instead of sorting all their rows by cell
BLOCKS = {"length_distributions": "metric"}


def stack_cells(per_cell: Sequence[dict[str, pl.DataFrame]]) -> dict[str, pl.DataFrame]:
    """The tables of each cell stacked by name in the row order of a whole-dataset query: sorted by the
    cell columns (within blocks, see :data:`BLOCKS`), each cell's rows keeping their order."""
    names = list(dict.fromkeys(name for tables in per_cell for name in tables))
    stacked = {}
    for name in names:
        present = [tables[name] for tables in per_cell if name in tables]
        parts = [table for table in present if table.height]
        if not parts:
            stacked[name] = present[0]
            continue
        table = pl.concat(parts, how="vertical_relaxed")
        keys = list(CELL)
        if name in BLOCKS:
            blocks = table[BLOCKS[name]].unique(maintain_order=True)
            table = table.with_columns(_block=pl.col(BLOCKS[name]).replace_strict(blocks, range(len(blocks))))
            keys.insert(0, "_block")
        stacked[name] = table.sort(keys, maintain_order=True).drop("_block", strict=False)
    return stacked


def tables_by_cell(ds: Dataset, analyse: Callable[[Dataset | CellScan], dict[str, pl.DataFrame]]
                   ) -> dict[str, pl.DataFrame]:
    """``analyse`` run on each cell alone (on the streaming engine), its tables stacked across cells in
    the cells' order. The cells run on :data:`THREADS` threads: polars' queries release the GIL, and a
    cell's tables are many small queries that leave polars' own threads idle (two threads were faster
    on a loaded 2-core machine, same tables: docs/results/code_choices.json).

    A dataset of at most :data:`WHOLE_ROWS` seat rows is analysed in one query per table instead: a cell
    costs about 130 queries whatever its size, so small datasets of many cells paid mostly for the
    queries (docs/results/code_choices.json). The tables are the same up
    to the last bits of a few sums (tests/analysis/test_analysis_cells.py)."""
    with streaming():
        if ds.scan("seats").select(pl.len()).collect().item() <= WHOLE_ROWS:
            return stack_cells([analyse(ds)])
        with ThreadPoolExecutor(THREADS) as pool:
            return stack_cells(list(pool.map(analyse, cell_scans(ds))))


@contextmanager
def streaming() -> Iterator[None]:
    """Collect lazy queries on polars' streaming engine within the block."""
    with pl.Config(engine_affinity="streaming"):
        yield
