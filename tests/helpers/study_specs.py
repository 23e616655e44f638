"""Small study specs and table helpers shared by the study, runner, dataset, analysis, report, CLI and
notebook tests (a helper module, not a test module; the datasets built from these specs are the session
fixtures of ``conftest.py``)."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from unosim.store.reader import open_dataset

SMALL_SPEC = {
    "study": {"name": "small", "seed": 7, "games": 600, "mode": "single_round"},
    "variants": {"no_blank": {"base": "classic", "rules": {"n_blank": 0}},
                 "no_bluffing": {"base": "classic", "rules": {"no_bluffing": True}}},
    "lineups": {"greedy_first": "greedy_points,random*"},
    "grid": [{"variants": ["classic", "minions"], "players": [2, 3], "lineups": ["random", "greedy_first"]},
             {"variants": ["no_blank", "no_bluffing"], "players": [3], "lineups": ["random"]}],
    "comparisons": [{"axis": "lineup", "a": "random", "b": "greedy_first"},
                    {"axis": "variant", "a": "classic", "b": "no_bluffing"}],
}

MATCH_SPEC = {
    "study": {"name": "matches", "seed": 11, "games": 120, "mode": "points"},
    "grid": [{"variants": ["classic"], "players": [3], "lineups": ["random"]}],
}


DEMO_SPEC = Path(__file__).parents[2] / "analyses" / "studies" / "demo.toml"

HOUSE_RULE_SPEC = {
    "study": {"name": "known_effects", "seed": 3, "games": 1500, "mode": "single_round"},
    "variants": {"draw_until_playable": {"base": "classic", "rules": {"draw_until_playable": True}},
                 "force_play_drawn": {"base": "classic", "rules": {"force_play_drawn": True}}},
    "grid": [{"variants": ["classic", "draw_until_playable", "force_play_drawn"], "players": [4],
              "lineups": ["random"]}],
    "comparisons": [{"axis": "variant", "a": "classic", "b": "draw_until_playable"},
                    {"axis": "variant", "a": "classic", "b": "force_play_drawn"}],
}


def spec_file(folder: Path, name: str, *, seed: int, games: int, variants=("classic",), players=(3,),
              lineups=("random",), mode: str = "single_round") -> Path:
    """``folder/name.toml``: a study spec of one grid, as a user writes it for `unosim study run`."""
    from unosim.pipeline.study import toml_value
    study = {"name": name, "seed": seed, "games": games, "mode": mode}
    grid = {"variants": list(variants), "players": list(players), "lineups": list(lineups)}
    path = Path(folder) / f"{name}.toml"
    path.write_text("[study]\n" + "".join(f"{k} = {toml_value(v)}\n" for k, v in study.items())
                    + "[[grid]]\n" + "".join(f"{k} = {toml_value(v)}\n" for k, v in grid.items()))
    return path


def small_spec(**study_overrides) -> dict:
    return {**SMALL_SPEC, "study": {**SMALL_SPEC["study"], **study_overrides}}


def small(**study) -> dict:
    """SMALL_SPEC cut to one variant (classic, two player counts, two lineups) of 300 games."""
    spec = small_spec(**{"games": 300, **study})
    return {**spec, "grid": [spec["grid"][0] | {"variants": ["classic"]}], "comparisons": []}


SORT = {"rounds": ["variant", "players", "lineup", "game", "round"],
        "seats": ["variant", "players", "lineup", "game", "round", "seat"],
        "matches": ["variant", "players", "lineup", "game"]}


def table(path: Path, name: str) -> pl.DataFrame:
    """A whole table, in a canonical order, with categorical columns as plain strings."""
    frame = open_dataset(path).scan(name).collect()
    return frame.with_columns(pl.col(pl.Categorical, pl.Enum).cast(pl.String)).sort(SORT[name])


def analyzed(path: Path):
    """The dataset at ``path``, opened, with a current analysis (``unosim analyze`` runs unless it has one):
    what a report renders. The analysis of a dataset the xdist workers share is made by one of them."""
    from unosim.analysis.provenance import current_tables
    from unosim.cli import main
    with analysis_lock(path):
        if current_tables(open_dataset(path)) is None:
            assert main(["analyze", str(path)]) == 0
    return open_dataset(path)


def analysis_lock(path: Path):
    """Held while a command may write the analysis into the dataset at ``path`` (``unosim analyze`` or
    ``report`` without --out), which the xdist workers may share."""
    from made_once import locked
    return locked(path.parent / f"{path.name}.analysis.lock")
