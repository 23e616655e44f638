"""A session fixture's data made once for the whole run, not once per pytest-xdist worker.

Each xdist worker is a session of its own: a plain session fixture that builds a dataset builds it once on
each worker, though the data are the same (every study is seeded). :func:`made_once` builds it in the run's
shared temporary directory under a lock: the first worker to ask builds it, the other waits and reads it.
Shared data are read-only: a test that damages or extends them works on a copy (conftest's ``copy_of``).
"""

from __future__ import annotations

import fcntl
import shutil
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

DONE = ".made"


@contextmanager
def locked(path: Path):
    """An exclusive ``flock`` on ``path`` (created if need be) while the block runs."""
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def made_once(tmp_path_factory, worker_id: str, name: str, make: Callable[[Path], Path]) -> Path:
    """What ``make(folder)`` returns, made in an empty ``folder`` by the first worker of this run that asks
    (without xdist: here, in this session's own temporary directory)."""
    if worker_id == "master":
        return make(tmp_path_factory.mktemp(name))
    shared = tmp_path_factory.getbasetemp().parent   # pytest-N/: the workers' own directories are inside it
    folder, done = shared / name, shared / f"{name}{DONE}"
    with locked(shared / f"{name}.lock"):
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)   # what a worker that failed to make it left
            folder.mkdir()
            done.write_text(str(make(folder)))
    return Path(done.read_text())
