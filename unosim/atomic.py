"""Atomic file writes: a reader (or a crash) never sees a partial file.

Every file unosim writes — parquet parts, the manifest, analysis tables, charts, the report — goes
through :func:`write_atomic`: written under a temporary name in the same directory, fsynced, renamed
onto the final name, and the directory fsynced so the rename itself survives a crash.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable
from pathlib import Path


def write_atomic(path: Path, write: Callable[[Path], object]) -> None:
    """Call ``write(tmp_path)``, fsync, then rename onto ``path`` (readers never see partial files).

    On any error the temporary file is removed and ``path`` is left as it was.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # unique per writer: a job rerun by another dask worker (same PID on another host, or another
    # thread of the same worker) never shares a temporary file with the first attempt
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:12]}.tmp")
    try:
        write(tmp)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def write_text_atomic(path: Path, text: str) -> None:
    write_atomic(path, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))


def write_bytes_atomic(path: Path, data: bytes) -> None:
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
