"""Scripted scenarios: every effect of a card declared as data (docs/rules.md §2.7), played with cards left,
as the first card and as the last card, with stacking and a challenge.

Dealer 0, so F = seat 1 takes turn 1 on the number card R9 unless stated otherwise. A declared card of
slot s is ``RCUSTOMs`` (red copy) or ``CUSTOMs`` (wild).
"""

import pytest
from scenario_tools import C, E, Scripted, run

DRAWS = ["G1", "G2", "G3", "G4", "Y1", "Y2", "R3", "B5"]


def declared(*effects, wild=False, **fields):
    """A one-card ``cards`` rule: slot 0 carries ``effects``."""
    return {"x": {"wild" if wild else "coloured": True, "effects": list(effects), **fields}}


def play_first(card, effects, players=3, wild=False, draws=DRAWS, hand=("R7", "Y8"), turns=2, points=None,
               **overrides):
    hands = [["B1", "B2", "B3"], [card, *hand], ["G7", "G8", "B4"], ["Y3", "Y4", "Y5"]][:players]
    scripts = [Scripted() for _ in range(players)]
    scripts[1] = Scripted(plays=[card], colours=[2], targets=[0])
    return run(hands, "R9", draws, scripts=scripts, max_turns_per_round=turns,
               cards=declared(*effects, wild=wild, **({"points": points} if points else {})), **overrides)


# effects, players, events of turn 1 after the PLAY, seat of turn 2
ROWS = [
    (["draw:3"], 3, [E("draw", 2, "G1"), E("draw", 2, "G2"), E("draw", 2, "G3"), E("skip", 2)], 0),
    (["draw:3"], 2, [E("draw", 0, "G1"), E("draw", 0, "G2"), E("draw", 0, "G3"), E("skip", 0)], 1),
    (["skip:2"], 4, [E("skip", 2), E("skip", 3)], 0),
    (["skip:2"], 3, [E("skip", 2), E("skip", 0)], 1),          # every other seat: p plays again
    (["skip:5"], 2, [E("skip", 0)], 1),
    (["reverse"], 3, [], 0),          # 25 points below: not the built-in Reverse
    (["reverse"], 2, [E("skip", 0)], 1),
    (["skip_everyone"], 3, [], 1),
    (["others_draw:2"], 3, [E("draw", 2, "G1"), E("draw", 2, "G2"), E("draw", 0, "G3"), E("draw", 0, "G4")], 2),
    (["discard_colour"], 3, [E("discard", 1, "R7"), E("uno", 1, 1)], 2),
    (["swap_hands"], 3, [E("swap", 1, 0)], 2),
    (["pass_hands"], 3, [E("pass", 1)], 2),
    (["draw_until_colour"], 3, [E("draw", 2, c) for c in ("G1", "G2", "G3", "G4", "Y1", "Y2", "R3")]
     + [E("skip", 2)], 0),
    (["self_draw:2"], 3, [E("draw", 1, "G1"), E("draw", 1, "G2")], 2),
    (["reverse", "others_draw:1"], 3, [E("draw", 0, "G1"), E("draw", 2, "G2")], 0),   # in the new direction
    (["skip", "self_draw:1"], 3, [E("skip", 2), E("draw", 1, "G1")], 0),
]


@pytest.mark.parametrize("effects,players,effect,next_seat", ROWS,
                         ids=[f"{'+'.join(r[0])}-{r[1]}p" for r in ROWS])
def test_declared_effect_and_next_player(effects, players, effect, next_seat):
    s = play_first("RCUSTOM0", effects, players, points=25)
    assert s.turn(1) == [E("play", 1, "RCUSTOM0")] + effect
    assert s.turn_seat(2)[0] == next_seat


def test_a_declared_wild_names_the_colour_before_its_effects():
    s = play_first("CUSTOM0", ["wild", "others_draw:1"], wild=True)
    assert s.turn(1) == [E("play", 1, "CUSTOM0"), E("colour", 1, 2), E("draw", 2, "G1"), E("draw", 0, "G2")]
    assert s.after(E("colour", 1, 2)).colour == 2


def test_discard_colour_that_empties_the_hand_wins():
    s = play_first("RCUSTOM0", ["discard_colour"], hand=("R7", "R8"))
    assert s.turn(1)[:3] == [E("play", 1, "RCUSTOM0"), E("discard", 1, "R7"), E("discard", 1, "R8")]
    assert s.round["winner_seat"] == 1


