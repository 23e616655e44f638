"""Which dataset an analysis folder was computed from: ``analysis/`` is bound to its dataset's digest.

``unosim analyze`` (and a report that computes its tables) writes the tables and charts, then, last,
``source.json``: the digest of the dataset they were computed from
(:attr:`unosim.dataset.Dataset.digest`, which names the spec, the layout and every part's sha256) and
the sha256 of every file it wrote. :func:`bound_tables` returns the tables only while all of that
holds — the same dataset, the same files, no file added, no link — so an analysis folder copied from
another dataset, left over from before a resume grew the dataset, or edited, is never reported as this
dataset's numbers: the report computes them again (:func:`write_analysis`).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

import polars as pl

from .atomic import remove, write_text_atomic
from .dataset import Dataset

SOURCE = "source.json"


def bound_tables(ds: Dataset, directory: str | Path) -> dict[str, pl.DataFrame] | None:
    """The standard tables in ``directory`` when it is bound to ``ds`` (see the module docstring), else
    None. The one check the report makes before it reuses an analysis folder."""
    from .analysis.standard import read_standard_tables
    directory = Path(directory)
    if not is_bound(ds, directory):
        return None
    return read_standard_tables(directory)


def is_bound(ds: Dataset, directory: Path) -> bool:
    """Whether ``directory`` holds exactly the files its ``source.json`` lists, with their sha256, and
    names ``ds``'s digest."""
    try:
        if os.path.islink(directory) or os.path.islink(directory / SOURCE):
            return False
        source = json.loads((directory / SOURCE).read_text(encoding="utf-8"))
        if source.get("dataset_digest") != ds.digest:
            return False
        return _files(directory) == source.get("files")
    except (OSError, ValueError, AttributeError, RecursionError):
        return False


def bind(ds: Dataset, directory: str | Path) -> None:
    """Record that every file now in ``directory`` was computed from ``ds`` (written last, atomically)."""
    directory = Path(directory)
    text = json.dumps({"dataset": ds.name, "dataset_digest": ds.digest, "files": _files(directory)},
                      indent=2, sort_keys=True)
    write_text_atomic(directory / SOURCE, text + "\n")


def write_analysis(ds: Dataset, directory: str | Path) -> tuple[dict[str, pl.DataFrame], list[Path], dict]:
    """Compute the standard tables and charts of ``ds``, write them to ``directory`` and bind it to
    ``ds``; returns (tables, table paths, chart SVGs by name). The old binding goes first, so a run
    that stops half-way leaves a folder bound to nothing."""
    from .analysis.standard import standard_tables, write_standard_tables
    from .charts import CHART_DIR, study_charts, write_charts
    directory = Path(directory)
    remove(directory / SOURCE)
    tables = standard_tables(ds)
    paths = write_standard_tables(tables, directory)
    charts = write_charts(study_charts(tables), directory / CHART_DIR)
    bind(ds, directory)
    return tables, paths, charts


def _files(directory: Path) -> dict[str, str]:
    """relative path → sha256 of every file below ``directory`` but ``source.json``; a link or another
    kind of entry makes the folder unbindable (ValueError)."""
    out = {}
    for folder, subfolders, names in os.walk(directory):
        for name in subfolders + names:
            path = Path(folder) / name
            mode = os.lstat(path).st_mode
            if stat.S_ISLNK(mode) or not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
                raise ValueError(f"{path} is a link or not a regular file")
            if stat.S_ISREG(mode) and not (path.parent == directory and name == SOURCE):
                out[str(path.relative_to(directory))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return dict(sorted(out.items()))
