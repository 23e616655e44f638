"""The explorer's runs: background jobs played by one warm worker process, with progress and cancel.

The compiled kernel holds the GIL while it plays a chunk, so games never run in the server's process:
one worker process (``spawn``ed, so no lock or thread of the server is copied into it) imports the
engine and the analysis once, at start, and then plays one comparison at a time. The server stays
responsive; a run's progress is the games its study ledger records (the runner appends a line per
finished job); cancelling a run terminates the worker and starts a fresh one (nothing of the cancelled
run is kept). Runs queue in order of arrival, at most :data:`MAX_PENDING` waiting or playing (a further
one is refused: :class:`QueueFull`); the last :data:`KEEP_RUNS` runs keep their datasets (for the CSV and
spec downloads), older ones are deleted.
"""

from __future__ import annotations

import ctypes
import itertools
import multiprocessing
import os
import queue
import shutil
import signal
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .comparison import STUDY_NAME, Comparison

KEEP_RUNS = 8
#: runs waiting or playing at once (each may be hours of CPU: a client asks again when one is done)
MAX_PENDING = 4
_POLL_S = 0.05
#: how often the worker checks that its server is still alive (where the kernel cannot tell it)
_PARENT_CHECK_S = 1.0
#: how long a stopping server waits for its worker to leave on SIGTERM before killing it
_STOP_WAIT_S = 1.0
_PR_SET_PDEATHSIG = 1


class QueueFull(Exception):
    def __init__(self, limit: int):
        super().__init__(f"{limit} runs are already waiting or playing: try again when one is done "
                         f"(or cancel one)")


@dataclass
class Run:
    """One comparison as it goes: ``queued`` → ``running`` → ``done`` | ``failed`` | ``cancelled``."""

    id: str
    comparison: Comparison
    directory: Path
    status: str = "queued"
    games_done: int = 0
    error: str | None = None
    result: dict[str, Any] | None = None
    started: float | None = None
    seconds: float | None = None
    charts: dict[str, str] | None = None
    compiling: str | None = None   # the compile notice's words while the worker compiles a build for it
    cancel_requested: bool = False
    finished: threading.Event = field(default_factory=threading.Event)      # findings (or an error) are in
    drawn: threading.Event = field(default_factory=threading.Event)         # and the charts too

    @property
    def games_total(self) -> int:
        return self.comparison.cells * self.comparison.games

    @property
    def dataset(self) -> Path:
        return self.directory / STUDY_NAME

    def state(self) -> dict[str, Any]:
        elapsed = self.seconds if self.seconds is not None else (
            time.perf_counter() - self.started if self.started is not None else 0.0)
        phase = self.status
        if self.status == "running" and self.games_done >= self.games_total:
            phase = "analysing"
        return {"id": self.id, "status": self.status, "phase": phase, "games_done": self.games_done,
                "games_total": self.games_total, "seconds": round(elapsed, 3), "error": self.error,
                "charts_ready": self.charts is not None, "compiling": self.compiling}


def _die_with_parent() -> None:
    """End this worker when its server ends, however it ends (a kill -9 included), even inside a run,
    where the compiled kernel holds the GIL: on Linux the kernel sends SIGKILL when the parent dies
    (prctl PR_SET_PDEATHSIG); elsewhere a thread checks every :data:`_PARENT_CHECK_S` seconds. Ctrl-C in
    the terminal reaches the whole process group: the worker ignores it and leaves when its server says.
    (The kernel's "parent" is the thread that started the worker: :class:`Runs` starts it from threads
    that live as long as the server.)"""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if parent is None:
        return

    def watch() -> None:
        while parent.is_alive() and os.getppid() == parent.pid:
            time.sleep(_PARENT_CHECK_S)
        os._exit(0)
    threading.Thread(target=watch, name="unosim-explore-parent-watch", daemon=True).start()


def _work(tasks, results) -> None:
    """The worker process: warm up, then play each comparison it is sent: the findings and tables first,
    then the charts (drawing them takes longer than playing 20,000 paired games)."""
    _die_with_parent()
    _forward_compiles(results)
    from tqdm import tqdm
    tqdm.set_lock(threading.RLock())   # not tqdm's default, a named semaphore, which a killed worker would leak
    from . import comparison as compare
    try:   # load the engine, the analysis and matplotlib now, not during the first run
        with tempfile.TemporaryDirectory() as tmp:
            compare.run(Comparison(games=50), tmp)
    except Exception:   # noqa: BLE001  the real run reports any problem with its own message
        pass
    results.put(("ready", "ready", None))
    while True:
        run_id, data, directory = tasks.get()
        try:
            comparison = Comparison.from_json(data)
            result, tables = compare.analyse(comparison, directory)
            results.put((run_id, "done", result))
            results.put((run_id, "charts", compare.charts(tables, comparison)))
        except Exception as exc:   # noqa: BLE001  the page shows it, one line
            results.put((run_id, "failed", str(exc) if isinstance(exc, ValueError) else f"{type(exc).__name__}: {exc}"))


def _forward_compiles(results) -> None:
    """Pass the compile notice's words (or None when it ends) on to the server, for the page: a compile
    of minutes would otherwise read as a run stuck at 0 games."""
    from ..engine.compiler import notice
    notice.watch(lambda text: results.put(("compiling", text, None)))


