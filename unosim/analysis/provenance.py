"""Which dataset an analysis folder was computed from: ``analysis/`` is bound to its dataset's digest.

:func:`write_analysis` (run by ``unosim analyze``, and by ``unosim report`` when the folder is not
current) writes the tables and the files drawn from them (the charts), then, last, ``source.json``: the
digest of the dataset they were computed from (:attr:`unosim.store.reader.Dataset.digest`, which names
the spec, the layout and every part's sha256) and the sha256 of every file it wrote.
:func:`bound_tables` returns the tables only while all of that holds — the same dataset, the same
files, no link — so an analysis folder copied from another dataset, left over from before a resume grew
the dataset, or edited, is never reported as this dataset's numbers (:func:`current_tables` is what the
report reads; it computes nothing). Other files in the folder are no part of the analysis: nothing
reads them.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Callable, Iterable
from pathlib import Path

import polars as pl

from ..store.atomic import remove, write_text_atomic
from ..store.reader import Dataset
from ..store.table_store import INDEX
from .profile import Profile
from .standard import (
    FORMAT_FILE,
    TABLE_DIR,
    read_standard_tables,
    standard_tables,
    study_profile,
    write_standard_tables,
)

SOURCE = "source.json"
#: the tables every standard analysis holds (and ``effects`` when the study has comparisons)
ALWAYS = ("win_rates", "win_rates_dealer", "fairness", "points", "lengths", "length_distributions", "survival",
          "card_values", "card_balance")


def bound_tables(ds: Dataset, directory: str | Path) -> dict[str, pl.DataFrame] | None:
    """The standard tables in ``directory`` when it is bound to ``ds`` (see the module docstring), else
    None."""
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


def current_tables(ds: Dataset, directory: str | Path | None = None) -> dict[str, pl.DataFrame] | None:
    """The standard tables of ``ds`` in ``directory`` (default ``<dataset>/analysis``) when the folder is
    bound to ``ds`` and holds every table its study calls for, else None (then :func:`write_analysis`
    makes it current). Reads, never computes."""
    from .design import DESIGN_FILE
    from .design import TABLES as DESIGN_TABLES
    from .tournament import TOURNAMENT_FILE
    tables = bound_tables(ds, ds.path / TABLE_DIR if directory is None else directory)
    wanted = [*ALWAYS, *(["effects"] if ds.manifest["study"]["comparisons"] else []),
              *(["standings", "head_to_head"] if (ds.path / TOURNAMENT_FILE).is_file() else []),
              *(DESIGN_TABLES if (ds.path / DESIGN_FILE).is_file() else ())]
    return tables if tables is not None and all(name in tables for name in wanted) else None


def write_analysis(ds: Dataset, directory: str | Path,
                   draw: Callable[[dict[str, pl.DataFrame]], Iterable[Path]] | None = None,
                   draw_early: Callable[[dict[str, pl.DataFrame]], None] | None = None,
                   profile: Profile | None = None) -> tuple[dict[str, pl.DataFrame], list[Path]]:
    """Compute the standard tables of ``ds``, write them to ``directory``, let ``draw`` write the files it
    makes from them (the charts; it returns their paths) and bind all of it to ``ds``; returns (tables,
    table paths). ``draw_early`` is given the tables known before the comparisons (``ready`` of
    :func:`standard_tables`), to start drawing. ``profile``: the designer's profile the verdicts judge by
    (default: the study's). The old binding goes first, so a run that stops half-way leaves a folder
    bound to nothing."""
    directory = Path(directory)
    remove(directory / SOURCE)
    profile = profile or study_profile(ds)
    tables = standard_tables(ds, ready=draw_early, profile=profile)
    paths = write_standard_tables(tables, directory, profile)
    drawn = list(draw(tables)) if draw else []
    written = [*paths, directory / INDEX, directory / FORMAT_FILE, *drawn]
    bind(ds, directory, written)
    return tables, paths


def _sha256(directory: Path, name: str) -> str:
    """sha256 of ``directory/name``, which must be a regular file reached without a link (ValueError)."""
    path = directory / name
    for entry in (path, *path.relative_to(directory).parents):
        if entry != Path(".") and os.path.islink(directory / entry):
            raise ValueError(f"{directory / entry} is a link")
    if not stat.S_ISREG(os.lstat(path).st_mode):
        raise ValueError(f"{path} is not a regular file")
    return hashlib.sha256(path.read_bytes()).hexdigest()
