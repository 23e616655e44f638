"""The ``unosim study`` commands: run (or resume), status, verify (and repair) a dataset."""

from __future__ import annotations

import argparse
from pathlib import Path


def cmd_run(args) -> None:
    from .runner import run_study
    from .study import load_study
    study = load_study(args.spec)
    try:
        summary = run_study(study, args.out, n_jobs=args.n_jobs, chunk_size=args.chunk_size,
                            scheduler=args.scheduler, force=args.force, progress=False if args.quiet else None,
                            accept_engine_change=args.accept_engine_change)
    except KeyboardInterrupt:
        raise KeyboardInterrupt(f"the dataset is resumable: run `unosim study run {args.spec} --out "
                                f"{args.out}` again") from None
    rate = summary.games_run / summary.seconds if summary.seconds > 0 else 0.0
    resumed = (f" ({summary.jobs_skipped:,} {_plural(summary.jobs_skipped, 'job')} already done)"
               if summary.jobs_skipped else "")
    compiled = (f"; the engine compiled before it, in {summary.compile_seconds:.0f} s"
                if summary.compile_seconds else "")
    print(f"{summary.path}: {summary.games_run:,} {_plural(summary.games_run, 'game')} in {summary.jobs_run:,} "
          f"{_plural(summary.jobs_run, 'job')}, {summary.seconds:.1f} s "
          f"({rate:,.0f} games/s){resumed}{compiled}")


def _plural(count: int, noun: str) -> str:
    return noun if count == 1 else noun + "s"


def cmd_status(args) -> None:
    from . import dataset
    from .__main__ import _print_table
    from .cli_values import print_json
    root = Path(args.dataset)
    manifest = dataset.read_manifest(root)
    recorded = dataset.read_ledger(root, lenient=True)
    written = _written_unrecorded(root, manifest, recorded)
    dataset.record_progress(manifest, {**recorded, **written})
    done, total = dataset.games_on_disk(manifest)
    if args.json:
        print_json({"dataset": str(root), "status": manifest["status"], "games_done": done, "games": total,
                    "jobs_written_unrecorded": len(written),
                    "cells": [{"cell": name, **{k: entry[k] for k in
                                                ("games_done", "games", "jobs_done", "jobs", "status")}}
                              for name, entry in manifest["cells"].items()]})
        return
    rows = [{"cell": name, "games": f"{entry['games_done']:,}/{entry['games']:,}",
             "jobs": f"{entry['jobs_done']:,}/{entry['jobs']:,}", "status": entry["status"]}
            for name, entry in manifest["cells"].items()]
    _print_table(rows)
    pending = f" ({len(written):,} job(s) written but not yet in the ledger: a resume checks and adopts them)"
    print(f"{root}: {done:,} of {total:,} games on disk{pending if written else ''}; manifest status "
          f"{manifest['status']}")


def _written_unrecorded(root: Path, manifest: dict, recorded: dict) -> dict:
    """Jobs whose three parts are on disk but not in the ledger (a kill came between), unverified."""
    from . import dataset, resume
    chunk = manifest["chunk_size"]
    cells = {c["name"]: c for c in manifest["study"]["cells"]}
    tables: dict[tuple[str, int], set[str]] = {}
    for table in dataset.TABLES:
        for path in (root / table).glob("variant=*/players=*/*.parquet"):
            match = resume.PART_RE.fullmatch(path.name)
            if match and match["cell"] in cells:
                tables.setdefault((match["cell"], int(match["job"])), set()).add(table)
    return {key: {"games": dataset.job_range(cells[key[0]]["games"], chunk, key[1])[1]}
            for key, found in tables.items()
            if key not in recorded and len(found) == len(dataset.TABLES)
            and key[1] < dataset.job_count(cells[key[0]]["games"], chunk)}


def cmd_verify(args) -> None:
    from . import dataset, integrity
    from .lock import DatasetLock
    root = Path(args.dataset)
    manifest = dataset.read_manifest(root)
    complete = manifest["status"] == "complete"
    verdict = integrity.verify(root, manifest, require_complete=complete)
    for problem in verdict.problems:
        print(f"bad: {problem}")
    in_flight = (f", {len(verdict.unrecorded):,} part(s) of jobs in flight (a resume adopts or recomputes "
                 f"them)" if verdict.unrecorded else "")
    unfinished = "" if complete else f"; an unfinished dataset{in_flight}"
    print(f"{root}: {verdict.parts_checked:,} part(s), {verdict.bytes_checked:,} bytes checked, "
          f"{len(verdict.problems):,} problem(s){unfinished}")
    if not verdict.problems:
        return
    if not args.repair:
        raise dataset.DatasetError(f"{root} has {len(verdict.problems):,} problem(s); `unosim study verify "
                                   f"{root} --repair` deletes the bad jobs so that a resume recomputes them")
    with DatasetLock(root):
        deleted, jobs = repair(root, manifest, verdict)
    print(f"repaired: deleted {deleted:,} file(s) of {jobs:,} job(s); run the same `unosim study run SPEC "
          f"--out {root.parent}` to recompute them")


def repair(root: Path, manifest: dict, verdict) -> tuple[int, int]:
    """Delete every bad job's parts (all three) and stray parts; forget the jobs in the ledger."""
    from . import dataset
    cells = {c["name"]: c for c in manifest["study"]["cells"]}
    deleted = 0
    for name, job in sorted(verdict.bad_jobs):
        cell = cells[name]
        for table in dataset.TABLES:
            path = dataset.part_path(root, table, cell["variant"], cell["players"], name, job)
            if path.exists():
                path.unlink()
                deleted += 1
    for problem in verdict.problems:
        path = root / problem.where
        if problem.job is None and path.suffix == ".parquet" and path.is_file():
            path.unlink()
            deleted += 1
    kept = {key: record for key, record in dataset.read_ledger(root, lenient=True).items()
            if key not in verdict.bad_jobs and key[0] in cells
            and key[1] < dataset.job_count(cells[key[0]]["games"], manifest["chunk_size"])}
    dataset.rewrite_ledger(root, kept)
    dataset.record_progress(manifest, kept)
    if any(entry["status"] != "complete" for entry in manifest["cells"].values()):
        manifest["status"] = "repaired"
    dataset.write_manifest(root, manifest)
    return deleted, len(verdict.bad_jobs)


def add_run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--accept-engine-change", action="store_true",
                   help="resume a dataset started by another engine version (the manifest records both)")


def add_verify(study_sub) -> None:
    p = study_sub.add_parser("verify", help="check every part of a dataset against its ledger (sha256, rows, "
                                            "schema, cell); --repair deletes the bad jobs")
    p.add_argument("dataset", help="the dataset directory, e.g. data/demo")
    p.add_argument("--repair", action="store_true",
                   help="delete bad parts and their job's other parts, so a resume recomputes exactly those jobs")
    p.set_defaults(run=cmd_verify)
