"""Shared session fixtures. Helpers live in plain helper modules (``study_specs``, ``scenario_tools``,
``differential_cases``, ``fuzz_draws``); no test module imports another."""

from __future__ import annotations

import os
import tomllib

import pytest
from study_specs import DEMO_SPEC, HOUSE_RULE_SPEC, MATCH_SPEC, small_spec

from unosim.pipeline.runner import run_study
from unosim.pipeline.study import parse_study

# Every engine call of the tests (subprocesses included) runs on one build with every mechanism and
# policy, compiled once into the shared cache (the first worker to need it compiles it, the other waits):
# compiling each call's own build would compile dozens. tests/test_builds.py plays specialised builds
# against it, and tests/test_warm_cache.py compiles a user's first build in a cache of its own.
os.environ.setdefault("UNOSIM_ENGINE_BUILD", "full")


def pytest_collection_modifyitems(config, items):
    """Tests marked ``long`` first (a stable sort keeps the rest in order): pytest-xdist hands out tests
    in this order, so on two workers the cold compile of test_warm_cache (a user's first build, in a
    child process) overlaps the other worker's compile of the session's build instead of running alone
    at the end."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


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


@pytest.fixture(scope="session")
def demo_dataset(tmp_path_factory):
    """The demo study (analyses/studies/demo.toml) with 1,000 games per cell instead of 4,000."""
    spec = tomllib.loads(DEMO_SPEC.read_text())
    spec["study"]["games"] = 1000
    out = tmp_path_factory.mktemp("datasets")
    return run_study(parse_study(spec, source=str(DEMO_SPEC)), out, n_jobs=1, progress=False).path


@pytest.fixture(scope="session")
def house_rule_dataset(tmp_path_factory):
    """A rule with a large known effect (draw_until_playable: longer rounds) and one that never triggers
    under the built-in policies (force_play_drawn: they always play a drawn playable card)."""
    out = tmp_path_factory.mktemp("datasets")
    return run_study(parse_study(HOUSE_RULE_SPEC), out, n_jobs=1, progress=False).path
