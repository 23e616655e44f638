"""The house-rule spec generator covers every non-fixed house rule of a variant, derived from the registry."""

from __future__ import annotations

import tomllib
from dataclasses import fields
from pathlib import Path

import pytest

from unosim.cli import main
from unosim.game import rule_table, rules
from unosim.pipeline.house_rules import house_rules_spec
from unosim.pipeline.study import load_study, parse_study

STUDIES = Path(__file__).parents[2] / "analyses" / "studies"


def registry_alternatives(variant: str, players: list[int]) -> set[tuple[str, object]]:
    """Every (rule, value) the registry accepts for ``variant`` that differs from its published value:
    the boolean fields of RuleSet and the stacking modes (docs/rules.md §4)."""
    base = rules.get_variant(variant)
    out = set()
    candidates = [(f.name, not getattr(base, f.name)) for f in fields(rules.RuleSet)
                  if isinstance(getattr(base, f.name), bool) and f.name != "_name"]
    candidates += [("stacking", s) for s in rule_table.STACKING]
    for name, value in candidates:
        if value == getattr(base, name):
            continue
        try:
            rules.get_variant(variant, {name: value})
        except ValueError:
            continue
        if name == "two_player_reverse_skip" and 2 not in players and base.mercy_limit is None:
            continue  # only acts with two active players
        out.add((name, value))
    return out


def spec_alternatives(spec: dict, variant: str) -> dict[tuple[str, object], str]:
    out = {}
    for name, entry in spec.get("variants", {}).items():
        assert entry["base"] == variant
        ((rule, value),) = entry["rules"].items()
        out[(rule, None if value == "none" else value)] = name
    return out


@pytest.mark.parametrize("variant", rules.variant_names())
@pytest.mark.parametrize("players", [[3, 4], [2, 3]])
def test_spec_covers_every_house_rule_and_pairs_every_cell_with_the_baseline(variant, players):
    spec = tomllib.loads(house_rules_spec(variant, players, games=1000))
    alternatives = spec_alternatives(spec, variant)
    missing = registry_alternatives(variant, players) - set(alternatives)
    assert not missing, missing
    base = rules.get_variant(variant)
    rules_in_spec = {rule for rule, _ in alternatives}
    assert {"mercy_limit", "hand_size"} <= rules_in_spec
    assert ("hand_size", base.hand_size - 2) in alternatives and ("hand_size", base.hand_size + 2) in alternatives
    for (rule, value) in alternatives:  # nothing the registry refuses, nothing equal to the baseline
        assert rules.get_variant(variant, {rule: value}) != base
    study = parse_study(spec)
    compared = {(c.a, c.b) for c in study.comparisons}
    assert compared == {(variant, name) for name in alternatives.values()}
    baseline_seed = {c.players: c.seed for c in study.cells if c.variant == variant}
    for cell in study.cells:  # common random numbers: every cell deals the baseline's decks
        assert cell.seed == baseline_seed[cell.players]


def test_fixed_rules_are_left_out():
    spec = tomllib.loads(house_rules_spec("no_mercy", [3, 4], games=10))
    rules_in_spec = {rule for rule, _ in spec_alternatives(spec, "no_mercy")}
    assert not rules_in_spec & {"stacking", "seven_o", "draw_until_playable", "force_play_drawn", "wd4_challenge"}


def test_two_player_reverse_skip_runs_only_at_two_players():
    study = parse_study(tomllib.loads(house_rules_spec("classic", [2, 3], games=10)))
    cells = [c for c in study.cells if c.variant == "no_two_player_reverse_skip"]
    assert cells and {c.players for c in cells} == {2}


@pytest.mark.parametrize("name, variant", [("house_rules", "classic"), ("house_rules_no_mercy", "no_mercy")])
def test_shipped_specs_are_the_generated_ones(name, variant):
    text = (STUDIES / f"{name}.toml").read_text()
    spec = tomllib.loads(text)
    assert set(spec_alternatives(spec, variant)) >= registry_alternatives(variant, [3, 4])
    assert spec["grid"][0]["players"] == [3, 4]
    load_study(STUDIES / f"{name}.toml")


