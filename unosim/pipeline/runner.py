"""Run a study: jobs in parallel (joblib: threads of this process, loky processes, or a dask cluster), parts
and manifest on disk.

Each worker simulates one job and writes its three parquet parts itself (:mod:`unosim.pipeline.worker`); the
parent only makes the parts' renames durable (an fsync of their directories), appends each job's
metadata (rows, bytes, sha256 per part) to the dataset's ledger and keeps ``manifest.json`` current,
holding the dataset's lock (:mod:`unosim.store.lock`) the whole time. Game ``g`` of a cell depends only on
(cell seed, g), so the dataset is the same whatever ``n_jobs``, chunk size or scheduler. A run that
finds its dataset half done (killed, crashed) resumes: recorded jobs are re-verified and skipped, the
others are (re)written whole (:mod:`unosim.store.resume`), so no game is lost or duplicated.

Resources stay bounded whatever the spec: jobs are generated lazily (a trillion-game cell is a count,
not a list), a job holds at most ``MAX_CHUNK_SIZE`` games (about 2.5 GB), and the number of workers is capped by the
pending jobs and the cores (or dask worker threads). Ctrl-C or SIGTERM stops the workers and leaves a
resumable dataset; workers also exit by themselves when the parent is killed.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import json
import logging
import os
import re
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

import numpy
import pyarrow
from joblib import Parallel, delayed, parallel_config
from tqdm import tqdm

from ..store import consolidate, integrity, ledger, resume, writer
from ..store.layout import (LEDGER, MANIFEST, TABLES, fresh_layout, job_count, job_span, layout_job_count, layout_jobs,
                            layout_of, part_path, shorten)
from ..store.manifest import FORMAT_VERSION, data_digest, read_manifest, record_progress, write_manifest
from .. import engine
from ..game import policies
from ..store.atomic import sync_directories
from ..game.version import __version__
from ..game.protocol import ENGINE_VERSION
from ..store.atomic import OutsideDataset, remove
from ..game.checks import is_int
from ..store.lock import LOCK_FILES, DatasetLock
from ..play.simulate import CallStopped, Results
from .study import Job, SpecChange, Study, growth
from .worker import JobTooLarge, init_local_worker, probe_dataset_dir, run_job

#: games per job by default: large enough that a job's fixed costs (six fsyncs, a ledger line, the
#: worker's round trip) stay a small share of its time (docs/results/code_choices.json), while a job holds about 220 MB of single rounds or
#: 600 MB of matches (about 10 rounds each)
DEFAULT_CHUNK_SIZE = {"single_round": 100_000, "match": 50_000}
#: per-job memory budget, about 2.5 GB per worker: a job holds its rows in memory while it writes them,
#: measured at about 2.2 kB per single-round game and 12 kB per match (about 10 rounds) of classic 4p
MAX_CHUNK_SIZE = {"single_round": 1_000_000, "match": 200_000}
MANIFEST_INTERVAL_S = 2.0
#: the most workers a local run puts on threads of its own process by default (more run as processes): a
#: study job holds the GIL a small share of its time (docs/results/code_choices.json), so
#: four threads leave it free most of the time, while many more would queue for it
MAX_THREADS = 4


class RunError(ValueError):
    """The run cannot start (an existing dataset of another spec, a bad option, no scheduler)."""


class RunStopped(RunError):
    """The run stopped part-way (a worker died, a disk filled up): its finished jobs are recorded, and
    running the same study again resumes it (the command line adds the exact command)."""


@dataclass(frozen=True)
class RunSummary:
    path: Path
    games_run: int
    jobs_run: int
    jobs_skipped: int
    seconds: float
    compile_seconds: float = 0.0   # compiling the engine build before the run (not in ``seconds``)


def run_study(study: Study, out: str | Path, *, n_jobs: int = -1, chunk_size: int | None = None,
              scheduler: str | None = None, processes: bool | None = None, force: bool = False,
              progress: bool | None = None, accept_engine_change: bool = False) -> RunSummary:
    """Run (or resume) ``study`` into ``<out>/<study.name>``.

    ``n_jobs``: joblib workers (-1 = all cores, or all dask worker threads; never more than those nor
    than the pending jobs). ``chunk_size``: games per job (default 100 000 single rounds or 50 000
    matches; a resumed dataset keeps its own; at most 1 000 000 single rounds or 200 000 matches, a
    stated per-job memory budget). ``scheduler``: None to run here, ``"local"`` for a dask LocalCluster,
    or a dask scheduler address ``tcp://host:8786`` (the dataset must then be on a filesystem every
    worker writes at the same path). Run here, ``processes=False`` runs the jobs on threads of this process
    (the compiled engine and the parquet writer release the GIL), so the engine loads once and no worker
    starts; ``processes=True`` on loky worker processes, each loading the engine (a job that crashes or
    is killed by the out-of-memory killer then takes only its worker down); by default threads up to
    :data:`MAX_THREADS` workers, processes beyond. ``force``: delete an existing dataset first.
    ``accept_engine_change``: resume a dataset started by another engine version (the manifest then
    records both). ``progress``: a progress bar with ETA (default: when stderr is a terminal).
    """
    if processes is not None and scheduler is not None:
        raise RunError("threads or processes are for a local run; a dask scheduler brings its own workers: give "
                       "one or the other")
    if not is_int(n_jobs) or n_jobs == 0 or n_jobs < -1:
        raise RunError(f"n_jobs={shorten(n_jobs, 60)} is invalid: use a positive number of workers or -1 for all")
    n_jobs = int(n_jobs)
    if processes is None:   # jobs hold the GIL part of their time: many workers run as processes
        processes = _local_workers(n_jobs) > MAX_THREADS
    threads = scheduler is None and not processes
    most = MAX_CHUNK_SIZE["single_round" if study.mode == "single_round" else "match"]
    if chunk_size is not None and (not is_int(chunk_size) or not 1 <= chunk_size <= most):
        raise RunError(f"chunk_size={shorten(chunk_size, 60)} is invalid: use a whole number 1..{most:,} of games "
                       f"per job (a job holds its games in memory: about 2 kB per single round, 12 kB per match)")
    chunk_size = None if chunk_size is None else int(chunk_size)
    root = Path(out).absolute() / study.name
    _refuse_foreign_directory(root, force)
    # compiles what the cells need first (side by side on two or more cores), so workers load it from the cache
    compile_seconds, schema = _engine_schema(study, n_jobs)
    with _interrupt_on_sigterm(), _backend(scheduler, n_jobs, threads) as (client, capacity), DatasetLock(root):
        manifest, done = _prepare(root, study, chunk_size, force, accept_engine_change, schema)
        record_progress(manifest, done)
        write_manifest(root, manifest)
        if client is not None:
            _probe_workers(client, root)
        pending = sum(entry["jobs"] for entry in manifest["cells"].values()) - len(done)
        workers = max(1, min(capacity if n_jobs == -1 else n_jobs, capacity, pending))
        if pending and threads:
            _load_engines(study)
        start = time.perf_counter()
        games_before = sum(entry["games_done"] for entry in manifest["cells"].values())
        try:
            with _stops_in_one_line(root):
                if pending:
                    _run_jobs(study, root, manifest, done, workers,
                              sys.stderr.isatty() if progress is None else progress, threads)
                _remove_stale_temporaries(root)  # e.g. of a dask worker killed mid-write
                manifest["status"] = "complete"
                _stamp(manifest)
                write_manifest(root, manifest)
                if pending:
                    integrity.record_written(root, manifest, ledger.read_ledger(root))
                    _consolidate(root, manifest)
        except BaseException:
            manifest["status"] = "interrupted"
            _stamp(manifest)
            with contextlib.suppress(OSError):  # a full disk: the ledger alone makes the resume exact
                write_manifest(root, manifest)
            raise
    games_run = sum(entry["games_done"] for entry in manifest["cells"].values()) - games_before
    return RunSummary(root, games_run, pending, len(done), time.perf_counter() - start, compile_seconds)


def _run_jobs(study: Study, root: Path, manifest: dict[str, Any], done: dict, workers: int,
              progress: bool, threads: bool) -> None:
    """Run the pending jobs on the current joblib backend (``threads``: joblib's threading backend);
    record each job as its metadata arrives."""
    cells = {cell.name: cell for cell in study.cells}
    job_threads = _JobThreads() if threads else None
    run = run_job if job_threads is None else job_threads.run
    done_games = sum(entry["games_done"] for entry in manifest["cells"].values())
    with tqdm(total=study.total_games, initial=done_games, unit="game", unit_scale=True, smoothing=0.1,
              desc=study.name, disable=not progress) as bar:
        last_manifest = time.perf_counter()
        outputs = Parallel(n_jobs=workers, return_as="generator_unordered", batch_size=1,
                           pre_dispatch="2*n_jobs")(
            delayed(run)(job, str(root)) for job in _pending_jobs(study, manifest, done))
        try:
            for output in outputs:
                record = output["record"]
                if output["schema"] != manifest["schema"]:
                    raise RunError(f"worker {record['writer']} wrote parts whose columns differ from this "
                                   f"run's engine: are the workers running another unosim version?")
                # the worker renamed its parts without waiting for the journal: a recorded job survives a crash
                cell = cells[record["cell"]]
                sync_directories(part_path(root, table, cell.variant, cell.players, cell.name,
                                                   record["job"]) for table in TABLES)
                ledger.append_ledger(root, record)
                entry = manifest["cells"][record["cell"]]
                entry["jobs_done"] += 1
                entry["games_done"] += record["games"]
                entry["status"] = "complete" if entry["jobs_done"] == entry["jobs"] else "partial"
                bar.update(record["games"])
                if time.perf_counter() - last_manifest > MANIFEST_INTERVAL_S:
                    _stamp(manifest)
                    write_manifest(root, manifest)
                    last_manifest = time.perf_counter()
        finally:
            with warnings.catch_warnings():  # joblib counts the cancelled tasks: the resume reruns them
                warnings.simplefilter("ignore", UserWarning)
                outputs.close()  # on an error or an interrupt: joblib stops and terminates the workers
            if job_threads is not None:
                job_threads.end()


class _JobThreads:
    """The jobs running on threads of this process. joblib cannot stop a thread, and a thread still in the
    engine or the parquet writer when the interpreter exits is killed mid-call (SIGTERM of a run of
    100,000-game jobs ended with SIGABRT in 6 of 20 tries): a run that ends early sets ``stop``, which each job
    checks between its kernel calls (:class:`CallStopped`, before any part is written), and waits for
    the jobs still running."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self._running = 0
        self._changed = threading.Condition()

    def run(self, job: Job, root: str) -> dict[str, Any]:
        with self._changed:
            if self.stop.is_set():
                raise CallStopped("the run is ending")
            self._running += 1
        try:
            return run_job(job, root, self.stop)
        finally:
            with self._changed:
                self._running -= 1
                self._changed.notify_all()

    def end(self) -> None:
        """Stop the running jobs and wait until none runs (at most one kernel call and one part's write)."""
        self.stop.set()
        with self._changed:
            self._changed.wait_for(lambda: self._running == 0)


def _consolidate(root: Path, manifest: dict[str, Any]) -> None:
    """Build the consolidated files of a dataset of many small jobs (:mod:`unosim.store.consolidate`), from
    the ledger's records; a cache, so a failure to write it (a full disk) leaves the dataset as it is."""
    records = ledger.read_ledger(root)
    cells = {c["name"]: c for c in manifest["study"]["cells"]}
    parts, sizes = {table: [] for table in TABLES}, {}
    for (name, job), record in records.items():
        for table in TABLES:
            path = str(part_path(root, table, cells[name]["variant"], cells[name]["players"], name, job))
            parts[table].append(path)
            sizes[path] = record["parts"][table][1]
    with contextlib.suppress(OSError):
        consolidate.build(root, {t: tuple(sorted(p)) for t, p in parts.items()}, sizes,
                          data_digest(manifest, records))


def _pending_jobs(study: Study, manifest: dict[str, Any], done: dict) -> Iterator[Job]:
    """The jobs of the cells' layouts not yet recorded, generated one by one (memory does not grow
    with the study)."""
    for cell in study.cells:
        for job, first, games in layout_jobs(layout_of(manifest["cells"][cell.name])):
            if (cell.name, job) not in done:
                yield Job(cell, job, first, games)


@contextlib.contextmanager
def _stops_in_one_line(root: Path):
    """The ways a run can die on the way, each turned into one :class:`RunStopped` line: a worker
    process killed (by the out-of-memory killer, most often), a dask worker lost again and again, a
    disk that filled up or went read-only (here or in a worker)."""
    try:
        yield
    except OutsideDataset:
        raise
    except OSError as exc:
        where = exc.filename or root
        raise RunStopped(f"cannot write {where}: {exc.strerror or shorten(exc, text=True)} (free some space, or make "
                         f"it writable); the finished jobs are kept") from None
    except JobTooLarge as exc:
        raise RunStopped(f"{exc}; the finished jobs are kept, and the chunk size may change on resume") from None
    except Exception as exc:
        death = worker_death(exc)
        if death is None:
            raise
        raise RunStopped(f"{death}; the finished jobs are kept") from None


def worker_death(exc: BaseException) -> str | None:
    """One line saying how a worker died, its likely cause and what to do, when ``exc`` reports a
    worker's death (loky's TerminatedWorkerError or BrokenProcessPool, dask's KilledWorker); else None."""
    kind = type(exc).__name__
    text = str(exc)
    if kind == "KilledWorker":
        tries = getattr(exc, "allowed_failures", 2) + 1
        return (f"{tries} dask workers in turn died while running one job, most likely out of memory: lower "
                f"--chunk-size (a job holds its games in memory) or give the workers more memory")
    if kind not in ("TerminatedWorkerError", "BrokenProcessPool", "ShutdownExecutorError"):
        return None
    codes = re.search(r"exit codes of the workers are \{([^}]*)\}", text)
    signals = sorted(set(re.findall(r"(SIG[A-Z]+)\((-?\d+)\)", codes.group(1)))) if codes else []
    how = (" and ".join(f"{name} (signal {abs(int(num))})" for name, num in signals) if signals
           else "an unexpected exit")
    if any(name == "SIGKILL" for name, _ in signals) or not signals:
        cause = ("most likely the system's out-of-memory killer: lower --chunk-size (a job holds its games in "
                 "memory) or --n-jobs")
    elif any(name in ("SIGSEGV", "SIGBUS", "SIGILL", "SIGABRT") for name, _ in signals):
        cause = "a crash inside the worker (please report it with the spec)"
    else:
        cause = "something outside unosim stopped it"
    return f"a study worker process was killed by {how}, {cause}"


def _refuse_foreign_directory(root: Path, force: bool) -> None:
    """Before anything is written: ``root`` must be absent, empty or a unosim dataset."""
    if root.exists() and not root.is_dir():
        raise RunError(f"{root} exists and is a file, not a dataset directory; choose another --out")
    if root.is_dir() and not (root / MANIFEST).exists():
        if any(p.name not in LOCK_FILES for p in root.iterdir()):
            if force:
                raise RunError(f"refusing to delete {root}: it is not a unosim dataset (no "
                               f"{MANIFEST})")
            raise RunError(f"{root} exists and is not a unosim dataset; choose another --out")


def _engine_schema(study: Study, n_jobs: int) -> tuple[float, dict[str, list[list[str]]]]:
    """The seconds spent compiling, and the column schema of each table as this unosim writes it.

    Run in the parent before anything is written. It compiles the engine builds the cells need
    (:func:`unosim.engine.build.prepare.prepare`: one, or two side by side on two or more cores), so the workers
    only load them. The schema comes from tables of no games (:meth:`Results.empty`), so a parent whose
    builds are in the cache never loads the engine: the workers' start is the only engine load before the
    first job (tests/test_dataset.py checks these tables against played ones). The manifest records the
    schema; every part is checked against it.
    """
    from ..engine.build.prepare import prepare
    builds = [engine.build_for(c.ruleset, policies.make_lineup(c.lineup_spec, c.players)) for c in study.cells]
    seconds = prepare(builds, workers=_local_workers(n_jobs))
    schemas = {}
    for cell in {c.ruleset.family: c for c in reversed(study.cells)}.values():
        results = Results.empty(cell.ruleset, cell.players, policies.make_lineup(cell.lineup_spec, cell.players))
        schemas[cell.variant] = writer.table_schemas(
            {name: writer.part_table(results, name, cell.lineup) for name in TABLES})
    first = next(iter(schemas.values()))
    for variant, schema in schemas.items():
        if schema != first:
            raise RunError(f"the engine writes other columns for variant {variant!r} than for "
                           f"{next(iter(schemas))!r}; they cannot share one dataset: split the study")
    return seconds, first


def _local_workers(n_jobs: int) -> int:
    """The local workers ``n_jobs`` asks for, capped by the cores (before the pending jobs cap them too)."""
    cores = len(os.sched_getaffinity(0))
    return cores if n_jobs == -1 else min(n_jobs, cores)


def _load_engines(study: Study) -> None:
    """Load the builds the cells play on into this process before its job threads start: each thread's
    first job then plays at once, and no two threads load one build side by side."""
    from .worker import skip_blas_probe
    skip_blas_probe()
    for build in {engine.choose(engine.build_for(c.ruleset, policies.make_lineup(c.lineup_spec, c.players)))
                  for c in study.cells}:
        engine.kernel(build)


def _prepare(root: Path, study: Study, chunk_size: int | None, force: bool, accept_engine_change: bool,
             schema: dict[str, Any]) -> tuple[dict[str, Any], dict]:
    """The manifest to continue from and the finished jobs: a fresh dataset, or the existing one
    (extended to a grown spec, or cut anew for another chunk size)."""
    resolved = json.loads(json.dumps(study.resolved()))
    if force or _status_on_disk(root) == "clearing":   # a --force that was stopped half-way goes on
        _clear(root)
    if (root / MANIFEST).exists():
        manifest = read_manifest(root)
        try:
            grown = growth(manifest["study"], resolved)
        except SpecChange as exc:
            raise RunError(f"{root} holds a dataset of a different spec ({exc}); a dataset can only grow (more "
                           f"games per cell, more cells): use --force to replace it, or another --out") from None
        rechunk = chunk_size is not None and chunk_size != manifest["chunk_size"]
        if rechunk and grown:
            raise RunError(f"{root}: give either more games or another chunk size ({manifest['chunk_size']:,} → "
                           f"{chunk_size:,}) in one run, not both: run once with --chunk-size "
                           f"{manifest['chunk_size']}, then again with the new one")
        _check_engine(root, manifest, schema, accept_engine_change)
        _remove_stale_temporaries(root)
        done = resume.recorded_jobs(root, manifest, ENGINE_VERSION)
        if grown:
            _grow(root, manifest, resolved, grown, done)
        # the designer's profile judges the games, it changes none: a resume takes the spec's
        manifest["study"].pop("profile", None)
        manifest["study"].update({"profile": resolved["profile"]} if "profile" in resolved else {})
        if rechunk:
            _rechunk(manifest, chunk_size, done)
        manifest["status"] = "running"
        return manifest, done
    chunk = chunk_size or DEFAULT_CHUNK_SIZE["single_round" if study.mode == "single_round" else "match"]
    now = _now()
    manifest = {
        "format": FORMAT_VERSION,
        "status": "running",
        "created": now,
        "updated": now,
        "study": resolved,
        "chunk_size": chunk,
        "engine_version": ENGINE_VERSION,
        "versions": _versions(),
        "git_revision": _git_revision(),
        "schema": schema,
        "ledger": LEDGER,
        "cells": {c.name: _cell_entry(c.games, chunk) for c in study.cells},
    }
    ledger.rewrite_ledger(root, {})
    write_manifest(root, manifest)  # a directory with a manifest is a dataset
    return manifest, {}


def _cell_entry(games: int, chunk: int) -> dict[str, Any]:
    layout = fresh_layout(games, chunk)
    return {"games": games, "games_done": 0, "jobs": layout_job_count(layout_of({"layout": layout})),
            "jobs_done": 0, "status": "pending", "layout": layout}


def _grow(root: Path, manifest: dict[str, Any], resolved: dict[str, Any], grown, done: dict) -> None:
    """Extend the dataset to the grown spec: each grown cell's last segment (in game order) is extended,
    so its jobs are those of one run at the new size; a short last job of the old size becomes a
    longer one and runs again (its record dropped first, then its parts). New cells get fresh
    layouts. The manifest is written last: a kill before leaves the old dataset, resumable."""
    dropped = {}
    for name, (_, games) in grown.grown.items():
        entry = manifest["cells"][name]
        layout = [list(segment) for segment in entry["layout"]]
        last = max(layout, key=lambda segment: segment[1])
        job0, first, old_games, chunk = last
        tail = job_count(old_games, chunk) - 1 + job0   # the old last job
        last[2] = games - first
        end = job0 + job_count(last[2], chunk)
        if any(seg[0] < end and job0 < seg[0] + job_count(seg[2], seg[3]) for seg in layout if seg is not last):
            last[2] = old_games   # the extension's job numbers are in use (after a re-chunk): a segment of its own
            layout.append([_next_job(layout), first + old_games, games - first - old_games, manifest["chunk_size"]])
        elif (name, tail) in done and job_span(layout_of({"layout": layout}), tail)[1] != done[(name, tail)]["games"]:
            dropped[(name, tail)] = done.pop((name, tail))
        entry.update(games=games, layout=layout)
        entry["jobs"] = layout_job_count(layout_of(entry))
    for name in grown.added:
        cell = next(c for c in resolved["cells"] if c["name"] == name)
        manifest["cells"][name] = _cell_entry(cell["games"], manifest["chunk_size"])
    cells = {c["name"]: c for c in resolved["cells"]}
    if dropped:
        ledger.rewrite_ledger(root, done)
        for name, job in dropped:
            for table in TABLES:
                remove(part_path(root, table, cells[name]["variant"], cells[name]["players"], name, job))
    manifest["study"] = resolved
    manifest["cells"] = {c["name"]: manifest["cells"][c["name"]] for c in resolved["cells"]}   # spec order
    record_progress(manifest, done)
    write_manifest(root, manifest)


def _next_job(layout: list[list[int]]) -> int:
    return max(job0 + job_count(games, chunk) for job0, _, games, chunk in layout)


def _rechunk(manifest: dict[str, Any], chunk: int, done: dict) -> None:
    """Cut the games no finished job holds into jobs of ``chunk`` games (new job numbers); the
    finished jobs keep theirs (consecutive ones as one segment). A cell with no finished job is laid
    out afresh, as a new run would. Costs memory by finished jobs, not by games."""
    for name, entry in manifest["cells"].items():
        layout = layout_of(entry)
        finished = sorted((*job_span(layout, job), job) for cell, job in done if cell == name)
        if not finished:
            entry["layout"] = fresh_layout(entry["games"], chunk)
        elif sum(games for _, games, _ in finished) < entry["games"]:
            kept = []   # segments [first job, first game, games, chunk] + [jobs]
            for first, games, job in finished:
                run, chunk_of = (kept[-1] if kept else None), _chunk_of(layout, job)
                if (run is not None and run[0] + run[4] == job and run[1] + run[2] == first and run[3] == chunk_of
                        and run[2] == run[3] * run[4]):
                    run[2] += games
                    run[4] += 1
                else:
                    kept.append([job, first, games, chunk_of, 1])
            segments = [run[:4] for run in kept]
            next_job = _next_job([list(s) for s in layout])
            edge = 0
            for _, first, games, _, _ in [*kept, [0, entry["games"], 0, 0, 0]]:
                if first > edge:   # a gap no finished job holds
                    segments.append([next_job, edge, first - edge, chunk])
                    next_job += job_count(first - edge, chunk)
                edge = first + games
            entry["layout"] = sorted(segments, key=lambda segment: segment[1])
        entry["jobs"] = layout_job_count(layout_of(entry))
    manifest["chunk_size"] = chunk


def _chunk_of(layout, job: int) -> int:
    return next(chunk for job0, _, games, chunk in layout if job0 <= job < job0 + job_count(games, chunk))


def _status_on_disk(root: Path) -> str | None:
    """The status field of the manifest at ``root`` as written, unchecked (None if there is none)."""
    try:
        manifest = json.loads((root / MANIFEST).read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    return manifest.get("status") if isinstance(manifest, dict) else None


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
    """Delete the dataset's contents, keeping the lock this run holds. The manifest is marked
    "clearing" first and deleted last, so a kill at any point leaves a dataset that the next run
    (with --force or without) goes on clearing."""
    manifest = root / MANIFEST
    if manifest.exists():
        write_manifest(root, {"format": FORMAT_VERSION, "status": "clearing"})
    for path in root.iterdir():
        if path.name in LOCK_FILES or path == manifest:
            continue
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)   # never follows a link inside: a link is deleted, not its target
        else:
            remove(path)
    remove(manifest)


def _remove_stale_temporaries(root: Path) -> None:
    """Temporary files of writers that died (the lock proves none is alive), and worker probes; links
    are not followed."""
    for directory, subdirectories, files in os.walk(root):
        for name in files:
            if (name.startswith(".") and name.endswith(".tmp")) or name.startswith(".probe-"):
                remove(Path(directory) / name)
        subdirectories[:] = [d for d in subdirectories if not os.path.islink(os.path.join(directory, d))]


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
def _quiet_resource_tracker():
    """loky's resource tracker (a helper process that removes the workers' semaphores) may be killed
    like any process; loky then starts another, with a warning, and the new one prints a traceback for
    every semaphore the old one knew (47 lines in all). The run itself is unharmed, so it says
    nothing: during the run a tracker is started with its stderr on /dev/null, and one that died is
    replaced before the run returns (not at exit, where the replacement would speak)."""
    from joblib.externals.loky.backend import resource_tracker
    tracker = resource_tracker._resource_tracker
    launch = tracker._launch

    def quiet_launch():
        sys.stderr.flush()
        saved, devnull = os.dup(2), os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, 2)   # the tracker inherits descriptor 2
            launch()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            os.close(devnull)

    tracker._launch = quiet_launch
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="resource_tracker: process died unexpectedly")
            try:
                yield
            finally:
                if tracker._fd is not None and not tracker._check_alive():
                    resource_tracker.ensure_running()
    finally:
        del tracker._launch   # the class's method again


