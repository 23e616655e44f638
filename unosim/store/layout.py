"""A study's dataset on disk: where each file lives, how a cell's games are cut into jobs, and the error a
dataset that cannot be used raises.

Layout of ``<out>/<study>/``::

    manifest.json      resolved spec, versions, column schema, per-cell jobs and progress, and its seal
                       (written atomically; see :mod:`unosim.store.manifest`)
    parts.jsonl        the ledger: one line per finished job with each part's rows, bytes and sha256
                       (see :mod:`unosim.store.ledger`)
    parts.verified     what the last verification proved of each part (a cache, see integrity)
    consolidated/      a dataset of many small jobs read from a few files (a cache, see consolidate)
    rounds/variant=V/players=N/part-<cell>-<job>.parquet
    seats/variant=V/players=N/part-<cell>-<job>.parquet
    matches/variant=V/players=N/part-<cell>-<job>.parquet
    .lock, .lock.owner the run's lock (see :mod:`unosim.store.lock`)

``variant`` is the study's variant name (a registry name or a ``[variants]`` entry) and ``players`` the
player count; both live in the path only. The parts are written by :mod:`unosim.store.writer`.

**Jobs.** A cell's games are cut into jobs by its *layout*: segments ``[first_job, first_game, games,
chunk]``, each cut into jobs of ``chunk`` games (the last one shorter). A new cell has one segment
``[0, 0, games, chunk_size]``. Raising a cell's ``games`` extends its last segment (so the dataset equals
one run at the new size from the start: only the old last job, if it was short, is run again); a
resume with another chunk size keeps the finished jobs and cuts the rest anew (new job numbers).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

TABLES = ("rounds", "seats", "matches")
MANIFEST = "manifest.json"
LEDGER = "parts.jsonl"
#: columns stored in the path, not in the files (their types: ``reader.PARTITION_SCHEMA``)
PARTITION_COLUMNS = ("variant", "players")


class DatasetError(ValueError):
    """A dataset that cannot be used as it is (missing, incomplete, or not matching its manifest)."""


def shorten(value: Any, limit: int = 120, *, text: bool = False) -> str:
    """``repr(value)`` (``text``: ``value`` itself) cut to about ``limit`` characters, so that an error
    stays one readable line."""
    text = str(value) if text else repr(value)
    text = text.replace("\n", "\\n")
    return text if len(text) <= limit else f"{text[:limit - 20]}… ({len(text):,} characters)"


def part_path(root: Path, table: str, variant: str, players: int, cell_name: str, job: int) -> Path:
    return root / table / f"variant={variant}" / f"players={players}" / f"part-{cell_name}-{job:05d}.parquet"


def job_count(games: int, chunk_size: int) -> int:
    """Number of jobs of a cell of ``games`` games (arithmetic: a trillion-game cell costs nothing)."""
    return -(-games // chunk_size)


def job_range(games: int, chunk_size: int, job: int) -> tuple[int, int]:
    """(first_game, games) of job ``job`` of a cell."""
    first = job * chunk_size
    return first, min(chunk_size, games - first)


#: a cell's jobs: segments (first job, first game, games, chunk), see the module docstring
Layout = tuple[tuple[int, int, int, int], ...]


def fresh_layout(games: int, chunk_size: int) -> list[list[int]]:
    return [[0, 0, games, chunk_size]]


def layout_of(entry: dict[str, Any]) -> Layout:
    """The layout of a manifest cell entry (``manifest["cells"][name]``)."""
    return tuple(tuple(segment) for segment in entry["layout"])


def layout_jobs(layout: Layout) -> Iterator[tuple[int, int, int]]:
    """(job, first_game, games) of every job of a layout, in layout order, generated lazily."""
    for job0, first, games, chunk in layout:
        for k in range(job_count(games, chunk)):
            start, n = job_range(games, chunk, k)
            yield job0 + k, first + start, n


def job_span(layout: Layout, job: int) -> tuple[int, int] | None:
    """(first_game, games) of job ``job`` of a layout, or None when the layout has no such job."""
    for job0, first, games, chunk in layout:
        k = job - job0
        if 0 <= k < job_count(games, chunk):
            start, n = job_range(games, chunk, k)
            return first + start, n
    return None


def layout_job_count(layout: Layout) -> int:
    return sum(job_count(games, chunk) for _, _, games, chunk in layout)
