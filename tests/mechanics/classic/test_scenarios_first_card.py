"""Scripted scenarios: the first card turned up (docs/rules.md §1.9, §1.13 first_seat)."""

import pytest
from scenario_tools import E, Scripted, run

from unosim.reference.rng import Xoshiro

HANDS_3 = [["B1", "B2"], ["B3", "B4"], ["B5", "B6"]]
HANDS_2 = [["B1", "B2"], ["B3", "B4"]]


# first card, hands, dealer, events between FIRST_CARD and FIRST_SEAT, first seat, direction
FIRST_CARD_ROWS = [
    ("R9", HANDS_3, 0, [], 1, +1),
    ("RSKIP", HANDS_3, 0, [E("skip", 1)], 2, +1),
    ("RSKIP", HANDS_2, 0, [E("skip", 1)], 0, +1),
    ("R+2", HANDS_3, 0, [E("draw", 1, "Y1"), E("draw", 1, "Y2"), E("skip", 1)], 2, +1),
    ("R+2", HANDS_2, 1, [E("draw", 0, "Y1"), E("draw", 0, "Y2"), E("skip", 0)], 1, +1),
    ("RREV", HANDS_3, 0, [], 0, -1),
    ("RREV", HANDS_3, 2, [], 2, -1),
    ("RREV", HANDS_2, 0, [], 0, -1),
    ("WILD", HANDS_3, 0, [E("colour", 1, 3)], 1, +1),
]


@pytest.mark.parametrize("first,hands,dealer,effect,first_seat,direction", FIRST_CARD_ROWS,
                         ids=[f"{r[0]}-{len(r[1])}p-dealer{r[2]}" for r in FIRST_CARD_ROWS])
def test_first_card_effect(first, hands, dealer, effect, first_seat, direction):
    scripts = [Scripted(colours=[3]) for _ in hands]
    s = run(hands, first, ["Y1", "Y2"], scripts=scripts, dealer=dealer, max_turns_per_round=1)
    left = (dealer + 1) % len(hands)
    assert s.setup() == [E("round_start", dealer, 0, 0), E("first_card", left, first)] + effect + \
        [E("first_seat", first_seat, direction)]
    assert s.round["first_seat"] == first_seat
    assert s.turn_seat(1)[0] == first_seat


def test_reversed_first_card_plays_on_against_the_clock():
    s = run(HANDS_3, "RREV", scripts=[Scripted(plays=["draw"] * 2) for _ in range(3)], max_turns_per_round=3)
    assert s.turn_players() == [0, 2, 1]


def test_dumb_fu_first_card_names_the_colour_without_a_pose():
    """docs/rules.md §6 M4: colour only; no window opens, so no pose ever closes."""
    s = run(HANDS_3, "DUMBFU", variant="minions", scripts=[Scripted(colours=[2]) for _ in range(3)],
            p_dumbfu_fail=1.0, max_turns_per_round=6)
    assert s.setup()[2:] == [E("colour", 1, 2), E("first_seat", 1, 1)]
    assert not s.of("dumbfu", "pose")


def test_first_card_colour_is_named_by_the_player_left_of_the_dealer():
    scripts = [Scripted(colours=[c]) for c in (0, 1, 2)]
    s = run(HANDS_3, "WILD", scripts=scripts, dealer=1, max_turns_per_round=1)
    assert E("colour", 2, 2) in s.setup()
    assert s.after(E("first_seat", 2, 1)).colour == 2


def _return_position(seed, pile_size):
    """The deck stream's first number decides where a turned-up WD4 goes (no shuffle with deck_order)."""
    return Xoshiro(seed, 0, 0).below(pile_size + 1)


def test_first_card_wd4_goes_back_at_a_random_position_and_a_new_card_is_turned_up():
    seed = next(sd for sd in range(100) if _return_position(sd, 104) < 104)
    s = run(HANDS_3, ["WD4", "G5"], seed=seed, max_turns_per_round=1)
    position = _return_position(seed, 104)
    assert s.setup() == [E("round_start", 0, 0, 0), E("first_card", 1, "WD4"), E("return", -1, "WD4", position),
                         E("first_card", 1, "G5"), E("first_seat", 1, 1)]
    snapshot = s.after(E("return", -1, "WD4", position))
    assert snapshot.draw_pile[position] == 85 and len(snapshot.draw_pile) == 105
    assert snapshot.discard_pile == ()


def test_first_card_wd4_returned_to_the_top_is_turned_up_again():
    seed = next(sd for sd in range(10_000) if _return_position(sd, 104) == 104)
    s = run(HANDS_3, ["WD4", "G5"], seed=seed, max_turns_per_round=1)
    kinds = [e[0] for e in s.setup()]
    assert kinds[:5] == ["round_start", "first_card", "return", "first_card", "return"]
    assert s.setup()[3] == E("first_card", 1, "WD4")
