"""Proof that a dataset holds what its ledger and manifest say, part by part.

The manifest must match its seal, and the ledger the manifest's seal (:mod:`unosim.dataset`). A part
is good when it exists with the size and sha256 its ledger record gives, its footer's row count is the
recorded one, its footer identity names the cell and job its path belongs to (seed, first game, games),
and its columns are the manifest's schema (recorded from the tables the engine produced when the run
started, so the check follows the engine). The matches part of a job holds exactly the job's games.
Nothing else may lie among the tables: no unrecorded part, no symbolic link, no other kind of file.
Readers then scan exactly the recorded parts (:attr:`unosim.dataset.Dataset.parts`).

Hashing reads every byte once (about 1 GB/s per core, on a few threads). What was learned about a
file is kept by (size, mtime, ctime, inode) — in memory, and in ``parts.verified`` (with its own
sha256) for the next process: a part whose stamp is unchanged is not read again. Only the kernel sets
a file's ctime and inode, so a part that was replaced or rewritten since is always read again.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from .atomic import write_text_atomic
from .dataset import (IDENTITY_KEY, TABLES, PartInfo, job_span, layout_jobs, layout_of, ledger_problem, part_path,
                      read_ledger, schema_fingerprint)

_IDENTITY_FIELDS = ("cell", "job", "first_game", "games", "seed")
_THREADS = 4
#: what verification proved of each part, for the next process (see the module docstring)
VERIFIED = "parts.verified"
_VERIFIED_FORMAT = 1


@dataclass(frozen=True)
class Problem:
    """One bad part (or job, or file): where, and what is wrong with it."""

    where: str
    reason: str
    job: tuple[str, int] | None = None
    #: "part" (of a job), "entry" (a file or link among the tables), "ledger", "cell" (jobs missing)
    kind: str = "part"

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
    #: the ledger is not the one the manifest was sealed with (edited, replaced, missing)
    ledger_in_doubt: bool = False

    @property
    def bad_jobs(self) -> set[tuple[str, int]]:
        return {p.job for p in self.problems if p.job is not None}

    def part_paths(self, root: Path, manifest: dict[str, Any]) -> dict[str, tuple[str, ...]]:
        """table → the paths of the good jobs' parts, in (cell, job) order."""
        cells = {c["name"]: c for c in manifest["study"]["cells"]}
        return {table: tuple(str(part_path(root, table, cells[name]["variant"], cells[name]["players"], name, job))
                             for name, job in sorted(self.good)) for table in TABLES}


@dataclass(frozen=True)
class _FileFacts:
    sha256: str
    rows: int
    schema: list[list[str]]
    identity: dict[str, Any] | None


Stamp = tuple[int, int, int, int]
#: path → ((size, mtime, ctime, inode), facts): a file replaced or rewritten is read again
_FACTS: dict[str, tuple[Stamp, _FileFacts]] = {}


def _stamp(st: os.stat_result) -> Stamp:
    return st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino


def file_facts(path: Path, *, full_read: bool = False, st: os.stat_result | None = None) -> _FileFacts:
    """sha256, footer row count, schema and identity of a part file (cached by size and mtime).

    ``full_read`` also decodes every page, verifying the page checksums (used before adopting a part
    the ledger does not record); it bypasses the cache. ``st``: the file's stat, when known.
    """
    st = st or path.stat()
    key, stamp = str(path), _stamp(st)
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
    try:
        identity = json.loads(raw) if raw else None
    except ValueError:
        identity = None
    return _FileFacts(sha, meta.num_rows, schema_fingerprint(schema), identity if isinstance(identity, dict) else None)


def expected_identity(cell: dict[str, Any], job: int, span: tuple[int, int]) -> dict[str, Any]:
    first, games = span
    return {"cell": cell["name"], "job": job, "first_game": first, "games": games, "seed": cell["seed"]}


