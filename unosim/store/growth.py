"""How a dataset grows: the spec changes it accepts (more games per cell, more cells) and the arithmetic of
its jobs when it grows or is cut anew for another chunk size.

Game ``g`` of a cell depends only on (cell seed, g), so a cell may gain games and a study may gain cells
without changing a game already played. Everything here works on the manifest's dicts (the cells'
layouts, :mod:`unosim.store.layout`); writing the manifest, the ledger and the parts is the run's
(:mod:`unosim.pipeline.start`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .layout import fresh_layout, job_count, job_span, layout_job_count, layout_of


class SpecChange(ValueError):
    """A spec that changes a dataset's games instead of extending them; the message names the change."""


@dataclass(frozen=True)
class Growth:
    """How a spec extends the spec a dataset was started with: cells given more games, cells added."""

    grown: dict[str, tuple[int, int]]   # cell name → (games before, games now)
    added: tuple[str, ...]

    def __bool__(self) -> bool:
        return bool(self.grown or self.added)


#: the fields of a resolved cell as a change names them (lineup_label follows from lineup_spec)
_CELL_FIELDS = {"lineup_spec": "lineup", "lineup_effective": "policy parameters", "rules_key": "rules",
                "seed": "seed", "variant": "variant", "players": "players", "lineup": "lineup name"}


def growth(old: dict[str, Any], new: dict[str, Any]) -> Growth:
    """How the resolved spec ``new`` extends ``old`` (both :meth:`unosim.pipeline.study.Study.resolved`): a
    cell may gain games and the study may gain cells; any other change raises :class:`SpecChange` naming
    the first one, e.g. ``cell 'x': lineup 'random*' → 'greedy_points*'``."""
    def shown(value: Any) -> str:
        text = repr(value)
        return text if len(text) <= 60 else text[:50] + "…"

    for key in ("name", "seed", "mode", "common_random_numbers", "description", "comparisons"):
        if old.get(key) != new.get(key):
            raise SpecChange(f"[study] {key} {shown(old.get(key))} → {shown(new.get(key))}")
    for table, what in (("variants", "variant"), ("lineups", "lineup")):
        for name, value in old[table].items():
            if name in new[table] and new[table][name] != value:
                raise SpecChange(f"{what} {name!r}: {shown(value)} → {shown(new[table][name])}")
    cells = {c["name"]: c for c in new["cells"]}
    grown = {}
    for cell in old["cells"]:
        name = cell["name"]
        if name not in cells:
            raise SpecChange(f"cell {name!r} removed (a dataset keeps its cells)")
        for key, label in _CELL_FIELDS.items():
            if cell.get(key) != cells[name].get(key):
                raise SpecChange(f"cell {name!r}: {label} {shown(cell.get(key))} → {shown(cells[name].get(key))}")
        if cells[name]["games"] < cell["games"]:
            raise SpecChange(f"cell {name!r}: games {cell['games']:,} → {cells[name]['games']:,} (a dataset can "
                             f"grow, not shrink)")
        if cells[name]["games"] > cell["games"]:
            grown[name] = (cell["games"], cells[name]["games"])
        if {k: v for k, v in cell.items() if k != "games"} != {k: v for k, v in cells[name].items() if k != "games"}:
            field = next(k for k in cell if cell[k] != cells[name].get(k) and k != "games")
            raise SpecChange(f"cell {name!r}: {field} {shown(cell[field])} → {shown(cells[name].get(field))}")
    known = {c["name"] for c in old["cells"]}
    return Growth(grown, tuple(c["name"] for c in new["cells"] if c["name"] not in known))


def cell_entry(games: int, chunk: int) -> dict[str, Any]:
    """The manifest entry of a cell not yet run: one segment of ``chunk``-game jobs."""
    layout = fresh_layout(games, chunk)
    return {"games": games, "games_done": 0, "jobs": layout_job_count(layout_of({"layout": layout})),
            "jobs_done": 0, "status": "pending", "layout": layout}


