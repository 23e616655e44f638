"""Analysis tables are written atomically and reused only when their index vouches for them (issue 12, item 6)."""

from __future__ import annotations

import shutil

import polars as pl
from study_specs import analyzed

from unosim.analysis.provenance import current_tables
from unosim.cli import main
from unosim.store.reader import open_dataset
from unosim.store.table_store import INDEX, read_tables, write_tables


def test_a_table_truncated_or_edited_after_writing_is_not_read_back(tmp_path):
    tables = {"a": pl.DataFrame({"x": list(range(3000)), "y": ["s"] * 3000}), "b": pl.DataFrame({"z": [1.5]})}
    write_tables(tables, tmp_path)
    assert read_tables(tmp_path).keys() == {"a", "b"} and read_tables(tmp_path)["a"].equals(tables["a"])
    data = (tmp_path / "a.csv").read_bytes()
    (tmp_path / "a.csv").write_bytes(data[:8192])  # as a full disk left it
    assert read_tables(tmp_path).keys() == {"b"}
    (tmp_path / "a.csv").write_bytes(data.replace(b"2999,s", b"2999,t"))
    assert read_tables(tmp_path).keys() == {"b"}
    (tmp_path / INDEX).unlink()  # tables from a run that died before its index
    assert read_tables(tmp_path) == {}
    assert not list(tmp_path.glob(".*.tmp"))


def test_report_recomputes_a_truncated_cached_table(small_dataset, tmp_path, capsys):  # noqa: F811
    # a copy of the shared dataset with its `unosim analyze` tables (computed once for the session's tests)
    root = shutil.copytree(analyzed(small_dataset).path, tmp_path / "copy")
    assert current_tables(open_dataset(root)) is not None   # the copy's analysis is bound to it
    card_values = root / "analysis" / "card_values.csv"
    whole = card_values.read_bytes()
    card_values.write_bytes(whole[: len(whole) // 3])
    assert main(["report", str(root)]) == 0
    assert card_values.read_bytes() == whole
    assert (root / "report.html").read_text().rstrip().endswith("</html>")
