"""pandas and DuckDB beside polars: ``to_pandas()`` keeps exact types and labels, and the dataset page's
win-rate query gives the same numbers in polars, pandas and DuckDB."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import unosim
from unosim.store.reader import open_dataset

DATASET_DOC = Path(__file__).parents[2] / "docs" / "reference" / "dataset.md"
MARKER = "<!-- tests/store/test_interop.py runs this block -->"
KEYS = ["variant", "players", "lineup", "seat"]


def assert_same_values(pandas_frame: pd.DataFrame, polars_frame: pl.DataFrame):
    assert list(pandas_frame.columns) == polars_frame.columns
    assert len(pandas_frame) == polars_frame.height
    for name in polars_frame.columns:
        mine = pandas_frame[name]
        if isinstance(mine.dtype, pd.CategoricalDtype):
            assert mine.astype(str).tolist() == polars_frame[name].cast(pl.String).to_list(), name
        else:
            assert isinstance(mine.dtype, pd.ArrowDtype), (name, mine.dtype)
            assert np.array_equal(mine.to_numpy(), polars_frame[name].to_numpy()), name


@pytest.fixture(scope="module")
def results():
    return unosim.simulate("spin", players=3, games=300, seed=5, lineup="keep_wilds,random*",
                           rules={"match_mode": "points", "target": 200})


@pytest.mark.parametrize("table", ["rounds", "seats", "matches"])
def test_results_to_pandas(results, table):
    frame = results.to_pandas(table)
    assert_same_values(frame, getattr(results, table))
    assert frame["game"].dtype == pd.ArrowDtype(pa.int64())
    assert all(isinstance(d, (pd.ArrowDtype, pd.CategoricalDtype)) for d in frame.dtypes)


def test_results_to_pandas_labels_are_categoricals(results):
    seats, rounds = results.to_pandas("seats"), results.to_pandas("rounds")
    assert set(seats["policy"].cat.categories) == {"keep_wilds", "random"}
    assert seats["won"].dtype == pd.ArrowDtype(pa.bool_())
    assert list(rounds["end"].cat.categories) == ["won", "knockout", "stalemate", "truncated"]


def test_results_to_pandas_refuses_an_unknown_table(results):
    with pytest.raises(ValueError, match="unknown table 'round'.*'rounds'"):
        results.to_pandas("round")


def test_dataset_to_pandas(small_dataset):  # noqa: F811
    ds = open_dataset(small_dataset)
    frame = ds.to_pandas("rounds")
    assert_same_values(frame, ds.rounds.collect())
    assert isinstance(frame["variant"].dtype, pd.CategoricalDtype)
    assert frame["players"].dtype == pd.ArrowDtype(pa.int8())
    assert list(ds.to_pandas("seats", columns=["seat", "won"]).columns) == ["seat", "won"]


def _documented_query() -> str:
    text = DATASET_DOC.read_text()
    assert MARKER in text, "docs/reference/dataset.md lost its polars / pandas / DuckDB example"
    return text.split(MARKER, 1)[1].split("```python\n", 1)[1].split("```", 1)[0]


def _normalised(frame) -> pl.DataFrame:
    frame = pl.from_pandas(frame) if isinstance(frame, pd.DataFrame) else frame
    return frame.select(pl.col("variant", "lineup").cast(pl.String), pl.col("players", "seat").cast(pl.Int64),
                        pl.col("win_rate").cast(pl.Float64), pl.col("rounds").cast(pl.Int64)).sort(KEYS)


def test_documented_win_rate_query_agrees_in_polars_pandas_and_duckdb(small_dataset):  # noqa: F811
    pytest.importorskip("duckdb")
    namespace: dict = {}
    exec(_documented_query().replace("data/demo", small_dataset.as_posix()), namespace)  # noqa: S102
    frames = [_normalised(namespace[name]) for name in ("by_polars", "by_pandas", "by_duckdb")]
    seats = open_dataset(small_dataset).seats.select(KEYS).unique().collect()
    assert frames[0].height == seats.height > 10
    assert frames[0]["rounds"].sum() == open_dataset(small_dataset).seats.select(pl.len()).collect().item()
    for other in frames[1:]:
        assert other.select(KEYS, "rounds").equals(frames[0].select(KEYS, "rounds"))
        assert np.allclose(other["win_rate"].to_numpy(), frames[0]["win_rate"].to_numpy(), rtol=1e-12, atol=0)
