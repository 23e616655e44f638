"""Proof that a dataset holds what its ledger and manifest say, part by part.

The manifest must match its seal, and the ledger the manifest's seal (:mod:`unosim.store.manifest`). A part
is good when it exists with the size and sha256 its ledger record gives, its footer's row count is the
recorded one, its footer identity names the cell and job its path belongs to (seed, first game, games),
and its columns are the manifest's schema (recorded from the tables the engine produced when the run
started, so the check follows the engine). The matches part of a job holds exactly the job's games.
Nothing else may lie among the tables: no unrecorded part, no symbolic link, no other kind of file.
Readers then scan exactly the recorded parts (:attr:`unosim.store.reader.Dataset.parts`).

Hashing reads every byte once, on a few threads. What was learned about a
file is kept by (size, mtime, ctime, inode) — in memory, and in ``parts.verified`` (with its own
sha256) for the next process. Only the kernel sets a file's ctime and inode, so a part replaced or
rewritten through the file system has a new stamp; damage below the file system (a disk's bit rot, a
write to the block device) leaves the stamp as it was. So ``unosim study verify`` reads every byte
(``quick``: trust the cached proofs), and opening a dataset whose every file is proven re-reads a random
sample of :data:`SAMPLE_PARTS` parts (:func:`sample_problem`).
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

from .layout import TABLES, job_span, layout_jobs, layout_of
from .ledger import PartInfo, read_ledger
from .manifest import data_digest, ledger_problem
from .proofs import load_proofs, load_whole, part_proof, save_proofs, value_digest, whole_proof
from .writer import IDENTITY_KEY, schema_fingerprint

_IDENTITY_FIELDS = ("cell", "job", "first_game", "games", "seed")
_THREADS = 4


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
    #: of the parts checked: read (and hashed) now, and proven by the cache of an earlier verification
    parts_read: int = 0
    bytes_read: int = 0
    parts_cached: int = 0
    #: the verified ledger records, (cell, job) → record
    good: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    #: part files of jobs the ledger does not record (jobs in flight when a run was killed, or strays)
    unrecorded: list[Path] = field(default_factory=list)
    #: the ledger is not the one the manifest was sealed with (edited, replaced, missing)
    ledger_in_doubt: bool = False
    #: the dataset's digest (:func:`unosim.store.manifest.data_digest`), when it verified complete and sound
    digest: str | None = None

    @property
    def bad_jobs(self) -> set[tuple[str, int]]:
        return {p.job for p in self.problems if p.job is not None}

    def part_paths(self, root: Path, manifest: dict[str, Any]) -> dict[str, tuple[str, ...]]:
        """table → the paths of the good jobs' parts, in (cell, job) order."""
        cells = {c["name"]: c for c in manifest["study"]["cells"]}
        base = str(root)
        places = sorted(f"variant={cells[name]['variant']}/players={cells[name]['players']}/part-{name}-{job:05d}.parquet"
                        for name, job in self.good)   # in path order, as proven() lists them
        return {table: tuple(f"{base}/{table}/{place}" for place in places) for table in TABLES}


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
           require_complete: bool = True, quick: bool = False) -> Verdict:
    """Check the ledger against the manifest's seal, every recorded part, and every entry of the tables
    (see the module docstring).

    ``require_complete``: every job of the study must be recorded and no unrecorded part may exist
    (a finished dataset). Without it (a resume), unrecorded parts are listed in ``unrecorded``, and a
    ledger that does not match the seal is flagged in ``ledger_in_doubt`` rather than a problem.
    Every byte is read, whatever earlier verifications proved (a disk's silent damage leaves a file's
    stamp as it was); ``quick``: a part whose stamp an earlier verification proved is not read. Paths are
    handled as strings: a 20,000-job dataset has 60,000 parts.
    """
    root = Path(root)
    base = str(root) + os.sep
    cells = {c["name"]: c for c in manifest["study"]["cells"]}
    layouts = {name: layout_of(entry) for name, entry in manifest["cells"].items()}
    schema = manifest["schema"]
    verdict = Verdict()
    ledger = _read_ledger(root, manifest, verdict, require_complete)
    checks = _ledger_checks(ledger, cells, layouts, verdict)
    scanned = _scan(root)
    links = _entry_problems(root, scanned, {c[1] for c in checks}, verdict, require_complete)
    known = load_proofs(root) if quick else set()
    if not quick:
        for _, rel, _, _, _ in checks:
            _FACTS.pop(base + rel, None)
    proofs, reasons, unknown = _read_parts(base, checks, links, known, schema)
    verdict.parts_read = len(unknown)
    verdict.bytes_read = sum(checks[i][2].bytes for i in unknown)
    verdict.parts_cached = sum(1 for proof in proofs if proof is not None) - len(unknown)
    for (key, rel, _info, _, _), reason in zip(checks, reasons, strict=True):
        verdict.parts_checked += 1
        if reason:
            verdict.problems.append(Problem(rel, reason, key))
    bad = verdict.bad_jobs
    verdict.good = {k: r for k, r in ledger.items() if k not in bad and k[0] in cells and job_span(layouts[k[0]], k[1])}
    if require_complete:
        _missing_jobs(manifest, ledger, layouts, verdict)
    whole = None
    if require_complete and not verdict.problems and manifest["status"] == "complete":
        whole = {"proof": whole_proof(manifest, scanned), "digest": data_digest(manifest, verdict.good)}
        verdict.digest = whole["digest"]
    if unknown or (whole and whole != load_whole(root)):
        proved = {proof for proof, reason in zip(proofs, reasons, strict=True) if proof and not reason}
        save_proofs(root, proved, whole)
    if stop_at_first:
        verdict.problems = verdict.problems[:1]
    return verdict


