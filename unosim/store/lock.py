"""One writer per dataset: an OS file lock held for the whole run (or repair).

``flock`` on ``<dataset>/.lock``: the kernel releases it when the holder exits, however it exits (a
``kill -9`` included), so a stale lock cannot outlive its process. The holder's PID and host go to
``.lock.owner`` (written atomically after locking) so a refused run can say who holds it. On a shared
filesystem, Linux maps ``flock`` onto NFS byte-range locks, so it also holds across machines.
"""

from __future__ import annotations

import fcntl
import os
import socket
from pathlib import Path

from .atomic import OutsideDataset, check_confined, write_text_atomic

LOCK_NAME = ".lock"
OWNER_NAME = ".lock.owner"
LOCK_FILES = (LOCK_NAME, OWNER_NAME)


class DatasetBusy(OSError):
    """Another process holds the dataset's lock (an OS-level "resource busy")."""


class DatasetLock:
    """``with DatasetLock(root):`` — exclusive use of the dataset directory (created if needed)."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self._fd: int | None = None

    def __enter__(self) -> DatasetLock:
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            check_confined(self.root / LOCK_NAME)
            fd = os.open(self.root / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        except OutsideDataset:
            raise
        except OSError as exc:
            raise OSError(f"cannot write the dataset directory {self.root}: {exc.strerror}; choose another "
                          f"--out") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise DatasetBusy(f"{self.root} is in use by another unosim run ({self.holder()}); wait for it "
                              f"to finish or stop it") from None
        self._fd = fd
        write_text_atomic(self.root / OWNER_NAME, f"{os.getpid()} {socket.gethostname()}\n")
        return self

    def __exit__(self, *exc) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor releases the lock
            self._fd = None

    def holder(self) -> str:
        try:
            pid, host = (self.root / OWNER_NAME).read_text().split()
        except (OSError, ValueError):
            return "PID unknown"
        return f"PID {pid}" + ("" if host == socket.gethostname() else f" on {host}")