def grow(manifest: dict[str, Any], resolved: dict[str, Any], grown: Growth, done: dict) -> dict:
    """Extend ``manifest`` to the grown spec ``resolved``: each grown cell's last segment (in game order) is
    extended, so its jobs are those of one run at the new size; a short last job of the old size becomes
    a longer one and runs again: its record is taken out of ``done`` and returned (the caller drops it
    from the ledger, then its parts). New cells get fresh layouts; the cells follow the spec's order."""
    dropped = {}
    for name, (_, games) in grown.grown.items():
        entry = manifest["cells"][name]
        layout = [list(segment) for segment in entry["layout"]]
        last = max(layout, key=lambda segment: segment[1])
        job0, first, old_games, chunk = last
        tail = job_count(old_games, chunk) - 1 + job0   # the old last job
        last[2] = games - first
        end = job0 + job_count(last[2], chunk)
        if any(seg[0] < end and job0 < seg[0] + job_count(seg[2], seg[3]) for seg in layout if seg is not last):
            last[2] = old_games   # the extension's job numbers are in use (after a re-chunk): a segment of its own
            layout.append([_next_job(layout), first + old_games, games - first - old_games, manifest["chunk_size"]])
        elif (name, tail) in done and job_span(layout_of({"layout": layout}), tail)[1] != done[(name, tail)]["games"]:
            dropped[(name, tail)] = done.pop((name, tail))
        entry.update(games=games, layout=layout)
        entry["jobs"] = layout_job_count(layout_of(entry))
    for name in grown.added:
        cell = next(c for c in resolved["cells"] if c["name"] == name)
        manifest["cells"][name] = cell_entry(cell["games"], manifest["chunk_size"])
    manifest["study"] = resolved
    manifest["cells"] = {c["name"]: manifest["cells"][c["name"]] for c in resolved["cells"]}   # spec order
    return dropped


def rechunk(manifest: dict[str, Any], chunk: int, done: dict) -> None:
    """Cut the games no finished job holds into jobs of ``chunk`` games (new job numbers); the
    finished jobs keep theirs (consecutive ones as one segment). A cell with no finished job is laid
    out afresh, as a new run would. Costs memory by finished jobs, not by games."""
    for name, entry in manifest["cells"].items():
        layout = layout_of(entry)
        finished = sorted((*job_span(layout, job), job) for cell, job in done if cell == name)
        if not finished:
            entry["layout"] = fresh_layout(entry["games"], chunk)
        elif sum(games for _, games, _ in finished) < entry["games"]:
            kept = []   # segments [first job, first game, games, chunk] + [jobs]
            for first, games, job in finished:
                run, chunk_of = (kept[-1] if kept else None), _chunk_of(layout, job)
                if (run is not None and run[0] + run[4] == job and run[1] + run[2] == first and run[3] == chunk_of
                        and run[2] == run[3] * run[4]):
                    run[2] += games
                    run[4] += 1
                else:
                    kept.append([job, first, games, chunk_of, 1])
            segments = [run[:4] for run in kept]
            next_job = _next_job([list(s) for s in layout])
            edge = 0
            for _, first, games, _, _ in [*kept, [0, entry["games"], 0, 0, 0]]:
                if first > edge:   # a gap no finished job holds
                    segments.append([next_job, edge, first - edge, chunk])
                    next_job += job_count(first - edge, chunk)
                edge = first + games
            entry["layout"] = sorted(segments, key=lambda segment: segment[1])
        entry["jobs"] = layout_job_count(layout_of(entry))
    manifest["chunk_size"] = chunk


def _next_job(layout: list[list[int]]) -> int:
    return max(job0 + job_count(games, chunk) for job0, _, games, chunk in layout)


def _chunk_of(layout, job: int) -> int:
    return next(chunk for job0, _, games, chunk in layout if job0 <= job < job0 + job_count(games, chunk))
