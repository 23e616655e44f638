"""The effect vocabulary (unosim/game/card_effects.py) and cards declared as data
(unosim/game/custom_cards.py): parsing, one-line validation, rule keys, the deck (docs/rules.md §2.7)."""

import re
from pathlib import Path

import numpy as np
import pytest

from unosim.game import card_effects, custom_cards
from unosim.game.rules import from_key, get_variant

ROOT = Path(__file__).resolve().parents[2]
DRAW_THREE = "draw_three:coloured,effects=draw:3,points=20,count=2"
EVERYONE = "everyone:wild,effects=wild+others_draw:1,points=40,count=4"


def test_docs_effect_list_is_generated_from_the_vocabulary():
    text = (ROOT / "docs" / "rules.md").read_text()
    found = re.search(r"<!-- card-effects:start -->\n(.*?)\n<!-- card-effects:end -->", text, re.S)
    assert found and found.group(1) == card_effects.markdown()


def test_every_effect_has_its_own_section_of_the_rules_doc():
    headings = re.findall(r"^#### (2\.7\.\d+) `(\w+)", (ROOT / "docs" / "rules.md").read_text(), re.M)
    assert {(e.section, e.name) for e in card_effects.EFFECTS} == set(headings)


def test_codes_are_unique_and_parse_is_the_inverse_of_written():
    assert len({e.code for e in card_effects.EFFECTS}) == len(card_effects.EFFECTS)
    for text in ("draw:3", "skip", "skip:2", "reverse", "others_draw:1", "wild", "self_draw:10"):
        assert card_effects.written(*card_effects.parse(text)) == text
    assert card_effects.parse("skip") == card_effects.parse("skip:1")


