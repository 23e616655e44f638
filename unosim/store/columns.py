"""The column kinds of a results table, and what they become in polars.

:class:`unosim.play.simulate.Results` defines every table once as numpy columns; a column that is
not plain numbers is one of the kinds here. The polars frames (:func:`polars_column`) and a study's
parquet parts (:func:`unosim.store.writer.part_table`) are both built from them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

if TYPE_CHECKING:
    import polars as pl


@dataclass(frozen=True)
class Labels:
    """A string column held as codes into ``names`` (no Python string per row). ``enum``: the column is
    a polars Enum of every name (round and match endings); otherwise plain strings (policy labels)."""

    names: tuple[str, ...]
    codes: np.ndarray
    enum: bool


@dataclass(frozen=True)
class Constant:
    """A string column with the same value in every row (the variant name)."""

    value: str
    rows: int


@dataclass(frozen=True)
class WithNulls:
    """An integer column whose rows flagged in ``missing`` are null."""

    values: np.ndarray
    missing: np.ndarray


#: a column of a Results table: numpy values (their dtype is the column's) or one of the kinds above
Column = np.ndarray | Labels | Constant | WithNulls


class TableSource(Protocol):
    """What holds tables as columns (a :class:`unosim.play.simulate.Results`)."""

    def columns(self, table: str) -> dict[str, Column]: ...


def polars_column(name: str, column: Column) -> pl.Series:
    """The column as a polars Series named ``name`` (labels gathered in Rust, nulls where flagged)."""
    import polars as pl  # here, not above: a study worker writes parquet and never imports polars
    if isinstance(column, Labels):  # names[codes], gathered in Rust
        dtype = pl.Enum(list(column.names)) if column.enum else pl.String
        return pl.Series(name, list(column.names), dtype=dtype).gather(column.codes.astype(np.int64))
    if isinstance(column, Constant):
        return pl.repeat(column.value, column.rows, dtype=pl.String, eager=True).alias(name)
    if isinstance(column, WithNulls):
        return pl.Series(name, column.values).set(pl.Series(column.missing), None)
    return pl.Series(name, column)
