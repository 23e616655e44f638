"""Proof that a dataset holds what its ledger and manifest say, part by part.

A part is good when it exists with the size and sha256 its ledger record gives, its footer's row count
is the recorded one, its footer identity names the cell and job its path belongs to (seed, first game,
games), and its columns are the manifest's schema (recorded from the tables the engine produced when
the run started, so the check follows the engine). The matches part of a job holds exactly the job's
games. Nothing else may lie among the tables.

Hashing reads every byte once (about 1 GB/s per core, on a few threads); what was learned about a file
is cached in memory by (path, size, mtime, ctime, inode), so `analyze` then `report` in one process read each part
once.
"""

from __future__ import annotations

import hashlib
import json
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from .dataset import (IDENTITY_KEY, TABLES, PartInfo, job_count, job_range, part_path, read_ledger,
                      schema_fingerprint)

_IDENTITY_FIELDS = ("cell", "job", "first_game", "games", "seed")
_THREADS = 4


@dataclass(frozen=True)
class Problem:
    """One bad part (or job): where, and what is wrong with it."""

    where: str
    reason: str
    job: tuple[str, int] | None = None

    def __str__(self) -> str:
        return f"{self.where}: {self.reason}"


@dataclass
class Verdict:
    problems: list[Problem] = field(default_factory=list)
    parts_checked: int = 0
    bytes_checked: int = 0
    #: the verified ledger records, (cell, job) → record
    good: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    #: part files of jobs the ledger does not record (jobs in flight when a run was killed, or strays)
    unrecorded: list[Path] = field(default_factory=list)

    @property
    def bad_jobs(self) -> set[tuple[str, int]]:
        return {p.job for p in self.problems if p.job is not None}


@dataclass(frozen=True)
class _FileFacts:
    sha256: str
    rows: int
    schema: list[list[str]]
    identity: dict[str, Any] | None


#: path → ((size, mtime, ctime, inode), facts): a file replaced or rewritten is read again
_FACTS: dict[str, tuple[tuple[int, int, int, int], _FileFacts]] = {}


