"""Analysis tables on disk: CSV files written atomically, then an index vouching for each of them.

``write_tables`` writes every ``<name>.csv`` atomically and, last, ``tables.json`` with each table's
row count and sha256. ``read_tables`` returns only the tables the index vouches for: a CSV left
truncated by a full disk, edited, or written by a run that died before its index is not reused (the
report then recomputes it).
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import polars as pl

from .atomic import write_bytes_atomic, write_text_atomic

INDEX = "tables.json"


def write_tables(tables: dict[str, pl.DataFrame], directory: str | Path) -> list[Path]:
    """Each table as ``<directory>/<name>.csv`` plus the index; returns the CSV paths."""
    directory = Path(directory)
    index, paths = {}, []
    for name, table in tables.items():
        data = table.with_columns(pl.col(pl.Categorical).cast(pl.String)).write_csv().encode("utf-8")
        path = directory / f"{name}.csv"
        write_bytes_atomic(path, data)
        index[name] = {"rows": table.height, "sha256": hashlib.sha256(data).hexdigest()}
        paths.append(path)
    write_text_atomic(directory / INDEX, json.dumps({"tables": index}, indent=2) + "\n")
    return paths


def read_tables(directory: str | Path) -> dict[str, pl.DataFrame]:
    """The tables of ``directory`` that its index vouches for (sha256 and row count)."""
    directory = Path(directory)
    try:
        index = json.loads((directory / INDEX).read_text(encoding="utf-8"))["tables"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    out = {}
    for name, entry in sorted(index.items()):
        try:
            data = (directory / f"{name}.csv").read_bytes()
        except OSError:
            continue
        if hashlib.sha256(data).hexdigest() != entry.get("sha256"):
            continue
        table = pl.read_csv(io.BytesIO(data), infer_schema_length=None)
        if table.height == entry.get("rows"):
            out[name] = table
    return out