@pytest.mark.parametrize("text,message", [
    ("draw:11", "valid is draw:N with N in 1..10"),
    ("draw:0", "valid is draw:N with N in 1..10"),
    ("reverse:2", "takes no count"),
    ("teleport", "unknown effect 'teleport'"),
])
def test_bad_effects_name_the_effect_and_the_valid_ones(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        card_effects.parse(text)


def test_the_spec_table_and_the_command_line_string_are_the_same_card():
    table = {"draw_three": {"coloured": True, "effects": ["draw:3"], "points": 20, "count": 2},
             "everyone": {"wild": True, "effects": ["wild", "others_draw:1"], "points": 40, "count": 4}}
    a, b = get_variant("classic", {"cards": table}), get_variant("classic", {"cards": [DRAW_THREE, EVERYONE]})
    assert a == b and [str(d) for d in a.cards] == [DRAW_THREE, EVERYONE]


def test_a_rule_key_with_declared_cards_parses_back():
    rules = get_variant("classic", {"cards": [DRAW_THREE, EVERYONE], "hand_size": 5})
    assert from_key(rules.key) == rules


def test_declared_cards_join_the_deck_by_name():
    rules = get_variant("classic", {"cards": [DRAW_THREE, EVERYONE]})
    assert rules.deck_size == 111 + 8 + 4
    assert rules.deck_in_effect()["draw_three"] == 8 and rules.deck_in_effect()["everyone"] == 4
    counts = rules.all_counts()
    assert counts[custom_cards.ID_CUSTOM0:custom_cards.ID_CUSTOM0 + 4].tolist() == [2, 2, 2, 2]
    assert counts[custom_cards.ID_CUSTOM0 + 5 + 4] == 4


def test_a_card_that_copies_a_built_in_class_is_that_class():
    """§2.7: a coloured 20-point ["skip"] is the Skip; its copies join the class, no new card."""
    copy = get_variant("classic", {"deck": {"skip": 0},
                                   "cards": {"my_skip": {"coloured": True, "effects": ["skip"], "count": 2}}})
    assert copy.new_cards == ()
    assert np.array_equal(copy.deck_counts(), get_variant("classic").deck_counts())
    other_points = get_variant("classic", {"cards": {"my_skip": {"coloured": True, "effects": ["skip"],
                                                                 "points": 30}}})
    assert [d.name for d in other_points.new_cards] == ["my_skip"]


@pytest.mark.parametrize("cards,message", [
    ({"x": {"coloured": True, "effects": ["fly"]}}, "unknown effect 'fly' of card 'x': valid are ['draw:N'"),
    ({"x": {"wild": True, "effects": ["wild", "wild"]}}, "effect 'wild' appears twice"),
    ({"x": {"wild": True, "effects": ["others_draw:1"]}}, "effects start with 'wild'"),
    ({"x": {"coloured": True, "effects": ["wild"]}}, "declare it wild = true"),
    ({"x": {"coloured": True, "effects": ["draw:2", "reverse"]}}, "'draw:N' must be the last effect"),
    ({"x": {"coloured": True, "effects": ["skip", "draw:2"]}}, "'draw' and 'skip' both decide"),
    ({"x": {"coloured": True, "effects": ["swap_hands", "pass_hands"]}}, "'swap_hands' and 'pass_hands'"),
    ({"x": {"coloured": True, "effects": ["draw:2"], "challengeable": True}}, "only a wild draw card"),
    ({"x": {"coloured": True, "count": 0}}, "count 0: no seat could ever play it"),
    ({"x": {"coloured": True, "wild": True}}, "either coloured = true"),
    ({"x": {"coloured": True, "colour": "red"}}, "unknown field 'colour'"),
    ({"skip": {"coloured": True}}, "clashes with the built-in card class 'skip'"),
    ({"stacking": {"coloured": True}}, "clashes with the rule 'stacking'"),
    ({"Draw Three": {"coloured": True}}, "card name 'Draw Three' is invalid"),
    ({"x": {"coloured": True, "count": 20}}, "holds 191 cards: valid is at most 168"),
    ({f"c{i}": {"wild": True, "effects": ["wild"], "points": 21 + i} for i in range(13)}, "13 new cards: valid is at most 12"),
])
def test_bad_cards_are_refused_with_one_line_naming_them(cards, message):
    with pytest.raises(ValueError, match=re.escape(message)) as info:
        get_variant("classic", {"cards": cards})
    assert "\n" not in str(info.value)


def test_a_deck_that_cannot_deal_the_table_is_refused_with_the_player_count():
    rules = get_variant("classic", {"cards": {"x": {"coloured": True, "count": 5}}, "hand_size": 15})
    with pytest.raises(ValueError, match=r"hand_size=15 × players=10 = 150 cards exceeds"):
        rules.check_players(10)


def test_uno_flip_refuses_one_faced_cards():
    with pytest.raises(ValueError, match="two-faced"):
        get_variant("flip", {"cards": [DRAW_THREE]})


def test_the_compiled_rules_carry_the_legality_fields_as_bits_of_the_row():
    """challengeable and same_effect = false are data of the card's row (docs/rules.md §2.7), not refused."""
    from unosim.game import protocol as L
    declared = ["x:wild,effects=wild+draw:3,challengeable", "y:coloured,effects=skip:2,same_effect=false",
                "z:coloured,effects=skip:3"]
    ir = get_variant("classic", {"cards": declared}).compile(4)[0]
    bits = [ir[L.IR_CARDS + slot * card_effects.CARD_ROW + card_effects.ROW_LEGALITY] for slot in range(3)]
    assert bits == [custom_cards.CHALLENGEABLE, custom_cards.OWN_COLOUR_ONLY, 0]


def test_same_effect_on_a_wild_is_refused_as_meaningless():
    with pytest.raises(ValueError, match="card 'x' is contradictory: same_effect concerns coloured cards"):
        get_variant("classic", {"cards": ["x:wild,effects=wild+draw:3,same_effect=false"]})


def test_the_compiled_rules_carry_a_new_card_as_a_row_of_numbers():
    from unosim.game import protocol as L
    ir = get_variant("classic", {"cards": ["x:coloured,effects=reverse+draw:3,points=30"]}).compile(4)[0]
    assert ir[L.IR_CARDS:L.IR_CARDS + 7].tolist() == [30, 3, 2, card_effects.BY_NAME["reverse"].code, 0,
                                                      card_effects.BY_NAME["draw"].code, 3]
