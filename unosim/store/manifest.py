"""The manifest, ``manifest.json``: the resolved spec, versions, seed of every cell, engine version, column
schema, each cell's job layout and progress, and its seal.

**Seal.** The manifest carries ``seal``: the sha256 of its own content and of the ledger as the
manifest was written (its size and sha256; a running study appends beyond that size), plus a short
digest of every field, so that an edited manifest is refused naming the field. It is a checksum
against edits and damage, not a signature.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .atomic import write_text_atomic
from .layout import LEDGER, MANIFEST, TABLES, DatasetError, job_count, layout_job_count, layout_of, shorten
from .ledger import ledger_digest

#: 2: workers write the parts; the ledger records each part's rows, bytes and sha256
#: 3: the manifest is sealed; each cell records its job layout
FORMAT_VERSION = 3
#: the statuses a manifest may have; "clearing": ``--force`` was deleting the dataset when it stopped
STATUSES = ("running", "interrupted", "complete", "repaired", "clearing")
_CELL_NAME = re.compile(r"(?P<variant>[a-z][a-z0-9_]{0,63})-p(?P<players>[0-9]{1,2})-(?P<lineup>[a-z][a-z0-9_]{0,63})")


def write_manifest(root: Path, manifest: dict[str, Any]) -> None:
    """Seal ``manifest`` (with the ledger as it is now) and write it atomically."""
    manifest.pop("seal", None)
    manifest["seal"] = _seal(manifest, ledger_digest(root))
    write_text_atomic(Path(root) / MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _fields(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    """(path, leaf) of every field of a manifest: dicts by key, lists of named records by name."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _fields(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        names = [v.get("name") for v in value]
        keyed = all(isinstance(n, str) for n in names) and len(set(names)) == len(names)
        for i, item in enumerate(value):
            yield from _fields(item, f"{path}[{names[i] if keyed else i}]")
    else:
        yield path, value


def _field_digest(value: Any) -> str:
    return hashlib.blake2b(_canonical(value), digest_size=4).hexdigest()


def _seal(body: dict[str, Any], ledger: dict[str, Any]) -> dict[str, Any]:
    return {"sha256": hashlib.sha256(_canonical({"manifest": body, "ledger": ledger})).hexdigest(),
            "ledger": ledger, "fields": {path: _field_digest(v) for path, v in _fields(body, "")}}


def seal_problem(manifest: dict[str, Any]) -> str | None:
    """Why ``manifest`` does not match its own seal (naming the field that changed), or None."""
    seal = manifest.get("seal")
    body = {k: v for k, v in manifest.items() if k != "seal"}
    if not isinstance(seal, dict) or not isinstance(seal.get("fields"), dict) or not isinstance(seal.get("ledger"), dict):
        return "it has no seal (edited, or not written by unosim)"
    if _seal(body, seal["ledger"])["sha256"] == seal.get("sha256"):
        return None
    sealed = seal["fields"]
    found = dict((path, _field_digest(v)) for path, v in _fields(body, ""))
    for path, digest in found.items():
        if path not in sealed:
            return f"field {path} was added after unosim wrote it"
        if sealed[path] != digest:
            return f"field {path} was changed after unosim wrote it (it is now {shorten(_at(body, path), 60)})"
    for path in sealed:
        if path not in found:
            return f"field {path} was removed after unosim wrote it"
    return "its seal does not match its content (the seal was edited)"


def _at(body: dict[str, Any], path: str) -> Any:
    return dict(_fields(body, "")).get(path)


def ledger_problem(root: Path, manifest: dict[str, Any]) -> str | None:
    """Why the ledger is not the one the manifest was sealed with, or None. A finished dataset's ledger
    must be exactly it; an unfinished one's may have grown by appends since (jobs finished after the
    manifest's last write)."""
    sealed = manifest["seal"]["ledger"]
    now = ledger_digest(root, sealed.get("bytes"))
    if now != sealed:
        if not (Path(root) / LEDGER).exists():
            return "missing (deleted after the run?)"
        return "does not match the manifest's seal (edited, replaced or truncated after the run)"
    if manifest["status"] == "complete" and (Path(root) / LEDGER).stat().st_size != sealed["bytes"]:
        return "holds lines written after the dataset was complete (edited after the run)"
    return None


