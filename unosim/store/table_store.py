"""Analysis tables on disk: CSV files written atomically, then an index vouching for each of them.

``write_tables`` writes every ``<name>.csv`` (and any text ``documents`` such as ``findings.json``)
atomically and, last, ``tables.json`` with each table's row count and sha256 (and each document's). ``read_tables`` returns only the tables the index vouches for: a CSV left
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


def csv_bytes(table: pl.DataFrame) -> bytes:
    """The bytes :func:`write_tables` writes for ``table``."""
    return table.with_columns(pl.col(pl.Categorical).cast(pl.String)).write_csv().encode("utf-8")


def write_tables(tables: dict[str, pl.DataFrame], directory: str | Path,
                 documents: dict[str, str] | None = None) -> list[Path]:
    """Each table as ``<directory>/<name>.csv``, each document as ``<directory>/<file name>``, plus the
    index; returns the paths written."""
    directory = Path(directory)
    index, files, paths = {}, {}, []
    for name, table in tables.items():
        data = csv_bytes(table)
        path = directory / f"{name}.csv"
        write_bytes_atomic(path, data)
        index[name] = {"rows": table.height, "sha256": hashlib.sha256(data).hexdigest()}
        paths.append(path)
    for name, text in (documents or {}).items():
        data = text.encode("utf-8")
        write_bytes_atomic(directory / name, data)
        files[name] = {"sha256": hashlib.sha256(data).hexdigest()}
        paths.append(directory / name)
    write_text_atomic(directory / INDEX, json.dumps({"tables": index, "documents": files}, indent=2) + "\n")
    return paths


def read_document(directory: str | Path, name: str) -> str | None:
    """The document ``name`` written by :func:`write_tables`, or None when absent or not the one indexed."""
    directory = Path(directory)
    try:
        entry = json.loads((directory / INDEX).read_text(encoding="utf-8"))["documents"][name]
        data = (directory / name).read_bytes()
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return data.decode("utf-8") if hashlib.sha256(data).hexdigest() == entry.get("sha256") else None


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
