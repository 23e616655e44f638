"""Run a study: jobs in parallel (joblib: loky processes, or a dask cluster), parts and manifest on disk.

Each worker simulates one job and writes its three parquet parts itself (:mod:`unosim.worker`); the
parent only makes the parts' renames durable (an fsync of their directories), appends each job's
metadata (rows, bytes, sha256 per part) to the dataset's ledger and keeps ``manifest.json`` current,
holding the dataset's lock (:mod:`unosim.lock`) the whole time. Game ``g`` of a cell depends only on
(cell seed, g), so the dataset is the same whatever ``n_jobs``, chunk size or scheduler. A run that
finds its dataset half done (killed, crashed) resumes: recorded jobs are re-verified and skipped, the
others are (re)written whole (:mod:`unosim.resume`), so no game is lost or duplicated.

Resources stay bounded whatever the spec: jobs are generated lazily (a trillion-game cell is a count,
not a list), a job holds at most ``MAX_CHUNK_SIZE`` games (about 2.5 GB), and the number of workers is capped by the
pending jobs and the cores (or dask worker threads). Ctrl-C or SIGTERM stops the workers and leaves a
resumable dataset; workers also exit by themselves when the parent is killed.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numba
import numpy
import polars
import pyarrow
from joblib import Parallel, delayed, parallel_config
from tqdm import tqdm

from . import dataset, engine, policies, resume
from .atomic import sync_directories
from ._version import __version__
from .protocol import ENGINE_VERSION
from .lock import LOCK_FILES, DatasetLock
from .simulate import simulate
from .study import Job, Study
from .worker import init_local_worker, probe_dataset_dir, run_job

#: games per job by default: large enough that a job's fixed costs (six fsyncs, a ledger line, the
#: worker's round trip) stay near 1 % of its time, while a job holds about 220 MB of single rounds or
#: 600 MB of matches (about 10 rounds each)
DEFAULT_CHUNK_SIZE = {"single_round": 100_000, "match": 50_000}
#: per-job memory budget, about 2.5 GB per worker: a job holds its rows in memory while it writes them,
#: measured at about 2.2 kB per single-round game and 12 kB per match (about 10 rounds) of classic 4p
MAX_CHUNK_SIZE = {"single_round": 1_000_000, "match": 200_000}
MANIFEST_INTERVAL_S = 2.0


class RunError(ValueError):
    """The run cannot start (an existing dataset of another spec, a bad option, no scheduler)."""


@dataclass(frozen=True)
class RunSummary:
    path: Path
    games_run: int
    jobs_run: int
    jobs_skipped: int
    seconds: float
    compile_seconds: float = 0.0   # compiling the engine build before the run (not in ``seconds``)


def run_study(study: Study, out: str | Path, *, n_jobs: int = -1, chunk_size: int | None = None,
              scheduler: str | None = None, force: bool = False, progress: bool | None = None,
              accept_engine_change: bool = False) -> RunSummary:
    """Run (or resume) ``study`` into ``<out>/<study.name>``.

    ``n_jobs``: joblib workers (-1 = all cores, or all dask worker threads; never more than those nor
    than the pending jobs). ``chunk_size``: games per job (default 100 000 single rounds or 50 000
    matches; a resumed dataset keeps its own; at most 1 000 000 single rounds or 200 000 matches, a
    stated per-job memory budget). ``scheduler``: None for local loky processes, ``"local"`` for a dask
    LocalCluster, or a dask scheduler address ``tcp://host:8786`` (the dataset must then be on a
    filesystem every worker writes at the same path). ``force``: delete an existing dataset first.
    ``accept_engine_change``: resume a dataset started by another engine version (the manifest then
    records both). ``progress``: a progress bar with ETA (default: when stderr is a terminal).
    """
    if not isinstance(n_jobs, int) or n_jobs == 0 or n_jobs < -1:
        raise RunError(f"n_jobs={n_jobs} is invalid: use a positive number of workers or -1 for all")
    most = MAX_CHUNK_SIZE["single_round" if study.mode == "single_round" else "match"]
    if chunk_size is not None and not 1 <= chunk_size <= most:
        raise RunError(f"chunk_size={chunk_size:,} is invalid: use 1..{most:,} games per job (a job holds "
                       f"its games in memory: about 2 kB per single round, 12 kB per match)")
    root = Path(out).absolute() / study.name
    _refuse_foreign_directory(root, force)
    compiles = len(engine.COMPILES)
    schema = _engine_schema(study)  # also compiles the engine once, so workers load it from the cache
    compile_seconds = sum(seconds for _, seconds in engine.COMPILES[compiles:])
    with _interrupt_on_sigterm(), _backend(scheduler, n_jobs) as (client, capacity), DatasetLock(root):
        manifest, done = _prepare(root, study, chunk_size, force, accept_engine_change, schema)
        chunk = manifest["chunk_size"]
        dataset.record_progress(manifest, done)
        dataset.write_manifest(root, manifest)
        if client is not None:
            _probe_workers(client, root)
        pending = sum(dataset.job_count(c.games, chunk) for c in study.cells) - len(done)
        workers = max(1, min(capacity if n_jobs == -1 else n_jobs, capacity, pending))
        start = time.perf_counter()
        games_before = sum(entry["games_done"] for entry in manifest["cells"].values())
        try:
            if pending:
                _run_jobs(study, root, manifest, done, workers, sys.stderr.isatty() if progress is None else progress)
        except BaseException:
            manifest["status"] = "interrupted"
            _stamp(manifest)
            dataset.write_manifest(root, manifest)
            raise
        _remove_stale_temporaries(root)  # e.g. of a dask worker killed mid-write
        manifest["status"] = "complete"
        _stamp(manifest)
        dataset.write_manifest(root, manifest)
    games_run = sum(entry["games_done"] for entry in manifest["cells"].values()) - games_before
    return RunSummary(root, games_run, pending, len(done), time.perf_counter() - start, compile_seconds)


def _run_jobs(study: Study, root: Path, manifest: dict[str, Any], done: dict, workers: int,
              progress: bool) -> None:
    """Run the pending jobs on the current joblib backend; record each job as its metadata arrives."""
    chunk = manifest["chunk_size"]
    cells = {cell.name: cell for cell in study.cells}
    done_games = sum(entry["games_done"] for entry in manifest["cells"].values())
    with tqdm(total=study.total_games, initial=done_games, unit="game", unit_scale=True, smoothing=0.1,
              desc=study.name, disable=not progress) as bar:
        last_manifest = time.perf_counter()
        outputs = Parallel(n_jobs=workers, return_as="generator_unordered", batch_size=1,
                           pre_dispatch="2*n_jobs")(
            delayed(run_job)(job, str(root)) for job in _pending_jobs(study, chunk, done))
        try:
            for output in outputs:
                record = output["record"]
                if output["schema"] != manifest["schema"]:
                    raise RunError(f"worker {record['writer']} wrote parts whose columns differ from this "
                                   f"run's engine: are the workers running another unosim version?")
                # the worker renamed its parts without waiting for the journal: a recorded job survives a crash
                cell = cells[record["cell"]]
                sync_directories(dataset.part_path(root, table, cell.variant, cell.players, cell.name,
                                                   record["job"]) for table in dataset.TABLES)
                dataset.append_ledger(root, record)
                entry = manifest["cells"][record["cell"]]
                entry["jobs_done"] += 1
                entry["games_done"] += record["games"]
                entry["status"] = "complete" if entry["jobs_done"] == entry["jobs"] else "partial"
                bar.update(record["games"])
                if time.perf_counter() - last_manifest > MANIFEST_INTERVAL_S:
                    _stamp(manifest)
                    dataset.write_manifest(root, manifest)
                    last_manifest = time.perf_counter()
        finally:
            with warnings.catch_warnings():  # joblib counts the cancelled tasks: the resume reruns them
                warnings.simplefilter("ignore", UserWarning)
                outputs.close()  # on an error or an interrupt: joblib stops and terminates the workers


def _pending_jobs(study: Study, chunk: int, done: dict) -> Iterator[Job]:
    """The jobs not yet recorded, generated one by one (memory does not grow with the study)."""
    return (job for job in study.jobs(chunk) if (job.cell.name, job.index) not in done)


def _refuse_foreign_directory(root: Path, force: bool) -> None:
    """Before anything is written: ``root`` must be absent, empty or a unosim dataset."""
    if root.exists() and not root.is_dir():
        raise RunError(f"{root} exists and is a file, not a dataset directory; choose another --out")
    if root.is_dir() and not (root / dataset.MANIFEST).exists():
        if any(p.name not in LOCK_FILES for p in root.iterdir()):
            if force:
                raise RunError(f"refusing to delete {root}: it is not a unosim dataset (no "
                               f"{dataset.MANIFEST})")
            raise RunError(f"{root} exists and is not a unosim dataset; choose another --out")


def _engine_schema(study: Study) -> dict[str, list[list[str]]]:
    """The column schema of each table as the current engine writes it (one game per variant family).

    Run in the parent before anything is written: it compiles (or loads) the one engine build that
    plays every cell, so the workers only load it, and proves every family runs. The manifest records
    the result; every part is checked against it.
    """
    builds = [engine.build_for(c.ruleset, policies.make_lineup(c.lineup_spec, c.players)) for c in study.cells]
    engine.kernel(engine.choose(functools.reduce(engine.Build.union, builds)))
    schemas = {}
    for cell in {c.ruleset.family: c for c in reversed(study.cells)}.values():
        results = simulate(cell.ruleset, players=cell.players, games=1, seed=cell.seed, lineup=cell.lineup_spec)
        schemas[cell.variant] = dataset.table_schemas(
            {name: dataset.part_table(results, name, cell.lineup) for name in dataset.TABLES})
    first = next(iter(schemas.values()))
    for variant, schema in schemas.items():
        if schema != first:
            raise RunError(f"the engine writes other columns for variant {variant!r} than for "
                           f"{next(iter(schemas))!r}; they cannot share one dataset: split the study")
    return first


def _prepare(root: Path, study: Study, chunk_size: int | None, force: bool, accept_engine_change: bool,
             schema: dict[str, Any]) -> tuple[dict[str, Any], dict]:
    """The manifest to continue from and the finished jobs: a fresh dataset, or the existing one."""
    resolved = json.loads(json.dumps(study.resolved()))
    if force:
        _clear(root)
    if (root / dataset.MANIFEST).exists():
        manifest = dataset.read_manifest(root)
        if manifest["study"] != resolved:
            raise RunError(_spec_change(root, manifest["study"], resolved))
        if chunk_size is not None and chunk_size != manifest["chunk_size"]:
            raise RunError(f"{root} was started with chunk_size={manifest['chunk_size']:,}; resume with that "
                           f"chunk size (or none), or use --force to start again")
        _check_engine(root, manifest, schema, accept_engine_change)
        _remove_stale_temporaries(root)
        done = resume.recorded_jobs(root, manifest, ENGINE_VERSION)
        manifest["status"] = "running"
        return manifest, done
    chunk = chunk_size or DEFAULT_CHUNK_SIZE["single_round" if study.mode == "single_round" else "match"]
    now = _now()
    manifest = {
        "format": dataset.FORMAT_VERSION,
        "status": "running",
        "created": now,
        "updated": now,
        "study": resolved,
        "chunk_size": chunk,
        "engine_version": ENGINE_VERSION,
        "versions": _versions(),
        "git_revision": _git_revision(),
        "schema": schema,
        "ledger": dataset.LEDGER,
        "cells": {c.name: {"games": c.games, "games_done": 0, "jobs": dataset.job_count(c.games, chunk),
                           "jobs_done": 0, "status": "pending"} for c in study.cells},
    }
    dataset.write_manifest(root, manifest)  # first: a directory with a manifest is a dataset
    dataset.rewrite_ledger(root, {})
    return manifest, {}


def _spec_change(root: Path, old: dict[str, Any], new: dict[str, Any]) -> str:
    """Why a dataset cannot be continued with this spec: a different spec, or the same spec whose
    policies now play by other parameters (a preset's weights changed between unosim versions)."""
    def without_effective(spec):
        return {**spec, "cells": [{k: v for k, v in c.items() if k != "lineup_effective"} for c in spec["cells"]]}

    if without_effective(old) != without_effective(new):
        return f"{root} holds a dataset of a different spec; use --force to replace it or another --out"
    then, now = next((c, d) for c, d in zip(old["cells"], new["cells"], strict=True)
                     if c.get("lineup_effective") != d["lineup_effective"])
    return (f"{root} was started with other policy parameters for cell {then['name']}: "
            f"{then.get('lineup_effective', '(not recorded by the unosim that started it)')}; this unosim plays "
            f"{now['lineup_effective']}. Its games would differ: use --force to start again, or another --out")


def _check_engine(root: Path, manifest: dict[str, Any], schema: dict[str, Any], accept: bool) -> None:
    """A resume continues with the engine that started the dataset, unless told to mix (then recorded)."""
    old = manifest["engine_version"]
    if manifest["schema"] != schema:
        raise RunError(f"{root} was written with other columns (engine version {old}) than this unosim "
                       f"writes (engine version {ENGINE_VERSION}); its parts cannot be mixed: use --force "
                       f"to start again")
    if old == ENGINE_VERSION:
        return
    if not accept:
        raise RunError(f"{root} was started by engine version {old}, this unosim runs engine version "
                       f"{ENGINE_VERSION} (its games may differ); use --force to start again, or "
                       f"--accept-engine-change to continue with both (recorded in the manifest)")
    jobs = sum(entry["jobs_done"] for entry in manifest["cells"].values())
    manifest.setdefault("engine_history", []).append(
        {"engine_version": old, "versions": manifest["versions"], "jobs_done": jobs, "until": _now()})
    manifest["engine_version"] = ENGINE_VERSION
    manifest["versions"] = _versions()
    manifest["git_revision"] = _git_revision()


def _clear(root: Path) -> None:
    """Delete the dataset's contents, keeping the lock this run holds."""
    for path in root.iterdir():
        if path.name in LOCK_FILES:
            continue
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()


def _remove_stale_temporaries(root: Path) -> None:
    """Temporary files of writers that died (the lock proves none is alive), and worker probes."""
    for pattern in (".*.tmp", ".probe-*"):
        for stale in root.rglob(pattern):
            stale.unlink(missing_ok=True)


def _probe_workers(client, root: Path) -> None:
    """Every dask worker must write the dataset directory, the same one as the parent sees."""
    try:
        probes = client.run(probe_dataset_dir, str(root))
    except OSError as exc:
        raise RunError(f"a dask worker cannot write the dataset directory: {exc}; put the dataset on a "
                       f"filesystem every worker can write, at the same path (see --out)") from None
    for address, name in probes.items():
        probe = root / name
        if not probe.exists():
            raise RunError(f"dask worker {address} writes {root} on another filesystem than this process; "
                           f"put the dataset on a filesystem shared by every worker, at the same path")
        probe.unlink()


@contextlib.contextmanager
def _interrupt_on_sigterm():
    """SIGTERM behaves like Ctrl-C during a run: workers stopped, manifest saved, the dataset resumable."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextlib.contextmanager
def _backend(scheduler: str | None, n_jobs: int):
    """joblib's loky backend, or its dask backend; yields (dask client or None, worker capacity)."""
    if scheduler is None:
        with parallel_config(backend="loky", initializer=init_local_worker, initargs=(os.getpid(),)):
            yield None, len(os.sched_getaffinity(0))
        return
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise RunError("a dask scheduler needs the cluster extra: pip install 'unosim[cluster]'") from None
    with contextlib.ExitStack() as stack:
        if scheduler == "local":
            cores = len(os.sched_getaffinity(0))
            cluster = stack.enter_context(LocalCluster(n_workers=cores if n_jobs == -1 else min(n_jobs, cores),
                                                       threads_per_worker=1, processes=True,
                                                       dashboard_address=None))
            client = stack.enter_context(Client(cluster))
        else:
            try:
                client = stack.enter_context(Client(scheduler, timeout=10))
            except (OSError, TimeoutError) as exc:
                raise RunError(f"cannot reach the dask scheduler {scheduler!r}: {exc}") from None
        threads = sum(client.nthreads().values())
        if threads == 0:
            raise RunError(f"the dask scheduler {scheduler!r} has no workers")
        with parallel_config(backend="dask", client=client):
            yield client, threads


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
