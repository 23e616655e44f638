"""Where a study's jobs run: joblib's threading backend (threads of this process), its loky backend (worker
processes) or its dask backend (a LocalCluster or a scheduler's workers), and how jobs on threads are
stopped when a run ends early."""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import threading
import warnings
from pathlib import Path
from typing import Any

from joblib import parallel_config

from ..play.simulate import CallStopped
from .run_errors import RunError
from .study import Job
from .worker import init_local_worker, probe_dataset_dir, run_job


@contextlib.contextmanager
def backend(scheduler: str | None, n_jobs: int, threads: bool):
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
            cluster = stack.enter_context(LocalCluster(n_workers=local_workers(n_jobs),
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


def local_workers(n_jobs: int) -> int:
    """The local workers ``n_jobs`` asks for, capped by the cores (before the pending jobs cap them too)."""
    cores = len(os.sched_getaffinity(0))
    return cores if n_jobs == -1 else min(n_jobs, cores)


def probe_workers(client, root: Path) -> None:
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


class JobThreads:
    """The jobs running on threads of this process. joblib cannot stop a thread, and a thread still in the
    engine or the parquet writer when the interpreter exits is killed mid-call (a SIGTERM then often ended
    the process with SIGABRT: docs/results/code_choices.json): a run that ends early sets ``stop``, which
    each job checks between its kernel calls (:class:`CallStopped`, before any part is written), and waits
    for the jobs still running."""

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
