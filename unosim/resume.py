"""Continue a dataset a run left unfinished: verify what is recorded, adopt what is provably good.

After a kill the dataset holds (a) jobs the ledger records — each part re-verified against its record;
a bad one stops the resume by name (``unosim study verify --repair`` removes it); (b) parts of jobs
the ledger does not record yet — written by a worker before the parent could append the record. Such
a job is adopted when its three parts are all present, fully readable (page checksums), carry this
job's identity in their footer, have the dataset's schema and, for the matches part, one row per game;
otherwise its parts are deleted and the job runs again. Any other part file is refused by name.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from . import dataset, integrity
from .atomic import sync_directories
from .dataset import TABLES, DatasetError

PART_RE = re.compile(r"part-(?P<cell>.+)-(?P<job>\d{5,})\.parquet")


def recorded_jobs(root: Path, manifest: dict[str, Any], engine_version: int) -> dict[tuple[str, int], dict]:
    """The ledger records of the finished jobs of the dataset at ``root`` (adopting good unrecorded ones).

    Raises :class:`DatasetError` naming the first bad or foreign part.
    """
    verdict = integrity.verify(root, manifest, require_complete=False)
    if verdict.problems:
        n = len(verdict.problems)
        raise DatasetError(f"{root}: {verdict.problems[0]}" + (f" (and {n - 1:,} more)" if n > 1 else "")
                           + f"; run `unosim study verify {root} --repair` to delete the bad jobs, then "
                           f"resume")
    done = dict(verdict.good)
    by_job = _unrecorded_by_job(root, manifest, verdict.unrecorded)
    cells = {c["name"]: c for c in manifest["study"]["cells"]}
    for (name, job), paths in sorted(by_job.items()):
        record = _adoptable(cells[name], job, paths, manifest, engine_version)
        if record is None:
            for path in paths.values():
                path.unlink(missing_ok=True)
        else:
            done[(name, job)] = record
            sync_directories(paths.values())  # the killed run may not have made the renames durable
    dataset.rewrite_ledger(root, done)  # always: this also drops a torn last line before appending
    return done


def _unrecorded_by_job(root: Path, manifest: dict[str, Any], paths: list[Path]) -> dict:
    chunk = manifest["chunk_size"]
    cells = {c["name"]: c for c in manifest["study"]["cells"]}
    out: dict[tuple[str, int], dict[str, Path]] = {}
    for path in paths:
        match = PART_RE.fullmatch(path.name)
        cell = cells.get(match["cell"]) if match else None
        job = int(match["job"]) if match else -1
        table = path.relative_to(root).parts[0]
        if (cell is None or not 0 <= job < dataset.job_count(cell["games"], chunk)
                or path != dataset.part_path(root, table, cell["variant"], cell["players"], cell["name"], job)):
            raise DatasetError(f"{root}: {path.relative_to(root)} is not a part of this study; move it out "
                               f"of the dataset, then resume")
        out.setdefault((cell["name"], job), {})[table] = path
    return out


def _adoptable(cell: dict[str, Any], job: int, paths: dict[str, Path], manifest: dict[str, Any],
               engine_version: int) -> dict[str, Any] | None:
    if sorted(paths) != sorted(TABLES):
        return None
    identity = integrity.expected_identity(cell, job, manifest["chunk_size"])
    parts = {}
    for table in TABLES:
        path = paths[table]
        if integrity.part_problem(path, None, identity, manifest["schema"][table], full_read=True):
            return None
        facts = integrity.file_facts(path)
        if (facts.identity or {}).get("engine_version") != engine_version:
            return None
        parts[table] = [facts.rows, path.stat().st_size, facts.sha256]
    if parts["matches"][0] != identity["games"]:
        return None
    return {"cell": cell["name"], "job": job, "games": identity["games"], "engine": engine_version,
            "writer": "adopted on resume", "parts": parts}