def _read_ledger(root: Path, manifest: dict[str, Any], verdict: Verdict, require_complete: bool) -> dict:
    """The ledger's records; one that does not match the manifest's seal is in doubt (a problem of a
    finished dataset)."""
    try:
        ledger = read_ledger(root)
        doubt = ledger_problem(root, manifest)
    except ValueError as exc:
        ledger, doubt = {}, str(exc).removeprefix(str(root / "parts.jsonl") + " ")
    if doubt:
        verdict.ledger_in_doubt = True
        if require_complete:
            verdict.problems.append(Problem("parts.jsonl", doubt, kind="ledger"))
    return ledger


def _ledger_checks(ledger: dict, cells: dict, layouts: dict, verdict: Verdict) -> list[tuple]:
    """(job key, relative path, info, identity, table) of every part the ledger records for a job of this
    study; a record that is not one is a problem."""
    checks = []
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
        folder = f"variant={cell['variant']}/players={cell['players']}/part-{name}-{job:05d}.parquet"
        for table in TABLES:
            checks.append(((name, job), f"{table}/{folder}", infos[table], identity, table))
    return checks


def _entry_problems(root: Path, scanned: list, recorded: set[str], verdict: Verdict,
                    require_complete: bool) -> set[str]:
    """Record the tables' entries that are not recorded parts (a link, a stray file, an unrecorded part);
    return the entries that are not parts."""
    entries = [(rel, what) for rel, what, _ in scanned]
    links = {rel for rel, what in entries if what != "part"}
    for rel, what in entries:
        if what != "part":
            verdict.problems.append(Problem(rel, what, kind="entry"))
        elif rel not in recorded:
            if require_complete:
                verdict.problems.append(Problem(rel, "unexpected part: the ledger records no such job", kind="entry"))
            else:
                verdict.unrecorded.append(root / rel)
    return links


def _read_parts(base: str, checks: list[tuple], links: set[str], known: set, schema: dict
                ) -> tuple[list, list, list[int]]:
    """(proof, reason) of every checked part, and the indices of the parts read: a part proved by an
    earlier verification (``known``) is not read, the others are read (and hashed) on a few threads."""
    schema_ids = {table: value_digest(schema[table]) for table in TABLES}
    proofs, reasons, unknown = [], [], []
    for i, (_, rel, info, identity, table) in enumerate(checks):
        if links and any(rel.startswith(link + "/") for link in links):
            proofs.append(None)
            reasons.append("reached through a symbolic link (see above): not read")
            continue
        try:
            st = os.lstat(base + rel)
        except FileNotFoundError:
            proofs.append(None)
            reasons.append("missing")
            continue
        proof = part_proof(rel, st, info, identity, schema_ids[table])
        proofs.append(proof)
        reasons.append(None)
        if proof not in known or not stat.S_ISREG(st.st_mode):   # else proved so by an earlier verification
            unknown.append(i)
    with ThreadPoolExecutor(_THREADS) as pool:
        found = pool.map(lambda i: part_problem(Path(base + checks[i][1]), checks[i][2], checks[i][3],
                                                schema[checks[i][4]]), unknown)
        for i, reason in zip(unknown, found, strict=True):
            reasons[i] = reason
    return proofs, reasons, unknown


def _missing_jobs(manifest: dict[str, Any], ledger: dict, layouts: dict, verdict: Verdict) -> None:
    """A finished dataset records every job of its cells."""
    recorded_jobs = {}
    for name, _ in ledger:
        recorded_jobs[name] = recorded_jobs.get(name, 0) + 1
    for name, layout in layouts.items():
        missing = manifest["cells"][name]["jobs"] - recorded_jobs.get(name, 0)
        if missing > 0:
            first = next(job for job, _, _ in layout_jobs(layout) if (name, job) not in ledger)
            verdict.problems.append(Problem(f"cell {name}", f"{missing:,} job(s) not recorded (missing parts), "
                                            f"e.g. job {first}", kind="cell"))


def table_entries(root: Path) -> list[tuple[str, str]]:
    """Every entry below the table directories that a reader could meet, as (path relative to ``root``,
    "part") for a part file, or (path, why it may not be there) for a link or another kind of file;
    links are not followed. Temporary files of writers (not ending in ``.parquet``) are left out."""
    return [(rel, what) for rel, what, _ in _scan(root)]


