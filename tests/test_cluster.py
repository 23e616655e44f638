"""The same runner on a dask cluster (joblib's dask backend) writes the same data as loky."""

from __future__ import annotations

import polars as pl
import pytest
from test_runner import small, table

from unosim.dataset import TABLES
from unosim.runner import run_study
from unosim.study import parse_study

distributed = pytest.importorskip("distributed")


@pytest.mark.slow
def test_a_local_dask_cluster_matches_loky(tmp_path):
    study = parse_study(small())
    loky = run_study(study, tmp_path / "loky", n_jobs=2, chunk_size=100, progress=False).path
    with distributed.LocalCluster(processes=True, host="127.0.0.1", dashboard_address=None, n_workers=2,
                                  threads_per_worker=1) as cluster:
        dask = run_study(study, tmp_path / "dask", chunk_size=100, scheduler=cluster.scheduler_address,
                         progress=False).path
    for name in TABLES:
        assert table(loky, name).equals(table(dask, name)), name
    assert table(dask, "matches").select(pl.len()).item() == 4 * 300


@pytest.mark.slow
def test_scheduler_local_starts_its_own_cluster(tmp_path):
    study = parse_study(small())
    loky = run_study(study, tmp_path / "loky", n_jobs=1, chunk_size=150, progress=False).path
    dask = run_study(study, tmp_path / "dask", n_jobs=2, chunk_size=150, scheduler="local", progress=False).path
    assert table(loky, "rounds").equals(table(dask, "rounds"))
