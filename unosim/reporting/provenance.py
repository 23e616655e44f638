"""Which dataset an analysis folder was computed from: ``analysis/`` is bound to its dataset's digest.

``unosim analyze`` (and a report that computes its tables) writes the tables and charts, then, last,
``source.json``: the digest of the dataset they were computed from
(:attr:`unosim.store.reader.Dataset.digest`, which names the spec, the layout and every part's sha256) and
the sha256 of every file it wrote. :func:`bound_tables` returns the tables only while all of that
holds — the same dataset, the same files, no link — so an analysis folder copied from another
dataset, left over from before a resume grew the dataset, or edited, is never reported as this
dataset's numbers: the report computes them again (:func:`write_analysis`). Other files in the folder
are no part of the analysis: nothing reads them.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

import polars as pl

from ..store.atomic import remove, write_text_atomic
from ..store.reader import Dataset
from ..store.table_store import INDEX

SOURCE = "source.json"


def bound_tables(ds: Dataset, directory: str | Path) -> dict[str, pl.DataFrame] | None:
    """The standard tables in ``directory`` when it is bound to ``ds`` (see the module docstring), else
    None. The one check the report makes before it reuses an analysis folder."""
    from ..analysis.standard import read_standard_tables
    directory = Path(directory)
    if not is_bound(ds, directory):
        return None
    return read_standard_tables(directory)


def is_bound(ds: Dataset, directory: Path) -> bool:
    """Whether ``directory``'s ``source.json`` names ``ds``'s digest and every file it lists is there,
    a regular file (not through a link) with its recorded sha256."""
    try:
        if os.path.islink(directory) or os.path.islink(directory / SOURCE):
            return False
        source = json.loads((directory / SOURCE).read_text(encoding="utf-8"))
        if source.get("dataset_digest") != ds.digest or not isinstance(source.get("files"), dict):
            return False
        return all(_sha256(directory, name) == digest for name, digest in source["files"].items())
    except (OSError, ValueError, AttributeError, RecursionError):
        return False


def bind(ds: Dataset, directory: str | Path, files: list[Path]) -> None:
    """Record that ``files`` (in ``directory``) were computed from ``ds`` (written last, atomically)."""
    directory = Path(directory)
    listed = {str(Path(f).relative_to(directory)): _sha256(directory, str(Path(f).relative_to(directory)))
              for f in files}
    text = json.dumps({"dataset": ds.name, "dataset_digest": ds.digest, "files": dict(sorted(listed.items()))},
                      indent=2, sort_keys=True)
    write_text_atomic(directory / SOURCE, text + "\n")


def write_analysis(ds: Dataset, directory: str | Path) -> tuple[dict[str, pl.DataFrame], list[Path], dict]:
    """Compute the standard tables and charts of ``ds``, write them to ``directory`` and bind it to
    ``ds``; returns (tables, table paths, chart SVGs by name). The old binding goes first, so a run
    that stops half-way leaves a folder bound to nothing."""
    from ..analysis.standard import standard_tables, write_standard_tables
    from .charts import CHART_DIR, study_charts, write_charts
    directory = Path(directory)
    remove(directory / SOURCE)
    tables = standard_tables(ds)
    paths = write_standard_tables(tables, directory)
    charts = write_charts(study_charts(tables), directory / CHART_DIR)
    written = [*paths, directory / INDEX, *(f for f in [directory / "FORMAT"] if f.exists()),   # standard's marker
               *(directory / CHART_DIR / f"{name}.{kind}" for name in charts for kind in ("svg", "png"))]
    bind(ds, directory, written)
    return tables, paths, charts


def _sha256(directory: Path, name: str) -> str:
    """sha256 of ``directory/name``, which must be a regular file reached without a link (ValueError)."""
    path = directory / name
    for entry in (path, *path.relative_to(directory).parents):
        if entry != Path(".") and os.path.islink(directory / entry):
            raise ValueError(f"{directory / entry} is a link")
    if not stat.S_ISREG(os.lstat(path).st_mode):
        raise ValueError(f"{path} is not a regular file")
    return hashlib.sha256(path.read_bytes()).hexdigest()