def _scan(root: Path) -> list[tuple[str, str, os.stat_result | None]]:
    """:func:`table_entries`, each with its ``lstat`` (parts only)."""
    out = []
    base = str(root) + os.sep
    for table in TABLES:
        try:
            st = os.lstat(base + table)
        except FileNotFoundError:
            continue
        if stat.S_ISLNK(st.st_mode):
            out.append((table, "a symbolic link where the table's directory belongs (its rows would come "
                               "from elsewhere); replace it by the directory", None))
            continue
        stack = [table]
        while stack:
            folder = stack.pop()
            with os.scandir(base + folder) as entries:
                for entry in entries:
                    rel = f"{folder}/{entry.name}"
                    if entry.is_symlink():
                        out.append((rel, "a symbolic link inside the tables (a reader would follow it to rows "
                                         "that were never verified); remove it", None))
                    elif entry.is_dir(follow_symlinks=False):
                        stack.append(rel)
                    elif not entry.is_file(follow_symlinks=False):
                        out.append((rel, "not a regular file or directory; remove it", None))
                    elif entry.name.endswith(".parquet"):
                        out.append((rel, "part", entry.stat(follow_symlinks=False)))
    return sorted(out, key=lambda e: e[0])


def proven(root: Path, manifest: dict[str, Any]) -> tuple[dict[str, tuple[str, ...]], str] | None:
    """(the parts of each table, the dataset's digest) when a complete verification of the dataset at
    ``root`` proved it just as it is now — the same manifest and ledger (by the seal) and every file in
    the tables the same (path, size, mtime, ctime, inode) — else None. Costs a directory scan and a
    stat per part, not a read: what makes opening a 20,000-job dataset take a second, not a minute."""
    known = load_whole(root)
    if not known or manifest["status"] != "complete" or ledger_problem(root, manifest):
        return None
    entries = _scan(root)
    if any(what != "part" for _, what, _ in entries) or whole_proof(manifest, entries) != known.get("proof"):
        return None
    parts: dict[str, list[str]] = {table: [] for table in TABLES}
    base = str(root)
    for rel, _, _ in entries:
        parts[rel.split("/", 1)[0]].append(f"{base}/{rel}")
    return {table: tuple(paths) for table, paths in parts.items()}, known["digest"]


#: parts re-read (every byte, every page checksum) each time a proven dataset is opened
SAMPLE_PARTS = 3


def sample_problem(root: Path, manifest: dict[str, Any], parts: dict[str, tuple[str, ...]],
                   k: int | None = None) -> Problem | None:
    """Read ``k`` (default :data:`SAMPLE_PARTS`) parts of a proven dataset chosen at random (a fresh choice each call, so damage below
    the file system that its stamps cannot show is found in time); the first problem, or None."""
    import random
    ledger = read_ledger(root)
    cells = {c["name"]: c for c in manifest["study"]["cells"]}
    every = [path for paths in parts.values() for path in paths]
    k = SAMPLE_PARTS if k is None else k
    for path in random.SystemRandom().sample(every, min(k, len(every))):
        rel = os.path.relpath(path, root)
        table = rel.split(os.sep, 1)[0]
        name, job = rel.rsplit("part-", 1)[1].removesuffix(".parquet").rsplit("-", 1)
        key = (name, int(job))
        identity = expected_identity(cells[name], key[1], job_span(layout_of(manifest["cells"][name]), key[1]))
        reason = part_problem(Path(path), PartInfo.from_list(ledger[key]["parts"][table]), identity,
                              manifest["schema"][table], full_read=True)
        if reason:
            return Problem(rel, reason, key)
    return None


def record_written(root: Path, manifest: dict[str, Any], records: dict[tuple[str, int], dict[str, Any]]) -> None:
    """After a run: keep as proven what the run's workers hashed as they wrote each part (the ledger's
    sha256 and rows, this job's identity, the run's schema), with each file's stamp now, so that the
    first open after a run does not read every part again (``study verify`` still does). The
    whole dataset is proven too when its tables hold exactly the recorded parts."""
    base = str(root) + os.sep
    cells = {c["name"]: c for c in manifest["study"]["cells"]}
    schema_ids = {table: value_digest(manifest["schema"][table]) for table in TABLES}
    proofs = load_proofs(root)
    for (name, job), record in records.items():
        cell = cells[name]
        identity = expected_identity(cell, job, job_span(layout_of(manifest["cells"][name]), job))
        folder = f"variant={cell['variant']}/players={cell['players']}/part-{name}-{job:05d}.parquet"
        for table in TABLES:
            rel = f"{table}/{folder}"
            try:
                st = os.lstat(base + rel)
            except OSError:
                continue
            proofs.add(part_proof(rel, st, PartInfo.from_list(record["parts"][table]), identity, schema_ids[table]))
    scanned = _scan(root)
    expected = len(records) * len(TABLES)
    whole = None
    if len(scanned) == expected and all(what == "part" for _, what, _ in scanned):
        whole = {"proof": whole_proof(manifest, scanned), "digest": data_digest(manifest, records)}
    save_proofs(root, proofs, whole)
