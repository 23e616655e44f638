"""The ledger, ``parts.jsonl``: which jobs are done, one line per finished job with each part's rows, bytes
and sha256.

A job is done when the ledger records it. The run's parent appends a line when a worker has written a
job's parts (:func:`append_ledger`, durable); a resume rewrites it with the jobs it proved
(:mod:`unosim.store.resume`). Readers scan exactly the parts the ledger records
(:attr:`unosim.store.reader.Dataset.parts`), never a glob; the manifest seals the ledger as it was when
the manifest was written (:func:`unosim.store.manifest.ledger_problem`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .atomic import append_line_durable, read_journal, write_text_atomic
from .layout import LEDGER, DatasetError, shorten


@dataclass(frozen=True)
class PartInfo:
    """What the ledger records of a part: rows, file size and the sha256 of the file."""

    rows: int
    bytes: int
    sha256: str

    def as_list(self) -> list:
        return [self.rows, self.bytes, self.sha256]

    @classmethod
    def from_list(cls, value: list) -> PartInfo:
        rows, size, sha = value
        return cls(int(rows), int(size), str(sha))


def ledger_digest(root: Path, size: int | None = None) -> dict[str, Any]:
    """{"bytes", "sha256"} of the ledger (of its first ``size`` bytes when given)."""
    try:
        with open(Path(root) / LEDGER, "rb") as fh:
            data = fh.read() if size is None else fh.read(size)
    except FileNotFoundError:
        data = b""
    return {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def read_ledger(root: Path, *, lenient: bool = False) -> dict[tuple[str, int], dict[str, Any]]:
    """(cell, job) → the ledger record of each finished job (a later line for the same job wins).

    A line that is not a record (a JSON object with a cell name, a job number ≥ 0, its games and its
    three parts) raises :class:`DatasetError`, or is skipped when ``lenient`` (repair, status).
    """
    path = Path(root) / LEDGER
    if path.is_symlink():
        raise DatasetError(f"{path} is a symbolic link (to {path.resolve()}); a dataset's ledger is its own "
                           f"file: replace the link by the file")
    try:
        lines = read_journal(path)
    except OSError as exc:
        raise DatasetError(f"cannot read {path}: {exc.strerror}") from None
    try:   # one parse for the whole ledger (a line at a time costs 3 times as much at 20,000 jobs)
        parsed = json.loads("[" + ",".join(lines) + "]") if lines else []
    except (ValueError, RecursionError):
        parsed = None
    if parsed is not None and len(parsed) != len(lines):   # a line that is not one JSON value
        parsed = None
    out = {}
    for i, line in enumerate(lines):
        record = _record(line if parsed is None else parsed[i])
        if record is None:
            if lenient:
                continue
            raise DatasetError(f"{path} holds a line that is not a job record: {shorten(line, 80)}")
        out[(record["cell"], record["job"])] = record
    return out


def _record(line: str | Any) -> dict[str, Any] | None:
    """The job record of a ledger line (its text, or its parsed JSON), or None if it is not one."""
    try:
        record = json.loads(line) if isinstance(line, str) else line
    except (ValueError, RecursionError):
        return None
    if not isinstance(record, dict) or not isinstance(record.get("cell"), str):
        return None
    job, games, parts = record.get("job"), record.get("games"), record.get("parts")
    if not (isinstance(job, int) and not isinstance(job, bool) and job >= 0):
        return None
    if not (isinstance(games, int) and not isinstance(games, bool) and games >= 1) or not isinstance(parts, dict):
        return None
    return record


def append_ledger(root: Path, record: dict[str, Any]) -> None:
    append_line_durable(Path(root) / LEDGER, json.dumps(record, sort_keys=True, separators=(",", ":")))


def rewrite_ledger(root: Path, records: dict[tuple[str, int], dict[str, Any]]) -> None:
    """Replace the ledger atomically (drops a torn last line, forgets repaired jobs)."""
    lines = [json.dumps(r, sort_keys=True, separators=(",", ":")) for r in records.values()]
    write_text_atomic(Path(root) / LEDGER, "".join(line + "\n" for line in lines))
