"""The ``unosim study`` commands: run (or resume), status, verify (and repair) a dataset."""

from __future__ import annotations

from pathlib import Path

from .values import json_flag


def cmd_run(args) -> None:
    from ..analysis.profile import Profile
    from ..pipeline.run_errors import RunStopped
    from ..pipeline.runner import run_study
    from ..pipeline.study import load_study
    study = load_study(args.spec, profile_check=Profile.from_mapping)
    again = f"`unosim study run {args.spec} --out {args.out}`"
    try:
        summary = run_study(study, args.out, n_jobs=args.n_jobs, chunk_size=args.chunk_size,
                            scheduler=args.scheduler, processes=args.processes, force=args.force,
                            progress=False if args.quiet else None, accept_engine_change=args.accept_engine_change)
    except KeyboardInterrupt:
        raise KeyboardInterrupt(f"the dataset is resumable: run {again} again") from None
    except RunStopped as exc:
        raise RunStopped(f"{exc}: run {again} again to resume") from None
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
    from ..store import ledger
    from ..store.manifest import games_on_disk, read_manifest, record_progress
    from .table import print_table
    from .values import print_json
    root = Path(args.dataset)
    manifest = read_manifest(root)
    recorded = ledger.read_ledger(root, lenient=True)
    written = _written_unrecorded(root, manifest, recorded)
    record_progress(manifest, {**recorded, **written})
    done, total = games_on_disk(manifest)
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
    print_table(rows)
    pending = f" ({len(written):,} job(s) written but not yet in the ledger: a resume checks and adopts them)"
    print(f"{root}: {done:,} of {total:,} games on disk{pending if written else ''}; manifest status "
          f"{manifest['status']}")


def _written_unrecorded(root: Path, manifest: dict, recorded: dict) -> dict:
    """Jobs whose three parts are on disk but not in the ledger (a kill came between), unverified."""
    from ..store import integrity, resume
    from ..store.layout import TABLES, job_span, layout_of
    cells = {c["name"]: c for c in manifest["study"]["cells"]}
    tables: dict[tuple[str, int], set[str]] = {}
    for rel, what in integrity.table_entries(root):
        match = resume.PART_RE.fullmatch(rel.rsplit("/", 1)[-1])
        if what == "part" and match and match["cell"] in cells:
            tables.setdefault((match["cell"], int(match["job"])), set()).add(rel.split("/", 1)[0])
    out = {}
    for key, found in tables.items():
        span = job_span(layout_of(manifest["cells"][key[0]]), key[1])
        if key not in recorded and len(found) == len(TABLES) and span is not None:
            out[key] = {"games": span[1]}
    return out


def cmd_verify(args) -> None:
    from ..store import integrity
    from ..store.layout import DatasetError
    from ..store.lock import DatasetLock
    from ..store.manifest import read_manifest
    root = Path(args.dataset)
    manifest = read_manifest(root)
    complete = manifest["status"] == "complete"
    verdict = integrity.verify(root, manifest, require_complete=complete, quick=args.quick)
    for problem in verdict.problems:
        print(f"bad: {problem}")
    in_flight = (f", {len(verdict.unrecorded):,} part(s) of jobs in flight (a resume adopts or recomputes "
                 f"them)" if verdict.unrecorded else "")
    doubt = "; the ledger does not match the manifest's seal (a resume adopts what verifies)" \
        if verdict.ledger_in_doubt and not complete else ""
    unfinished = "" if complete else f"; an unfinished dataset{in_flight}{doubt}"
    digest = f"; content digest {verdict.digest}" if verdict.digest else ""
    cached = (f" and {verdict.parts_cached:,} proven from the cache of an earlier verification (--quick; "
              f"damage below the file system keeps a file's stamp)" if verdict.parts_cached else "")
    print(f"{root}: {verdict.parts_checked:,} part(s): {verdict.parts_read:,} read ({verdict.bytes_read:,} bytes)"
          f"{cached}; {len(verdict.problems):,} problem(s){unfinished}{digest}")
    if not verdict.problems:
        return
    if not args.repair:
        raise DatasetError(f"{root} has {len(verdict.problems):,} problem(s); `unosim study verify "
                                   f"{root} --repair` deletes the bad jobs so that a resume recomputes them")
    with DatasetLock(root):
        outcome = repair(root, read_manifest(root))
    adopted = f", kept {outcome.adopted:,} job(s) whose parts prove themselves" if outcome.adopted else ""
    rerun = ("; the dataset is complete" if outcome.complete else
             f"; run the same `unosim study run SPEC --out {root.parent}` to recompute them")
    print(f"repaired: deleted {outcome.deleted:,} file(s) of {outcome.dropped_jobs:,} job(s){adopted}{rerun}")


