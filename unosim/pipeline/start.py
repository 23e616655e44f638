"""Where a run starts: a fresh dataset, or the existing one resumed (its recorded jobs re-verified), grown to
a spec with more games or cells (:mod:`unosim.store.growth`) or cut anew for another chunk size; and the
checks that come first (a foreign directory, another engine), the deletion of ``--force`` and the
manifest's stamps."""

from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy
import pyarrow

from ..game.protocol import ENGINE_VERSION
from ..game.version import __version__
from ..store import ledger, resume
from ..store.atomic import remove
from ..store.growth import SpecChange, cell_entry, grow, growth, rechunk
from ..store.layout import LEDGER, MANIFEST, TABLES, part_path
from ..store.lock import LOCK_FILES
from ..store.manifest import FORMAT_VERSION, read_manifest, record_progress, write_manifest
from .run_errors import RunError
from .study import Study

#: games per job by default: large enough that a job's fixed costs (six fsyncs, a ledger line, the
#: worker's round trip) stay a small share of its time, small enough that a job's rows stay a few hundred
#: MB (both: docs/results/code_choices.json)
DEFAULT_CHUNK_SIZE = {"single_round": 100_000, "match": 50_000}


def refuse_foreign_directory(root: Path, force: bool) -> None:
    """Before anything is written: ``root`` must be absent, empty or a unosim dataset."""
    if root.exists() and not root.is_dir():
        raise RunError(f"{root} exists and is a file, not a dataset directory; choose another --out")
    if root.is_dir() and not (root / MANIFEST).exists():
        if any(p.name not in LOCK_FILES for p in root.iterdir()):
            if force:
                raise RunError(f"refusing to delete {root}: it is not a unosim dataset (no "
                               f"{MANIFEST})")
            raise RunError(f"{root} exists and is not a unosim dataset; choose another --out")


def start_dataset(root: Path, study: Study, chunk_size: int | None, force: bool, accept_engine_change: bool,
                  schema: dict[str, Any]) -> tuple[dict[str, Any], dict]:
    """The manifest to continue from and the finished jobs: a fresh dataset, or the existing one
    (extended to a grown spec, or cut anew for another chunk size)."""
    resolved = json.loads(json.dumps(study.resolved()))
    if force or _status_on_disk(root) == "clearing":   # a --force that was stopped half-way goes on
        _clear(root)
    if (root / MANIFEST).exists():
        manifest = read_manifest(root)
        try:
            grown = growth(manifest["study"], resolved)
        except SpecChange as exc:
            raise RunError(f"{root} holds a dataset of a different spec ({exc}); a dataset can only grow (more "
                           f"games per cell, more cells): use --force to replace it, or another --out") from None
        rechunking = chunk_size is not None and chunk_size != manifest["chunk_size"]
        if rechunking and grown:
            raise RunError(f"{root}: give either more games or another chunk size ({manifest['chunk_size']:,} → "
                           f"{chunk_size:,}) in one run, not both: run once with --chunk-size "
                           f"{manifest['chunk_size']}, then again with the new one")
        _check_engine(root, manifest, schema, accept_engine_change, study.mechanism_versions)
        remove_stale_temporaries(root)
        done = resume.recorded_jobs(root, manifest, ENGINE_VERSION)
        if grown:
            _grow(root, manifest, resolved, grown, done)
        # the designer's profile judges the games, it changes none: a resume takes the spec's
        manifest["study"].pop("profile", None)
        manifest["study"].update({"profile": resolved["profile"]} if "profile" in resolved else {})
        if rechunking:
            rechunk(manifest, chunk_size, done)
        manifest["status"] = "running"
        return manifest, done
    chunk = chunk_size or DEFAULT_CHUNK_SIZE["single_round" if study.mode == "single_round" else "match"]
    now = _now()
    manifest = {
        "format": FORMAT_VERSION,
        "status": "running",
        "created": now,
        "updated": now,
        "study": resolved,
        "chunk_size": chunk,
        "engine_version": ENGINE_VERSION,
        "mechanism_versions": study.mechanism_versions,
        "versions": _versions(),
        "git_revision": _git_revision(),
        "schema": schema,
        "ledger": LEDGER,
        "cells": {c.name: cell_entry(c.games, chunk) for c in study.cells},
    }
    ledger.rewrite_ledger(root, {})
    write_manifest(root, manifest)  # a directory with a manifest is a dataset
    return manifest, {}


