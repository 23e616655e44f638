"""Studies that grow (issue 25 item 5): more games per cell, or more cells, extend a dataset — only the new
jobs run, the rest is verified and kept, and the result equals a run at the new size from the start —
while any other change is refused naming what changed; the chunk size may change on resume."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from study_specs import small, table

from unosim.pipeline.runner import RunError, run_study
from unosim.pipeline.study import parse_study
from unosim.store.layout import MANIFEST, TABLES
from unosim.store.ledger import read_ledger, rewrite_ledger
from unosim.store.manifest import read_manifest
from unosim.store.reader import open_dataset


def spec(*extra: tuple[int, int]) -> dict:
    """small(), plus a classic random cell of (players, games) per ``extra``."""
    base = small()
    return {**base, "grid": [*base["grid"], *({"variants": ["classic"], "players": [n], "lineups": ["random"],
                                               "games": g} for n, g in extra)]}


def part_hashes(root: Path) -> dict[str, str]:
    """Every part file by its path in the dataset → sha256 of its bytes."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for table in TABLES for p in sorted((root / table).rglob("*.parquet"))}


def content(root: Path) -> dict:
    return {name: table(root, name).hash_rows().sort().to_list() for name in TABLES}


def test_raising_games_runs_only_the_new_jobs_and_equals_a_run_at_the_new_size(tmp_path):
    grown = run_study(parse_study(small(games=300)), tmp_path / "grown", n_jobs=1, chunk_size=140, progress=False)
    before = part_hashes(grown.path)
    for games in (450, 700):   # grown in two steps
        summary = run_study(parse_study(small(games=games)), tmp_path / "grown", n_jobs=1, progress=False)
        assert summary.games_run < 4 * games   # only new jobs (and each cell's short last job) ran
    fresh = run_study(parse_study(small(games=700)), tmp_path / "fresh", n_jobs=1, chunk_size=140, progress=False)
    after = part_hashes(grown.path)
    assert after == part_hashes(fresh.path)   # byte for byte: the same jobs, the same parts
    assert {k: v for k, v in before.items() if not k.endswith("-00002.parquet")} == \
        {k: after[k] for k in before if not k.endswith("-00002.parquet")}   # the full jobs were kept
    assert open_dataset(grown.path).digest == open_dataset(fresh.path).digest
    assert read_manifest(grown.path)["study"] == read_manifest(fresh.path)["study"]


def test_adding_cells_runs_only_the_new_cells(tmp_path):
    first = run_study(parse_study(spec()), tmp_path / "grown", n_jobs=1, chunk_size=100, progress=False)
    before = part_hashes(first.path)
    wider = spec((4, 200))
    summary = run_study(parse_study(wider), tmp_path / "grown", n_jobs=1, progress=False)
    assert summary.games_run == 200 and summary.jobs_skipped == 12
    fresh = run_study(parse_study(wider), tmp_path / "fresh", n_jobs=1, chunk_size=100, progress=False)
    assert part_hashes(first.path) == part_hashes(fresh.path)
    assert {k: part_hashes(first.path)[k] for k in before} == before
    assert [c["name"] for c in read_manifest(first.path)["study"]["cells"]][-1] == "classic-p4-random"


@pytest.mark.parametrize("change, message", [
    (lambda s: s["lineups"].update(greedy_first="random*"),
     "lineup 'greedy_first': 'greedy_points,random\\*' → 'random\\*'"),
    (lambda s: s["study"].update(seed=8), r"\[study\] seed 7 → 8"),
    (lambda s: s["study"].update(games=200), "cell 'classic-p2-random': games 300 → 200"),
    (lambda s: s["grid"][0].update(players=[2]), "cell 'classic-p3-random' removed"),
    (lambda s: s["study"].update(mode="points"), r"\[study\] mode 'single_round' → 'points'"),
])
def test_any_other_change_is_refused_naming_it(tmp_path, change, message):
    run_study(parse_study(small()), tmp_path, n_jobs=1, chunk_size=150, progress=False)
    other = json.loads(json.dumps(small()))
    change(other)
    with pytest.raises(RunError, match=f"different spec \\({message}.*--force"):
        run_study(parse_study(other), tmp_path, n_jobs=1, progress=False)


