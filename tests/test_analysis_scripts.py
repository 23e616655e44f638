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
