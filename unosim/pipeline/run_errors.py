"""How a study run fails: one line each, naming the cause and what to do (:func:`stops_in_one_line` turns a
dead worker, a full disk or a job too large into a :class:`RunStopped`)."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

from ..store.atomic import OutsideDataset
from ..store.layout import shorten
from .worker import JobTooLarge


class RunError(ValueError):
    """The run cannot start (an existing dataset of another spec, a bad option, no scheduler)."""


class RunStopped(RunError):
    """The run stopped part-way (a worker died, a disk filled up): its finished jobs are recorded, and
    running the same study again resumes it (the command line adds the exact command)."""


@contextlib.contextmanager
def stops_in_one_line(root: Path):
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