def part_problem(path: Path, info: PartInfo | None, identity: dict[str, Any],
                 schema: list[list[str]], *, full_read: bool = False, st: os.stat_result | None = None) -> str | None:
    """Why the part at ``path`` is not the one recorded (``info``; None: any good one), or None.
    ``st``: its ``lstat``, when the caller has it."""
    if st is None:
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            return "missing"
    if not stat.S_ISREG(st.st_mode):
        return "not a regular file (a link or another kind of file): a part is a file of its own"
    if info is not None and st.st_size != info.bytes:
        return f"{st.st_size:,} bytes on disk, the ledger records {info.bytes:,} (truncated or replaced)"
    try:
        facts = file_facts(path, full_read=full_read, st=st)
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
    """Check the ledger against the manifest's seal, every recorded part, and every entry of the tables
    (see the module docstring).

    ``require_complete``: every job of the study must be recorded and no unrecorded part may exist
    (a finished dataset). Without it (a resume), unrecorded parts are listed in ``unrecorded``, and a
    ledger that does not match the seal is flagged in ``ledger_in_doubt`` rather than a problem.
    """
    root = Path(root)
    cells = {c["name"]: c for c in manifest["study"]["cells"]}
    layouts = {name: layout_of(entry) for name, entry in manifest["cells"].items()}
    schema = manifest["schema"]
    verdict = Verdict()
    try:
        ledger = read_ledger(root)
        doubt = ledger_problem(root, manifest)
    except ValueError as exc:
        ledger, doubt = {}, str(exc).removeprefix(str(root / "parts.jsonl") + " ")
    if doubt:
        verdict.ledger_in_doubt = True
        if require_complete:
            verdict.problems.append(Problem("parts.jsonl", doubt, kind="ledger"))
    checks = []  # (job key, path, info, identity, schema)
    for (name, job), record in ledger.items():
        cell = cells.get(name)
        span = job_span(layouts[name], job) if cell is not None else None
        if span is None:
            verdict.problems.append(Problem(f"ledger job {name}#{job}", "not a job of this study", kind="ledger"))
            continue
        identity = expected_identity(cell, job, span)
        parts = record["parts"]
        try:
            infos = {table: PartInfo.from_list(parts[table]) for table in TABLES}
        except (TypeError, ValueError, KeyError):
            verdict.problems.append(Problem(f"ledger job {name}#{job}", "record is incomplete", (name, job)))
            continue
        if infos["matches"].rows != identity["games"] or record["games"] != identity["games"]:
            verdict.problems.append(Problem(f"ledger job {name}#{job}", f"{infos['matches'].rows:,} matches on "
                                            f"disk, the study's job has {identity['games']:,} games", (name, job)))
            continue
        for table in TABLES:
            path = part_path(root, table, cell["variant"], cell["players"], name, job)
            checks.append(((name, job), path, infos[table], identity, schema[table]))
    entries = table_entries(root)
    links = {str(path) for path, what in entries if what != "part"}
    recorded = {str(c[1]) for c in checks}
    for path, what in entries:
        if what != "part":
            verdict.problems.append(Problem(str(path.relative_to(root)), what, kind="entry"))
        elif str(path) not in recorded:
            if require_complete:
                verdict.problems.append(Problem(str(path.relative_to(root)), "unexpected part: the ledger "
                                                "records no such job", kind="entry"))
            else:
                verdict.unrecorded.append(path)
    known = _load_verified(root)
    reasons = [_known_problem(root, check, known, links) for check in checks]   # no file read
    unknown = [i for i, reason in enumerate(reasons) if reason is _UNKNOWN]
    with ThreadPoolExecutor(_THREADS) as pool:   # read (and hash) the others on a few threads
        for i, reason in zip(unknown, pool.map(lambda i: part_problem(*checks[i][1:]), unknown), strict=True):
            reasons[i] = reason
    for (key, path, info, _, _), reason in zip(checks, reasons, strict=True):
        verdict.parts_checked += 1
        verdict.bytes_checked += info.bytes
        if reason:
            verdict.problems.append(Problem(str(path.relative_to(root)), reason, key))
    bad = verdict.bad_jobs
    verdict.good = {k: r for k, r in ledger.items() if k not in bad and k[0] in cells and job_span(layouts[k[0]], k[1])}
    if require_complete:
        recorded_jobs = {}
        for name, _ in ledger:
            recorded_jobs[name] = recorded_jobs.get(name, 0) + 1
        for name, layout in layouts.items():
            missing = manifest["cells"][name]["jobs"] - recorded_jobs.get(name, 0)
            if missing > 0:
                first = next(job for job, _, _ in layout_jobs(layout) if (name, job) not in ledger)
                verdict.problems.append(Problem(f"cell {name}", f"{missing:,} job(s) not recorded (missing parts), "
                                                f"e.g. job {first}", kind="cell"))
    _save_verified(root, checks, reasons, known)
    if stop_at_first:
        verdict.problems = verdict.problems[:1]
    return verdict


