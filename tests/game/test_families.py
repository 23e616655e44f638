"""Variant families (unosim.game.families) and validation at construction (RuleSet.__post_init__).

The toy-variant test follows CONTRIBUTING.md's "add a variant" walkthrough: one FamilySpec (the classic
game with four extra 7s, no new mechanism) added to the registry, played by both engines with identical
traces.
"""

from __future__ import annotations

import numpy as np
import pytest

import unosim
from unosim import reference
from unosim.game import cards, families, protocol, rule_table
from unosim.game.rules import RuleSet, get_variant, make_rules, variant_names
from unosim.play.simulate import resolve, run_compiled


# ---- validation at construction (issue 10 item 5) ----------------------------------------------------
def test_direct_construction_validates_like_get_variant():
    with pytest.raises(ValueError, match=r"stacking='bogus'.*\['none', 'same_kind', 'any_draw', 'escalating'\]"):
        RuleSet(family="classic", stacking="bogus")
    with pytest.raises(ValueError, match="stacking='bogus'"):
        get_variant("classic", {"stacking": "bogus"})
    with pytest.raises(ValueError, match=r"hand_size=0 is invalid: valid is an integer in 1\.\.15"):
        RuleSet(family="spin", hand_size=0)
    with pytest.raises(ValueError, match="fixed to escalating in no_mercy"):
        RuleSet(family="no_mercy", stacking="none")
    with pytest.raises(ValueError, match="p_dumbfu_fail=0.5 applies only to the minions family"):
        RuleSet(family="classic", p_dumbfu_fail=0.5)
    with pytest.raises(ValueError, match="unknown variant family 'bogus'"):
        RuleSet(family="bogus")


@pytest.mark.parametrize("name", variant_names())
def test_direct_construction_starts_from_the_family_defaults(name):
    assert RuleSet(family=name) == get_variant(name)
    assert RuleSet(family=name, jump_in=True) == get_variant(name, {"jump_in": True})


def test_construction_normalises_like_make_rules():
    rs = RuleSet(family="classic", blank_effects="others_draw_1", p_forget_uno=[0.1, 0.2, 0.3])
    assert rs.blank_effects == ("others_draw_1",) * rule_table.N_BLANK_SLOTS
    assert rs.p_forget_uno == (0.1, 0.2, 0.3)
    assert rs == make_rules("classic", {"blank_effects": "others_draw_1", "p_forget_uno": [0.1, 0.2, 0.3]})


# ---- the built-in families --------------------------------------------------------------------------
@pytest.mark.parametrize("spec", families.REGISTRY, ids=lambda s: s.name)
def test_deck_holds_only_the_kinds_the_family_declares(spec):
    counts = spec.deck_counts(3)
    held = set(np.asarray(cards.KIND)[counts > 0].tolist())
    assert held <= set(spec.kinds), held - set(spec.kinds)


def test_first_card_exclusions_follow_from_the_decks():
    # docs/rules.md §3: classic-family decks refuse their 4 WD4s; no_mercy turns up until a number (88 others);
    # flip refuses its 4 Wild Draw Twos (§2.6.2)
    assert {s.name: get_variant(s.name).first_card_excluded() for s in families.REGISTRY} == \
        {"classic": 4, "minions": 4, "spin": 4, "no_mercy": 88, "flip": 4}


def test_a_family_s_counters_are_its_mechanism_s_round_columns():
    assert {s.name: s.counters for s in families.REGISTRY} == {
        "classic": (), "minions": ("dumbfu_penalties",), "spin": ("spins", "final_spins", *rule_table.SPIN_OUTCOMES),
        "no_mercy": (), "flip": ("flips",)}


@pytest.mark.parametrize("spec", families.REGISTRY, ids=lambda s: s.name)
def test_family_counters_stay_zero_in_the_other_families(spec):
    """A family's own round columns (its mechanism's) are filled by the families of that mechanism only (at
    every family's defaults)."""
    for other in families.REGISTRY:
        if other.mechanics == spec.mechanics or not spec.counters:
            continue
        rounds = unosim.simulate(other.name, players=4, games=150, seed=8, rules={"match_mode": "single_round"}).rounds
        assert rounds.select(list(spec.counters)).sum().row(0) == (0,) * len(spec.counters), other.name
    if spec.counters:
        rounds = unosim.simulate(spec.name, players=4, games=150, seed=8, rules={"match_mode": "single_round"}).rounds
        assert sum(rounds.select(list(spec.counters)).sum().row(0)) > 0


def test_a_family_needs_a_known_mechanism():
    with pytest.raises(ValueError, match="mechanics='attack' is invalid"):
        families.FamilySpec(name="attack", mechanics="attack", description="", deck=cards.classic_deck)


# ---- a toy variant from one FamilySpec (CONTRIBUTING.md "add a variant") -----------------------------
def _extra_sevens_deck(n_blank: int) -> np.ndarray:
    counts = cards.classic_deck(n_blank)
    for colour in range(4):
        counts[cards.number_id(colour, 7)] += 1
    return counts


EXTRA_SEVENS = families.FamilySpec(
    name="extra_sevens", mechanics="classic", description="the classic game with a third 7 per colour",
    deck=_extra_sevens_deck, defaults=dict(families.CLASSIC.defaults), own_rules=families.CLASSIC.own_rules,
    kinds=families.CLASSIC.kinds)


@pytest.fixture
def toy_registry(monkeypatch):
    monkeypatch.setattr(families, "REGISTRY", (*families.REGISTRY, EXTRA_SEVENS))


def test_toy_variant_is_registered_and_validated(toy_registry):
    assert "extra_sevens" in variant_names()
    rs = get_variant("extra_sevens", {"n_blank": 0})
    assert rs.deck_size == 112 and rs.mechanics == "classic"
    assert rs.compile(4)[0][protocol.IR_FAMILY] == protocol.FAMILY_CLASSIC
    assert get_variant("extra_sevens").deck_size == 115


@pytest.mark.parametrize("lineup", ["random", "greedy_points,keep_wilds,random*"])
def test_toy_variant_plays_identically_in_both_engines(toy_registry, lineup):
    rs, specs = resolve("extra_sevens", 4, lineup, {"match_mode": "single_round"})
    compiled = run_compiled(rs, 4, specs, 99, 0, 150, trace=True)
    slow = reference.play(rs, 4, specs, 99, 0, 150, trace=True)
    assert np.array_equal(compiled.events, np.asarray(slow.events))
    for table in ("rounds", "seats", "opening", "matches"):
        assert np.array_equal(getattr(compiled, table), np.asarray(getattr(slow, table))), table
    # the engines received the toy deck: three 7s per colour, and some of them were played
    deck = rs.compile(4)[2]
    assert [(deck == cards.number_id(c, 7)).sum() for c in range(4)] == [3, 3, 3, 3]
    plays = compiled.events[compiled.events[:, 0] == protocol.EV_PLAY, 2]
    assert np.isin(plays, [cards.number_id(c, 7) for c in range(4)]).sum() > 0
