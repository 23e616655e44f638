"""The README as a new user reads it: short, its Python and shell examples run as printed, and its one
table of figures is the one the results file makes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
README = ROOT / "README.md"
sys.path.insert(0, str(ROOT / "docs" / "gen"))


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)


def test_the_readme_is_at_most_200_lines():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 200


def test_the_readme_quick_start_is_the_two_commands():
    first = _blocks("sh")[0]
    assert [line.split("#")[0].strip() for line in first.strip().splitlines()] == ["make demo", "make test"]


@pytest.mark.slow
def test_the_readme_python_example_runs(tmp_path):
    (code,) = _blocks("python")
    assert len(code.strip().splitlines()) <= 12
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "won" in out.stdout and "n_turns" in out.stdout


def _demo_commands() -> list[str]:
    """The `unosim` commands of the Makefile's demo recipe that write under data/ (continuation lines joined)."""
    recipe = re.search(r"^demo:.*?\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(), re.M).group(1)
    lines = recipe.replace("\\\n", " ").splitlines()
    return [re.sub(r"^\s*\$\(BIN\)/python -m unosim ", "unosim ", line) for line in lines if "unosim tournament" in line]


@pytest.mark.slow
def test_the_readme_command_line_example_runs_after_make_demo(tmp_path):
    """Each line of the shell example, run as printed in a scratch directory where `make demo`'s tournament
    already wrote its dataset (the README's order: `make demo`, then these)."""
    shell = _blocks("sh")[1]
    lines = [line.split("  #")[0].strip() for line in shell.strip().splitlines()]
    assert len(lines) <= 5
    unosim = str(Path(sys.executable).with_name("unosim"))
    before = _demo_commands()
    assert len(before) == 1 and "--out data" in before[0]
    for line in before + lines:
        out = subprocess.run(line.replace("unosim ", unosim + " "), shell=True, capture_output=True, text=True,
                             cwd=tmp_path, timeout=900)
        assert out.returncode == 0, f"{line}: {out.stderr}"
    assert (tmp_path / "data" / "tournament_classic_p4" / "tournament" / "standings.csv").is_file()


def test_the_readme_table_is_the_generated_one():
    import readme_table

    assert readme_table.block(README.read_text(encoding="utf-8")) == readme_table.table().strip()


def test_the_readme_links_resolve():
    text = README.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#]+)\)", text):
        if not target.startswith("http"):
            assert (ROOT / target).exists(), target
