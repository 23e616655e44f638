"""Run a study: jobs in parallel (joblib: threads of this process, loky processes, or a dask cluster), parts
and manifest on disk.

Each worker simulates one job and writes its three parquet parts itself (:mod:`unosim.pipeline.worker`); the
parent only makes the parts' renames durable (an fsync of their directories), appends each job's
metadata (rows, bytes, sha256 per part) to the dataset's ledger and keeps ``manifest.json`` current,
holding the dataset's lock (:mod:`unosim.store.lock`) the whole time. Game ``g`` of a cell depends only on
(cell seed, g), so the dataset is the same whatever ``n_jobs``, chunk size or scheduler. A run that
finds its dataset half done (killed, crashed) resumes: recorded jobs are re-verified and skipped, the
others are (re)written whole (:mod:`unosim.store.resume`), so no game is lost or duplicated. Where the
run starts (fresh, resumed, grown, re-chunked) is :mod:`unosim.pipeline.start`, where its jobs run
:mod:`unosim.pipeline.backends`, how it fails :mod:`unosim.pipeline.run_errors`.

Resources stay bounded whatever the spec: jobs are generated lazily (a trillion-game cell is a count,
not a list), a job holds at most ``MAX_CHUNK_SIZE`` games (about 2.5 GB), and the number of workers is capped by the
pending jobs and the cores (or dask worker threads). Ctrl-C or SIGTERM stops the workers and leaves a
resumable dataset; workers also exit by themselves when the parent is killed.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from joblib import Parallel, delayed
from tqdm import tqdm

from .. import engine
from ..game import policies
from ..game.checks import is_int
from ..play.simulate import Results
from ..store import consolidate, integrity, ledger, writer
from ..store.atomic import sync_directories
from ..store.layout import TABLES, layout_jobs, layout_of, part_path, shorten
from ..store.lock import DatasetLock
from ..store.manifest import data_digest, record_progress, write_manifest
from .backends import JobThreads, backend, local_workers, probe_workers
from .run_errors import RunError, stops_in_one_line
from .start import refuse_foreign_directory, remove_stale_temporaries, stamp, start_dataset
from .study import Job, Study
from .worker import run_job

#: per-job memory budget, about 2.5 GB per worker: a job holds its rows in memory while it writes them
#: (its bytes per game: docs/results/code_choices.json)
MAX_CHUNK_SIZE = {"single_round": 1_000_000, "match": 200_000}
MANIFEST_INTERVAL_S = 2.0
#: the most workers a local run puts on threads of its own process by default (more run as processes): a
#: study job holds the GIL a small share of its time (docs/results/code_choices.json), so
#: four threads leave it free most of the time, while many more would queue for it
MAX_THREADS = 4


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
        processes = local_workers(n_jobs) > MAX_THREADS
    threads = scheduler is None and not processes
    most = MAX_CHUNK_SIZE["single_round" if study.mode == "single_round" else "match"]
    if chunk_size is not None and (not is_int(chunk_size) or not 1 <= chunk_size <= most):
        raise RunError(f"chunk_size={shorten(chunk_size, 60)} is invalid: use a whole number 1..{most:,} of games "
                       f"per job (a job holds its games in memory: about 2 kB per single round, 12 kB per match)")
    chunk_size = None if chunk_size is None else int(chunk_size)
    root = Path(out).absolute() / study.name
    refuse_foreign_directory(root, force)
    # compiles what the cells need first (side by side on two or more cores), so workers load it from the cache
    compile_seconds, schema = _engine_schema(study, n_jobs)
    with _interrupt_on_sigterm(), backend(scheduler, n_jobs, threads) as (client, capacity), DatasetLock(root):
        manifest, done = start_dataset(root, study, chunk_size, force, accept_engine_change, schema)
        record_progress(manifest, done)
        write_manifest(root, manifest)
        if client is not None:
            probe_workers(client, root)
        pending = sum(entry["jobs"] for entry in manifest["cells"].values()) - len(done)
        workers = max(1, min(capacity if n_jobs == -1 else n_jobs, capacity, pending))
        if pending and threads:
            _load_engines(study)
        start = time.perf_counter()
        games_before = sum(entry["games_done"] for entry in manifest["cells"].values())
        try:
            with stops_in_one_line(root):
                if pending:
                    _run_jobs(study, root, manifest, done, workers,
                              sys.stderr.isatty() if progress is None else progress, threads)
                remove_stale_temporaries(root)  # e.g. of a dask worker killed mid-write
                manifest["status"] = "complete"
                stamp(manifest)
                write_manifest(root, manifest)
                if pending:
                    integrity.record_written(root, manifest, ledger.read_ledger(root))
                    _consolidate(root, manifest)
        except BaseException:
            manifest["status"] = "interrupted"
            stamp(manifest)
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
    job_threads = JobThreads() if threads else None
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
                    stamp(manifest)
                    write_manifest(root, manifest)
                    last_manifest = time.perf_counter()
        finally:
            with warnings.catch_warnings():  # joblib counts the cancelled tasks: the resume reruns them
                warnings.simplefilter("ignore", UserWarning)
                outputs.close()  # on an error or an interrupt: joblib stops and terminates the workers
            if job_threads is not None:
                job_threads.end()


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


def _engine_schema(study: Study, n_jobs: int) -> tuple[float, dict[str, list[list[str]]]]:
    """The seconds spent compiling, and the column schema of each table as this unosim writes it.

    Run in the parent before anything is written. It compiles the engine builds the cells need
    (:func:`unosim.engine.compiler.prepare.prepare`: one, or two side by side on two or more cores), so the workers
    only load them. The schema comes from tables of no games (:meth:`Results.empty`), so a parent whose
    builds are in the cache never loads the engine: the workers' start is the only engine load before the
    first job (tests/store/test_dataset.py checks these tables against played ones). The manifest records the
    schema; every part is checked against it.
    """
    from ..engine.compiler.prepare import prepare
    builds = [engine.build_for(c.ruleset, policies.make_lineup(c.lineup_spec, c.players)) for c in study.cells]
    seconds = prepare(builds, workers=local_workers(n_jobs))
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


def _load_engines(study: Study) -> None:
    """Load the builds the cells play on into this process before its job threads start: each thread's
    first job then plays at once, and no two threads load one build side by side."""
    from .worker import skip_blas_probe
    skip_blas_probe()
    for build in {engine.choose(engine.build_for(c.ruleset, policies.make_lineup(c.lineup_spec, c.players)))
                  for c in study.cells}:
        engine.kernel(build)


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
