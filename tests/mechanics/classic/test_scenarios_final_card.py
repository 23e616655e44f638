"""Scripted scenarios: the final card (docs/rules.md §1.11) with the round score (§1.12), and the blank
cards as normal, first and final card (§2.1.3)."""

import pytest
from scenario_tools import C, E, Scripted, names, run

from unosim.game.cards import POINTS

DRAWS = ["G1", "G2", "G3", "G4", "Y1", "Y2"]


def points(card_names):
    return sum(int(POINTS[C(c)]) for c in card_names)


def hand_names(snapshot):
    return [names(h) for h in snapshot.hands]


# ---- final card (docs/rules.md §1.11) -----------------------------------------------------------------------
# final card, cards seat 2 (= next(p)) draws with final-card effects on
FINAL_ROWS = [("R5", []), ("RSKIP", []), ("RREV", []), ("WILD", []), ("R+2", DRAWS[:2]), ("WD4", DRAWS[:4])]


@pytest.mark.parametrize("effects_on", [True, False], ids=["effects-on", "effects-off"])
@pytest.mark.parametrize("card,final_draws", FINAL_ROWS, ids=[r[0] for r in FINAL_ROWS])
def test_final_card_effects(card, final_draws, effects_on):
    """Every seat holds one card; F = seat 1 wins turn 1 with ``card`` on R9."""
    s = run([["B1"], [card], ["G7"]], "R9", DRAWS, scripts=[Scripted(colours=[1]) for _ in range(3)],
            final_card_effects=effects_on)
    drawn = final_draws if effects_on else []
    colour = [E("colour", 1, 1)] if card in ("WILD", "WD4") else []
    assert s.turn(1) == [E("play", 1, card)] + colour + [E("draw", 2, c) for c in drawn]
    assert (s.round["winner_seat"], s.round["end"], s.round["n_turns"]) == (1, 0, 1)
    assert s.round["points"] == points(["B1", "G7", *drawn])      # scored after the final draws
    assert s.seat(2)["cards_left"] == 1 + len(drawn)
    assert s.seat(2)["points_left"] == points(["G7", *drawn])
    assert (s.seat(1)["won"], s.seat(1)["cards_left"]) == (1, 0)


# ---- blank cards (docs/rules.md §2.1.3) ----------------------------------------------------------------------
HANDS = [["B1", "B2", "B3"], ["BLANK0", "Y7", "Y8"], ["G7", "G8", "Y4"]]


def blank_game(effect, hands=HANDS, first="R9", scripts=None, **overrides):
    scripts = scripts or [Scripted(colours=[2]) for _ in hands]
    settings = {"max_turns_per_round": 2, **overrides}
    return run(hands, first, DRAWS, scripts=scripts, blank_effects=(effect,) * 3, **settings)


def test_blank_effect_is_chosen_per_physical_card():
    s = run([["B1", "B2"], ["BLANK1", "Y7"], ["G7", "G8"]], "R9", DRAWS,
            blank_effects=("plain_wild", "draw_two_next", "plain_wild"), max_turns_per_round=1)
    assert s.turn(1) == [E("play", 1, "BLANK1"), E("colour", 1, 0), E("draw", 2, "G1"), E("draw", 2, "G2"),
                         E("skip", 2), E("uno", 1, 1)]


# effect, events of turn 1 after PLAY and COLOUR(1, 2), seat of turn 2
PLAYED_ROWS = [
    ("plain_wild", [], 2),
    ("swap_hands", [E("swap", 1, 2)], 2),
    ("shuffle_hands", [E("redeal", 1)], 2),
    ("others_draw_1", [E("draw", 2, "G1"), E("draw", 0, "G2")], 2),
    ("discard_colour", [], 2),
    ("draw_two_next", [E("draw", 2, "G1"), E("draw", 2, "G2"), E("skip", 2)], 0),
]


@pytest.mark.parametrize("effect,events,next_seat", PLAYED_ROWS, ids=[r[0] for r in PLAYED_ROWS])
def test_blank_played_with_cards_left(effect, events, next_seat):
    s = blank_game(effect)
    assert s.turn(1) == [E("play", 1, "BLANK0"), E("colour", 1, 2)] + events
    assert s.turn_seat(2)[0] == next_seat


def test_blank_swap_hands_with_the_chosen_player():
    chooser = Scripted(plays=["BLANK0"], targets=[0], colours=[2])
    s = blank_game("swap_hands", scripts=[Scripted(), chooser, Scripted()])
    assert chooser.candidates == (2, 0)                   # the others from next(p) in direction d
    assert E("swap", 1, 0) in s.turn(1)
    assert hand_names(s.after(E("swap", 1, 0))) == [["Y7", "Y8"], ["B1", "B2", "B3"], ["G7", "G8", "Y4"]]


def test_blank_shuffle_hands_redeals_everything_from_the_left_of_the_player():
    s = blank_game("shuffle_hands", seed=5)
    after = s.after(E("redeal", 1))
    assert sorted(c for h in after.hands for c in h) == sorted(C(c) for c in ["B1", "B2", "B3", "Y7", "Y8",
                                                                              "G7", "G8", "Y4"])
    # 8 cards dealt one at a time starting at seat 2: seats 2 and 0 get 3, seat 1 gets 2
    assert [len(h) for h in after.hands] == [3, 2, 3]
    before = s.after(E("colour", 1, 2)).hands
    collected = [c for h in before for c in h]
    from unosim.reference.rng import Xoshiro
    Xoshiro(5, 0, 0).shuffle(collected)
    expected = [[], [], []]
    for k, card in enumerate(reversed(collected)):
        expected[(2 + k) % 3].append(card)
    assert [list(h) for h in after.hands] == expected