class Runs:
    """The queue of runs and the worker that plays them (a thread of the server feeds the worker)."""

    def __init__(self, workdir: str | Path | None = None):
        self._own_dir = workdir is None
        self.root = Path(workdir or tempfile.mkdtemp(prefix="unosim-explore-"))
        self._runs: dict[str, Run] = {}
        self._pending: queue.Queue[Run] = queue.Queue()
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._context = multiprocessing.get_context("spawn")
        self.ready = threading.Event()
        self._closing = threading.Event()
        self._start_worker()
        threading.Thread(target=self._loop, name="unosim-explore-runs", daemon=True).start()

    # ---- the worker process -------------------------------------------------------------------------
    def _start_worker(self) -> None:
        if self._closing.is_set():   # the server is stopping: no new worker
            return
        self.ready.clear()
        self._tasks, self._results = self._context.Queue(), self._context.Queue()
        self._process = self._context.Process(target=_work, args=(self._tasks, self._results),
                                              name="unosim-explore-worker", daemon=True)
        # Ctrl-C reaches the whole process group: the worker is born with SIGINT blocked (a signal mask is
        # inherited), so one that arrives while it starts cannot interrupt its imports with a traceback
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            self._process.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)

    def _stop_worker(self) -> None:
        self._process.terminate()
        self._process.join(_STOP_WAIT_S)
        if self._process.is_alive():   # e.g. inside a run, where SIGTERM is the runner's interrupt
            self._process.kill()
            self._process.join()

    def _restart_worker(self) -> None:
        self._stop_worker()
        self._start_worker()

    def unfinished(self) -> int:
        """Runs waiting or playing (which a server stopping now cancels)."""
        return sum(not run.finished.is_set() for run in list(self._runs.values()))

    def close(self) -> None:
        self._closing.set()
        self._stop_worker()
        if self._own_dir:
            shutil.rmtree(self.root, ignore_errors=True)

    # ---- the runs -----------------------------------------------------------------------------------
    pending_limit = MAX_PENDING

    def full(self) -> bool:
        return sum(not run.drawn.is_set() for run in list(self._runs.values())) >= self.pending_limit

    def submit(self, comparison: Comparison) -> Run:
        """Queue a run; :class:`QueueFull` when :data:`MAX_PENDING` runs are waiting or playing."""
        with self._lock:
            if self.full():
                raise QueueFull(self.pending_limit)
            run_id = f"r{next(self._ids)}"
            run = Run(run_id, comparison, self.root / run_id)
            self._runs[run_id] = run
            for old in list(self._runs)[:-KEEP_RUNS]:
                if self._runs[old].drawn.is_set():
                    shutil.rmtree(self._runs.pop(old).directory, ignore_errors=True)
        self._pending.put(run)
        return run

    def get(self, run_id: str) -> Run | None:
        return self._runs.get(run_id)

    def cancel(self, run_id: str) -> Run | None:
        run = self._runs.get(run_id)
        if run is not None and not run.finished.is_set():
            run.cancel_requested = True
        return run

    def _loop(self) -> None:
        while True:
            try:
                run = self._pending.get(timeout=_POLL_S)
            except queue.Empty:
                self._note_ready()
                continue
            if run.cancel_requested:
                self._finish(run, "cancelled")
                run.drawn.set()
                continue
            run.status, run.started = "running", time.perf_counter()
            self._tasks.put((run.id, run.comparison.as_json(), str(run.directory)))
            self._wait(run)

    def _note_ready(self) -> None:
        try:
            message = self._results.get_nowait()
        except queue.Empty:
            return
        if message[0] == "ready":
            self.ready.set()

    def _wait(self, run: Run) -> None:
        from ..store.ledger import read_ledger
        while True:
            try:
                run_id, status, payload = self._results.get(timeout=_POLL_S)
            except queue.Empty:
                if run.cancel_requested and not run.finished.is_set():
                    self._restart_worker()
                    self._finish(run, "cancelled")
                    run.drawn.set()
                    return
                if not self._process.is_alive() and self._closing.is_set():
                    self._finish(run, "cancelled")
                    run.drawn.set()
                    return
                if not self._process.is_alive():
                    self._start_worker()
                    if not run.finished.is_set():
                        self._finish(run, "failed", error="the worker process stopped (out of memory?); it was restarted")
                    run.charts = run.charts or {}
                    run.drawn.set()
                    return
                try:
                    run.games_done = sum(r["games"] for r in read_ledger(run.dataset, lenient=True).values())
                except (OSError, ValueError):
                    pass   # the dataset is not there yet
                continue
            if run_id == "ready":
                self.ready.set()
                continue
            if run_id == "compiling":
                run.compiling = status
                continue
            if status == "done":
                run.games_done = run.games_total
                run.result = payload
                self._finish(run, "done")
                continue   # the charts follow
            if status == "charts":
                run.charts = payload
            elif run.finished.is_set():   # drawing failed: the findings stand, the charts say why not
                run.charts, run.error = {}, f"the charts could not be drawn: {payload}"
            else:
                self._finish(run, "failed", error=payload)
            run.drawn.set()
            return

    def _finish(self, run: Run, status: str, error: str | None = None) -> None:
        run.status, run.error, run.compiling = status, error, None
        if run.started is not None:
            run.seconds = time.perf_counter() - run.started
        run.finished.set()
