"""A study's dataset on disk: hive-partitioned parquet parts, a part ledger and ``manifest.json``.

Layout of ``<out>/<study>/``::

    manifest.json      resolved spec, versions, column schema, per-cell jobs and progress, and its seal
                       (written atomically)
    parts.jsonl        the ledger: one line per finished job with each part's rows, bytes and sha256
    parts.verified     what the last verification proved of each part (a cache, see integrity)
    consolidated/      a dataset of many small jobs read from a few files (a cache, see consolidate)
    rounds/variant=V/players=N/part-<cell>-<job>.parquet
    seats/variant=V/players=N/part-<cell>-<job>.parquet
    matches/variant=V/players=N/part-<cell>-<job>.parquet
    .lock, .lock.owner the run's lock (see :mod:`unosim.store.lock`)

``variant`` is the study's variant name (a registry name or a ``[variants]`` entry) and ``players`` the
player count; both live in the path only. Every table gains a ``lineup`` column (the study's lineup
name). The other columns are those of :func:`unosim.play.simulate.simulate`'s ``Results`` frames, with
compact types (small ints, dictionary-encoded strings, zstd, page checksums).

Workers write their job's three parts themselves, each atomically (temp name not ending in
``.parquet``, fsync, rename), and stamp each part's footer with the job's identity (cell, job, seed,
games, engine version). They return only the parts' metadata; the run's parent fsyncs the parts'
directories (so the renames survive a crash) and appends the metadata to the ledger. A job is done
when the ledger records it; :mod:`unosim.store.integrity` checks every part against its record, so a
copied-in, truncated or bit-flipped part is refused by name, and readers scan exactly the parts the
ledger records (:attr:`Dataset.parts`), never a glob.

**Jobs.** A cell's games are cut into jobs by its *layout*: segments ``[first_job, first_game, games,
chunk]``, each cut into jobs of ``chunk`` games (the last one shorter). A new cell has one segment
``[0, 0, games, chunk_size]``. Raising a cell's ``games`` extends its last segment (so the dataset equals
one run at the new size from the start: only the old last job, if it was short, is run again); a
resume with another chunk size keeps the finished jobs and cuts the rest anew (new job numbers).

**Seal.** The manifest carries ``seal``: the sha256 of its own content and of the ledger as the
manifest was written (its size and sha256; a running study appends beyond that size), plus a short
digest of every field, so that an edited manifest is refused naming the field. It is a checksum
against edits and damage, not a signature.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from .atomic import AtomicBatch, append_line_durable, read_journal, write_bytes_atomic, write_text_atomic
from .columns import Column, Constant, Labels, TableSource, WithNulls

TABLES = ("rounds", "seats", "matches")
MANIFEST = "manifest.json"
LEDGER = "parts.jsonl"
#: 2: workers write the parts; the ledger records each part's rows, bytes and sha256
#: 3: the manifest is sealed; each cell records its job layout
FORMAT_VERSION = 3
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


def shorten(value: Any, limit: int = 120, *, text: bool = False) -> str:
    """``repr(value)`` (``text``: ``value`` itself) cut to about ``limit`` characters, so that an error
    stays one readable line."""
    text = str(value) if text else repr(value)
    text = text.replace("\n", "\\n")
    return text if len(text) <= limit else f"{text[:limit - 20]}… ({len(text):,} characters)"


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


#: a cell's jobs: segments (first job, first game, games, chunk), see the module docstring
Layout = tuple[tuple[int, int, int, int], ...]


def fresh_layout(games: int, chunk_size: int) -> list[list[int]]:
    return [[0, 0, games, chunk_size]]


def layout_of(entry: dict[str, Any]) -> Layout:
    """The layout of a manifest cell entry (``manifest["cells"][name]``)."""
    return tuple(tuple(segment) for segment in entry["layout"])


def layout_jobs(layout: Layout) -> Iterator[tuple[int, int, int]]:
    """(job, first_game, games) of every job of a layout, in layout order, generated lazily."""
    for job0, first, games, chunk in layout:
        for k in range(job_count(games, chunk)):
            start, n = job_range(games, chunk, k)
            yield job0 + k, first + start, n


def job_span(layout: Layout, job: int) -> tuple[int, int] | None:
    """(first_game, games) of job ``job`` of a layout, or None when the layout has no such job."""
    for job0, first, games, chunk in layout:
        k = job - job0
        if 0 <= k < job_count(games, chunk):
            start, n = job_range(games, chunk, k)
            return first + start, n
    return None


def layout_job_count(layout: Layout) -> int:
    return sum(job_count(games, chunk) for _, _, games, chunk in layout)


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


def part_table(results: TableSource, table: str, lineup: str) -> pa.Table:
    """Table ``table`` of ``results`` as a part stores it: the Results frame's columns and types, the
    partition columns dropped, a ``lineup`` column added, strings dictionary-encoded.

    Built straight from the numpy columns (:meth:`unosim.play.simulate.Results.columns`), not through the
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
#: the statuses a manifest may have; "clearing": ``--force`` was deleting the dataset when it stopped
STATUSES = ("running", "interrupted", "complete", "repaired", "clearing")
_IDENTIFIER = re.compile(r"[a-z][a-z0-9_]{0,63}")
_CELL_NAME = re.compile(r"(?P<variant>[a-z][a-z0-9_]{0,63})-p(?P<players>[0-9]{1,2})-(?P<lineup>[a-z][a-z0-9_]{0,63})")