def table_entries(root: Path) -> list[tuple[Path, str]]:
    """Every entry below the table directories that a reader could meet, as (path, "part") for a part
    file, or (path, why it may not be there) for a link or another kind of file; links are not
    followed. Temporary files of writers (not ending in ``.parquet``) are left out."""
    out = []
    for table in TABLES:
        base = root / table
        try:
            st = os.lstat(base)
        except FileNotFoundError:
            continue
        if stat.S_ISLNK(st.st_mode):
            out.append((base, "a symbolic link where the table's directory belongs (its rows would come "
                              "from elsewhere); replace it by the directory"))
            continue
        stack = [base]
        while stack:
            directory = stack.pop()
            with os.scandir(directory) as entries:
                for entry in entries:
                    path = Path(entry.path)
                    if entry.is_symlink():
                        out.append((path, "a symbolic link inside the tables (a reader would follow it to rows "
                                          "that were never verified); remove it"))
                    elif entry.is_dir(follow_symlinks=False):
                        stack.append(path)
                    elif not entry.is_file(follow_symlinks=False):
                        out.append((path, "not a regular file or directory; remove it"))
                    elif entry.name.endswith(".parquet"):
                        out.append((path, "part"))
    return sorted(out)


# ---- what earlier verifications proved --------------------------------------------------------------
_UNKNOWN = "unknown"   # a part that must be read to be judged


def _known_problem(root: Path, check, known: dict[str, list], links: set[str]) -> str | None:
    """part_problem from what is known of the file without reading it (its stamp unchanged since this
    process or an earlier one read it), or _UNKNOWN; a part below a link is not read."""
    _, path, info, identity, schema = check
    if links and any(str(parent) in links for parent in path.parents):
        return "reached through a symbolic link (see above): not read"
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return "missing"
    key, stamp = str(path), _stamp(st)
    cached = _FACTS.get(key)
    if cached is None or cached[0] != stamp:
        entry = known.get(str(path.relative_to(root)))
        if entry is None or list(stamp) != entry[0] or not stat.S_ISREG(st.st_mode):
            return _UNKNOWN
        sha, rows, identity_found, schema_found = entry[1:]
        _FACTS[key] = (stamp, _FileFacts(sha, rows, schema_found, identity_found))
    return part_problem(path, info, identity, schema, st=st)


def _load_verified(root: Path) -> dict[str, list]:
    """relative path → [stamp, sha256, rows, identity, schema] from ``parts.verified``, or {} when it is
    missing, a link, damaged or of another format (then every part is read)."""
    path = root / VERIFIED
    try:
        if path.is_symlink():
            return {}
        data = path.read_bytes()
        head, _, body = data.partition(b"\n")
        if hashlib.sha256(body).hexdigest() != json.loads(head)["sha256"]:
            return {}
        content = json.loads(body)
        if content["format"] != _VERIFIED_FORMAT:
            return {}
        schemas = content["schemas"]
        return {rel: [stamp, sha, rows, identity, schemas[s]] for rel, (stamp, sha, rows, identity, s)
                in content["parts"].items()}
    except (OSError, ValueError, KeyError, TypeError, IndexError, RecursionError):
        return {}


def _save_verified(root: Path, checks: list, reasons: list, known: dict[str, list]) -> None:
    """Record what this verification proved of each good part, unless ``parts.verified`` (``known``)
    says it already (best effort: a read-only dataset is simply verified in full next time)."""
    parts, schemas = {}, []
    for (_, path, _, _, _), reason in zip(checks, reasons, strict=True):
        cached = _FACTS.get(str(path))
        if reason or cached is None:
            continue
        stamp, facts = cached
        if facts.schema not in schemas:
            schemas.append(facts.schema)
        parts[str(path.relative_to(root))] = [list(stamp), facts.sha256, facts.rows, facts.identity,
                                              schemas.index(facts.schema)]
    if parts.keys() == known.keys() and all(known[rel][:3] == entry[:3] for rel, entry in parts.items()):
        return
    body = json.dumps({"format": _VERIFIED_FORMAT, "schemas": schemas, "parts": parts},
                      separators=(",", ":")).encode("utf-8")
    text = json.dumps({"sha256": hashlib.sha256(body).hexdigest()}) + "\n" + body.decode("utf-8")
    try:
        write_text_atomic(root / VERIFIED, text)
    except OSError:
        pass