def repair(root: Path, manifest: dict):
    """Delete what cannot be proved: the parts of every job that neither matches its ledger record nor
    verifies against its own footer identity (then all three), stray parts, links and other entries in
    the tables; re-record the jobs that verify; forget the others (a resume recomputes them). A
    manifest that does not match its seal is refused before (by :func:`unosim.store.manifest.read_manifest`),
    so no good part is ever deleted on the word of an edited manifest."""
    from ..store import resume
    from ..store.manifest import record_progress, write_manifest
    outcome = resume.reconcile(root, manifest, manifest["engine_version"], repair=True)
    record_progress(manifest, outcome.done)
    outcome.complete = all(entry["status"] == "complete" for entry in manifest["cells"].values())
    manifest["status"] = "complete" if outcome.complete and manifest["status"] == "complete" else "repaired"
    write_manifest(root, manifest)
    return outcome


def add_parser(sub) -> None:
    """The ``study`` command and its actions: run, status, verify, new."""
    study = sub.add_parser("study", help="run a study spec or show a dataset's progress")
    study_sub = study.add_subparsers(dest="study_command", required=True, metavar="ACTION")
    p = study_sub.add_parser("run", help="run (or resume) a study: SPEC.toml -> OUT/<name>/")
    p.add_argument("spec", help="the study spec (TOML), e.g. analyses/studies/demo.toml")
    p.add_argument("--out", default="data", help="parent directory of the dataset (default: data)")
    p.add_argument("--n-jobs", type=int, default=-1, help="parallel workers (default -1: all cores / dask workers)")
    p.add_argument("--chunk-size", type=int, help="games per job (default 100000 single rounds, 50000 matches; a "
                                                  "resumed run keeps its own)")
    p.add_argument("--scheduler", help="run on dask: 'local' (a LocalCluster) or an address tcp://host:8786")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--threads", dest="processes", action="store_false", default=None,
                       help="run the jobs on threads of this process (default up to 4 workers: the engine loads "
                            "once)")
    where.add_argument("--processes", dest="processes", action="store_true",
                       help="run the jobs on worker processes (default beyond 4 workers: each loads the engine; a "
                            "crashed or out-of-memory job takes only its worker down)")
    p.add_argument("--force", action="store_true", help="delete an existing dataset of this study first")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--accept-engine-change", action="store_true",
                   help="resume a dataset started by another engine version (the manifest records both)")
    p.set_defaults(run=cmd_run)
    p = study_sub.add_parser("status", help="per-cell progress of a dataset (complete or interrupted)")
    p.add_argument("dataset", help="the dataset directory, e.g. data/demo")
    json_flag(p)
    p.set_defaults(run=cmd_status)
    _add_verify(study_sub)
    from ..pipeline.house_rules import add_cli as add_study_new
    add_study_new(study_sub)


def _add_verify(study_sub) -> None:
    p = study_sub.add_parser("verify", help="check every part of a dataset against its ledger (sha256, rows, "
                                            "schema, cell); --repair deletes the bad jobs")
    p.add_argument("dataset", help="the dataset directory, e.g. data/demo")
    p.add_argument("--repair", action="store_true",
                   help="delete bad parts and their job's other parts, so a resume recomputes exactly those jobs")
    read = p.add_mutually_exclusive_group()
    read.add_argument("--quick", action="store_true",
                      help="trust the proofs of earlier verifications: a part unchanged since (by size, mtime, ctime "
                           "and inode) is not read; damage below the file system (bit rot) keeps those, so by "
                           "default every byte is read")
    read.add_argument("--full", action="store_true", help="read every byte (the default)")
    p.set_defaults(run=cmd_verify)
