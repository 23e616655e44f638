"""A study's dataset on disk: hive-partitioned parquet parts plus ``manifest.json``.

Layout of ``<out>/<study>/``::

    manifest.json                         resolved spec, versions, per-cell progress (written atomically)
    rounds/variant=V/players=N/part-<cell>-<job>.parquet
    seats/variant=V/players=N/part-<cell>-<job>.parquet
    matches/variant=V/players=N/part-<cell>-<job>.parquet

``variant`` is the study's variant name (a registry name or a ``[variants]`` entry) and ``players`` the
player count; both live in the path only. Every table gains a ``lineup`` column (the study's lineup
name). The other columns are those of :func:`unosim.simulate.simulate`'s ``Results`` frames, with
compact types (small ints, dictionary-encoded strings, zstd). A job's three parts are written one after
the other, each atomically (temp name not ending in ``.parquet``, fsync, rename); a job is complete when
all three exist, so a killed run loses at most the jobs in flight and never leaves a half-written file.

:func:`open_dataset` returns lazy polars frames and refuses a dataset whose manifest does not match
its files.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from .atomic import write_atomic, write_text_atomic

TABLES = ("rounds", "seats", "matches")
MANIFEST = "manifest.json"
FORMAT_VERSION = 1
PARTITION_SCHEMA = {"variant": pl.String, "players": pl.Int8}
#: columns stored in the path, not in the files
PARTITION_COLUMNS = tuple(PARTITION_SCHEMA)
_DELTA_COLUMNS = ("game",)  # monotone within a part: delta encoding stores them in ~0 bytes


class DatasetError(ValueError):
    """A dataset that cannot be used as it is (missing, incomplete, or not matching its manifest)."""


# ---- paths ------------------------------------------------------------------------------------------
def part_path(root: Path, table: str, variant: str, players: int, cell_name: str, job: int) -> Path:
    return root / table / f"variant={variant}" / f"players={players}" / f"part-{cell_name}-{job:05d}.parquet"


# ---- writing ----------------------------------------------------------------------------------------
def compact_table(frame: pl.DataFrame, lineup: str) -> pa.Table:
    """A Results frame as a compact arrow table: partition columns dropped, ``lineup`` added, strings
    dictionary-encoded. Columns keep the engine's (already small) integer types."""
    frame = frame.drop([c for c in PARTITION_COLUMNS if c in frame.columns])
    frame = frame.with_columns(pl.lit(lineup, pl.String).alias("lineup"))
    table = frame.to_arrow()
    for i, fld in enumerate(table.schema):
        if pa.types.is_string(fld.type) or pa.types.is_large_string(fld.type):
            column = table.column(i).cast(pa.string()).dictionary_encode()
            table = table.set_column(i, pa.field(fld.name, column.type), column)
    return table


def write_part(path: Path, table: pa.Table) -> None:
    delta = [c for c in _DELTA_COLUMNS if c in table.column_names]
    dictionary = [c for c in table.column_names if c not in delta]
    write_atomic(path, lambda tmp: pq.write_table(
        table, tmp, compression="zstd", compression_level=3, use_dictionary=dictionary,
        column_encoding=dict.fromkeys(delta, "DELTA_BINARY_PACKED"), write_statistics=False))


def write_manifest(root: Path, manifest: dict[str, Any]) -> None:
    text = json.dumps(manifest, indent=2, sort_keys=False) + "\n"
    write_text_atomic(root / MANIFEST, text)


def read_manifest(root: Path) -> dict[str, Any]:
    path = Path(root) / MANIFEST
    try:
        manifest = json.loads(path.read_text())
    except FileNotFoundError:
        raise DatasetError(f"{root} is not a unosim dataset: no {MANIFEST}") from None
    except json.JSONDecodeError as exc:
        raise DatasetError(f"{path} is not valid JSON: {exc}") from None
    if manifest.get("format") != FORMAT_VERSION:
        raise DatasetError(f"{path} has format {manifest.get('format')!r}; this unosim reads format "
                           f"{FORMAT_VERSION}")
    return manifest


# ---- expected contents ------------------------------------------------------------------------------
def job_ranges(games: int, chunk_size: int) -> list[tuple[int, int]]:
    """(first_game, games) of each job of a cell."""
    return [(first, min(chunk_size, games - first)) for first in range(0, games, chunk_size)]


def expected_parts(root: Path, manifest: dict[str, Any], table: str) -> dict[Path, str]:
    """Every part file the manifest's study consists of, mapped to its cell name."""
    chunk = manifest["chunk_size"]
    out = {}
    for cell in manifest["study"]["cells"]:
        for job in range(len(job_ranges(cell["games"], chunk))):
            out[part_path(root, table, cell["variant"], cell["players"], cell["name"], job)] = cell["name"]
    return out


def job_is_complete(root: Path, variant: str, players: int, cell_name: str, job: int) -> bool:
    return all(part_path(root, t, variant, players, cell_name, job).exists() for t in TABLES)


# ---- reading ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Dataset:
    """A verified study dataset; tables are lazy polars frames."""

    path: Path
    manifest: dict[str, Any]

    def scan(self, table: str) -> pl.LazyFrame:
        if table not in TABLES:
            raise DatasetError(f"unknown table {table!r}: valid are {list(TABLES)}")
        return pl.scan_parquet(self.path / table / "**" / "*.parquet", hive_partitioning=True,
                               hive_schema=PARTITION_SCHEMA)

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
        labels (see :mod:`unosim.interop`). Filter large tables in polars first (``scan``) when memory
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
    """Open a complete dataset, checking that its files are exactly those its manifest describes."""
    root = Path(path)
    manifest = read_manifest(root)
    if manifest.get("status") != "complete":
        done = sum(c["games_done"] for c in manifest["cells"].values())
        total = sum(c["games"] for c in manifest["cells"].values())
        raise DatasetError(f"dataset {root} is incomplete ({done:,} of {total:,} games); resume it with "
                           f"`unosim study run SPEC --out {root.parent}`")
    for table in TABLES:
        expected = expected_parts(root, manifest, table)
        present = set((root / table).glob("variant=*/players=*/*.parquet"))
        missing = sorted(set(expected) - present)
        extra = sorted(present - set(expected))
        if missing:
            raise DatasetError(f"dataset {root} does not match its manifest: {len(missing)} part(s) missing, "
                               f"e.g. {missing[0].relative_to(root)}")
        if extra:
            raise DatasetError(f"dataset {root} does not match its manifest: {len(extra)} unexpected "
                               f"part(s), e.g. {extra[0].relative_to(root)}")
    games = dict.fromkeys((c["name"] for c in manifest["study"]["cells"]), 0)
    for part, cell in expected_parts(root, manifest, "matches").items():
        games[cell] += pq.read_metadata(part).num_rows
    for cell in manifest["study"]["cells"]:
        if games[cell["name"]] != cell["games"]:
            raise DatasetError(f"dataset {root} does not match its manifest: cell {cell['name']} has "
                               f"{games[cell['name']]:,} matches on disk, the manifest says {cell['games']:,}")
    return Dataset(root, manifest)
