"""One lineup parser (policies.parse_lineup) behind every place a lineup is given: the explorer, the
study spec, `unosim study new house-rules`, simulate. Every lineup the docs and the page suggest works
everywhere, one-policy lineups included."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from unosim.cli.main import main
from unosim.explore.comparison import Comparison
from unosim.game import policies
from unosim.pipeline.house_rules import house_rules_spec
from unosim.pipeline.study import parse_study

ROOT = Path(__file__).resolve().parents[2]


def _suggested_lineups() -> set[str]:
    """The lineups the docs write after --lineup, and the ones the explorer page's lineup field names
    (its datalist is every policy; its hint names the fill form)."""
    texts = [p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]]
    found = {m for t in texts for m in re.findall(r"--lineup[ =]'([^'{}]+)'", t)}
    page = (ROOT / "unosim/explore/static/index.html").read_text(encoding="utf-8")
    found |= set(re.findall(r"'([a-z_]+,[a-z_]+\*)'", page))
    return found | set(policies.POLICIES) | {f"{p}*" for p in policies.POLICIES}


SUGGESTED = sorted(_suggested_lineups())


def test_the_suggestions_were_found():
    """The scan above reads what it means to (else the tests below would check nothing of the docs)."""
    assert "greedy_points,random*" in SUGGESTED
    assert any(s.startswith("greedy_first=") for s in SUGGESTED)


@pytest.mark.parametrize("lineup", SUGGESTED)
def test_every_suggested_lineup_is_accepted_by_the_explorer_and_its_saved_study(lineup):
    comparison = Comparison(lineup=lineup, players=3, games=10, what_if={"seven_o": True})   # a no-op is refused
    study = comparison.study()
    seats = policies.make_lineup(lineup, 3)
    assert [c.lineup for c in study.cells] == [policies.parse_lineup(lineup).name] * 2
    assert all(policies.make_lineup(c.lineup_spec, 3) == seats for c in study.cells)


@pytest.mark.parametrize("lineup", SUGGESTED)
def test_every_suggested_lineup_is_accepted_by_the_house_rules_generator(lineup):
    study = parse_study(tomllib.loads(house_rules_spec("classic", [3], games=10, lineups=[lineup], skill=False)))
    name = policies.parse_lineup(lineup).name
    cells = [c for c in study.cells if c.lineup == name]
    assert cells and all(policies.make_lineup(c.lineup_spec, 3) == policies.make_lineup(lineup, 3) for c in cells)


@pytest.mark.parametrize("lineup", ["greedy_points", "lookahead", "random*"])
def test_cli_house_rules_takes_a_one_policy_lineup(lineup, tmp_path, capsys):
    out = tmp_path / "spec.toml"
    assert main(["study", "new", "house-rules", "--variant", "classic", "--players", "3", "--games", "10",
                 "--lineup", lineup, "--out", str(out)]) == 0
    spec = tomllib.loads(out.read_text())
    assert lineup.rstrip("*") in spec["grid"][0]["lineups"]
    assert lineup.rstrip("*") not in spec.get("lineups", {})   # every study knows a policy as a lineup


@pytest.mark.parametrize("lineup, name, seats", [
    ("greedy_points", "greedy_points", ["greedy_points"] * 3),
    ("random*", "random", ["random"] * 3),
    ("greedy_points,random*", "greedy_points_random", ["greedy_points", "random", "random"]),
    ("mine=lookahead,random*", "mine", ["lookahead", "random", "random"]),
    ("random(p_bluff=0.5)", "random_p_bluff_0_5", ["random(p_bluff=0.5)"] * 3),
    ("greedy_points=greedy_points*", "greedy_points", ["greedy_points"] * 3),
    (["lookahead", "random*"], "lookahead_random", ["lookahead", "random", "random"]),
])
def test_parse_lineup_names_and_seats(lineup, name, seats):
    parsed = policies.parse_lineup(lineup)
    assert parsed.name == name
    assert [p.label for p in parsed.seats(3)] == seats


@pytest.mark.parametrize("lineup, message", [
    ("", "lineup is empty"),
    ("random*,greedy_points", "only the last entry may end with '*'"),
    ("random=greedy_points", "would redefine the policy 'random'"),
    ("greedy", "unknown policy 'greedy'"),
    ("random,random", "has 2 policies but players=3"),
    ("random,random,random,random*", "names 3 seats before the fill but players=2"),
])
def test_bad_lineups_are_refused_naming_the_problem(lineup, message):
    players = 2 if "random*" in lineup else 3
    with pytest.raises(ValueError, match=re.escape(message)):
        policies.make_lineup(lineup, players)