def _grow(root: Path, manifest: dict[str, Any], resolved: dict[str, Any], grown, done: dict) -> None:
    """Extend the dataset to the grown spec (:func:`unosim.store.growth.grow`): a short last job of the old
    size that becomes a longer one has its record dropped first, then its parts. The manifest is written
    last: a kill before leaves the old dataset, resumable."""
    dropped = grow(manifest, resolved, grown, done)
    cells = {c["name"]: c for c in resolved["cells"]}
    if dropped:
        ledger.rewrite_ledger(root, done)
        for name, job in dropped:
            for table in TABLES:
                remove(part_path(root, table, cells[name]["variant"], cells[name]["players"], name, job))
    record_progress(manifest, done)
    write_manifest(root, manifest)


def _status_on_disk(root: Path) -> str | None:
    """The status field of the manifest at ``root`` as written, unchecked (None if there is none)."""
    try:
        manifest = json.loads((root / MANIFEST).read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    return manifest.get("status") if isinstance(manifest, dict) else None


def _check_engine(root: Path, manifest: dict[str, Any], schema: dict[str, Any], accept: bool,
                  mechanism_versions: dict[str, int]) -> None:
    """A resume continues with the engine, and the version of each mechanism the study uses
    (``protocol.Mechanism.version``), that started the dataset, unless told to mix (then recorded)."""
    old = manifest["engine_version"]
    if manifest["schema"] != schema:
        raise RunError(f"{root} was written with other columns (engine version {old}) than this unosim "
                       f"writes (engine version {ENGINE_VERSION}); its parts cannot be mixed: use --force "
                       f"to start again")
    recorded = manifest.get("mechanism_versions", {})   # none recorded: a dataset older than the versions
    changed = [f"{name}: version {recorded[name]}, now {version}" for name, version in mechanism_versions.items()
               if name in recorded and recorded[name] != version]
    if old == ENGINE_VERSION and not changed:
        manifest["mechanism_versions"] = {**recorded, **mechanism_versions}   # a grown study's new ones too
        return
    change = (f"started by engine version {old}, this unosim runs engine version {ENGINE_VERSION}"
              if old != ENGINE_VERSION else f"written by other versions of its mechanisms ({'; '.join(changed)})")
    if not accept:
        raise RunError(f"{root} was {change} (its games may differ); use --force to start again, or "
                       f"--accept-engine-change to continue with both (recorded in the manifest)")
    jobs = sum(entry["jobs_done"] for entry in manifest["cells"].values())
    manifest.setdefault("engine_history", []).append(
        {"engine_version": old, "mechanism_versions": recorded, "versions": manifest["versions"], "jobs_done": jobs,
         "until": _now()})
    manifest["engine_version"] = ENGINE_VERSION
    manifest["mechanism_versions"] = {**recorded, **mechanism_versions}
    manifest["versions"] = _versions()
    manifest["git_revision"] = _git_revision()


def _clear(root: Path) -> None:
    """Delete the dataset's contents, keeping the lock this run holds. The manifest is marked
    "clearing" first and deleted last, so a kill at any point leaves a dataset that the next run
    (with --force or without) goes on clearing."""
    manifest = root / MANIFEST
    if manifest.exists():
        write_manifest(root, {"format": FORMAT_VERSION, "status": "clearing"})
    for path in root.iterdir():
        if path.name in LOCK_FILES or path == manifest:
            continue
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)   # never follows a link inside: a link is deleted, not its target
        else:
            remove(path)
    remove(manifest)


def remove_stale_temporaries(root: Path) -> None:
    """Temporary files of writers that died (the lock proves none is alive), and worker probes; links
    are not followed."""
    for directory, subdirectories, files in os.walk(root):
        for name in files:
            if (name.startswith(".") and name.endswith(".tmp")) or name.startswith(".probe-"):
                remove(Path(directory) / name)
        subdirectories[:] = [d for d in subdirectories if not os.path.islink(os.path.join(directory, d))]


def stamp(manifest: dict[str, Any]) -> None:
    manifest["updated"] = _now()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _versions() -> dict[str, str]:
    # numba's and polars' versions from their metadata: importing them would cost the parent most of a
    # second before its workers start, for nothing else (docs/results/code_choices.json)
    return {"unosim": __version__, "numba": importlib.metadata.version("numba"), "numpy": numpy.__version__,
            "polars": importlib.metadata.version("polars"), "pyarrow": pyarrow.__version__,
            "python": sys.version.split()[0]}


def _git_revision() -> str | None:
    """``git describe --always --dirty`` of the source tree, or None outside a git checkout."""
    try:
        out = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=Path(__file__).parent,
                             check=False, capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    return out.stdout.strip() or None
