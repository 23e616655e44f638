"""The wheel decisions of the Python policies (docs/rules.md §5 item 8, protocol ``unosim.engine`` §6): ``random``
draws exactly what the protocol says from the play stream; ``greedy_points`` and ``keep_wilds`` follow
their rules; ``keep_wilds`` uses what SHOW_HAND showed; a partial user policy keeps its own answers."""

from __future__ import annotations

import pytest
from scenario_tools import C

from unosim.game import cards
from unosim.game.rules import RuleSet
from unosim.reference import GreedyPointsPolicy, KeepWildsPolicy, PolicyView, PythonPolicy, RandomPolicy
from unosim.reference.policies import resolve_lineup
from unosim.reference.rng import PLAY_STREAM, Xoshiro


def view(hand, seed=3, seat=0, direction=1, shown=(), active=(True,) * 4):
    return PolicyView(seat=seat, hand=tuple(C(c) for c in hand), top=C("R9"), colour=0, direction=direction,
                      hand_sizes=(5,) * len(active), pending=0, legal=(), bluffs=(), rules=RuleSet(family="spin"),
                      rng=Xoshiro(seed, 0, PLAY_STREAM), active=active, shown=shown)


def twin(seed=3):
    return Xoshiro(seed, 0, PLAY_STREAM)


HAND = ["R5", "G5", "WILD", "B9", "R5*", "GSKIP", "Y2"]


