"""The standard tables computed cell by cell equal those of one query over the whole dataset."""

from __future__ import annotations

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from unosim.analysis import cells, standard
from unosim.store.reader import open_dataset


@pytest.mark.parametrize("whole_rows", [0, cells.WHOLE_ROWS], ids=["cell by cell", "small datasets whole"])
def test_tables_by_cell_equal_the_whole_dataset_tables(small_dataset, match_dataset, whole_rows,  # noqa: F811
                                                       monkeypatch):
    monkeypatch.setattr(cells, "WHOLE_ROWS", whole_rows)
    for path in (small_dataset, match_dataset):
        ds = open_dataset(path)
        whole = standard.cell_tables(ds)
        by_cell = standard.standard_tables(ds)
        assert set(whole) <= set(by_cell)
        for name, table in whole.items():
            assert table.height > 0, name
            assert_frame_equal(by_cell[name], table, check_exact=False, rel_tol=1e-12, abs_tol=1e-15)


def test_cell_scans_cover_every_row_once(small_dataset):  # noqa: F811
    ds = open_dataset(small_dataset)
    scans = list(cells.cell_scans(ds))
    assert len(scans) == len(ds.manifest["study"]["cells"])
    for table in ("seats", "rounds", "matches"):
        rows = sum(scan.scan(table).select(pl.len()).collect().item() for scan in scans)
        assert rows == ds.scan(table).select(pl.len()).collect().item()
    one = scans[0].seats.select("variant", "players", "lineup").unique().collect()
    assert one.rows() == [(scans[0].variant, scans[0].players, scans[0].lineup)]