def test_blank_discard_colour_puts_the_named_colour_under_the_blank():
    hands = [HANDS[0] + ["B4"], ["BLANK0", "Y7", "G2", "Y8"], HANDS[2] + ["B9"]]
    s = blank_game("discard_colour", hands=hands, scripts=[Scripted(), Scripted(colours=[1]), Scripted()])
    assert s.turn(1) == [E("play", 1, "BLANK0"), E("colour", 1, 1), E("discard", 1, "Y7"), E("discard", 1, "Y8"),
                         E("uno", 1, 1)]
    after = s.after(E("discard", 1, "Y8"))
    assert names(after.discard_pile) == ["R9", "Y7", "Y8", "BLANK0"]
    assert names(after.hands[1]) == ["G2"]
    assert s.seat(1)["n_played"] == 1                     # discards are not plays


def test_blank_discard_colour_that_empties_the_hand_wins():
    s = blank_game("discard_colour", hands=[HANDS[0], ["BLANK0", "Y7", "Y8"], HANDS[2]],
                   scripts=[Scripted(), Scripted(colours=[1]), Scripted()])
    assert s.turn(1)[-1] == E("discard", 1, "Y8")
    assert (s.round["winner_seat"], s.round["n_turns"], s.round["n_plays"]) == (1, 1, 1)
    assert s.round["points"] == points(HANDS[0] + HANDS[2])


# ---- blank as first card: F (seat 1) names the colour, applies the effect, then plays -----------------
FIRST_HANDS = [["B1", "B2", "B3"], ["Y7", "G2", "Y8"], ["G7", "G8", "Y4"]]
# effect, setup events after COLOUR(1, 2) and before FIRST_SEAT, first seat
FIRST_ROWS = [
    ("plain_wild", [], 1),
    ("swap_hands", [E("swap", 1, 2)], 1),
    ("shuffle_hands", [E("redeal", 1)], 1),
    ("others_draw_1", [E("draw", 2, "G1"), E("draw", 0, "G2")], 1),
    ("discard_colour", [E("discard", 1, "G2")], 1),
    ("draw_two_next", [E("draw", 1, "G1"), E("draw", 1, "G2"), E("skip", 1)], 2),
]


@pytest.mark.parametrize("effect,events,first_seat", FIRST_ROWS, ids=[r[0] for r in FIRST_ROWS])
def test_blank_as_first_card(effect, events, first_seat):
    s = blank_game(effect, hands=FIRST_HANDS, first="BLANK0", max_turns_per_round=1)
    assert s.setup() == [E("round_start", 0, 0, 0), E("first_card", 1, "BLANK0"), E("colour", 1, 2)] + events + \
        [E("first_seat", first_seat, 1)]
    assert s.round["first_seat"] == first_seat


def test_blank_discard_colour_as_first_card_can_win_with_zero_turns():
    s = blank_game("discard_colour", hands=[["B1", "B2"], ["G2", "G3"], ["Y7", "Y8"]], first="BLANK0")
    assert s.events[2:] == [E("colour", 1, 2), E("discard", 1, "G2"), E("discard", 1, "G3"),
                            E("round_end", 1, 0, points(["B1", "B2", "Y7", "Y8"])), E("match_end", 1, 2, 0)]
    assert (s.round["n_turns"], s.round["first_seat"], s.round["winner_seat"]) == (0, 1, 1)


# ---- blank as final card: seat 1 plays its only card on R9 -----------------------------------------
# effect, events after PLAY and COLOUR, winner
FINAL_BLANK_ROWS = [
    ("plain_wild", [], 1),
    ("swap_hands", [], 1),                              # no swap; the round is won (docs/rules.md §6 C22)
    ("others_draw_1", [E("draw", 2, "G1"), E("draw", 0, "G2")], 1),
    ("discard_colour", [], 1),
    ("draw_two_next", [E("draw", 2, "G1"), E("draw", 2, "G2")], 1),
]


@pytest.mark.parametrize("effect,events,winner", FINAL_BLANK_ROWS, ids=[r[0] for r in FINAL_BLANK_ROWS])
def test_blank_as_final_card(effect, events, winner):
    s = blank_game(effect, hands=[["B1"], ["BLANK0"], ["G7"]])
    assert s.turn(1) == [E("play", 1, "BLANK0"), E("colour", 1, 2)] + events
    assert s.round["winner_seat"] == winner
    assert s.round["points"] == points(["B1", "G7"] + [names([e[2]])[0] for e in events])


def test_blank_as_final_card_without_final_card_effects_just_wins():
    for effect in ("others_draw_1", "draw_two_next", "shuffle_hands"):
        s = blank_game(effect, hands=[["B1"], ["BLANK0"], ["G7"]], final_card_effects=False)
        assert s.turn(1) == [E("play", 1, "BLANK0"), E("colour", 1, 2)]
        assert s.round["winner_seat"] == 1


def test_blank_shuffle_hands_as_final_card_redeals_and_play_goes_on():
    """docs/rules.md §6 C21/C28: the redeal includes the empty hand; next(p) plays; no win."""
    s = blank_game("shuffle_hands", hands=[["B1", "B2"], ["BLANK0", "R7"], ["G7", "G8"]],
                   scripts=[Scripted(), Scripted(plays=["R7", "BLANK0"], colours=[2]), Scripted()],
                   max_turns_per_round=5)
    turn4 = s.turn(4)
    assert turn4[:3] == [E("play", 1, "BLANK0"), E("colour", 1, 2), E("redeal", 1)]
    after = s.after(E("redeal", 1))
    assert sum(len(h) for h in after.hands) > 0 and len(after.hands[1]) > 0
    assert s.turn_seat(5)[0] == 2
    assert s.round["winner_seat"] == -1
