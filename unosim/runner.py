"""Run a study: jobs in parallel (joblib: loky processes, or a dask cluster), parts and manifest on disk.

Workers simulate one job each and return compact arrow tables; the parent writes them (one parquet
part per job and table, atomically) and keeps ``manifest.json`` current. Game ``g`` of a cell depends
only on (cell seed, g), so the dataset is the same whatever ``n_jobs``, chunk size or scheduler. A run
that finds its dataset half done (killed, crashed) resumes: jobs whose three parts exist are skipped,
the others are (re)written whole, so no game is lost or duplicated.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numba
import numpy
import polars
import pyarrow
import pyarrow as pa
from joblib import Parallel, delayed, parallel_config
from tqdm import tqdm

from . import dataset
from ._version import __version__
from .engine import ENGINE_VERSION
from .simulate import simulate
from .study import Job, Study

DEFAULT_CHUNK_SIZE = 50_000
MANIFEST_INTERVAL_S = 2.0


class RunError(ValueError):
    """The run cannot start (an existing dataset of another spec, a bad option, no scheduler)."""


@dataclass(frozen=True)
class JobOutput:
    cell: str
    job: int
    games: int
    tables: dict[str, pa.Table]


@dataclass(frozen=True)
class RunSummary:
    path: Path
    games_run: int
    jobs_run: int
    jobs_skipped: int
    seconds: float


def run_job(job: Job) -> JobOutput:
    """Simulate one job (in a worker) and return its tables, ready to write."""
    cell = job.cell
    results = simulate(cell.ruleset, players=cell.players, games=job.games, seed=cell.seed,
                       lineup=cell.lineup_spec, first_game=job.first_game)
    tables = {name: dataset.compact_table(getattr(results, name), cell.lineup) for name in dataset.TABLES}
    return JobOutput(cell.name, job.index, job.games, tables)


def run_study(study: Study, out: str | Path, *, n_jobs: int = -1, chunk_size: int | None = None,
              scheduler: str | None = None, force: bool = False, progress: bool | None = None) -> RunSummary:
    """Run (or resume) ``study`` into ``<out>/<study.name>``.

    ``n_jobs``: joblib workers (-1 = all cores, or all dask workers). ``chunk_size``: games per job
    (default 50 000; a resumed dataset keeps its own). ``scheduler``: None for local loky processes,
    ``"local"`` for a dask LocalCluster, or a dask scheduler address ``tcp://host:8786``. ``force``:
    delete an existing dataset first. ``progress``: a progress bar (default: when stderr is a terminal).
    """
    if n_jobs == 0 or n_jobs < -1:
        raise RunError(f"n_jobs={n_jobs} is invalid: use a positive number of workers or -1 for all")
    if chunk_size is not None and chunk_size < 1:
        raise RunError(f"chunk_size={chunk_size} is invalid: use a positive number of games")
    root = Path(out) / study.name
    with _backend(scheduler, n_jobs):  # an unreachable scheduler fails before anything is written
        manifest = _prepare(root, study, chunk_size, force)
        jobs = study.jobs(manifest["chunk_size"])
        pending = [j for j in jobs if not dataset.job_is_complete(root, j.cell.variant, j.cell.players,
                                                                 j.cell.name, j.index)]
        _record_done(manifest, jobs, pending)
        dataset.write_manifest(root, manifest)
        start = time.perf_counter()
        if pending:
            _warm_numba_cache(pending[0])
            _run_jobs(study, root, manifest, pending, n_jobs,
                      sys.stderr.isatty() if progress is None else progress)
    manifest["status"] = "complete"
    _stamp(manifest)
    dataset.write_manifest(root, manifest)
    return RunSummary(root, sum(j.games for j in pending), len(pending), len(jobs) - len(pending),
                      time.perf_counter() - start)


def _run_jobs(study: Study, root: Path, manifest: dict[str, Any], pending: list[Job], n_jobs: int,
              progress: bool) -> None:
    """Run the pending jobs on the current joblib backend; write each job's parts as it arrives."""
    cells = {c.name: c for c in study.cells}
    done_before = study.total_games - sum(j.games for j in pending)
    with tqdm(total=study.total_games, initial=done_before, unit="game", unit_scale=True, smoothing=0.1,
              desc=study.name, disable=not progress) as bar:
        last_manifest = time.perf_counter()
        outputs = Parallel(n_jobs=n_jobs, return_as="generator_unordered", batch_size=1)(
            delayed(run_job)(job) for job in pending)
        for output in outputs:
            cell = cells[output.cell]
            for name in dataset.TABLES:
                path = dataset.part_path(root, name, cell.variant, cell.players, cell.name, output.job)
                dataset.write_part(path, output.tables[name])
            entry = manifest["cells"][output.cell]
            entry["jobs_done"] += 1
            entry["games_done"] += output.games
            entry["status"] = "complete" if entry["jobs_done"] == entry["jobs"] else "partial"
            bar.update(output.games)
            if time.perf_counter() - last_manifest > MANIFEST_INTERVAL_S:
                _stamp(manifest)
                dataset.write_manifest(root, manifest)
                last_manifest = time.perf_counter()