def test_a_lineup_change_of_a_cell_is_named_as_in_the_issue(tmp_path):
    named = {**small(), "lineups": {"x": "random*"},
             "grid": [{"variants": ["classic"], "players": [2], "lineups": ["x"]}]}
    run_study(parse_study(named), tmp_path, n_jobs=1, progress=False)
    named["lineups"]["x"] = "greedy_points*"
    with pytest.raises(RunError, match="lineup 'x': 'random\\*' → 'greedy_points\\*'"):
        run_study(parse_study(named), tmp_path, n_jobs=1, progress=False)


def test_the_chunk_size_may_change_on_resume(tmp_path, monkeypatch):
    """Issue 24: the chunk size could not be lowered on resume without --force (it changes no game), e.g.
    for a match study whose jobs hit the memory budget."""
    from unosim.pipeline import runner
    study = parse_study(small(games=300))
    real = runner._run_jobs
    stop_after = {"jobs": 3}

    def dies_midway(study, root, manifest, done, workers, progress, threads):
        real_append = runner.ledger.append_ledger

        def counted(where, record):
            real_append(where, record)
            stop_after["jobs"] -= 1
            if stop_after["jobs"] == 0:
                raise KeyboardInterrupt
        monkeypatch.setattr(runner.ledger, "append_ledger", counted)
        try:
            real(study, root, manifest, done, workers, progress, threads)
        finally:
            monkeypatch.setattr(runner.ledger, "append_ledger", real_append)

    monkeypatch.setattr(runner, "_run_jobs", dies_midway)
    with pytest.raises(KeyboardInterrupt):
        run_study(study, tmp_path / "a", n_jobs=1, chunk_size=120, progress=False)
    monkeypatch.setattr(runner, "_run_jobs", real)
    root = tmp_path / "a" / "small"
    ledger = read_ledger(root)
    assert len(ledger) == 3
    # as if job 1 had been in flight: a gap between finished jobs 0 and 2
    del ledger[("classic-p2-random", 1)]
    rewrite_ledger(root, ledger)
    for part in root.glob("*/*/*/part-classic-p2-random-00001.parquet"):
        part.unlink()
    kept = read_ledger(root)
    summary = run_study(study, tmp_path / "a", n_jobs=1, chunk_size=50, progress=False)
    assert summary.jobs_skipped == 2
    manifest = read_manifest(tmp_path / "a" / "small")
    assert manifest["chunk_size"] == 50
    assert all(read_ledger(root)[key]["parts"] == record["parts"] for key, record in kept.items())
    fresh = run_study(study, tmp_path / "b", n_jobs=1, chunk_size=120, progress=False)
    assert content(summary.path) == content(fresh.path)   # the same rows, cut differently
    with pytest.raises(RunError, match="either more games or another chunk size"):
        run_study(parse_study(small(games=400)), tmp_path / "a", n_jobs=1, chunk_size=70, progress=False)
    assert (tmp_path / "a" / "small" / MANIFEST).exists()
    # a re-cut dataset grows too (its last segment's job numbers may be taken: the growth gets its own)
    grown = run_study(parse_study(small(games=400)), tmp_path / "a", n_jobs=1, progress=False)
    assert grown.games_run == 4 * 100   # job 2 (games 240-299) stays; 300-399 form a segment of their own
    assert len(read_manifest(root)["cells"]["classic-p2-random"]["layout"]) == 4
    larger = run_study(parse_study(small(games=400)), tmp_path / "c", n_jobs=1, chunk_size=120, progress=False)
    assert content(grown.path) == content(larger.path)
