"""Shared session fixtures. Helpers live in plain helper modules (``study_specs``, ``scenario_tools``,
``differential_cases``, ``fuzz_draws``); no test module imports another."""

from __future__ import annotations

import pytest
from study_specs import MATCH_SPEC, small_spec

from unosim.runner import run_study
from unosim.study import parse_study


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
