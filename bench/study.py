"""Benchmarks of the study path, called by ``make bench`` (:mod:`bench.run`).

* :func:`bench_study_run` — a study (classic, 4 players, ``random``, ``single_round``; 10,000,000 games in
  ``make bench-full``) on 2 ready workers (threads of the bench's process, the engine loaded), end to end
  to parquet, and its bytes per round row on disk; the workers' start is timed apart.
* :func:`bench_study_cli` — the same study as a user runs it, ``unosim study run`` in a fresh process, timed
  from the command line: interpreter start, worker start and engine load included.
* :func:`bench_analyses` — the standard analyses of that dataset (``unosim analyze``) in a fresh process:
  time and peak memory.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from joblib.externals.loky import get_reusable_executor

from unosim.store.ledger import read_ledger
from unosim.store.manifest import read_manifest

BENCH_GAMES = 10_000_000
QUICK_GAMES = 2_000_000
#: games per job of the measured study, and per timed call of the baseline (:mod:`bench.run`): a
#: worker does the same work per call as the baseline; both studies are whole multiples of it
BENCH_CHUNK = 100_000
WARMUP_CHUNK = 1_000


def bench_spec(games: int = BENCH_GAMES) -> dict[str, Any]:
    """The benchmark study: one cell of the baseline's game (classic without blank cards, 4 players,
    ``random``, single rounds; :func:`bench.run.rules_for`), so its workers play what the baseline plays."""
    return {"study": {"name": "bench", "seed": 1, "games": games, "mode": "single_round"},
            "variants": {"classic_no_blank": {"base": "classic", "rules": {"n_blank": 0}}},
            "grid": [{"variants": ["classic_no_blank"], "players": [4], "lineups": ["random"]}]}


def bench_study_run(out: str | Path, games: int = BENCH_GAMES, n_jobs: int = 2,
                    chunk_size: int = BENCH_CHUNK) -> dict[str, Any]:
    """Run the benchmark study from scratch; wall and CPU seconds, games/s and bytes per row on disk.

    Measured like the baseline (a warm ``simulate`` call): process start excluded. A small warm-up
    study first readies the ``n_jobs`` workers (threads of this process by default, as ``study run``
    runs them) and loads the compiled engine; its wall time is reported apart (``workers_start_s``). The
    measured run reuses them. Its CPU seconds are this process's and any workers' (sampled with psutil)
    during the run alone.
    """
    from unosim.pipeline.runner import run_study
    from unosim.pipeline.study import parse_study
    study = parse_study(bench_spec(games))
    warm_start = time.perf_counter()
    run_study(parse_study(_warmup_spec(n_jobs)), out, n_jobs=n_jobs, chunk_size=WARMUP_CHUNK, force=True,
              progress=False)
    workers_start = time.perf_counter() - warm_start
    cpu_start, wall_start = _cpu_seconds(), time.perf_counter()
    summary = run_study(study, out, n_jobs=n_jobs, chunk_size=chunk_size, force=True, progress=False)
    wall, cpu = time.perf_counter() - wall_start, _cpu_seconds() - cpu_start
    get_reusable_executor().shutdown(wait=True)  # the workers' memory back before the analyses
    root = summary.path
    assert read_manifest(root)["status"] == "complete"
    rounds = _rows(root, "rounds")
    sizes = {t: sum(p.stat().st_size for p in (root / t).rglob("*.parquet")) for t in ("rounds", "seats", "matches")}
    return {"games": games, "n_jobs": n_jobs, "chunk_size": chunk_size, "wall_s": round(wall, 2),
            "cpu_s": round(cpu, 2), "games_per_s": round(games / wall), "workers_start_s": round(workers_start, 2),
            "workers_reused": _writers(root) <= _writers(root.parent / "bench_warmup"), "round_rows": rounds,
            "rounds_bytes_per_row": round(sizes["rounds"] / rounds, 2),
            "all_tables_bytes_per_round": round(sum(sizes.values()) / rounds, 2),
            "bytes": sizes, "path": str(root)}


def bench_study_cli(out: str | Path, games: int = QUICK_GAMES, n_jobs: int = 2) -> dict[str, Any]:
    """Run the benchmark study with ``unosim study run`` in a fresh process (engine builds in the cache);
    its wall seconds from the command line and games per second."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "bench_cli.toml"
    path.write_text(SPEC_TOML.format(name="bench_cli", games=games))
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "unosim", "study", "run", str(path), "--out", str(out), "--n-jobs",
                    str(n_jobs), "--chunk-size", str(BENCH_CHUNK), "--force", "--quiet"], check=True,
                   capture_output=True)
    wall = time.perf_counter() - start
    return {"games": games, "n_jobs": n_jobs, "wall_s": round(wall, 2), "games_per_s": round(games / wall)}


#: the benchmark study (:func:`bench_spec`) as a spec file; tests/project/test_bench.py checks they are the same study
SPEC_TOML = """[study]
name = "{name}"
seed = 1
games = {games}
mode = "single_round"

[variants.classic_no_blank]
base = "classic"
rules = {{ n_blank = 0 }}

[[grid]]
variants = ["classic_no_blank"]
players = [4]
lineups = ["random"]
"""


def _warmup_spec(n_jobs: int) -> dict[str, Any]:
    """A study of a few tiny jobs per worker, so that every worker starts and loads the engine."""
    spec = bench_spec(4 * n_jobs * WARMUP_CHUNK)
    return {**spec, "study": {**spec["study"], "name": "bench_warmup"}}


def _writers(root: Path) -> set[str]:
    """The worker processes that wrote the dataset's parts (from its ledger)."""
    return {record["writer"] for record in read_ledger(root).values()}


def bench_analyses(dataset_path: str | Path) -> dict[str, Any]:
    """Time :func:`unosim.analysis.standard_tables` (what ``unosim analyze`` computes) in a fresh process;
    its peak resident memory too."""
    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=ctx) as pool:
        return pool.submit(_time_analyses, str(dataset_path)).result()


def _time_analyses(dataset_path: str) -> dict[str, Any]:
    from unosim.analysis import standard_tables
    from unosim.store.reader import open_dataset
    start, cpu = time.perf_counter(), time.process_time()
    standard_tables(open_dataset(dataset_path))
    return {"seconds": round(time.perf_counter() - start, 2), "cpu_s": round(time.process_time() - cpu, 2),
            "peak_rss_gb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20, 2)}


def _rows(root: Path, table: str) -> int:
    import pyarrow.parquet as pq
    return sum(pq.read_metadata(p).num_rows for p in (root / table).rglob("*.parquet"))


def _cpu_seconds() -> float:
    """CPU seconds so far of this process and its live children (the loky workers)."""
    import psutil
    me = psutil.Process()
    times = [me.cpu_times(), *(child.cpu_times() for child in me.children(recursive=True))]
    return sum(t.user + t.system for t in times)