# ---- random: the protocol's exact draws ------------------------------------------------------------------
@pytest.mark.parametrize("policy", [PythonPolicy(), RandomPolicy(p_draw=0.5, p_bluff=0.5)], ids=["python", "random"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_wheel_decisions_draw_as_the_protocol_says(policy, seed):
    v, rng = view(HAND, seed), twin(seed)
    order = list(range(len(HAND)))
    rng.shuffle(order)
    assert policy.almost_uno(v) == order[:5]                     # keeps a random pair, random order

    numbers = (2, 5, 9)
    number = numbers[rng.below(3)]
    same = [i for i, c in enumerate(HAND) if c[0] != "W" and c[1:2] == str(number) and "SKIP" not in c]
    rng.shuffle(same)
    assert policy.discard_number(v, numbers) == (number, same)

    colours = (0, 1, 2, 3)
    colour = colours[rng.below(4)]
    group = [i for i, c in enumerate(HAND) if cards.COLOUR[C(c)] == colour]
    rng.shuffle(group)
    assert policy.discard_colour(v, colours) == (colour, group)

    assert policy.war_reveal(v, (0, 4)) == (0, 4)[rng.below(2)]
    revealed = [4, 0, 3]
    rng.shuffle(revealed)
    assert policy.war_discard(v, (4, 0, 3)) == revealed
    assert policy.uno_spin_discard(v) == rng.below(len(HAND))
    assert v.rng.state == rng.state                               # nothing else was drawn


def test_random_colour_ignores_what_was_shown():
    shown = (None, tuple(C(c) for c in ["G1", "G2", "G3"]), None, None)
    assert RandomPolicy().colour(view(HAND, shown=shown)) == twin().below(4)


# ---- greedy_points / keep_wilds ------------------------------------------------------------------------
# hand, greedy_points discards, keep_wilds discards (hand order)
ALMOST_ROWS = [
    (["WILD", "R5", "B1", "G+2", "Y1"], [0, 1, 3], [1, 2, 4]),   # greedy keeps B1, Y1; keep_wilds WILD, G+2
    (["R5", "WILD", "G7", "WD4", "R6"], [1, 2, 3], [0, 2, 4]),
    (["R5", "R5*", "G7", "R9", "B2"], [1, 2, 3], [1, 2, 4]),      # ties (R5, R5*): the earlier is kept
]


@pytest.mark.parametrize("hand,greedy,keep", ALMOST_ROWS, ids=["mixed", "two-wilds", "ties"])
def test_heuristic_almost_uno_keeps_its_two_best_cards(hand, greedy, keep):
    assert GreedyPointsPolicy().almost_uno(view(hand)) == greedy
    assert KeepWildsPolicy().almost_uno(view(hand)) == keep


@pytest.mark.parametrize("method,hand,options,greedy,keep", [
    ("discard_number", ["R2", "G2", "B9", "Y2", "WILD"], (2, 9), (9, [2]), (2, [0, 1, 3])),
    ("discard_number", ["R3", "G6", "B3", "Y6", "WILD"], (3, 6), (6, [1, 3]), (3, [0, 2])),      # tie: first
    ("discard_colour", ["RSKIP", "G5", "G6", "G7", "R1"], (0, 2), (0, [0, 4]), (2, [1, 2, 3])),
    ("discard_colour", ["R4", "G4", "WILD", "WD4"], (0, 2), (0, [0]), (0, [0])),                # ties: first
], ids=["number", "number-tie", "colour", "colour-tie"])
def test_heuristic_discard_group(method, hand, options, greedy, keep):
    """greedy_points sheds the most points, keep_wilds the most cards, all of them, in hand order."""
    assert getattr(GreedyPointsPolicy(), method)(view(hand), options) == greedy
    assert getattr(KeepWildsPolicy(), method)(view(hand), options) == keep


@pytest.mark.parametrize("policy", [GreedyPointsPolicy(), KeepWildsPolicy()], ids=["greedy", "keep_wilds"])
def test_heuristic_war_reveals_the_first_and_discards_in_reveal_order(policy):
    v = view(HAND)
    assert policy.war_reveal(v, (4, 0)) == 4
    assert policy.war_discard(v, (4, 0, 3)) == [4, 0, 3]
    assert v.rng.state == twin().state


@pytest.mark.parametrize("hand,greedy,keep", [
    (["R5", "WILD", "G+2", "RSKIP", "WD4"], 1, 2),
    (["WILD", "WD4"], 0, 0),                      # keep_wilds discards a wild only when it holds nothing else
    (["Y1", "B7", "R7"], 1, 1),
], ids=["mixed", "only-wilds", "numbers"])
def test_heuristic_uno_spin_discard(hand, greedy, keep):
    assert GreedyPointsPolicy().uno_spin_discard(view(hand)) == greedy
    assert KeepWildsPolicy().uno_spin_discard(view(hand)) == keep


# ---- keep_wilds colour and SHOW_HAND -------------------------------------------------------------------------
TIED = ["R5", "R6", "G5", "G6", "WILD"]          # two red, two green


@pytest.mark.parametrize("shown,direction,active,colour", [
    ((None, None, None, None), 1, (True,) * 4, 0),                         # never seen: lowest index
    ((None, ("R1", "R2", "G3"), None, None), 1, (True,) * 4, 2),           # next seat showed red: green
    ((None, ("G1", "G2", "R3"), None, None), 1, (True,) * 4, 0),
    ((None, ("G1", "G2"), None, ("R1",)), -1, (True,) * 4, 2),             # d = -1: seat 3 is next
    ((None, ("G1", "G2"), ("R2",), None), 1, (True, False, True, True), 2),  # seat 1 is out: seat 2 next
    ((None, ("B1", "Y2"), None, None), 1, (True,) * 4, 0),                 # shown colours not tied: lowest
], ids=["unseen", "next-showed-red", "next-showed-green", "counter-clockwise", "knocked-out-skipped", "other-colours"])
def test_keep_wilds_names_the_tied_colour_the_next_seat_showed_fewest_of(shown, direction, active, colour):
    seen = tuple(None if s is None else tuple(C(c) for c in s) for s in shown)
    v = view(TIED, direction=direction, shown=seen, active=active)
    assert KeepWildsPolicy().colour(v) == colour
    assert GreedyPointsPolicy().colour(v) == 0               # greedy_points ignores what was shown


def test_keep_wilds_shown_only_breaks_ties():
    seen = (None, tuple(C(c) for c in ["R1", "R2", "R4"]), None, None)
    assert KeepWildsPolicy().colour(view(["R5", "R6", "G5", "WILD"], shown=seen)) == 0


# ---- a user policy implementing only some wheel decisions -----------------------------------------------------
def test_partial_user_policy_answers_its_own_wheel_decisions():
    class OnlyWar:
        def play(self, view):
            return view.legal[0]

        def war_reveal(self, view, candidates):
            return candidates[-1]

    seat = resolve_lineup([OnlyWar()], 1)[0]
    v = view(HAND)
    assert seat.policy.war_reveal(v, (0, 4)) == 4
    assert seat.policy.uno_spin_discard(v) == twin().below(len(HAND))     # the rest defaults to random
