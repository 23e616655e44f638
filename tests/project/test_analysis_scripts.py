"""The thin scripts in analyses/ run on a dataset and write their tables."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = {"win_rates": "win_rates.csv", "card_values": "card_values.csv", "comparisons": "compare_wins.csv"}


@pytest.mark.parametrize("script", SCRIPTS)
def test_script_writes_its_table(script, small_dataset, tmp_path):  # noqa: F811
    # on a copy: a script's table in the shared dataset's analysis/ would unbind the analysis the other
    # tests of the session read, and make each of them compute it again
    dataset = Path(shutil.copytree(small_dataset, tmp_path / "small", ignore=shutil.ignore_patterns("analysis")))
    path = Path(__file__).parents[2] / "analyses" / f"{script}.py"
    out = subprocess.run([sys.executable, str(path), str(dataset)], capture_output=True, text=True,
                         check=False)
    assert out.returncode == 0, out.stderr
    assert (dataset / "analysis" / SCRIPTS[script]).exists()
    assert "estimate" in out.stdout


def _strength(tmp_path, *arguments: str) -> dict:
    """Run analyses/strength.py into a results file of its own; its table, read back as the docs page reads it."""
    sys.path.insert(0, str(Path(__file__).parents[2] / "docs" / "gen"))
    import results_pages
    out = tmp_path / "strength.json"
    path = Path(__file__).parents[2] / "analyses" / "strength.py"
    done = subprocess.run([sys.executable, str(path), *arguments, "--variants", "classic", "--n-jobs", "1",
                           "--out", str(out), "--caption", "pairs"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    data = results_pages.load(out)   # stamped with date, commit and machine, or refused
    assert "pairs" in results_pages.render(data)
    [table] = data["tables"]
    assert "classic: 111 cards, rules `classic`" in table["setting"]
    return table


def test_strength_table_rows(tmp_path):
    """One row per pair; at two players A's win rate is its head-to-head share."""
    table = _strength(tmp_path, "--pairs", "by_colour:random,random:by_colour", "--deals", "300", "--players", "2")
    rows = table["rows"]
    assert [(r[2], r[3]) for r in rows] == [("by_colour", "random"), ("random", "by_colour")]
    for r in rows:
        assert r[5] == r[6]
    share = [float(r[5].split()[0]) for r in rows]   # the same deals seen from either side
    assert share[0] + share[1] == pytest.approx(1.0, abs=2e-3)


def test_strength_table_rows_for_a_field_of_opponents(tmp_path):
    """``A:B+C`` is one tournament: a row per opponent, the same win rate of A in each (one field)."""
    table = _strength(tmp_path, "--pairs", "by_colour:random+greedy_points", "--deals", "200", "--players", "3",
                      "--seating", "rotations")
    rows = table["rows"]
    assert [r[3].split()[0] for r in rows] == ["random", "greedy_points"]
    assert rows[0][5] == rows[1][5] and rows[0][6] != rows[1][6]


def test_a_strength_table_replaces_the_table_of_its_caption_only(tmp_path):
    """A second run of one caption replaces its table; the other tables of the results file stay."""
    out = tmp_path / "strength.json"
    out.write_text(json.dumps({"title": "t", "about": "a", "command": "c", "measured": {}, "tables": [
        {"caption": "kept", "setting": "s", "columns": ["x"], "rows": [[1]]},
        {"caption": "pairs", "setting": "old", "columns": ["x"], "rows": [[2]]}]}))
    path = Path(__file__).parents[2] / "analyses" / "strength.py"
    done = subprocess.run([sys.executable, str(path), "--pairs", "by_colour:random", "--deals", "100", "--players",
                           "2", "--variants", "classic", "--n-jobs", "1", "--out", str(out), "--caption", "pairs"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    tables = json.loads(out.read_text())["tables"]
    assert [t["caption"] for t in tables] == ["kept", "pairs"] and tables[1]["setting"] != "old"


def test_flip_pairing_script_compares_every_pairing_with_the_default(tmp_path):
    """analyses/flip_pairing.py: a table per player count, a row per pairing, the others' differences from
    the default pairing with z-scores, stamped as a results file."""
    sys.path.insert(0, str(Path(__file__).parents[2] / "docs" / "gen"))
    import results_pages
    out = tmp_path / "flip_pairing.json"
    path = Path(__file__).parents[2] / "analyses" / "flip_pairing.py"
    done = subprocess.run([sys.executable, str(path), "--games", "300", "--expert-games", "0", "--players", "2,3",
                           "--out", str(out)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    data = results_pages.load(out)
    assert [t["caption"] for t in data["tables"]] == ["flip, 2 players", "flip, 3 players"]
    for table in data["tables"]:
        assert [row[0] for row in table["rows"]] == ["shared_backs", "transcribed"]
        assert table["rows"][0][3] == "" and "z = " in table["rows"][1][3]


def test_card_prices_script_checks_each_card_by_a_paired_study(tmp_path):
    """analyses/card_prices.py: a table per player count, a row per card with its price, the fit's value
    against the Draw Two, the paired study's and their z, stamped as a results file."""
    sys.path.insert(0, str(Path(__file__).parents[2] / "docs" / "gen"))
    import results_pages
    out = tmp_path / "card_prices.json"
    path = Path(__file__).parents[2] / "analyses" / "card_prices.py"
    done = subprocess.run([sys.executable, str(path), "--games", "3000", "--players", "2", "--out", str(out)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    data = results_pages.load(out)
    assert [t["caption"] for t in data["tables"]] == ["classic, 2 players"]
    rows = data["tables"][0]["rows"]
    assert [r[0].split(" ")[0] for r in rows] == ["draw_three", "skip_two", "burden", "draw_until"]
    assert all(" ± " in r[2] and " ± " in r[3] and float(r[4]) == float(r[4]) for r in rows)
