"""Atomic file writes: a reader (or a crash) never sees a partial file.

Every file unosim writes — parquet parts, the manifest, analysis tables, charts, the report — goes
through :func:`write_atomic` (a study job's parts through :class:`AtomicBatch`): written under a
temporary name in the same directory, fsynced, renamed onto the final name, and the directory fsynced so
the rename itself survives a crash (for a study job's parts, by the run's parent before it records the
job: :func:`sync_directories`).

Nothing is written or deleted outside a dataset through a link: before any write or delete,
:func:`check_confined` refuses a path that lies below a dataset directory (one holding
``manifest.json``) with a symbolic link anywhere between the two (the target itself included). The
dataset directory itself may be a link (``data -> /big/disk``); nothing inside it may.
"""

from __future__ import annotations

import os
import stat
import uuid
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path


def write_atomic(path: Path, write: Callable[[Path], object]) -> None:
    """Call ``write(tmp_path)``, fsync, then rename onto ``path`` (readers never see partial files).

    On any error the temporary file is removed and ``path`` is left as it was.
    """
    path = Path(path)
    check_confined(path)
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
    while the run's parent, otherwise idle, waits for that journal commit (a few percent of a job:
    docs/results/code_choices.json). Every file is still fsynced before its rename, so a renamed file is
    never partial.
    """

    def __init__(self, *, sync_directories: bool = True) -> None:
        self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="unosim-write")
        self._files: list[tuple[Path, Path, Future]] = []
        self._sync_directories = sync_directories

    def write_bytes(self, path: Path, data: bytes) -> None:
        path = Path(path)
        check_confined(path)
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
    check_confined(Path(path))
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o644)
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


#: the file that makes a directory a dataset (unosim.store.layout.MANIFEST)
DATASET_MARKER = "manifest.json"


class OutsideDataset(OSError):
    """A write or delete below a dataset directory would pass through a symbolic link."""


def check_confined(path: Path, *, allow_link: bool = False) -> None:
    """Refuse (:class:`OutsideDataset`) to write or delete ``path`` when a dataset directory lies above
    it with a symbolic link in between: the link's target may be anywhere, and what a dataset's
    commands write belongs inside the dataset. ``allow_link``: ``path`` itself may be a link (deleting
    a link removes only the link). Checked on the path as written, before anything is created; the
    cost is a few ``lstat`` calls."""
    path = Path(os.path.abspath(path))
    links = []   # (level, path): level 0 is the target
    for level, entry in enumerate((path, *path.parents)):
        if level > 0 and links and os.path.exists(os.path.join(entry, DATASET_MARKER)):
            link = links[0][1]
            raise OutsideDataset(f"refusing to write or delete {path}: {link} is a symbolic link (to "
                                 f"{os.path.realpath(link)}) inside the dataset {entry}, and nothing is written "
                                 f"or deleted outside a dataset; replace the link by a directory or a file")
        try:
            if stat.S_ISLNK(os.lstat(entry).st_mode) and not (level == 0 and allow_link):
                links.append((level, entry))
        except (FileNotFoundError, NotADirectoryError):
            continue


def remove(path: Path) -> bool:
    """Delete the file (or link) ``path`` if it exists, unless :func:`check_confined` refuses; returns
    whether it existed."""
    check_confined(path, allow_link=True)
    try:
        os.unlink(path)
    except FileNotFoundError:
        return False
    return True
