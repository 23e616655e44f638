"""Tables for the tools analysts already use: pandas with pyarrow-backed dtypes and categorical labels.

``Results.to_pandas`` and ``Dataset.to_pandas`` go through :func:`to_pandas`: numbers and booleans keep
their exact arrow types (``int8[pyarrow]``, ``bool[pyarrow]`` …, no float upcast, no object columns),
and text labels (``variant``, ``lineup``, ``policy``, ``end``) become pandas ``category`` columns, whose
categories keep the order of a polars Enum (``won``, ``knockout``, ``stalemate``, ``truncated``).
"""

from __future__ import annotations

import pandas as pd
import polars as pl
import pyarrow as pa


def _is_text(kind: pa.DataType) -> bool:
    return pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_string_view(kind)


def to_pandas(frame: pl.DataFrame) -> pd.DataFrame:
    """``frame`` as a pandas DataFrame: pyarrow-backed dtypes, labels as categoricals."""
    table = frame.to_arrow()
    for i, field in enumerate(table.schema):
        if _is_text(field.type):
            column = table.column(i).cast(pa.string()).dictionary_encode()
            table = table.set_column(i, pa.field(field.name, column.type), column)
    # dictionary columns fall through to pandas' own conversion, which makes them categoricals
    return table.to_pandas(types_mapper=lambda kind: None if pa.types.is_dictionary(kind) else pd.ArrowDtype(kind))
