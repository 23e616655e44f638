"""Atomic file writes: a reader (or a crash) never sees a partial file.

Every file unosim writes — parquet parts, the manifest, analysis tables, charts, the report — goes
through :func:`write_atomic` (a study job's parts through :class:`AtomicBatch`): written under a
temporary name in the same directory, fsynced, renamed onto the final name, and the directory fsynced so
the rename itself survives a crash (for a study job's parts, by the run's parent before it records the
job: :func:`sync_directories`).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path


def write_atomic(path: Path, write: Callable[[Path], object]) -> None:
    """Call ``write(tmp_path)``, fsync, then rename onto ``path`` (readers never see partial files).

    On any error the temporary file is removed and ``path`` is left as it was.
    """
    path = Path(path)
    tmp = _temporary_name(path)
    try:
        write(tmp)
        _fsync(tmp, os.O_RDWR)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync(path.parent)


class AtomicBatch:
    """Several files written atomically as one step (a study job's parts), with their fsyncs overlapped.

    ``write_bytes`` hands a file to a background thread that writes and fsyncs it under its temporary
    name while the caller prepares the next one (encoding a part takes longer than its fsync). Leaving
    the ``with`` block waits for them, renames each onto its name, and fsyncs the directories
    concurrently (one journal commit rather than one per file). Each file is as durable and atomic as
    with :func:`write_atomic`. On any error no file is renamed and every temporary file is removed.

    ``sync_directories=False`` leaves the directory fsyncs to the caller (:func:`sync_directories`), who
    must make them before relying on the files surviving a crash: a study worker returns to its next job
    while the run's parent, otherwise idle, waits for that journal commit (it took 10 ms of a
    100,000-game job's 0.5 s). Every file is still fsynced before its rename, so a renamed file is
    never partial.
    """

    def __init__(self, *, sync_directories: bool = True) -> None:
        self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="unosim-write")
        self._files: list[tuple[Path, Path, Future]] = []
        self._sync_directories = sync_directories

    def write_bytes(self, path: Path, data: bytes) -> None:
        path = Path(path)
        tmp = _temporary_name(path)

        def write() -> None:
            tmp.write_bytes(data)
            _fsync(tmp, os.O_RDWR)

        self._files.append((path, tmp, self._pool.submit(write)))

    def __enter__(self) -> AtomicBatch:
        return self

    def __exit__(self, kind, error, traceback) -> None:
        try:
            for _, _, written in self._files:
                exception = written.exception()  # waits; raised below, after every write has ended
                if error is None and exception is not None:
                    raise exception
            if error is None:
                for path, tmp, _ in self._files:
                    os.replace(tmp, path)
                if self._sync_directories:
                    list(self._pool.map(_fsync, {path.parent for path, _, _ in self._files}))
        finally:
            for _, tmp, _ in self._files:
                tmp.unlink(missing_ok=True)  # renamed ones are gone already
            self._pool.shutdown()


def sync_directories(paths: Iterable[Path]) -> None:
    """fsync the directories holding ``paths``, once each: the renames that made the files survive a crash."""
    for directory in sorted({Path(p).parent for p in paths}):
        _fsync(directory)


def _temporary_name(path: Path) -> Path:
    """A temporary name beside ``path``, not ending in its suffix; its directory is created."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # unique per writer: a job rerun by another dask worker (same PID on another host, or another
    # thread of the same worker) never shares a temporary file with the first attempt
    return path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:12]}.tmp")


def _fsync(path: Path, flags: int = os.O_RDONLY) -> None:
    fd = os.open(path, flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_text_atomic(path: Path, text: str) -> None:
    write_atomic(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """``data``: bytes or any bytes-like object (an arrow buffer is written without a copy)."""
    write_atomic(path, lambda tmp: Path(tmp).write_bytes(data))


def append_line_durable(path: Path, line: str) -> None:
    """Append one line to an append-only journal (the dataset's part ledger) and fsync it.

    The one file kind that is not renamed into place: a journal grows by whole lines. The line goes out
    in a single ``write`` on an ``O_APPEND`` descriptor, so a crash can at worst leave a torn *last*
    line, which readers drop (:func:`read_journal`); every earlier line is durable.
    """
    if "\n" in line:
        raise ValueError("a journal line must not contain a newline")
    data = (line + "\n").encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def read_journal(path: Path) -> list[str]:
    """The complete lines of a journal written by :func:`append_line_durable` (a torn last line dropped)."""
    try:
        text = Path(path).read_bytes().decode("utf-8", errors="replace")
    except FileNotFoundError:
        return []
    lines = text.split("\n")
    return lines[:-1]  # the text after the last newline is empty, or a torn line
