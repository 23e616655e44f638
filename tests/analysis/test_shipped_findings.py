"""Every finding of the shipped study specs holds against its tables: each spec (analyses/studies/, the
million-game one aside) run small, analysed, its claims checked as `unosim analyze` checks them."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from unosim.analysis.checker import check_claims
from unosim.analysis.standard import as_written, read_findings, standard_tables, write_standard_tables
from unosim.pipeline.runner import run_study
from unosim.pipeline.study import parse_study
from unosim.store.reader import open_dataset

STUDIES = Path(__file__).parents[2] / "analyses" / "studies"


@pytest.mark.slow
@pytest.mark.parametrize("name, games", [("house_rules", 150), ("house_rules_no_mercy", 150)])
def test_the_findings_of_a_shipped_spec_hold_against_its_tables(name, games, tmp_path):
    spec = tomllib.loads((STUDIES / f"{name}.toml").read_text())
    spec["study"]["games"] = games
    path = run_study(parse_study(spec, source=name), tmp_path, n_jobs=1, progress=False).path
    tables = standard_tables(open_dataset(path))
    write_standard_tables(tables, tmp_path / "analysis")  # raises on a finding its tables contradict
    found = read_findings(tmp_path / "analysis")
    assert found and check_claims(as_written(tables), found) == []
