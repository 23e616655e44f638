"""The rule table (unosim/game/rule_table.py) generates RuleSet's fields and validation, the kernel's rule slots,
``unosim rules --help`` and the table of docs/rules.md §3.1: each of those agrees with it."""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import numpy as np
import pytest
from commands import run_unosim

from unosim.game import protocol, rule_table, rules
from unosim.game.rule_table import PARAMETERS

ROOT = Path(__file__).parents[2]


def test_ruleset_fields_are_the_table():
    names = [f.name for f in fields(rules.RuleSet) if f.name not in ("family", "_name")]
    assert names == [r.name for r in PARAMETERS] == list(rules.RULE_KEYS)
    assert rules.COMMON_DEFAULTS == {r.name: r.default for r in PARAMETERS}


def test_every_kernel_rule_slot_belongs_to_one_rule():
    ir = {f.name for f in protocol.IRULES.fields} - {"FAMILY", "PLAYERS", "AUDIT"}
    fr = {f.name for f in protocol.FRULES.fields}
    assert ir == {r.slot_name for r in PARAMETERS if r.record == "IR"}
    assert fr == {r.slot_name for r in PARAMETERS if r.record == "FR"}
    slots = [r.slot for r in PARAMETERS if r.slot]
    assert len(slots) == len(set(slots))


# a value other than the classic default for every rule that has a kernel slot (spin rules in spin)
_CHANGES = {"hand_size": 5, "match_mode": "lowest", "blank_effects": ("plain_wild",) * 3, "target": 200, "first_dealer": 1,
            "max_turns_per_round": 999, "max_rounds_per_match": 7, "p_forget_uno": 0.25, "p_catch": 0.75,
            "uno_penalty": 3, "stacking": "any_draw", "mercy_limit": 20, "jump_in": True, "seven_o": True,
            "draw_until_playable": True, "force_play_drawn": True, "voluntary_draw": False,
            "wd4_challenge": False, "no_bluffing": True, "two_player_reverse_skip": False,
            "final_card_effects": False, "p_dumbfu_fail": 0.5, "dumbfu_penalty": 6,
            "spin_weights": (2.0,) + (1.0,) * 8, "shout_weight": (1.0, 2.0, 1.0, 1.0), "spin_first_card_spins": True,
            "spin_continue_after_winner": False, "cards": ("draw_three:coloured,effects=draw:3",)}


def _family_of(rule) -> str:
    return {"minions": "minions", "spin": "spin"}.get(rule.mechanisms[0], "classic") if rule.mechanisms else "classic"


@pytest.mark.parametrize("rule", [r for r in PARAMETERS if r.slot], ids=lambda r: r.name)
def test_compile_writes_each_rule_into_its_own_slot(rule):
    """Changing one rule changes its slot and no other (wd4_challenge also reads no_bluffing)."""
    family = _family_of(rule)
    base = rules.get_variant(family)
    changed = base.replace(**{rule.name: _CHANGES[rule.name]})
    (ir0, fr0, _), (ir1, fr1, _) = base.compile(4), changed.compile(4)
    offset = protocol.GENERATED[rule.slot]
    record0, record1 = (ir0, ir1) if rule.record == "IR" else (fr0, fr1)
    inside = np.zeros(len(record0), bool)
    inside[offset:offset + rule.size] = True
    assert not np.array_equal(record0[inside], record1[inside]), f"{rule.slot} did not change"
    moved = (record0 != record1) & ~inside
    if rule.name == "no_bluffing":   # no_bluffing switches challenges off in the kernel (docs/rules.md §1.8)
        moved[protocol.IR_WD4_CHALLENGE] = False
    assert not moved.any() and np.array_equal((fr0 if rule.record == "IR" else ir0),
                                              (fr1 if rule.record == "IR" else ir1))


def test_docs_rule_table_is_generated_from_the_table():
    text = (ROOT / "docs" / "rules.md").read_text()
    found = re.search(r"<!-- rule-table:start -->\n(.*?)\n<!-- rule-table:end -->", text, re.S)
    assert found, "docs/rules.md lost its generated rule table markers"
    assert found.group(1) == rule_table.markdown(), (
        "docs/rules.md §3.1 is out of date: run "
        "python -c 'from unosim.game.rule_table import write_docs; write_docs(\"docs/rules.md\")'")


def test_every_rule_section_is_a_heading_of_the_rules_doc():
    headings = set(re.findall(r"^#{2,4} (\d+(?:\.\d+)*)\.? ", (ROOT / "docs" / "rules.md").read_text(), re.M))
    assert {r.section for r in PARAMETERS} <= headings