def write_manifest(root: Path, manifest: dict[str, Any]) -> None:
    """Seal ``manifest`` (with the ledger as it is now) and write it atomically."""
    manifest.pop("seal", None)
    manifest["seal"] = _seal(manifest, ledger_digest(root))
    write_text_atomic(Path(root) / MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")


def ledger_digest(root: Path, size: int | None = None) -> dict[str, Any]:
    """{"bytes", "sha256"} of the ledger (of its first ``size`` bytes when given)."""
    try:
        with open(Path(root) / LEDGER, "rb") as fh:
            data = fh.read() if size is None else fh.read(size)
    except FileNotFoundError:
        data = b""
    return {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _fields(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    """(path, leaf) of every field of a manifest: dicts by key, lists of named records by name."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _fields(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        names = [v.get("name") for v in value]
        keyed = all(isinstance(n, str) for n in names) and len(set(names)) == len(names)
        for i, item in enumerate(value):
            yield from _fields(item, f"{path}[{names[i] if keyed else i}]")
    else:
        yield path, value


def _field_digest(value: Any) -> str:
    return hashlib.blake2b(_canonical(value), digest_size=4).hexdigest()


def _seal(body: dict[str, Any], ledger: dict[str, Any]) -> dict[str, Any]:
    return {"sha256": hashlib.sha256(_canonical({"manifest": body, "ledger": ledger})).hexdigest(),
            "ledger": ledger, "fields": {path: _field_digest(v) for path, v in _fields(body, "")}}


def seal_problem(manifest: dict[str, Any]) -> str | None:
    """Why ``manifest`` does not match its own seal (naming the field that changed), or None."""
    seal = manifest.get("seal")
    body = {k: v for k, v in manifest.items() if k != "seal"}
    if not isinstance(seal, dict) or not isinstance(seal.get("fields"), dict) or not isinstance(seal.get("ledger"), dict):
        return "it has no seal (edited, or not written by unosim)"
    if _seal(body, seal["ledger"])["sha256"] == seal.get("sha256"):
        return None
    sealed = seal["fields"]
    found = dict((path, _field_digest(v)) for path, v in _fields(body, ""))
    for path, digest in found.items():
        if path not in sealed:
            return f"field {path} was added after unosim wrote it"
        if sealed[path] != digest:
            return f"field {path} was changed after unosim wrote it (it is now {shorten(_at(body, path), 60)})"
    for path in sealed:
        if path not in found:
            return f"field {path} was removed after unosim wrote it"
    return "its seal does not match its content (the seal was edited)"


def _at(body: dict[str, Any], path: str) -> Any:
    return dict(_fields(body, "")).get(path)


def ledger_problem(root: Path, manifest: dict[str, Any]) -> str | None:
    """Why the ledger is not the one the manifest was sealed with, or None. A finished dataset's ledger
    must be exactly it; an unfinished one's may have grown by appends since (jobs finished after the
    manifest's last write)."""
    sealed = manifest["seal"]["ledger"]
    now = ledger_digest(root, sealed.get("bytes"))
    if now != sealed:
        if not (Path(root) / LEDGER).exists():
            return "missing (deleted after the run?)"
        return "does not match the manifest's seal (edited, replaced or truncated after the run)"
    if manifest["status"] == "complete" and (Path(root) / LEDGER).stat().st_size != sealed["bytes"]:
        return "holds lines written after the dataset was complete (edited after the run)"
    return None


def read_manifest(root: str | Path) -> dict[str, Any]:
    """The manifest of the dataset at ``root``, checked against its seal and for its shape; every
    problem raises :class:`DatasetError` in one line naming the field."""
    root = Path(root)
    path = root / MANIFEST
    if not root.is_dir():
        what = "a file" if root.exists() else "missing"
        raise DatasetError(f"{root} is not a unosim dataset ({what}): give the dataset directory a study "
                           f"run wrote, e.g. data/demo")
    if path.is_symlink():
        raise DatasetError(f"{path} is a symbolic link (to {path.resolve()}); a dataset's manifest is its own "
                           f"file: replace the link by the file")
    try:
        manifest = json.loads(path.read_bytes().decode("utf-8"))
    except FileNotFoundError:
        raise DatasetError(f"{root} is not a unosim dataset: no {MANIFEST}") from None
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise DatasetError(f"{path} is not valid JSON: {shorten(exc, text=True)}") from None
    except OSError as exc:
        raise DatasetError(f"cannot read {path}: {exc.strerror}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT_VERSION:
        found = manifest.get("format") if isinstance(manifest, dict) else None
        raise DatasetError(f"{root} is a dataset of format {shorten(found, 40)} (written by another unosim "
                           f"version); this unosim reads format {FORMAT_VERSION}: run the study again with "
                           f"--force")
    problem = seal_problem(manifest)
    if problem:
        raise DatasetError(f"{path}: {problem}; restore the file, or run the study again with --force")
    if manifest.get("status") == "clearing":
        raise DatasetError(f"{root} was being deleted by `unosim study run --force` when that run stopped; run "
                           f"it again with --force")
    _check_shape(path, manifest)
    return manifest


def _check_shape(path: Path, manifest: dict[str, Any]) -> None:
    """Every field a reader relies on has its type and range (a sealed manifest of another shape can only
    come from a program other than unosim)."""
    def need(ok: bool, field: str, value: Any, valid: str) -> None:
        if not ok:
            raise DatasetError(f"{path}: field {field} = {shorten(value, 60)} is invalid: {valid}; restore the "
                               f"file, or run the study again with --force")

    def whole(value: Any, lo: int = 0) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and value >= lo

    need(manifest.get("status") in STATUSES, "status", manifest.get("status"), f"one of {list(STATUSES)}")
    need(whole(manifest.get("chunk_size"), 1), "chunk_size", manifest.get("chunk_size"), "a whole number ≥ 1")
    need(whole(manifest.get("engine_version")), "engine_version", manifest.get("engine_version"), "a whole number")
    study = manifest.get("study")
    need(isinstance(study, dict), "study", study, "a table")
    need(isinstance(study.get("comparisons"), list), "study.comparisons", study.get("comparisons"), "a list")
    cells = study.get("cells")
    need(isinstance(cells, list) and cells and all(isinstance(c, dict) for c in cells), "study.cells", cells,
         "a non-empty list of cells")
    entries = manifest.get("cells")
    need(isinstance(entries, dict), "cells", entries, "a table of cells")
    for cell in cells:
        name = cell.get("name")
        match = _CELL_NAME.fullmatch(name) if isinstance(name, str) else None
        need(match is not None, "study.cells[].name", name, "variant-pN-lineup of lowercase identifiers")
        where = f"study.cells[{name}]"
        need(cell.get("variant") == match["variant"], f"{where}.variant", cell.get("variant"), "the cell's variant")
        need(cell.get("players") == int(match["players"]), f"{where}.players", cell.get("players"),
             "the cell's player count")
        need(cell.get("lineup") == match["lineup"], f"{where}.lineup", cell.get("lineup"), "the cell's lineup")
        need(whole(cell.get("games"), 1), f"{where}.games", cell.get("games"), "a whole number ≥ 1")
        need(whole(cell.get("seed")), f"{where}.seed", cell.get("seed"), "a whole number ≥ 0")
        entry = entries.get(name)
        need(isinstance(entry, dict), f"cells.{name}", entry, "the cell's progress and layout")
        need(entry.get("games") == cell["games"], f"cells.{name}.games", entry.get("games"),
             f"the cell's games ({cell['games']:,})")
        layout = entry.get("layout")
        need(_valid_layout(layout, cell["games"]), f"cells.{name}.layout", layout,
             "segments [first job, first game, games, chunk] covering the cell's games once")
        need(entry.get("jobs") == layout_job_count(layout_of(entry)), f"cells.{name}.jobs", entry.get("jobs"),
             "the number of jobs of its layout")
    need(len(entries) == len(cells), "cells", sorted(entries), "one entry per cell of study.cells")
    schema = manifest.get("schema")
    need(isinstance(schema, dict) and sorted(schema) == sorted(TABLES)
         and all(isinstance(cols, list) and all(isinstance(c, list) and len(c) == 2 and all(isinstance(x, str) for x in c)
                                                for c in cols) for cols in schema.values()),
         "schema", schema, f"the columns of each of {list(TABLES)}")


def _valid_layout(layout: Any, games: int) -> bool:
    """Segments of whole numbers that cover 0..games-1 once, their job numbers disjoint."""
    if not isinstance(layout, list) or not layout:
        return False
    if not all(isinstance(seg, list) and len(seg) == 4 and all(isinstance(x, int) and not isinstance(x, bool)
                                                                for x in seg) for seg in layout):
        return False
    if any(job0 < 0 or first < 0 or n < 1 or chunk < 1 for job0, first, n, chunk in layout):
        return False
    covered = sorted((first, first + n) for _, first, n, _ in layout)
    if covered[0][0] != 0 or covered[-1][1] != games or any(a[1] != b[0] for a, b in itertools.pairwise(covered)):
        return False
    jobs = sorted((job0, job0 + job_count(n, chunk)) for job0, _, n, chunk in layout)
    return all(a[1] <= b[0] for a, b in itertools.pairwise(jobs))


def read_ledger(root: Path, *, lenient: bool = False) -> dict[tuple[str, int], dict[str, Any]]:
    """(cell, job) → the ledger record of each finished job (a later line for the same job wins).

    A line that is not a record (a JSON object with a cell name, a job number ≥ 0, its games and its
    three parts) raises :class:`DatasetError`, or is skipped when ``lenient`` (repair, status).
    """
    path = Path(root) / LEDGER
    if path.is_symlink():
        raise DatasetError(f"{path} is a symbolic link (to {path.resolve()}); a dataset's ledger is its own "
                           f"file: replace the link by the file")
    try:
        lines = read_journal(path)
    except OSError as exc:
        raise DatasetError(f"cannot read {path}: {exc.strerror}") from None
    try:   # one parse for the whole ledger (a line at a time costs 3 times as much at 20,000 jobs)
        parsed = json.loads("[" + ",".join(lines) + "]") if lines else []
    except (ValueError, RecursionError):
        parsed = None
    if parsed is not None and len(parsed) != len(lines):   # a line that is not one JSON value
        parsed = None
    out = {}
    for i, line in enumerate(lines):
        record = _record(line if parsed is None else parsed[i])
        if record is None:
            if lenient:
                continue
            raise DatasetError(f"{path} holds a line that is not a job record: {shorten(line, 80)}")
        out[(record["cell"], record["job"])] = record
    return out


def _record(line: str | Any) -> dict[str, Any] | None:
    """The job record of a ledger line (its text, or its parsed JSON), or None if it is not one."""
    try:
        record = json.loads(line) if isinstance(line, str) else line
    except (ValueError, RecursionError):
        return None
    if not isinstance(record, dict) or not isinstance(record.get("cell"), str):
        return None
    job, games, parts = record.get("job"), record.get("games"), record.get("parts")
    if not (isinstance(job, int) and not isinstance(job, bool) and job >= 0):
        return None
    if not (isinstance(games, int) and not isinstance(games, bool) and games >= 1) or not isinstance(parts, dict):
        return None
    return record


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


def games_on_disk(manifest: dict[str, Any]) -> tuple[int, int]:
    """(games done, games planned) as the manifest counts them."""
    done = sum(c["games_done"] for c in manifest["cells"].values())
    return done, sum(c["games"] for c in manifest["cells"].values())


def data_digest(manifest: dict[str, Any], records: dict[tuple[str, int], dict[str, Any]]) -> str:
    """The sha256 naming a dataset's content: its resolved spec, job layouts, schema, engine version and
    the sha256 of every part (not its timestamps, progress or the hosts that wrote it)."""
    parts = sorted(f"{cell}\t{job}\t{table}\t{record['parts'][table][2]}"
                   for (cell, job), record in records.items() for table in TABLES)
    head = {"study": manifest["study"], "schema": manifest["schema"], "engine_version": manifest["engine_version"],
            "layouts": {name: entry["layout"] for name, entry in manifest["cells"].items()}}
    digest = hashlib.sha256(_canonical(head))
    digest.update("\n".join(parts).encode("utf-8"))
    return digest.hexdigest()
