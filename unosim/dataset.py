"""A study's dataset on disk: hive-partitioned parquet parts, a part ledger and ``manifest.json``.

Layout of ``<out>/<study>/``::

    manifest.json      resolved spec, versions, column schema, per-cell progress (written atomically)
    parts.jsonl        the ledger: one line per finished job with each part's rows, bytes and sha256
    rounds/variant=V/players=N/part-<cell>-<job>.parquet
    seats/variant=V/players=N/part-<cell>-<job>.parquet
    matches/variant=V/players=N/part-<cell>-<job>.parquet
    .lock, .lock.owner the run's lock (see :mod:`unosim.lock`)

``variant`` is the study's variant name (a registry name or a ``[variants]`` entry) and ``players`` the
player count; both live in the path only. Every table gains a ``lineup`` column (the study's lineup
name). The other columns are those of :func:`unosim.simulate.simulate`'s ``Results`` frames, with
compact types (small ints, dictionary-encoded strings, zstd, page checksums).

Workers write their job's three parts themselves, each atomically (temp name not ending in
``.parquet``, fsync, rename), and stamp each part's footer with the job's identity (cell, job, seed,
games, engine version). They return only the parts' metadata; the run's parent fsyncs the parts'
directories (so the renames survive a crash) and appends the metadata to the ledger. A job is done
when the ledger records it; :mod:`unosim.integrity` checks every part against its record, so a
copied-in, truncated or bit-flipped part is refused by name.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from .atomic import AtomicBatch, append_line_durable, read_journal, write_bytes_atomic, write_text_atomic
from .simulate import Column, Constant, Labels, Results, WithNulls

TABLES = ("rounds", "seats", "matches")
MANIFEST = "manifest.json"
LEDGER = "parts.jsonl"
#: 2: workers write the parts; the ledger records each part's rows, bytes and sha256
FORMAT_VERSION = 2
PARTITION_SCHEMA = {"variant": pl.String, "players": pl.Int8}
#: columns stored in the path, not in the files
PARTITION_COLUMNS = tuple(PARTITION_SCHEMA)
#: the footer key holding a part's identity (JSON)
IDENTITY_KEY = b"unosim.job"
_DELTA_COLUMNS = ("game",)  # monotone within a part: delta encoding stores them in ~0 bytes
_PLAIN_COLUMNS = ("seat",)  # 0..n-1 over and over: zstd stores the period once
#: the seats table's per-seat counts: many distinct values, none read by the standard analyses
_BYTE_STREAM_SPLIT_COLUMNS = ("cards_left", "points_left", "n_drawn", "n_played")
_BYTE_STREAM_SPLIT_PREFIX = "open_"  # the opening-hand counts (see column_encodings)
#: zstd level of the parts: level 3 wrote 2 % smaller files than level 1 for 5-10 % more writing time
ZSTD_LEVEL = 1
#: rows the parquet writer takes per internal batch (its default, 1 024, costs a fixed overhead per batch
#: per column: ~400 batches per seat column of a 100 000-game part)
WRITE_BATCH_ROWS = 65_536


class DatasetError(ValueError):
    """A dataset that cannot be used as it is (missing, incomplete, or not matching its manifest)."""


# ---- paths and jobs ---------------------------------------------------------------------------------
def part_path(root: Path, table: str, variant: str, players: int, cell_name: str, job: int) -> Path:
    return root / table / f"variant={variant}" / f"players={players}" / f"part-{cell_name}-{job:05d}.parquet"


def job_count(games: int, chunk_size: int) -> int:
    """Number of jobs of a cell of ``games`` games (arithmetic: a trillion-game cell costs nothing)."""
    return -(-games // chunk_size)


def job_range(games: int, chunk_size: int, job: int) -> tuple[int, int]:
    """(first_game, games) of job ``job`` of a cell."""
    first = job * chunk_size
    return first, min(chunk_size, games - first)


# ---- writing ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PartInfo:
    """What the ledger records of a part: rows, file size and the sha256 of the file."""

    rows: int
    bytes: int
    sha256: str

    def as_list(self) -> list:
        return [self.rows, self.bytes, self.sha256]

    @classmethod
    def from_list(cls, value: list) -> PartInfo:
        rows, size, sha = value
        return cls(int(rows), int(size), str(sha))


def part_table(results: Results, table: str, lineup: str) -> pa.Table:
    """Table ``table`` of ``results`` as a part stores it: the Results frame's columns and types, the
    partition columns dropped, a ``lineup`` column added, strings dictionary-encoded.

    Built straight from the numpy columns (:meth:`unosim.simulate.Results.columns`), not through the
    polars frame: a worker never materialises a string per row. Its content equals the polars frame's
    (tests/test_dataset.py compares them for every variant).
    """
    columns = {k: c for k, c in results.columns(table).items() if k not in PARTITION_COLUMNS}
    arrays = {name: _arrow_column(c) for name, c in columns.items()}
    columns["lineup"] = Constant(lineup, len(next(iter(arrays.values()))))
    arrays["lineup"] = _arrow_column(columns["lineup"])
    # only the columns that can hold nulls are nullable: parquet writes no definition levels for the
    # others, which took 40 % of the writing time of a part
    schema = pa.schema([pa.field(name, arrays[name].type, nullable=isinstance(column, WithNulls))
                        for name, column in columns.items()])
    return pa.Table.from_arrays(list(arrays.values()), schema=schema)


def _arrow_column(column: Column) -> pa.Array:
    if isinstance(column, Labels):
        if column.enum:  # every name in the dictionary, in order, as polars writes an Enum
            return pa.DictionaryArray.from_arrays(pa.array(column.codes.astype(numpy.uint8)),
                                                  pa.array(column.names, pa.large_string()), ordered=True)
        return _labels_dictionary(column.names, column.codes)
    if isinstance(column, Constant):
        return pa.DictionaryArray.from_arrays(pa.array(numpy.zeros(column.rows, numpy.int32)),
                                              pa.array([column.value], pa.string()))
    if isinstance(column, WithNulls):
        return pa.array(column.values, mask=column.missing)
    return pa.array(column)


def _labels_dictionary(names: tuple[str, ...], codes: numpy.ndarray) -> pa.DictionaryArray:
    """names[codes] dictionary-encoded as arrow's ``dictionary_encode`` would: distinct labels in the
    order of their first row (two codes may share a label: one policy in several seats)."""
    first_rows = {}
    for code in range(len(names)):
        rows = codes == code
        if rows.any():
            first_rows[code] = int(rows.argmax())
    labels: list[str] = []
    remap = numpy.zeros(max(len(names), 1), numpy.int32)
    for code in sorted(first_rows, key=first_rows.get):
        if names[code] not in labels:
            labels.append(names[code])
        remap[code] = labels.index(names[code])
    return pa.DictionaryArray.from_arrays(pa.array(remap[codes]), pa.array(labels, pa.string()))


def encode_part(table: pa.Table, identity: dict[str, Any] | None = None) -> pa.Buffer:
    """The parquet bytes of a part: zstd, page checksums, identity in the footer, and per column the
    encoding that is both small and cheap to write (:func:`column_encodings`). An arrow buffer, written
    and hashed as it is (no copy into a Python ``bytes``)."""
    if identity is not None:
        table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                               IDENTITY_KEY: json.dumps(identity, sort_keys=True).encode()})
    dictionary, encodings = column_encodings(table)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd", compression_level=ZSTD_LEVEL, use_dictionary=dictionary,
                   column_encoding=encodings, write_statistics=False, write_page_checksum=True,
                   write_batch_size=WRITE_BATCH_ROWS)
    return sink.getvalue()


def column_encodings(table: pa.Table) -> tuple[list[str], dict[str, str]]:
    """(dictionary-encoded columns, explicit encoding of the others) for a part holding ``table``.

    Each part is written once and read by every analysis, so both costs count. Measured per 100 000
    classic 4p games (400 000 seat rows, CPU seconds): dictionary encoding is what polars reads fastest,
    but it hashes every value. It stays on the columns the analyses read (seat positions, round counts,
    labels). The opening-hand counts and the per-seat counts of the seats table take BYTE_STREAM_SPLIT
    instead: dictionary-encoding the 24 opening counts took 0.10 s, a sixth of a worker's job, and the
    four per-seat counts 0.015 s; BYTE_STREAM_SPLIT writes them in a third of that (it transposes the
    bytes of each value, so zstd sees the zero high bytes of small counts as runs), and polars reads
    each in about 3 ms per 400 000 values instead of 1 ms. A column holding one value in the whole part
    (the counters of another variant's rules, a single-round game's round number) is written PLAIN:
    zstd shrinks it to a few bytes at a third of a dictionary's cost, and it reads as fast. So is the
    seat number, which repeats 0..n-1. Game numbers are monotone within a part: delta encoding stores
    them in ~0 bytes. Strings are dictionaries of a few labels; booleans are bit-packed as they are.
    BYTE_STREAM_SPLIT for integers is Parquet format 2.11: pyarrow ≥ 17, polars and DuckDB ≥ 2.0 read
    it (DuckDB 1.x does not).
    """
    dictionary, encodings = [], {}
    for fld, column in zip(table.schema, table.columns, strict=True):
        if pa.types.is_boolean(fld.type):
            continue
        if fld.name in _DELTA_COLUMNS:
            encodings[fld.name] = "DELTA_BINARY_PACKED"
        elif pa.types.is_integer(fld.type) and (fld.name in _PLAIN_COLUMNS or _one_value(column)):
            encodings[fld.name] = "PLAIN"
        elif pa.types.is_integer(fld.type) and (fld.name in _BYTE_STREAM_SPLIT_COLUMNS
                                                or fld.name.startswith(_BYTE_STREAM_SPLIT_PREFIX)):
            encodings[fld.name] = "BYTE_STREAM_SPLIT"
        else:
            dictionary.append(fld.name)
    return dictionary, encodings


def _one_value(column: pa.ChunkedArray) -> bool:
    """True when ``column`` (integers) holds the same value in every row, none null (and has rows)."""
    if column.null_count or len(column) == 0:
        return False
    values = [chunk.to_numpy() for chunk in column.chunks if len(chunk)]
    first = values[0][0]
    return all(v.min() == first == v.max() for v in values)


def write_part(path: Path, table: pa.Table, identity: dict[str, Any] | None = None, *,
               batch: AtomicBatch | None = None) -> PartInfo:
    """Write a part atomically (or hand it to ``batch``, renamed when the batch ends); returns its ledger
    record (hashed from the bytes written, not re-read)."""
    data = encode_part(table, identity)
    if batch is None:
        write_bytes_atomic(path, data)
    else:
        batch.write_bytes(path, data)
    return PartInfo(table.num_rows, len(data), hashlib.sha256(data).hexdigest())


def schema_fingerprint(schema: pa.Schema) -> list[list[str]]:
    """Column names and types of a part as JSON-friendly pairs (what the manifest records)."""
    return [[f.name, str(f.type)] for f in schema]


def table_schemas(tables: dict[str, pa.Table]) -> dict[str, list[list[str]]]:
    """The schema fingerprint of each table as a part file stores it (read back from encoded bytes)."""
    return {name: _stored_fingerprint(t.schema) for name, t in tables.items()}


@functools.lru_cache(maxsize=64)
def _stored_fingerprint(schema: pa.Schema) -> list[list[str]]:
    """Computed once per schema in a process (a worker would otherwise encode three parts more per job)."""
    return schema_fingerprint(pq.ParquetFile(pa.BufferReader(encode_part(schema.empty_table()))).schema_arrow)


# ---- manifest and ledger ----------------------------------------------------------------------------
def write_manifest(root: Path, manifest: dict[str, Any]) -> None:
    text = json.dumps(manifest, indent=2, sort_keys=False) + "\n"
    write_text_atomic(root / MANIFEST, text)


def read_manifest(root: str | Path) -> dict[str, Any]:
    root = Path(root)
    path = root / MANIFEST
    if not root.is_dir():
        what = "a file" if root.exists() else "missing"
        raise DatasetError(f"{root} is not a unosim dataset ({what}): give the dataset directory a study "
                           f"run wrote, e.g. data/demo")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DatasetError(f"{root} is not a unosim dataset: no {MANIFEST}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise DatasetError(f"{path} is not valid JSON: {exc}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT_VERSION:
        found = manifest.get("format") if isinstance(manifest, dict) else None
        raise DatasetError(f"{root} is a dataset of format {found!r} (written by another unosim version, "
                           f"without part checksums); this unosim reads format {FORMAT_VERSION}: run the "
                           f"study again with --force")
    return manifest


def read_ledger(root: Path, *, lenient: bool = False) -> dict[tuple[str, int], dict[str, Any]]:
    """(cell, job) → the ledger record of each finished job (a later line for the same job wins).

    A line that is not a record raises :class:`DatasetError`, or is skipped when ``lenient`` (repair).
    """
    out = {}
    for line in read_journal(Path(root) / LEDGER):
        try:
            record = json.loads(line)
            key = (str(record["cell"]), int(record["job"]))
        except (ValueError, KeyError, TypeError):
            if lenient:
                continue
            raise DatasetError(f"{Path(root) / LEDGER} holds a line that is not a job record: "
                               f"{line[:80]!r}") from None
        out[key] = record
    return out


def append_ledger(root: Path, record: dict[str, Any]) -> None:
    append_line_durable(Path(root) / LEDGER, json.dumps(record, sort_keys=True, separators=(",", ":")))


def rewrite_ledger(root: Path, records: dict[tuple[str, int], dict[str, Any]]) -> None:
    """Replace the ledger atomically (drops a torn last line, forgets repaired jobs)."""
    lines = [json.dumps(r, sort_keys=True, separators=(",", ":")) for r in records.values()]
    write_text_atomic(Path(root) / LEDGER, "".join(line + "\n" for line in lines))


def record_progress(manifest: dict[str, Any], done: dict[tuple[str, int], dict[str, Any]]) -> None:
    """Set each cell's progress in the manifest from the finished jobs' ledger records."""
    for entry in manifest["cells"].values():
        entry["jobs_done"] = entry["games_done"] = 0
    for (cell, _), record in done.items():
        manifest["cells"][cell]["jobs_done"] += 1
        manifest["cells"][cell]["games_done"] += record["games"]
    for entry in manifest["cells"].values():
        entry["status"] = ("complete" if entry["jobs_done"] == entry["jobs"]
                           else "partial" if entry["jobs_done"] else "pending")


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


def games_on_disk(manifest: dict[str, Any]) -> tuple[int, int]:
    """(games done, games planned) as the manifest counts them."""
    done = sum(c["games_done"] for c in manifest["cells"].values())
    return done, sum(c["games"] for c in manifest["cells"].values())


def open_dataset(path: str | Path) -> Dataset:
    """Open a complete dataset after checking every part against the ledger and the manifest.

    Checked: every job is recorded, every part exists with its recorded size, sha256 and row count,
    its footer names this cell and job, its columns are the manifest's schema, and no other part lies
    in the tables. The first problem raises :class:`DatasetError` naming the part (``unosim study
    verify`` lists them all). Verdicts are cached in memory by file size and mtime, so opening the same
    dataset again in one process does not re-read it.
    """
    from .integrity import verify  # integrity builds on this module
    root = Path(path)
    manifest = read_manifest(root)
    if manifest.get("status") != "complete":
        done, total = games_on_disk(manifest)
        raise DatasetError(f"dataset {root} is incomplete ({done:,} of {total:,} games); resume it with "
                           f"`unosim study run SPEC --out {root.parent}`")
    problems = verify(root, manifest, stop_at_first=True).problems
    if problems:
        raise DatasetError(f"dataset {root} failed verification: {problems[0]} (see `unosim study verify "
                           f"{root}`)")
    return Dataset(root, manifest)
