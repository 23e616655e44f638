"""Reading a study dataset: :func:`open_dataset` verifies it, :class:`Dataset` scans its tables.

The reader sits above :mod:`.integrity` (which checks every part against the ledger,
:mod:`.ledger`): a dataset is only ever read through the parts verification proved.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from .consolidate import reading_parts
from .integrity import proven, sample_problem, verify
from .layout import PARTITION_COLUMNS, TABLES, DatasetError
from .manifest import games_on_disk, read_manifest

#: the types of the partition columns, read from the parts' paths
PARTITION_SCHEMA = dict(zip(PARTITION_COLUMNS, (pl.String, pl.Int8), strict=True))

@dataclass(frozen=True)
class Dataset:
    """A verified study dataset; tables are lazy polars frames over exactly the verified parts."""

    path: Path
    manifest: dict[str, Any]
    #: table → the files to read: the parts the ledger records and verification checked, small ones
    #: replaced by the consolidated files built from them (:mod:`unosim.store.consolidate`)
    parts: dict[str, tuple[str, ...]] = field(repr=False)
    #: sha256 naming the dataset's content: its spec, layout, schema, engine and every part's sha256
    digest: str

    def scan(self, table: str) -> pl.LazyFrame:
        """Table ``table`` over its verified parts (a list, not a glob: nothing else in the folder is read)."""
        if table not in TABLES:
            raise DatasetError(f"unknown table {table!r}: valid are {list(TABLES)}")
        return pl.scan_parquet(list(self.parts[table]), hive_partitioning=True, hive_schema=PARTITION_SCHEMA)

    @property
    def rounds(self) -> pl.LazyFrame:
        return self.scan("rounds")

    @property
    def seats(self) -> pl.LazyFrame:
        return self.scan("seats")

    @property
    def matches(self) -> pl.LazyFrame:
        return self.scan("matches")

    def to_pandas(self, table: str, columns: list[str] | None = None):
        """Table ``table`` (optionally only ``columns``) read into pandas: pyarrow dtypes, categorical
        labels (see :mod:`unosim.store.interop`). Filter large tables in polars first (``scan``) when memory
        is short."""
        from .interop import to_pandas
        frame = self.scan(table)
        return to_pandas((frame.select(columns) if columns else frame).collect())

    @property
    def name(self) -> str:
        return self.manifest["study"]["name"]

    def cells(self) -> pl.DataFrame:
        """One row per cell: name, variant, players, lineup, rules key, games, seed."""
        return pl.DataFrame(self.manifest["study"]["cells"]).with_columns(pl.col("players").cast(pl.Int8))

    def shares_decks(self, cell_a: str, cell_b: str) -> bool:
        """True when the two cells saw the same shuffled decks game by game (same simulate seed)."""
        seeds = {c["name"]: c["seed"] for c in self.manifest["study"]["cells"]}
        return seeds[cell_a] == seeds[cell_b]


def open_dataset(path: str | Path) -> Dataset:
    """Open a complete dataset after checking every part against the ledger and the manifest.

    Checked: the manifest matches its seal and the ledger the manifest's seal; every job is recorded,
    every part exists with its recorded size, sha256 and row count, its footer names this cell and job,
    its columns are the manifest's schema, and nothing else (no other file, no link) lies in the
    tables. The first problem raises :class:`DatasetError` naming the part (``unosim study verify``
    lists them all). What verification proved is kept (``parts.verified``, and in memory) by file
    size, mtime, ctime and inode, so opening an unchanged dataset again reads only a random sample of
    :data:`~unosim.store.integrity.SAMPLE_PARTS` parts (damage below the file system keeps the stamps).
    """
    root = Path(path)
    manifest = read_manifest(root)
    if manifest.get("status") != "complete":
        done, total = games_on_disk(manifest)
        raise DatasetError(f"dataset {root} is incomplete ({done:,} of {total:,} games); resume it with "
                           f"`unosim study run SPEC --out {root.parent}`")
    known = proven(root, manifest)
    problem = sample_problem(root, manifest, known[0]) if known is not None else None
    if problem is not None:
        raise DatasetError(f"dataset {root} failed verification: {problem} (see `unosim study verify {root}`)")
    if known is None:
        verdict = verify(root, manifest, stop_at_first=True, quick=True)
        if verdict.problems:
            raise DatasetError(f"dataset {root} failed verification: {verdict.problems[0]} (see `unosim study "
                               f"verify {root}`)")
        known = verdict.part_paths(root, manifest), verdict.digest
    parts, digest = known
    return Dataset(root, manifest, reading_parts(root, parts, digest), digest)