def file_facts(path: Path, *, full_read: bool = False) -> _FileFacts:
    """sha256, footer row count, schema and identity of a part file (cached by size and mtime).

    ``full_read`` also decodes every page, verifying the page checksums (used before adopting a part
    the ledger does not record); it bypasses the cache.
    """
    st = path.stat()
    key, stamp = str(path), (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
    cached = _FACTS.get(key)
    if cached and cached[0] == stamp and not full_read:
        return cached[1]
    data = path.read_bytes()
    facts = _facts_of(data)
    if full_read:
        pq.read_table(pa.BufferReader(data), page_checksum_verification=True)
    _FACTS[key] = (stamp, facts)
    return facts


def _facts_of(data: bytes) -> _FileFacts:
    sha = hashlib.sha256(data).hexdigest()
    meta = pq.ParquetFile(pa.BufferReader(data)).metadata
    schema = meta.schema.to_arrow_schema()
    raw = (schema.metadata or {}).get(IDENTITY_KEY)
    identity = json.loads(raw) if raw else None
    return _FileFacts(sha, meta.num_rows, schema_fingerprint(schema), identity)


def expected_identity(cell: dict[str, Any], job: int, chunk: int) -> dict[str, Any]:
    first, games = job_range(cell["games"], chunk, job)
    return {"cell": cell["name"], "job": job, "first_game": first, "games": games, "seed": cell["seed"]}


def part_problem(path: Path, info: PartInfo | None, identity: dict[str, Any],
                 schema: list[list[str]], *, full_read: bool = False) -> str | None:
    """Why the part at ``path`` is not the one recorded (``info``; None: any good one), or None."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return "missing"
    if info is not None and size != info.bytes:
        return f"{size:,} bytes on disk, the ledger records {info.bytes:,} (truncated or replaced)"
    try:
        facts = file_facts(path, full_read=full_read)
    except (OSError, pa.ArrowException, ValueError) as exc:
        return f"not a readable parquet part ({str(exc).splitlines()[0][:120]})"
    if info is not None and facts.sha256 != info.sha256:
        return "content differs from the ledger's sha256 (modified, damaged or copied in)"
    if info is not None and facts.rows != info.rows:
        return f"{facts.rows:,} rows, the ledger records {info.rows:,}"
    found = {k: (facts.identity or {}).get(k) for k in _IDENTITY_FIELDS}
    if found != identity:
        diff = next(k for k in _IDENTITY_FIELDS if found[k] != identity[k])
        return (f"belongs to another job or study: its footer says {diff}={found[diff]!r}, this place "
                f"holds {diff}={identity[diff]!r}")
    if facts.schema != schema:
        return f"columns differ from the dataset's schema: {_schema_difference(facts.schema, schema)}"
    return None


def _schema_difference(found: list[list[str]], expected: list[list[str]]) -> str:
    names_found, names_expected = [n for n, _ in found], [n for n, _ in expected]
    if names_found != names_expected:
        missing = [n for n in names_expected if n not in names_found]
        extra = [n for n in names_found if n not in names_expected]
        return f"missing {missing}, unexpected {extra}" if missing or extra else "columns in another order"
    name, kind, want = next((n, t, e) for (n, t), (_, e) in zip(found, expected, strict=True) if t != e)
    return f"column {name} is {kind}, expected {want}"


def verify(root: Path, manifest: dict[str, Any], *, stop_at_first: bool = False,
           require_complete: bool = True) -> Verdict:
    """Check every recorded part of the dataset at ``root`` (see the module docstring).

    ``require_complete``: every job of the study must be recorded and no unrecorded part may exist
    (a finished dataset). Without it (a resume), unrecorded parts are listed in ``unrecorded``.
    """
    root = Path(root)
    chunk = manifest["chunk_size"]
    cells = {c["name"]: c for c in manifest["study"]["cells"]}
    schema = manifest["schema"]
    verdict = Verdict()
    checks = []  # (job key, path, info, identity, schema)
    try:
        ledger = read_ledger(root)
    except ValueError as exc:
        verdict.problems.append(Problem("parts.jsonl", str(exc)))
        return verdict
    for (name, job), record in ledger.items():
        cell = cells.get(name)
        if cell is None or not 0 <= job < job_count(cell["games"], chunk):
            verdict.problems.append(Problem(f"ledger job {name}#{job}", "not a job of this study"))
            continue
        identity = expected_identity(cell, job, chunk)
        parts = record.get("parts")
        try:
            infos = {table: PartInfo.from_list(parts[table]) for table in TABLES}
        except (TypeError, ValueError, KeyError):
            verdict.problems.append(Problem(f"ledger job {name}#{job}", "record is incomplete", (name, job)))
            continue
        if infos["matches"].rows != identity["games"]:
            verdict.problems.append(Problem(f"ledger job {name}#{job}", f"{infos['matches'].rows:,} matches on "
                                            f"disk, the study's job has {identity['games']:,} games", (name, job)))
            continue
        for table in TABLES:
            path = part_path(root, table, cell["variant"], cell["players"], name, job)
            checks.append(((name, job), path, infos[table], identity, schema[table]))
    with ThreadPoolExecutor(_THREADS) as pool:
        reasons = list(pool.map(lambda c: part_problem(c[1], c[2], c[3], c[4]), checks))
    for (key, path, info, _, _), reason in zip(checks, reasons, strict=True):
        verdict.parts_checked += 1
        verdict.bytes_checked += info.bytes
        if reason:
            verdict.problems.append(Problem(str(path.relative_to(root)), reason, key))
    bad = verdict.bad_jobs
    verdict.good = {k: r for k, r in ledger.items() if k not in bad and k[0] in cells}
    recorded = {c[1] for c in checks}
    for path in _part_files(root):
        if path not in recorded:
            if require_complete:
                verdict.problems.append(Problem(str(path.relative_to(root)), "unexpected part: the ledger "
                                                "records no such job"))
            else:
                verdict.unrecorded.append(path)
    if require_complete:
        for cell in cells.values():
            missing = [j for j in range(job_count(cell["games"], chunk)) if (cell["name"], j) not in ledger]
            if missing:
                verdict.problems.append(Problem(f"cell {cell['name']}", f"{len(missing):,} job(s) not recorded "
                                                f"(missing parts), e.g. job {missing[0]}"))
    if stop_at_first:
        verdict.problems = verdict.problems[:1]
    return verdict


def _part_files(root: Path) -> list[Path]:
    out = []
    for table in TABLES:
        base = root / table
        if base.is_dir():
            for dirpath, _, files in os.walk(base):
                out += [Path(dirpath) / f for f in files if f.endswith(".parquet")]  # polars reads hidden ones too
    return sorted(out)
