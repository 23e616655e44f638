"""The card model and the rule-set layer: decks against docs/rules.md §2, limits of §3, toggles of §4."""

import numpy as np
import pytest

from unosim.game import cards
from unosim.game.rules import from_key, get_variant, variant_names

K = cards


def kinds(counts: np.ndarray) -> dict[str, int]:
    out: dict[str, int] = {}
    for card in np.flatnonzero(counts):
        name = K.KIND_NAMES[K.KIND[card]]
        if K.KIND[card] == K.NUMBER:
            name = f"{'SPIN' if K.SPIN[card] else 'NUMBER'}_{K.NUMBER_OF[card]}"
        out[name] = out.get(name, 0) + int(counts[card])
    return out


def test_classic_deck_is_rules_2_1_1():
    for n_blank in range(4):
        deck = get_variant("classic", {"n_blank": n_blank}).deck_counts()
        assert deck.sum() == 108 + n_blank
    k = kinds(get_variant("classic").deck_counts())
    assert k["NUMBER_0"] == 4 and all(k[f"NUMBER_{n}"] == 8 for n in range(1, 10))
    assert k["SKIP"] == k["REVERSE"] == k["DRAW_TWO"] == 8
    assert k["WILD"] == k["WILD_DRAW_FOUR"] == 4 and k["BLANK"] == 3


def test_minions_deck_is_rules_2_2_1():
    k = kinds(get_variant("minions").deck_counts())
    assert sum(k.values()) == 112 and k["DUMB_FU"] == 4 and "BLANK" not in k


def test_spin_deck_is_rules_2_3_1():
    deck = get_variant("spin").deck_counts()
    k = kinds(deck)
    assert deck.sum() == 108
    assert all(k[f"SPIN_{n}"] == 4 and k[f"NUMBER_{n}"] == 4 for n in range(1, 6))
    assert all(k[f"NUMBER_{n}"] == 8 for n in range(6, 10)) and k["NUMBER_0"] == 4
    per_colour = [sum(int(deck[c]) for c in np.flatnonzero(deck) if K.COLOUR[c] == col and K.KIND[c] == K.NUMBER)
                  for col in range(4)]
    assert per_colour == [19] * 4


def test_no_mercy_deck_is_rules_2_4_1():
    deck = get_variant("no_mercy").deck_counts()
    k = kinds(deck)
    assert deck.sum() == 168
    assert all(k[f"NUMBER_{n}"] == 8 for n in range(10))
    assert (k["SKIP"], k["REVERSE"], k["DRAW_TWO"], k["DRAW_FOUR"], k["DISCARD_ALL"], k["SKIP_EVERYONE"]) == \
        (12, 12, 12, 8, 12, 8)
    assert (k["WILD_REVERSE_DRAW_FOUR"], k["WILD_DRAW_SIX"], k["WILD_DRAW_TEN"], k["WILD_COLOR_ROULETTE"]) == \
        (8, 4, 4, 8)
    assert "WILD" not in k and "WILD_DRAW_FOUR" not in k


def test_points_and_draw_values_are_rules_1_1():
    # UNO Flip's faces have their own points (docs/rules.md §2.6.1, tests/mechanics/flip/test_scenarios_flip.py)
    flip_faces = set(np.flatnonzero(K.FLIP_PARTNER >= 0).tolist())   # every pairing's ids
    for card in range(K.N_CARD_IDS):
        kind = K.KIND[card]
        if kind == K.NUMBER:
            assert K.POINTS[card] == K.NUMBER_OF[card]
        elif card not in flip_faces:
            assert K.POINTS[card] == (50 if K.COLOUR[card] == K.NO_COLOUR else 20)
    draw = {K.DRAW_TWO: 2, K.WD4: 4, K.DRAW_FOUR: 4, K.WRD4: 4, K.WD6: 6, K.WD10: 10, K.DRAW_ONE: 1, K.WD2: 2,
            K.DRAW_FIVE: 5}
    assert all(K.DRAW_VALUE[c] == draw.get(int(K.KIND[c]), 0) for c in range(K.N_CARD_IDS))
    assert K.DRAW_VALUE[K.ID_ROULETTE] == 0


@pytest.mark.parametrize("variant,hand_limit", [("classic", 106), ("minions", 107), ("spin", 103),
                                                ("no_mercy", 79)])
def test_dealing_limits_of_rules_3(variant, hand_limit):
    """hand_size × n ≤ deck − (cards that cannot stay first) − 1."""
    rs = get_variant(variant)
    for players in range(2, 11):
        for hand_size in (7, 10, 15):
            ok = hand_size * players <= hand_limit
            r = rs.replace(hand_size=hand_size, **({"mercy_limit": max(25, hand_size + 1)}
                                                  if variant == "no_mercy" else {}))
            if ok:
                r.check_players(players)
            else:
                with pytest.raises(ValueError, match="exceeds what the"):
                    r.check_players(players)


@pytest.mark.parametrize("key,value,message", [
    ("stacking", "none", "fixed to escalating"),
    ("seven_o", False, "fixed to true"),
    ("draw_until_playable", False, "fixed to true"),
    ("wd4_challenge", False, "does not apply to no_mercy"),
    ("n_blank", 2, "does not apply to no_mercy"),
])
def test_no_mercy_fixed_and_not_applicable_toggles(key, value, message):
    with pytest.raises(ValueError, match=message):
        get_variant("no_mercy", {key: value})


@pytest.mark.parametrize("variant,key,value", [("classic", "p_dumbfu_fail", 0.3), ("minions", "spin_weights", [1] * 9),
                                               ("classic", "spin_first_card_spins", True)])
def test_family_specific_parameters_are_refused_elsewhere(variant, key, value):
    with pytest.raises(ValueError, match=f"{key}=.* applies only to"):
        get_variant(variant, {key: value})


def test_mercy_limit_must_exceed_the_hand_size():
    with pytest.raises(ValueError, match="mercy_limit=7"):
        get_variant("classic", {"mercy_limit": 7})
    assert get_variant("classic", {"mercy_limit": 8}).mercy_limit == 8


@pytest.mark.parametrize("name", variant_names())
def test_canonical_keys_round_trip(name):
    rs = get_variant(name)
    assert from_key(rs.key) == rs
    changed = rs.replace(hand_size=5, p_forget_uno=(0.1, 0.2, 0.0), match_mode="lowest", jump_in=True)
    assert from_key(changed.key) == changed and "jump_in=true" in changed.key


def test_spin_weights_accept_a_table_of_outcomes():
    rs = get_variant("spin", {"spin_weights": {"war": 2, "uno_spin": 1}})
    assert rs.spin_weights[7] == 2 and rs.spin_weights[8] == 1 and sum(rs.spin_weights) == 3
    with pytest.raises(ValueError, match="unknown outcome .jackpot."):
        get_variant("spin", {"spin_weights": {"jackpot": 1}})


def test_every_opening_hand_class_prints_one_point_value():
    """The card-value analysis sets a class's estimate beside its printed points: a class mixing cards of
    different points (UNO Flip's Wild is worth 40, classic's 50) would print a wrong value."""
    from unosim.game import cards
    for c, name in enumerate(cards.HAND_CLASSES):
        members = np.flatnonzero(cards.HAND_CLASS == c)
        assert len(members), name
        assert set(cards.POINTS[members].tolist()) == {cards.HAND_CLASS_POINTS[c]}, name
