"""Benchmarks of the study path, called by ``make bench`` (:mod:`unosim.bench`).

* :func:`bench_study_run` — a study (classic, 4 players, ``random``, ``single_round``; 10,000,000 games in
  ``make bench-full``) on 2 workers, end to end to parquet, and its bytes per round row on disk.
* :func:`bench_analyses` — the standard analyses of that dataset (``unosim analyze``) in a fresh process:
  time and peak memory.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import resource
import time
from pathlib import Path
from typing import Any

from joblib.externals.loky import get_reusable_executor

BENCH_GAMES = 10_000_000
QUICK_GAMES = 2_000_000


def bench_spec(games: int = BENCH_GAMES) -> dict[str, Any]:
    return {"study": {"name": "bench", "seed": 1, "games": games, "mode": "single_round"},
            "grid": [{"variants": ["classic"], "players": [4], "lineups": ["random"]}]}


def bench_study_run(out: str | Path, games: int = BENCH_GAMES, n_jobs: int = 2,
                    chunk_size: int = 100_000) -> dict[str, Any]:
    """Run the benchmark study from scratch; wall and CPU seconds, games/s and bytes per row on disk."""
    from .dataset import read_manifest
    from .runner import run_study
    from .study import parse_study
    study = parse_study(bench_spec(games))
    cpu_start, wall_start = _cpu_seconds(), time.perf_counter()
    summary = run_study(study, out, n_jobs=n_jobs, chunk_size=chunk_size, force=True, progress=False)
    wall = time.perf_counter() - wall_start
    get_reusable_executor().shutdown(wait=True)  # reap the workers so that their CPU time is counted
    root = summary.path
    assert read_manifest(root)["status"] == "complete"
    rounds = _rows(root, "rounds")
    sizes = {t: sum(p.stat().st_size for p in (root / t).rglob("*.parquet")) for t in ("rounds", "seats", "matches")}
    return {"games": games, "n_jobs": n_jobs, "chunk_size": chunk_size, "wall_s": round(wall, 2),
            "cpu_s": round(_cpu_seconds() - cpu_start, 2), "games_per_s": round(games / wall),
            "round_rows": rounds, "rounds_bytes_per_row": round(sizes["rounds"] / rounds, 2),
            "all_tables_bytes_per_round": round(sum(sizes.values()) / rounds, 2),
            "bytes": sizes, "path": str(root)}


def bench_analyses(dataset_path: str | Path) -> dict[str, Any]:
    """Time :func:`unosim.analysis.standard_tables` (what ``unosim analyze`` computes) in a fresh process;
    its peak resident memory too."""
    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=ctx) as pool:
        return pool.submit(_time_analyses, str(dataset_path)).result()


def _time_analyses(dataset_path: str) -> dict[str, Any]:
    from .analysis import standard_tables
    from .dataset import open_dataset
    start, cpu = time.perf_counter(), time.process_time()
    standard_tables(open_dataset(dataset_path))
    return {"seconds": round(time.perf_counter() - start, 2), "cpu_s": round(time.process_time() - cpu, 2),
            "peak_rss_gb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20, 2)}


def _rows(root: Path, table: str) -> int:
    import pyarrow.parquet as pq
    return sum(pq.read_metadata(p).num_rows for p in (root / table).rglob("*.parquet"))


def _cpu_seconds() -> float:
    """CPU seconds of this process and its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