def test_cli_writes_the_spec_and_rejects_bad_input(tmp_path, capsys):
    out = tmp_path / "hr.toml"
    assert main(["study", "new", "house-rules", "--variant", "spin", "--players", "3", "--games", "50",
                 "--lineup", "greedy_points,random*", "--no-skill", "--out", str(out)]) == 0
    study = load_study(out)
    from unosim.pipeline.house_rules import BEHAVIOUR_LINEUP
    assert {c.lineup for c in study.cells} == {"greedy_points_random", BEHAVIOUR_LINEUP[0]}
    assert "spin_first_card_spins" in {c.variant for c in study.cells}
    assert main(["study", "new", "house-rules", "--variant", "uno", "--players", "3"]) == 2
    err = capsys.readouterr().err
    assert "unknown variant 'uno'" in err and "classic" in err and "Traceback" not in err
    assert main(["study", "new", "house-rules", "--variant", "classic", "--players", "20"]) == 2


@pytest.mark.parametrize("variant", rules.variant_names())
def test_rules_that_need_a_choice_come_with_a_lineup_that_makes_it(variant):
    """force_play_drawn, no_voluntary_draw, no_wd4_challenge and no_bluffing "never triggered": no built-in
    policy bluffs, challenges, draws voluntarily or keeps a drawn card. The spec adds a lineup that does,
    says so in a comment, and the lineup's policy honours every parameter those rules need."""
    from unosim.game.policies import make_lineup
    from unosim.pipeline.house_rules import BEHAVIOUR_LINEUP, BEHAVIOURS
    text = house_rules_spec(variant, [3, 4], games=100)
    spec = tomllib.loads(text)
    needing = [name for name, entry in spec.get("variants", {}).items() if set(entry["rules"]) & set(BEHAVIOURS)]
    name, lineup = BEHAVIOUR_LINEUP
    if not needing:
        assert name not in text
        return
    from unosim.pipeline.house_rules import EXPERT_LINEUP
    assert spec["lineups"][name] == lineup
    assert all(name in g["lineups"] for g in spec["grid"] if g["lineups"] != [EXPERT_LINEUP[0]])
    assert f"The lineup {name} makes those choices" in text and all(n in text.split("[study]")[0] for n in needing)
    seat = make_lineup(lineup, 4)[0]
    rule_names = {r for entry in spec["variants"].values() for r in entry["rules"]} & set(BEHAVIOURS)
    assert all(dict(seat.params).get(BEHAVIOURS[r], 0) > 0 for r in rule_names)


@pytest.mark.parametrize("players", [[3, 4], [2, 3]])
def test_every_rule_gets_an_expert_cell_and_its_all_random_twin_unless_told_not_to(players):
    from unosim.analysis.effects import all_random, skilled_seat
    from unosim.pipeline.house_rules import EXPERT_LINEUP, SKILL_GAMES
    study = parse_study(tomllib.loads(house_rules_spec("classic", players, games=20_000, lineups=["greedy_points,random*"])))
    expert = {(c.variant, c.players): c for c in study.cells if c.lineup == EXPERT_LINEUP[0]}
    twins = {(c.variant, c.players): c for c in study.cells if c.lineup == "random"}
    every = {(c.variant, c.players) for c in study.cells}
    assert set(expert) == set(twins) == every
    for key, cell in expert.items():
        assert cell.games == SKILL_GAMES and twins[key].games == 20_000 and cell.seed == twins[key].seed
        assert skilled_seat(cell.lineup_spec, cell.players) == 0 and all_random(twins[key].lineup_spec, cell.players)
    plain = parse_study(tomllib.loads(house_rules_spec("classic", players, games=100, lineups=["greedy_points,random*"],
                                                       skill=False)))
    assert {c.lineup for c in plain.cells} <= {"greedy_points_random", "casual"}


def test_casual_players_mean_the_same_in_the_demo_and_in_generated_house_rule_studies():
    from unosim.pipeline.house_rules import BEHAVIOUR_LINEUP
    demo = tomllib.loads((STUDIES / "demo.toml").read_text())
    assert BEHAVIOUR_LINEUP == ("casual", demo["lineups"]["casual"])
