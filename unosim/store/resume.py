"""Continue (or repair) a dataset a run left unfinished: verify what is recorded, adopt what is provably good.

After a kill the dataset holds (a) jobs the ledger records — each part re-verified against its record;
a bad one stops the resume by name (``unosim study verify --repair`` removes it); (b) parts of jobs
the ledger does not record yet — written by a worker before the parent could append the record. Such
a job is adopted when its three parts are all present, fully readable (page checksums), carry this
job's identity in their footer, have the dataset's schema and, for the matches part, one row per game;
otherwise its parts are deleted and the job runs again. Any other part file is refused by name.

When the ledger is not the one the manifest was sealed with (edited, replaced, deleted), no record is
trusted: every job is adopted or recomputed by the same rule, from its parts alone. A repair does the
same for the jobs whose parts fail their records, and deletes what cannot be proved (every deletion
stays inside the dataset, see :func:`unosim.store.atomic.check_confined`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import integrity, ledger
from .atomic import remove, sync_directories
from .layout import TABLES, DatasetError, job_span, layout_of, part_path

PART_RE = re.compile(r"part-(?P<cell>.+)-(?P<job>\d{5,})\.parquet")


@dataclass
class Reconciled:
    """The outcome of :func:`reconcile`: the finished jobs and what was removed."""

    done: dict[tuple[str, int], dict[str, Any]]
    deleted: int = 0
    dropped_jobs: int = 0
    adopted: int = 0
    #: (repair) every job of the study is recorded afterwards
    complete: bool = False


def recorded_jobs(root: Path, manifest: dict[str, Any], engine_version: int) -> dict[tuple[str, int], dict]:
    """The ledger records of the finished jobs of the dataset at ``root`` (adopting good unrecorded ones).

    Raises :class:`DatasetError` naming the first bad or foreign part.
    """
    return reconcile(root, manifest, engine_version).done


def reconcile(root: Path, manifest: dict[str, Any], engine_version: int, *, repair: bool = False) -> Reconciled:
    """Verify the dataset at ``root``, adopt the jobs whose parts prove themselves, rewrite the ledger.

    A resume (``repair`` False) refuses a foreign file, a link, or (with a ledger it can trust) a part
    that fails its record. A repair deletes them (links: the link only), adopting every job whose three
    parts verify against their own footer identity, and forgets the other jobs so a resume recomputes
    them.
    """
    verdict = integrity.verify(root, manifest, require_complete=False, quick=True)
    cells = {c["name"]: c for c in manifest["study"]["cells"]}
    job_problems = [p for p in verdict.problems if p.job is not None]
    entries = [p for p in verdict.problems if p.kind == "entry"]
    if not repair:
        refused = entries if verdict.ledger_in_doubt else verdict.problems
        if refused:
            n = len(refused)
            raise DatasetError(f"{root}: {refused[0]}" + (f" (and {n - 1:,} more)" if n > 1 else "")
                               + f"; run `unosim study verify {root} --repair` to delete the bad jobs, then "
                               f"resume")
    outcome = Reconciled(dict(verdict.good) if not verdict.ledger_in_doubt else {})
    for problem in entries:  # links, other kinds of files (repair only: a resume refused them above)
        outcome.deleted += remove(root / problem.where)
    doubted = {p.job for p in job_problems} | (set(verdict.good) if verdict.ledger_in_doubt else set())
    candidates = list(verdict.unrecorded)
    for name, job in doubted:
        cell = cells[name]
        candidates += [part_path(root, t, cell["variant"], cell["players"], name, job) for t in TABLES]
    by_job, strays = _parts_by_job(root, manifest, candidates, refuse=not repair)
    outcome.deleted += strays
    for (name, job), paths in sorted(by_job.items()):
        record = _adoptable(cells[name], job, paths, manifest, engine_version)
        if record is None:
            outcome.dropped_jobs += (name, job) in doubted
            outcome.deleted += sum(remove(path) for path in paths.values())
        else:
            outcome.done[(name, job)] = record
            outcome.adopted += 1
            sync_directories(paths.values())  # the killed run may not have made the renames durable
    outcome.dropped_jobs += sum(1 for key in doubted if key not in by_job)
    ledger.rewrite_ledger(root, outcome.done)  # always: this also drops a torn last line before appending
    return outcome


def _parts_by_job(root: Path, manifest: dict[str, Any], paths: list[Path], *, refuse: bool) -> tuple[dict, int]:
    """The existing part files among ``paths`` grouped by (cell, job), and how many files that are no
    part of this study were deleted (repair; a resume refuses them)."""
    cells = {c["name"]: c for c in manifest["study"]["cells"]}
    out: dict[tuple[str, int], dict[str, Path]] = {}
    strays = 0
    for path in paths:
        if not path.exists():
            continue
        match = PART_RE.fullmatch(path.name)
        cell = cells.get(match["cell"]) if match else None
        job = int(match["job"]) if match else -1
        table = path.relative_to(root).parts[0]
        layout = layout_of(manifest["cells"][cell["name"]]) if cell else ()
        if (cell is None or job_span(layout, job) is None
                or path != part_path(root, table, cell["variant"], cell["players"], cell["name"], job)):
            if refuse:
                raise DatasetError(f"{root}: {path.relative_to(root)} is not a part of this study; move it out "
                                   f"of the dataset, then resume")
            strays += remove(path)
            continue
        out.setdefault((cell["name"], job), {})[table] = path
    return out, strays


def _adoptable(cell: dict[str, Any], job: int, paths: dict[str, Path], manifest: dict[str, Any],
               engine_version: int) -> dict[str, Any] | None:
    if sorted(paths) != sorted(TABLES):
        return None
    span = job_span(layout_of(manifest["cells"][cell["name"]]), job)
    identity = integrity.expected_identity(cell, job, span)
    parts = {}
    for table in TABLES:
        path = paths[table]
        if integrity.part_problem(path, None, identity, manifest["schema"][table], full_read=True):
            return None
        facts = integrity.file_facts(path)
        if (facts.identity or {}).get("engine_version") != engine_version:
            return None
        written = (facts.identity or {}).get("mechanism_versions") or {}
        if any(manifest.get("mechanism_versions", {}).get(name) != version for name, version in written.items()):
            return None   # a mechanism's rules changed since the part was written (protocol.Mechanism.version)
        parts[table] = [facts.rows, path.stat().st_size, facts.sha256]
    if parts["matches"][0] != identity["games"]:
        return None
    return {"cell": cell["name"], "job": job, "games": identity["games"], "engine": engine_version,
            "writer": "adopted on resume", "parts": parts}