def test_rules_help_lists_every_rule_with_its_description():
    out = run_unosim("rules", "--help", check=True).stdout
    for r in PARAMETERS:
        assert f"{r.name}: {r.doc}" in out


@pytest.mark.parametrize("name,value", [("hand_size", 0), ("stacking", "sometimes"), ("jump_in", "yes"),
                                        ("p_catch", 1.5), ("target", 0), ("deck", {"draw_two": -1})])
def test_a_bad_value_names_the_rule_and_what_is_valid(name, value):
    with pytest.raises(ValueError, match=rf"{name}.*valid"):
        rules.get_variant("classic", {name: value})


def test_the_engine_cache_digest_follows_the_rule_slots_not_the_tables_prose(tmp_path):
    """The compiled rule layout comes from the table: a new slot is a new engine version, a reworded
    description is not (compiled builds stay valid)."""
    import os
    import shutil

    from unosim.engine.compiler import cache
    package = tmp_path / "unosim"
    shutil.copytree(ROOT / "unosim", package, ignore=shutil.ignore_patterns("__pycache__"))
    table = package / "game" / "rule_table.py"

    def digest() -> str:
        out = subprocess.run([sys.executable, "-c", "from unosim.engine.compiler.cache import DIGEST; print(DIGEST)"],
                             capture_output=True, text=True, cwd=tmp_path,
                             env={**os.environ, "PYTHONPATH": str(tmp_path)}, timeout=300)
        assert out.returncode == 0, out.stderr
        return out.stdout.strip()

    table.write_text(table.read_text().replace('"play an identical card out of turn"', '"jump in"'))
    assert digest() == cache.DIGEST
    table.write_text(table.read_text().replace(
        "PARAMETERS: tuple[Rule, ...] = (", 'PARAMETERS: tuple[Rule, ...] = (\n    _toggle("scratch", False, "a new rule", "4"),'))
    assert digest() != cache.DIGEST


ON = {"stacking": "any_draw", "mercy_limit": 25, "n_blank": 1}


@pytest.mark.parametrize("rule", [r for r in PARAMETERS if r.switches_on], ids=lambda r: r.name)
def test_a_rule_that_switches_a_mechanism_on_makes_the_build_compile_it(rule):
    """The builds read the rule table (rule_table.switched_on): switching the rule on adds its mechanism
    and nothing else; the mechanism is one the engine knows."""
    from unosim.engine.compiler.builds import mechanisms_of
    assert rule.switches_on in protocol.MECHANISMS
    classic = rules.get_variant("classic", {rule.name: rule.off})   # classic deals blanks: n_blank=0 is off
    assert rule.switches_on not in mechanisms_of(classic)
    on = rules.get_variant("classic", {rule.name: ON.get(rule.name, True)})
    assert mechanisms_of(on) - mechanisms_of(classic) == {rule.switches_on}


def test_a_behaviour_rule_names_a_choice_the_casual_players_make():
    from unosim.game.policies import parse_policy
    from unosim.pipeline.house_rules import BEHAVIOUR_LINEUP, BEHAVIOURS
    assert BEHAVIOURS == {r.name: r.behaviour for r in PARAMETERS if r.behaviour} and BEHAVIOURS
    casual = dict(parse_policy(BEHAVIOUR_LINEUP[1]).params)
    assert all(casual[choice] > 0 for choice in BEHAVIOURS.values())


@pytest.mark.parametrize("rule", [r for r in PARAMETERS if r.per_seat], ids=lambda r: r.name)
def test_a_per_seat_rule_takes_one_value_per_seat_of_the_table(rule):
    family = rule.mechanisms[0] if rule.mechanisms else "classic"
    ruleset = rules.get_variant(family, {rule.name: [rule.default, rule.default, rule.default]})
    ruleset.check_players(3)
    with pytest.raises(ValueError, match=f"{rule.name} has 3 entries but players=4"):
        ruleset.check_players(4)


def test_a_rule_of_two_active_seats_runs_at_two_players_only():
    from unosim.pipeline.house_rules import alternatives
    two = {r.name for r in PARAMETERS if r.two_active_seats}
    assert two == {"two_player_reverse_skip"}
    cells = alternatives("classic", [2, 4])
    assert {a.rule for a in cells if a.two_players_only} == two
    assert not any(a.rule in two for a in alternatives("classic", [3, 4]))
