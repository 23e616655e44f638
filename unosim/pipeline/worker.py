"""What runs in a study worker (a thread of the run's process, a loky process or a dask worker): one job → its
parts, on disk.

The worker writes its job's three parts straight into the dataset (atomically, see
:func:`unosim.store.writer.write_part`) and returns only their metadata, so rows never travel to the run's
parent: on a dask cluster the dataset must be on a filesystem every worker can write, at the same path.
Each part is fsynced before its rename; the parent fsyncs the part directories (making the renames
durable) before it records the job, so the worker goes on to its next job without waiting for that
journal commit.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from ..game.protocol import ENGINE_VERSION
from ..play.simulate import simulate
from ..store import writer
from ..store.atomic import AtomicBatch
from ..store.layout import TABLES, part_path
from .study import Job

PARENT_POLL_S = 0.5
_watched_parent: int | None = None


class JobTooLarge(ValueError):
    """A job's games need more memory than one job may hold (their matches are long): the run stops,
    and a resume with a smaller chunk size goes on."""


def run_job(job: Job, root: str, stop: threading.Event | None = None) -> dict[str, Any]:
    """Simulate one job, write its parts, return its ledger record (plus the parts' schema). ``stop``: a
    job on a thread of the run's process ends when it is set (``CallStopped``), before writing a part."""
    cell = job.cell
    try:
        results = simulate(cell.ruleset, players=cell.players, games=job.games, seed=cell.seed,
                           lineup=cell.lineup_spec, first_game=job.first_game, stop=stop)
    except ValueError as exc:
        if "memory budget" not in str(exc):
            raise
        raise JobTooLarge(f"job {job.index} of cell {cell.name} ({job.games:,} games from game {job.first_game:,}) "
                          f"needs more memory than a job may hold (its games are long: {str(exc).split(': ', 1)[1]}"
                          f"); lower --chunk-size, e.g. to {max(1, job.games // 8):,}") from None
    identity = {"cell": cell.name, "job": job.index, "first_game": job.first_game, "games": job.games,
                "seed": cell.seed, "engine_version": ENGINE_VERSION, "mechanism_versions": cell.mechanism_versions}
    parts, tables = {}, {}
    # each part's fsync runs while the next is encoded; the parent syncs the directories (runner._run_jobs)
    with AtomicBatch(sync_directories=False) as batch:
        for name in TABLES:  # matches last: the part that names the job's games
            tables[name] = writer.part_table(results, name, cell.lineup)
            path = part_path(Path(root), name, cell.variant, cell.players, cell.name, job.index)
            parts[name] = writer.write_part(path, tables[name], identity, batch=batch).as_list()
    record = {"cell": cell.name, "job": job.index, "games": job.games, "engine": ENGINE_VERSION,
              "writer": f"{socket.gethostname()}:{os.getpid()}", "parts": parts}
    return {"record": record, "schema": writer.table_schemas(tables)}


def init_local_worker(parent_pid: int) -> None:
    """Set up a loky worker process: the run's parent alone handles Ctrl-C and SIGTERM (it stops the
    workers itself, with SIGKILL), and the worker follows the parent if the parent dies."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    exit_with_parent(parent_pid)
    skip_blas_probe()


def skip_blas_probe() -> None:
    """Spare this worker numba's BLAS probe, a third of loading the engine (docs/results/code_choices.json).

    The first compiled function a process loads makes numba import its array-math module, which probes
    for a BLAS by importing ``scipy.linalg.cython_blas`` (and so all of ``scipy.linalg``). Its only use
    is to pick a BLAS inner product for ``np.correlate`` and ``np.convolve`` of floats, which the engine
    never calls. Imported here while that module reads as absent, it takes the loop instead; the entry
    is removed at once, so ``scipy.linalg`` and numba's ``np.dot`` still import and work in this process
    (tests/pipeline/test_worker_start.py checks both).
    """
    if "numba.np.arraymath" in sys.modules or "scipy.linalg.cython_blas" in sys.modules:
        return
    sys.modules["scipy.linalg.cython_blas"] = None
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        del sys.modules["scipy.linalg.cython_blas"]


def exit_with_parent(parent_pid: int) -> None:
    """End this worker process when the run's parent is gone.

    loky workers outlive a parent killed with SIGKILL (they wait for work that never comes, holding
    hundreds of MB each). A daemon thread polls the parent PID; ``os.getppid()`` changes when the parent
    dies (the worker is re-parented). Not used on dask, whose nanny owns the worker.
    """
    global _watched_parent
    if _watched_parent == parent_pid:
        return
    if os.getppid() != parent_pid:
        os._exit(1)  # already orphaned: do not start work for a parent that is gone
    _watched_parent = parent_pid

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(PARENT_POLL_S)
        os._exit(1)

    threading.Thread(target=watch, name="unosim-parent-watch", daemon=True).start()


def probe_dataset_dir(root: str) -> str:
    """On a worker, before the first job: prove ``root`` is writable here; returns the probe's name.

    The probe file is left for the parent to find: seeing it proves the worker writes to the *same*
    filesystem, not a local directory that happens to have the same path. Raises OSError otherwise.
    """
    path = Path(root)
    if not path.is_dir():
        raise OSError(f"{root} does not exist on worker {socket.gethostname()}")
    name = f".probe-{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    (path / name).write_bytes(b"")
    return name