def test_a_declared_card_matches_itself_in_another_colour_only_with_same_effect():
    """§2.7: a new card has a kind of its own; with same_effect it is played on itself."""
    for same, legal in ((True, True), (False, False)):
        hands = [["B1", "B2", "B3"], ["RCUSTOM0", "Y8", "Y7"], ["GCUSTOM0", "R8", "B4"]]
        seat2 = Scripted(plays=["draw"])
        run(hands, "R9", DRAWS, scripts=[Scripted(), Scripted(plays=["RCUSTOM0"]), seat2],
            max_turns_per_round=2, cards=declared("self_draw:1", same_effect=same))
        hand = seat2.views[0].hand
        assert (hand.index(C("GCUSTOM0")) in seat2.views[0].legal) == legal


def test_a_declared_draw_card_stacks_and_is_answered():
    """§2.7.1 under stacking any_draw: Draw Three then a Draw Two: the next seat accepts 5."""
    hands = [["B1", "B2", "B3"], ["RCUSTOM0", "Y8", "Y7"], ["R+2", "G8", "B4"]]
    scripts = [Scripted(), Scripted(plays=["RCUSTOM0"]), Scripted(stacks=["R+2"])]
    s = run(hands, "R9", DRAWS, scripts=scripts, max_turns_per_round=3, stacking="any_draw",
            cards=declared("draw:3"))
    assert s.turn(2) == [E("play", 2, "R+2")]
    assert s.turn(3)[:2] == [E("accept", 0, 5), E("draw", 0, "G1")]


def test_same_kind_stacking_takes_only_the_same_declared_card():
    hands = [["B1", "B2", "B3"], ["RCUSTOM0", "Y8", "Y7"], ["R+2", "GCUSTOM0", "B4"]]
    seat2 = Scripted(stacks=["GCUSTOM0"])
    s = run(hands, "R9", DRAWS, scripts=[Scripted(), Scripted(plays=["RCUSTOM0"]), seat2],
            max_turns_per_round=3, stacking="same_kind", cards=declared("draw:3"))
    view = seat2.stack_views[0]
    assert [view.hand[i] for i in view.legal] == [C("GCUSTOM0")]
    assert s.turn(3)[0] == E("accept", 0, 6)


def test_a_challengeable_wild_draw_is_challenged_like_a_wd4():
    """§2.7.1, §1.8: innocent, the challenger draws N + 2."""
    hands = [["B1", "B2", "B3"], ["CUSTOM0", "Y8", "Y7"], ["G7", "G8", "B4"]]
    scripts = [Scripted(), Scripted(plays=["CUSTOM0"], colours=[2]), Scripted(challenges=[True])]
    s = run(hands, "R9", DRAWS, scripts=scripts, max_turns_per_round=2,
            cards={"x": {"wild": True, "effects": ["wild", "draw:3"], "challengeable": True}})
    assert s.turn(1)[:3] == [E("play", 1, "CUSTOM0"), E("colour", 1, 2), E("challenge", 2, 0)]
    assert [e for e in s.turn(1) if e[0] == "draw"] == [E("draw", 2, c) for c in DRAWS[:5]]


def test_a_declared_draw_card_turned_up_first_acts_like_a_draw_two():
    hands = [["B1", "B2", "B3"], ["Y7", "Y8", "Y9"], ["G7", "G8", "B4"]]
    s = run(hands, "RCUSTOM0", DRAWS, max_turns_per_round=1, cards=declared("draw:3"))
    assert s.setup()[2:] == [E("draw", 1, "G1"), E("draw", 1, "G2"), E("draw", 1, "G3"), E("skip", 1),
                             E("first_seat", 2, 1)]


def test_a_declared_reverse_turned_up_first_lets_the_dealer_start():
    hands = [["B1", "B2", "B3"], ["Y7", "Y8", "Y9"], ["G7", "G8", "B4"]]
    s = run(hands, "RCUSTOM0", DRAWS, max_turns_per_round=1, cards=declared("reverse", points=25))
    assert s.setup()[2:] == [E("first_seat", 0, -1)]


def test_other_effects_do_nothing_on_the_first_card():
    hands = [["B1", "B2", "B3"], ["Y7", "Y8", "Y9"], ["G7", "G8", "B4"]]
    s = run(hands, "RCUSTOM0", DRAWS, max_turns_per_round=1, cards=declared("others_draw:2"))
    assert s.setup()[2:] == [E("first_seat", 1, 1)]


def test_a_last_declared_card_still_makes_the_others_draw():
    """§1.11 with final_card_effects: draw:N and others_draw act, the player has won."""
    hands = [["R6", "B2"], ["RCUSTOM0", "R8"], ["R7", "G8"]]
    scripts = [Scripted(), Scripted(plays=["R8", "RCUSTOM0"]), Scripted()]
    s = run(hands, "R9", DRAWS, scripts=scripts, max_turns_per_round=9, cards=declared("others_draw:1"))
    assert s.turn(4) == [E("play", 1, "RCUSTOM0"), E("draw", 2, "G1"), E("draw", 0, "G2")]
    assert s.round["winner_seat"] == 1
