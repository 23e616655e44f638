"""The README as a new user reads it: short, its Python and shell examples run as printed, and its one
table of figures is the one the results file makes."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
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


#: lines of the README's shell blocks this test does not run, each with why
SKIPPED = {
    "make demo": "the README's first step: the test starts where it ends, its tournament (_demo_commands) run "
                 "first in the scratch directory; the rest is the demo study and report, minutes of CPU",
    "make test": "the suite this test is part of",
    "unosim explore": "a server that runs until Ctrl-C (tests/explore/test_explore_api.py starts it)",
}


def _shell_lines() -> list[str]:
    """Every command of the README's fenced shell blocks, in the README's order (comments cut off)."""
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```(?:sh|bash|shell|console)\n(.*?)```", text, re.DOTALL)
    return [line.split("  #")[0].strip() for block in blocks for line in block.strip().splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


@pytest.mark.slow
def test_every_readme_shell_command_runs_in_order_after_make_demo(tmp_path):
    """The README's shell commands, top to bottom, as printed, in a scratch directory where `make demo`'s
    tournament already wrote its dataset (the README's order: `make demo`, then these): each exits 0.
    Only the lines of :data:`SKIPPED` are not run."""
    lines = _shell_lines()
    skipped = [line for line in lines if line.startswith(tuple(SKIPPED))]
    assert {"make demo", "make test"} <= set(skipped) and len(lines) - len(skipped) >= 5
    before = _demo_commands()
    assert len(before) == 1 and "--out data" in before[0]
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    for line in before + [line for line in lines if line not in skipped]:
        out = subprocess.run(line, shell=True, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=900)
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