@contextlib.contextmanager
def _backend(scheduler: str | None, n_jobs: int, threads: bool):
    """joblib's threading backend (``threads``) or its loky backend, or its dask backend; yields (dask
    client or None, worker capacity).

    Threads load the engine once instead of once per worker, and start no worker: a local study ran
    faster on threads than on loky processes, with less work (docs/results/code_choices.json)."""
    if scheduler is None:
        if threads:
            with parallel_config(backend="threading"):
                yield None, len(os.sched_getaffinity(0))
            return
        with _quiet_resource_tracker(), parallel_config(backend="loky", initializer=init_local_worker,
                                                        initargs=(os.getpid(),)):
            yield None, len(os.sched_getaffinity(0))
        return
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise RunError("a dask scheduler needs the cluster extra: pip install 'unosim[cluster]'") from None
    with contextlib.ExitStack() as stack:
        if scheduler == "local":
            # its logs stay quiet below critical: a worker that dies is restarted and its jobs run again (the
            # run says nothing; the scheduler would log "Couldn't gather keys" at ERROR for a result lost
            # with it); one lost again and again ends the run in one line (worker_death)
            cluster = stack.enter_context(LocalCluster(n_workers=_local_workers(n_jobs),
                                                       threads_per_worker=1, processes=True,
                                                       dashboard_address=None, silence_logs=logging.CRITICAL))
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
    # numba's and polars' versions from their metadata: importing them would cost the parent most of a
    # second before its workers start, for nothing else (docs/results/code_choices.json)
    return {"unosim": __version__, "numba": importlib.metadata.version("numba"), "numpy": numpy.__version__,
            "polars": importlib.metadata.version("polars"), "pyarrow": pyarrow.__version__,
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
