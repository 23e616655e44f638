"""Small study datasets shared by the study, dataset, analysis, report, CLI and notebook tests.

Import the fixtures into a test module (``from study_fixtures import small_dataset``).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from unosim.runner import run_study
from unosim.study import parse_study

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


def small_spec(**study_overrides) -> dict:
    return {**SMALL_SPEC, "study": {**SMALL_SPEC["study"], **study_overrides}}


@pytest.fixture(scope="session")
def small_dataset(tmp_path_factory):
    """The path of a complete small single-round study (5 cells × 600 games… see SMALL_SPEC)."""
    out = tmp_path_factory.mktemp("datasets")
    return run_study(parse_study(small_spec()), out, n_jobs=1, chunk_size=250, progress=False).path


@pytest.fixture(scope="session")
def match_dataset(tmp_path_factory):
    """The path of a complete small points-mode study."""
    out = tmp_path_factory.mktemp("datasets")
    return run_study(parse_study(MATCH_SPEC), out, n_jobs=1, progress=False).path


DEMO_SPEC = Path(__file__).parents[1] / "analyses" / "studies" / "demo.toml"


@pytest.fixture(scope="session")
def demo_dataset(tmp_path_factory):
    """The demo study (analyses/studies/demo.toml) with 1,000 games per cell instead of 4,000."""
    spec = tomllib.loads(DEMO_SPEC.read_text())
    spec["study"]["games"] = 1000
    out = tmp_path_factory.mktemp("datasets")
    return run_study(parse_study(spec, source=str(DEMO_SPEC)), out, n_jobs=1, progress=False).path


HOUSE_RULE_SPEC = {
    "study": {"name": "known_effects", "seed": 3, "games": 1500, "mode": "single_round"},
    "variants": {"draw_until_playable": {"base": "classic", "rules": {"draw_until_playable": True}},
                 "force_play_drawn": {"base": "classic", "rules": {"force_play_drawn": True}}},
    "grid": [{"variants": ["classic", "draw_until_playable", "force_play_drawn"], "players": [4],
              "lineups": ["random"]}],
    "comparisons": [{"axis": "variant", "a": "classic", "b": "draw_until_playable"},
                    {"axis": "variant", "a": "classic", "b": "force_play_drawn"}],
}


@pytest.fixture(scope="session")
def house_rule_dataset(tmp_path_factory):
    """A rule with a large known effect (draw_until_playable: longer rounds) and one that never triggers
    under the built-in policies (force_play_drawn: they always play a drawn playable card)."""
    out = tmp_path_factory.mktemp("datasets")
    return run_study(parse_study(HOUSE_RULE_SPEC), out, n_jobs=1, progress=False).path