def read_manifest(root: str | Path) -> dict[str, Any]:
    """The manifest of the dataset at ``root``, checked against its seal and for its shape; every
    problem raises :class:`DatasetError` in one line naming the field."""
    root = Path(root)
    path = root / MANIFEST
    if not root.is_dir():
        what = "a file" if root.exists() else "missing"
        raise DatasetError(f"{root} is not a unosim dataset ({what}): give the dataset directory a study "
                           f"run wrote, e.g. data/demo")
    if path.is_symlink():
        raise DatasetError(f"{path} is a symbolic link (to {path.resolve()}); a dataset's manifest is its own "
                           f"file: replace the link by the file")
    try:
        manifest = json.loads(path.read_bytes().decode("utf-8"))
    except FileNotFoundError:
        raise DatasetError(f"{root} is not a unosim dataset: no {MANIFEST}") from None
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise DatasetError(f"{path} is not valid JSON: {shorten(exc, text=True)}") from None
    except OSError as exc:
        raise DatasetError(f"cannot read {path}: {exc.strerror}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT_VERSION:
        found = manifest.get("format") if isinstance(manifest, dict) else None
        raise DatasetError(f"{root} is a dataset of format {shorten(found, 40)} (written by another unosim "
                           f"version); this unosim reads format {FORMAT_VERSION}: run the study again with "
                           f"--force")
    problem = seal_problem(manifest)
    if problem:
        raise DatasetError(f"{path}: {problem}; restore the file, or run the study again with --force")
    if manifest.get("status") == "clearing":
        raise DatasetError(f"{root} was being deleted by `unosim study run --force` when that run stopped; run "
                           f"it again with --force")
    _check_shape(path, manifest)
    return manifest


def _check_shape(path: Path, manifest: dict[str, Any]) -> None:
    """Every field a reader relies on has its type and range (a sealed manifest of another shape can only
    come from a program other than unosim)."""
    def need(ok: bool, field: str, value: Any, valid: str) -> None:
        if not ok:
            raise DatasetError(f"{path}: field {field} = {shorten(value, 60)} is invalid: {valid}; restore the "
                               f"file, or run the study again with --force")

    def whole(value: Any, lo: int = 0) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and value >= lo

    need(manifest.get("status") in STATUSES, "status", manifest.get("status"), f"one of {list(STATUSES)}")
    need(whole(manifest.get("chunk_size"), 1), "chunk_size", manifest.get("chunk_size"), "a whole number ≥ 1")
    need(whole(manifest.get("engine_version")), "engine_version", manifest.get("engine_version"), "a whole number")
    versions = manifest.get("mechanism_versions", {})
    need(isinstance(versions, dict) and all(whole(v) for v in versions.values()), "mechanism_versions", versions,
         "a table of mechanism → whole number")
    study = manifest.get("study")
    need(isinstance(study, dict), "study", study, "a table")
    need(isinstance(study.get("comparisons"), list), "study.comparisons", study.get("comparisons"), "a list")
    cells = study.get("cells")
    need(isinstance(cells, list) and cells and all(isinstance(c, dict) for c in cells), "study.cells", cells,
         "a non-empty list of cells")
    entries = manifest.get("cells")
    need(isinstance(entries, dict), "cells", entries, "a table of cells")
    for cell in cells:
        name = cell.get("name")
        match = _CELL_NAME.fullmatch(name) if isinstance(name, str) else None
        need(match is not None, "study.cells[].name", name, "variant-pN-lineup of lowercase identifiers")
        where = f"study.cells[{name}]"
        need(cell.get("variant") == match["variant"], f"{where}.variant", cell.get("variant"), "the cell's variant")
        need(cell.get("players") == int(match["players"]), f"{where}.players", cell.get("players"),
             "the cell's player count")
        need(cell.get("lineup") == match["lineup"], f"{where}.lineup", cell.get("lineup"), "the cell's lineup")
        need(whole(cell.get("games"), 1), f"{where}.games", cell.get("games"), "a whole number ≥ 1")
        need(whole(cell.get("seed")), f"{where}.seed", cell.get("seed"), "a whole number ≥ 0")
        entry = entries.get(name)
        need(isinstance(entry, dict), f"cells.{name}", entry, "the cell's progress and layout")
        need(entry.get("games") == cell["games"], f"cells.{name}.games", entry.get("games"),
             f"the cell's games ({cell['games']:,})")
        layout = entry.get("layout")
        need(_valid_layout(layout, cell["games"]), f"cells.{name}.layout", layout,
             "segments [first job, first game, games, chunk] covering the cell's games once")
        need(entry.get("jobs") == layout_job_count(layout_of(entry)), f"cells.{name}.jobs", entry.get("jobs"),
             "the number of jobs of its layout")
    need(len(entries) == len(cells), "cells", sorted(entries), "one entry per cell of study.cells")
    schema = manifest.get("schema")
    need(isinstance(schema, dict) and sorted(schema) == sorted(TABLES)
         and all(isinstance(cols, list) and all(isinstance(c, list) and len(c) == 2 and all(isinstance(x, str) for x in c)
                                                for c in cols) for cols in schema.values()),
         "schema", schema, f"the columns of each of {list(TABLES)}")


def _valid_layout(layout: Any, games: int) -> bool:
    """Segments of whole numbers that cover 0..games-1 once, their job numbers disjoint."""
    if not isinstance(layout, list) or not layout:
        return False
    if not all(isinstance(seg, list) and len(seg) == 4 and all(isinstance(x, int) and not isinstance(x, bool)
                                                                for x in seg) for seg in layout):
        return False
    if any(job0 < 0 or first < 0 or n < 1 or chunk < 1 for job0, first, n, chunk in layout):
        return False
    covered = sorted((first, first + n) for _, first, n, _ in layout)
    if covered[0][0] != 0 or covered[-1][1] != games or any(a[1] != b[0] for a, b in itertools.pairwise(covered)):
        return False
    jobs = sorted((job0, job0 + job_count(n, chunk)) for job0, _, n, chunk in layout)
    return all(a[1] <= b[0] for a, b in itertools.pairwise(jobs))


def record_progress(manifest: dict[str, Any], done: dict[tuple[str, int], dict[str, Any]]) -> None:
    """Set each cell's progress in the manifest from the finished jobs' ledger records."""
    for entry in manifest["cells"].values():
        entry["jobs_done"] = entry["games_done"] = 0
    for (cell, _), record in done.items():
        manifest["cells"][cell]["jobs_done"] += 1
        manifest["cells"][cell]["games_done"] += record["games"]
    for entry in manifest["cells"].values():
        entry["status"] = ("complete" if entry["jobs_done"] == entry["jobs"]
                           else "partial" if entry["jobs_done"] else "pending")


def games_on_disk(manifest: dict[str, Any]) -> tuple[int, int]:
    """(games done, games planned) as the manifest counts them."""
    done = sum(c["games_done"] for c in manifest["cells"].values())
    return done, sum(c["games"] for c in manifest["cells"].values())


def data_digest(manifest: dict[str, Any], records: dict[tuple[str, int], dict[str, Any]]) -> str:
    """The sha256 naming a dataset's content: its resolved spec, job layouts, schema, engine and mechanism
    versions and the sha256 of every part (not its timestamps, progress or the hosts that wrote it)."""
    parts = sorted(f"{cell}\t{job}\t{table}\t{record['parts'][table][2]}"
                   for (cell, job), record in records.items() for table in TABLES)
    head = {"study": manifest["study"], "schema": manifest["schema"], "engine_version": manifest["engine_version"],
            "layouts": {name: entry["layout"] for name, entry in manifest["cells"].items()}}
    if "mechanism_versions" in manifest:   # recorded since the mechanisms have versions
        head["mechanism_versions"] = manifest["mechanism_versions"]
    digest = hashlib.sha256(_canonical(head))
    digest.update("\n".join(parts).encode("utf-8"))
    return digest.hexdigest()
