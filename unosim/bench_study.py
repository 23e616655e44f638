"""Benchmarks of the study path (issue targets), called by ``make bench``.

* :func:`bench_study_run` — a 10,000,000-game study (classic, 4 players, ``random``, ``single_round``) on
  2 workers, end to end to parquet: target under 60 s and at most 8 bytes per round row on disk.
* :func:`bench_analyses` — win rates, lengths and card values of that dataset in a fresh process:
  target under 30 s and under 4 GB of memory.

Wall times on shared machines are noisy; the figures include CPU seconds beside them. :func:`main`
prints both against their targets (``make bench`` calls it).
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import resource
import tempfile
import time
from pathlib import Path
from typing import Any

from joblib.externals.loky import get_reusable_executor

BENCH_GAMES = 10_000_000
QUICK_GAMES = 1_000_000


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
    """Time each analysis of the dataset in a fresh process; its peak resident memory too."""
    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=ctx) as pool:
        return pool.submit(_time_analyses, str(dataset_path)).result()


def _time_analyses(dataset_path: str) -> dict[str, Any]:
    from . import analysis
    from .dataset import open_dataset
    ds = open_dataset(dataset_path)
    steps = {"win_rates": lambda: analysis.win_rates(ds.seats),
             "win_rates_dealer": lambda: analysis.win_rates_by_dealer_position(ds.seats),
             "lengths": lambda: analysis.length_summary(ds.rounds),
             "length_distributions": lambda: analysis.length_distributions(ds.rounds),
             "card_values": lambda: analysis.card_values(ds.seats)}
    out: dict[str, Any] = {}
    start = time.perf_counter()
    for name, step in steps.items():
        t = time.perf_counter()
        step()
        out[f"{name}_s"] = round(time.perf_counter() - t, 2)
    out["total_s"] = round(time.perf_counter() - start, 2)
    out["peak_rss_gb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20, 2)
    return out


def _rows(root: Path, table: str) -> int:
    import pyarrow.parquet as pq
    return sum(pq.read_metadata(p).num_rows for p in (root / table).rglob("*.parquet"))


def _cpu_seconds() -> float:
    """CPU seconds of this process and its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main(quick: bool = False) -> None:
    """Run both benchmarks in a temporary directory and print the figures beside the targets."""
    games = QUICK_GAMES if quick else BENCH_GAMES
    with tempfile.TemporaryDirectory(prefix="unosim-bench-") as tmp:
        run = bench_study_run(tmp, games)
        print(f"\nstudy of {games:,} games (classic, 4 players, random, single_round, {run['n_jobs']} workers, "
              f"chunks of {run['chunk_size']:,}) to parquet: {run['wall_s']:.1f} s wall, {run['cpu_s']:.1f} CPU-s, "
              f"{run['games_per_s']:,} games/s (target for 10M: < 60 s)")
        print(f"parquet: {run['rounds_bytes_per_row']:.2f} bytes per round row (target <= 8); all three tables "
              f"{run['all_tables_bytes_per_round']:.1f} bytes per round")
        timing = bench_analyses(run["path"])
        steps = ", ".join(f"{k.removesuffix('_s')} {v:.1f} s" for k, v in timing.items()
                          if k.endswith("_s") and k != "total_s")
        print(f"analyses of that dataset: {timing['total_s']:.1f} s (target < 30 s), peak memory "
              f"{timing['peak_rss_gb']:.2f} GB (target < 4 GB); {steps}")
