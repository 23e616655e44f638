"""Fewer, larger files to read a dataset of many small jobs: analysis time set by rows, not by jobs.

Reading a parquet file costs a fixed time (open, footer, 40 column schemas) before its first row, so
a dataset of many small jobs is slow to scan, and an analysis scans each table many times: the same rows
in 20,000 jobs took an analysis over 16 times as long as in 200 (docs/results/code_choices.json). So
when a run completes, the
parts of each cell and table that are small (under ``SMALL_PART`` bytes on average, more than
``MIN_PARTS`` of them) are also written as a few consolidated files of about ``TARGET_BYTES`` each,
under ``consolidated/<table>/variant=V/players=N/``, and readers scan those instead.

They are a cache derived from verified parts, never the record: ``consolidated/index.json`` (written
last, with its own sha256) names the dataset digest they were built from
(:attr:`unosim.store.reader.Dataset.digest`, which covers every part's sha256), each file's sha256 and
stamp, and the parts it replaces. A reader uses a file only while all of that holds — the same
dataset, the file unchanged (its stamp, else its sha256), no link on the way — and the parts
otherwise. Deleting the folder loses nothing.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import stat
from pathlib import Path
from typing import Any

from .atomic import check_confined, write_bytes_atomic, write_text_atomic

DIR = "consolidated"
INDEX = "index.json"
#: a cell's table is consolidated when it has more parts than this, smaller than SMALL_PART on average
MIN_PARTS = 32
SMALL_PART = 1 << 20
#: bytes of parts per consolidated file: large enough that its fixed cost vanishes, small enough that
#: building it holds well under a gigabyte of rows in memory
TARGET_BYTES = 16 << 20


def build(root: Path, parts: dict[str, tuple[str, ...]], sizes: dict[str, int], digest: str) -> int:
    """Write the consolidated files of the verified dataset at ``root`` (its ``parts`` by table, their
    sizes by path, its ``digest``), replacing any earlier ones; returns the number of files written."""
    root = Path(root)
    folder = root / DIR
    check_confined(folder / INDEX)
    if folder.is_dir() and not folder.is_symlink():
        shutil.rmtree(folder)
    files: dict[str, dict[str, Any]] = {}
    for table, paths in parts.items():
        for group in _groups(paths, sizes):
            first = Path(group[0])
            rel = f"{DIR}/{table}/{first.parent.parent.name}/{first.parent.name}/cell-{first.stem[5:]}.parquet"
            data = _merged(group)
            write_bytes_atomic(root / rel, data)
            st = os.lstat(root / rel)
            files[rel] = {"sha256": hashlib.sha256(data).hexdigest(), "stamp": _stamp(st),
                          "parts": [os.path.relpath(p, root) for p in group]}
    if files:
        body = json.dumps({"dataset_digest": digest, "files": files}, separators=(",", ":"))
        header = json.dumps({"sha256": hashlib.sha256(body.encode()).hexdigest()})
        write_text_atomic(folder / INDEX, header + "\n" + body)
    return len(files)


def _merged(group: list[str]) -> bytes:
    """The parquet bytes of one consolidated file: the rows of ``group``'s parts, in order."""
    import polars as pl  # here: a run whose parts are large consolidates nothing and never needs polars
    buffer = io.BytesIO()
    pl.scan_parquet(group, hive_partitioning=False).collect().write_parquet(
        buffer, compression="zstd", compression_level=1, statistics=False)
    return buffer.getvalue()


def _groups(paths: tuple[str, ...], sizes: dict[str, int]) -> list[list[str]]:
    """Runs of one cell's small parts (in path order), each of about TARGET_BYTES."""
    by_cell: dict[str, list[str]] = {}
    for path in paths:
        name = Path(path).name
        by_cell.setdefault(f"{Path(path).parent}/{name[:name.rindex('-')]}", []).append(path)
    out = []
    for group in by_cell.values():
        total = sum(sizes[p] for p in group)
        if len(group) <= MIN_PARTS or total >= SMALL_PART * len(group):
            continue
        run, run_bytes = [], 0
        for path in group:
            run.append(path)
            run_bytes += sizes[path]
            if run_bytes >= TARGET_BYTES:
                out.append(run)
                run, run_bytes = [], 0
        if run:
            out.append(run)
    return out


def reading_parts(root: Path, parts: dict[str, tuple[str, ...]], digest: str) -> dict[str, tuple[str, ...]]:
    """``parts`` with every group of parts that a sound consolidated file holds replaced by that file
    (see the module docstring); ``parts`` as they are when there is none."""
    root = Path(root)
    index = _index(root)
    if index is None or index.get("dataset_digest") != digest:
        return parts
    replaced: dict[str, str] = {}   # part path → the consolidated file that holds it
    for rel, entry in index["files"].items():
        if _sound(root, rel, entry):
            for part in entry["parts"]:
                replaced[str(root / part)] = str(root / rel)
    if not replaced:
        return parts
    out = {}
    for table, paths in parts.items():
        seen, listed = set(), []
        for path in paths:
            target = replaced.get(path, path)
            if target not in seen:
                seen.add(target)
                listed.append(target)
        out[table] = tuple(listed)
    return out


def _index(root: Path) -> dict[str, Any] | None:
    path = root / DIR / INDEX
    try:
        if any(os.path.islink(p) for p in (root / DIR, path)):
            return None
        head, _, body = path.read_bytes().partition(b"\n")
        if hashlib.sha256(body).hexdigest() != json.loads(head)["sha256"]:
            return None
        index = json.loads(body)
        return index if isinstance(index, dict) and isinstance(index.get("files"), dict) else None
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None


def _sound(root: Path, rel: str, entry: dict[str, Any]) -> bool:
    """The file is there, reached without a link, a regular file, and unchanged since it was written
    (its stamp, or else its sha256)."""
    path = root / rel
    try:
        for parent in Path(rel).parents:
            if str(parent) != "." and os.path.islink(root / parent):
                return False
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode):
            return False
        if _stamp(st) == entry["stamp"]:
            return True
        return hashlib.sha256(path.read_bytes()).hexdigest() == entry["sha256"]
    except (OSError, KeyError, TypeError):
        return False


def _stamp(st: os.stat_result) -> list[int]:
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