def _prepare(root: Path, study: Study, chunk_size: int | None, force: bool) -> dict[str, Any]:
    """The manifest to continue from: a fresh one, or the existing dataset's when it can be resumed."""
    resolved = json.loads(json.dumps(study.resolved()))
    if root.exists() and force:
        if any(root.iterdir()) and not (root / dataset.MANIFEST).exists():
            raise RunError(f"refusing to delete {root}: it is not a unosim dataset (no {dataset.MANIFEST})")
        shutil.rmtree(root)
    if (root / dataset.MANIFEST).exists():
        manifest = dataset.read_manifest(root)
        if manifest["study"] != resolved:
            raise RunError(f"{root} holds a dataset of a different spec; use --force to replace it or "
                           f"another --out")
        if chunk_size is not None and chunk_size != manifest["chunk_size"]:
            raise RunError(f"{root} was started with chunk_size={manifest['chunk_size']}; resume with that "
                           f"chunk size (or none), or use --force to start again")
        for stale in root.rglob(".*.tmp"):
            stale.unlink()
        manifest["status"] = "running"
        return manifest
    if root.exists() and any(root.iterdir()):
        raise RunError(f"{root} exists and is not a unosim dataset; choose another --out")
    root.mkdir(parents=True, exist_ok=True)
    chunk = chunk_size or DEFAULT_CHUNK_SIZE
    now = _now()
    return {
        "format": dataset.FORMAT_VERSION,
        "status": "running",
        "created": now,
        "updated": now,
        "study": resolved,
        "chunk_size": chunk,
        "engine_version": ENGINE_VERSION,
        "versions": _versions(),
        "git_revision": _git_revision(),
        "cells": {c.name: {"games": c.games, "games_done": 0, "jobs": len(dataset.job_ranges(c.games, chunk)),
                           "jobs_done": 0, "status": "pending"} for c in study.cells},
    }


def _record_done(manifest: dict[str, Any], jobs: list[Job], pending: list[Job]) -> None:
    """Set each cell's progress from the files (the truth after a kill), before running the rest."""
    pending_ids = {(j.cell.name, j.index) for j in pending}
    for entry in manifest["cells"].values():
        entry["jobs_done"] = entry["games_done"] = 0
    for job in jobs:
        if (job.cell.name, job.index) not in pending_ids:
            entry = manifest["cells"][job.cell.name]
            entry["jobs_done"] += 1
            entry["games_done"] += job.games
    for entry in manifest["cells"].values():
        entry["status"] = ("complete" if entry["jobs_done"] == entry["jobs"]
                           else "partial" if entry["jobs_done"] else "pending")


def _warm_numba_cache(job: Job) -> None:
    """Compile (or load) the kernels once in the parent so workers start from the on-disk cache."""
    cell = job.cell
    simulate(cell.ruleset, players=cell.players, games=1, seed=cell.seed, lineup=cell.lineup_spec)


@contextlib.contextmanager
def _backend(scheduler: str | None, n_jobs: int):
    """joblib's loky backend, or its dask backend on a local or remote dask cluster."""
    if scheduler is None:
        with parallel_config(backend="loky"):
            yield
        return
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise RunError("a dask scheduler needs the cluster extra: pip install 'unosim[cluster]'") from None
    with contextlib.ExitStack() as stack:
        if scheduler == "local":
            workers = None if n_jobs == -1 else n_jobs
            cluster = stack.enter_context(LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                       dashboard_address=None))
            client = stack.enter_context(Client(cluster))
        else:
            try:
                client = stack.enter_context(Client(scheduler, timeout=10))
            except (OSError, TimeoutError) as exc:
                raise RunError(f"cannot reach the dask scheduler {scheduler!r}: {exc}") from None
        with parallel_config(backend="dask", client=client):
            yield


def _stamp(manifest: dict[str, Any]) -> None:
    manifest["updated"] = _now()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _versions() -> dict[str, str]:
    return {"unosim": __version__, "numba": numba.__version__, "numpy": numpy.__version__,
            "polars": polars.__version__, "pyarrow": pyarrow.__version__,
            "python": sys.version.split()[0]}


def _git_revision() -> str | None:
    """``git describe --always --dirty`` of the source tree, or None outside a git checkout."""
    try:
        out = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=Path(__file__).parent,
                             check=False, capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    return out.stdout.strip() or None
