"""Writing a job's parts: parquet files with compact types, the job's identity in their footer.

Every table gains a ``lineup`` column (the study's lineup name). The other columns are those of
:func:`unosim.play.simulate.simulate`'s ``Results`` frames, with compact types (small ints,
dictionary-encoded strings, zstd, page checksums).

Workers write their job's three parts themselves, each atomically (temp name not ending in
``.parquet``, fsync, rename), and stamp each part's footer with the job's identity (cell, job, seed,
games, engine version). They return only the parts' metadata (:class:`unosim.store.ledger.PartInfo`);
the run's parent fsyncs the parts' directories (so the renames survive a crash) and appends the
metadata to the ledger. :mod:`unosim.store.integrity` checks every part against its record, so a
copied-in, truncated or bit-flipped part is refused by name.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy
import pyarrow as pa
import pyarrow.parquet as pq

from .atomic import AtomicBatch, write_bytes_atomic
from .columns import Column, Constant, Labels, TableSource, WithNulls
from .layout import PARTITION_COLUMNS
from .ledger import PartInfo

#: the footer key holding a part's identity (JSON)
IDENTITY_KEY = b"unosim.job"
_DELTA_COLUMNS = ("game",)  # monotone within a part: delta encoding stores them in ~0 bytes
_PLAIN_COLUMNS = ("seat",)  # 0..n-1 over and over: zstd stores the period once
#: the seats table's per-seat counts: many distinct values, none read by the standard analyses
_BYTE_STREAM_SPLIT_COLUMNS = ("cards_left", "points_left", "n_drawn", "n_played")
_BYTE_STREAM_SPLIT_PREFIX = "open_"  # the opening-hand counts (see column_encodings)
#: zstd level of the parts: level 3 wrote barely smaller files than level 1 for more writing time (docs/results/code_choices.json)
ZSTD_LEVEL = 1
#: rows the parquet writer takes per internal batch (its default, 1 024, costs a fixed overhead per batch
#: per column: ~400 batches per seat column of a 100 000-game part)
WRITE_BATCH_ROWS = 65_536


def part_table(results: TableSource, table: str, lineup: str) -> pa.Table:
    """Table ``table`` of ``results`` as a part stores it: the Results frame's columns and types, the
    partition columns dropped, a ``lineup`` column added, strings dictionary-encoded.

    Built straight from the numpy columns (:meth:`unosim.play.simulate.Results.columns`), not through the
    polars frame: a worker never materialises a string per row. Its content equals the polars frame's
    (tests/store/test_dataset.py compares them for every variant).
    """
    columns = {k: c for k, c in results.columns(table).items() if k not in PARTITION_COLUMNS}
    arrays = {name: _arrow_column(c) for name, c in columns.items()}
    columns["lineup"] = Constant(lineup, len(next(iter(arrays.values()))))
    arrays["lineup"] = _arrow_column(columns["lineup"])
    # only the columns that can hold nulls are nullable: parquet writes no definition levels for the
    # others, which took a large share of the writing time of a part (docs/results/code_choices.json)
    schema = pa.schema([pa.field(name, arrays[name].type, nullable=isinstance(column, WithNulls))
                        for name, column in columns.items()])
    return pa.Table.from_arrays(list(arrays.values()), schema=schema)


def _arrow_column(column: Column) -> pa.Array:
    if isinstance(column, Labels):
        if column.enum:  # every name in the dictionary, in order, as polars writes an Enum
            return pa.DictionaryArray.from_arrays(_numbers(column.codes.astype(numpy.uint8)),
                                                  _strings(column.names, pa.large_string()), ordered=True)
        return _labels_dictionary(column.names, column.codes)
    if isinstance(column, Constant):
        return pa.DictionaryArray.from_arrays(_numbers(numpy.zeros(column.rows, numpy.int32)),
                                              _strings([column.value], pa.string()))
    if isinstance(column, WithNulls):
        return _numbers(column.values, column.missing)
    return _numbers(column)


# The arrays are built from their buffers, not with ``pa.array``: on its first call in a process,
# ``pa.array`` imports pandas to ask whether its argument is a pandas object, a noticeable cost in every
# study worker and in the run's parent (docs/results/code_choices.json). tests/store/test_dataset.py checks they equal the arrays ``pa.array`` makes.

def _numbers(values: numpy.ndarray, missing: numpy.ndarray | None = None) -> pa.Array:
    """``pa.array(values, mask=missing)`` of a 1-d numpy array of numbers or booleans."""
    values = numpy.ascontiguousarray(values)
    data = numpy.packbits(values, bitorder="little") if values.dtype == bool else values
    validity, nulls = None, 0
    if missing is not None and missing.any():
        validity, nulls = pa.py_buffer(numpy.packbits(~missing, bitorder="little")), int(missing.sum())
    return pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), len(values), [validity, pa.py_buffer(data)],
                                 null_count=nulls)


def _strings(labels: Sequence[str], kind: pa.DataType) -> pa.Array:
    """``pa.array(labels, kind)`` of a few labels (``kind``: string or large_string)."""
    encoded = [label.encode() for label in labels]
    offsets = numpy.cumsum([0, *map(len, encoded)], dtype=numpy.int64 if kind == pa.large_string() else numpy.int32)
    return pa.Array.from_buffers(kind, len(labels), [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(encoded))])


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
    return pa.DictionaryArray.from_arrays(_numbers(remap[codes]), _strings(labels, pa.string()))


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

    Each part is written once and read by every analysis, so both costs count (figures:
    docs/results/code_choices.json): dictionary encoding is what polars reads fastest, but it hashes
    every value. It stays on the columns the analyses read (seat positions, round counts, labels). The
    opening-hand counts and the per-seat counts of the seats table take BYTE_STREAM_SPLIT instead:
    dictionary-encoding them was a large share of a worker's job, and BYTE_STREAM_SPLIT writes them in a
    fraction of that (it transposes the bytes of each value, so zstd sees the zero high bytes of small
    counts as runs), at a small cost to reading them. A column holding one value in the whole part
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
    values = [_integers(chunk) for chunk in column.chunks if len(chunk)]
    first = values[0][0]
    return all(v.min() == first == v.max() for v in values)


def _integers(chunk: pa.Array) -> numpy.ndarray:
    """The values of an integer array without nulls, as a numpy view (``to_numpy`` imports pandas, like
    ``pa.array``: see :func:`_numbers`)."""
    dtype = numpy.dtype(f"{'i' if pa.types.is_signed_integer(chunk.type) else 'u'}{chunk.type.bit_width // 8}")
    return numpy.frombuffer(chunk.buffers()[1], dtype, len(chunk), chunk.offset * dtype.itemsize)


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
    """Computed once per schema in a process (a worker would otherwise encode three parts more per job).
    The empty table is built from no batches: ``schema.empty_table()`` imports pandas (see :func:`_numbers`)."""
    empty = pa.Table.from_batches([], schema)
    return schema_fingerprint(pq.ParquetFile(pa.BufferReader(encode_part(empty))).schema_arrow)
