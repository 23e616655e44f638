"""Scripted scenarios: Dumb Fu pose windows (docs/rules.md §2.2.2, §6 M1-M6)."""

import pytest
from scenario_tools import E, Scripted, run

from unosim.reference.rng import Xoshiro

DRAWS = ["G1", "G2", "G3", "G4", "G5", "G6", "B1", "B2"]


def minions(hands, scripts, **overrides):
    settings = {"p_dumbfu_fail": 1.0, "max_turns_per_round": 5, **overrides}
    return run(hands, "R9", DRAWS, scripts=scripts, variant="minions", **settings)


def three_seats():
    """Seat 1 plays a Dumb Fu naming red at turn 1; seat 2 is the target; all keep playing red."""
    hands = [["R1", "R2", "R3", "R4", "Y2"], ["DUMBFU", "R1", "R2", "R3", "R4"], ["R5", "R6", "R7", "R8", "Y1"]]
    scripts = [Scripted(), Scripted(plays=["DUMBFU"], colours=[0]), Scripted()]
    return hands, scripts


@pytest.mark.parametrize("p_fail,pose", [(1.0, [E("pose", 2, 1)] + [E("draw", 2, c) for c in DRAWS[:4]]),
                                         (0.0, [E("pose", 2, 0)])])
def test_window_closes_at_the_second_turn_of_the_target(p_fail, pose):
    hands, scripts = three_seats()
    s = minions(hands, scripts, p_dumbfu_fail=p_fail)
    assert s.turn(1) == [E("play", 1, "DUMBFU"), E("colour", 1, 0), E("dumbfu", 2)]
    assert s.turn_players() == [1, 2, 0, 1, 2]          # the target is not skipped (M1)
    assert not any(e[0] == "pose" for k in (2, 3, 4) for e in s.turn(k))
    assert s.turn(5) == pose + [E("play", 2, "R6")]
    assert s.round["dumbfu_penalties"] == int(p_fail)


# the card seat 1 plays in turn 4 on the target (seat 2), its effect events before the skip
@pytest.mark.parametrize("card,before_skip", [
    ("RSKIP", []),
    ("R+2", [E("draw", 2, "G1"), E("draw", 2, "G2")]),
    ("WD4", [E("colour", 1, 0)] + [E("draw", 2, c) for c in DRAWS[:4]]),
])
def test_skipping_the_target_is_the_closing_event(card, before_skip):
    """M2: a skip passes the turn to the target; M5: the card's draws come before the 4."""
    hands, scripts = three_seats()
    hands[1] = ["DUMBFU", card, "Y5", "Y6", "Y7"]
    scripts[1] = Scripted(plays=["DUMBFU", card], colours=[0, 0])
    s = minions(hands, scripts)
    drawn = len(before_skip) - (card == "WD4")
    penalty = [E("draw", 2, c) for c in DRAWS[drawn:drawn + 4]]
    assert s.turn(4) == [E("play", 1, card)] + before_skip + [E("skip", 2), E("pose", 2, 1)] + penalty
    assert s.turn_seat(5)[0] == 0
    assert s.round["dumbfu_penalties"] == 1


def test_two_player_extra_turn_of_the_target_is_the_closing_event():
    hands = [["R5", "RSKIP", "R6", "R7", "R8"], ["DUMBFU", "R1", "R2", "R3", "R4"]]
    scripts = [Scripted(plays=["RSKIP"]), Scripted(plays=["DUMBFU"], colours=[0])]
    s = minions(hands, scripts, max_turns_per_round=3)
    assert s.turn_players() == [1, 0, 0]
    assert s.turn(2) == [E("play", 0, "RSKIP"), E("skip", 1)]
    assert s.turn(3)[0] == E("pose", 0, 1)


def test_two_player_reverse_skips_the_target_and_closes_the_window():
    hands = [["R5", "R6", "R7", "R8", "Y1"], ["DUMBFU", "RREV", "R2", "R3", "R4"]]
    scripts = [Scripted(), Scripted(plays=["DUMBFU", "RREV"], colours=[0])]
    s = minions(hands, scripts, max_turns_per_round=3)
    assert s.turn(3)[:3] == [E("play", 1, "RREV"), E("skip", 0), E("pose", 0, 1)]


def test_a_new_dumb_fu_replaces_the_open_window():
    hands = [["R1", "R2", "R3", "R4", "Y2"], ["DUMBFU", "DUMBFU", "R2", "R3", "R4"],
             ["R5", "R6", "R7", "R8", "Y1"]]
    scripts = [Scripted(), Scripted(plays=["DUMBFU", "DUMBFU"], colours=[0, 0]), Scripted()]
    s = minions(hands, scripts, max_turns_per_round=8)
    assert s.turn(4)[-1] == E("dumbfu", 2)
    poses = [k for k in range(1, 9) if any(e[0] == "pose" for e in s.turn(k))]
    assert poses == [8]                                   # not at turn 5, the old window's second event
    assert s.round["dumbfu_penalties"] == 1


def test_no_pose_when_the_round_ends_first():
    hands = [["R1", "R2"], ["DUMBFU", "R3"], ["R5", "R6"]]
    scripts = [Scripted(), Scripted(plays=["DUMBFU"], colours=[0]), Scripted()]
    s = minions(hands, scripts)
    assert s.round["winner_seat"] == 1 and s.round["n_turns"] == 4
    assert not s.of("pose")
    assert s.round["dumbfu_penalties"] == 0


def test_dumb_fu_as_final_card_opens_no_window():
    s = minions([["R1"], ["DUMBFU"], ["R5"]], [Scripted(), Scripted(colours=[0]), Scripted()])
    assert s.turn(1) == [E("play", 1, "DUMBFU"), E("colour", 1, 0)]
    assert not s.of("dumbfu")


def test_pose_outcome_is_a_bernoulli_from_the_play_stream():
    """Scripted policies and certain UNO calls draw nothing, so the pose is the stream's first number."""
    outcomes = set()
    for seed in range(8):
        hands, scripts = three_seats()
        s = minions(hands, scripts, p_dumbfu_fail=0.5, seed=seed)
        expected = Xoshiro(seed, 0, 1).bernoulli(0.5)
        assert s.of("pose") == [E("pose", 2, int(expected))]
        assert s.round["dumbfu_penalties"] == int(expected)
        outcomes.add(expected)
    assert outcomes == {True, False}
