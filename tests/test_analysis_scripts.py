"""The thin scripts in analyses/ run on a dataset and write their tables."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = {"win_rates": "win_rates.csv", "card_values": "card_values.csv", "comparisons": "compare_wins.csv"}


@pytest.mark.parametrize("script", SCRIPTS)
def test_script_writes_its_table(script, small_dataset):  # noqa: F811
    path = Path(__file__).parents[1] / "analyses" / f"{script}.py"
    out = subprocess.run([sys.executable, str(path), str(small_dataset)], capture_output=True, text=True,
                         check=False)
    assert out.returncode == 0, out.stderr
    assert (small_dataset / "analysis" / SCRIPTS[script]).exists()
    assert "estimate" in out.stdout


def test_strength_table_rows():
    """One markdown row per pair; at two players A's win rate is its head-to-head share."""
    path = Path(__file__).parents[1] / "analyses" / "strength.py"
    out = subprocess.run([sys.executable, str(path), "--pairs", "by_colour:random,random:by_colour", "--deals",
                          "300", "--variants", "classic", "--players", "2", "--n-jobs", "1"],
                         capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    rows = [line.split("|")[1:-1] for line in out.stdout.splitlines()[2:]]
    assert [(r[2].strip(), r[3].strip()) for r in rows] == [("by_colour", "random"), ("random", "by_colour")]
    for r in rows:
        assert r[5].strip() == r[6].strip()
    share = [float(r[5].split()[0]) for r in rows]   # the same deals seen from either side
    assert share[0] + share[1] == pytest.approx(1.0, abs=2e-3)


def test_strength_table_rows_for_a_field_of_opponents():
    """``A:B+C`` is one tournament: a row per opponent, the same win rate of A in each (one field)."""
    path = Path(__file__).parents[1] / "analyses" / "strength.py"
    out = subprocess.run([sys.executable, str(path), "--pairs", "by_colour:random+greedy_points", "--deals", "200",
                          "--variants", "classic", "--players", "3", "--n-jobs", "1", "--seating", "rotations"],
                         capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    rows = [line.split("|")[1:-1] for line in out.stdout.splitlines()[2:]]
    assert [r[3].split()[0] for r in rows] == ["random", "greedy_points"]
    assert rows[0][5] == rows[1][5] and rows[0][6] != rows[1][6]
