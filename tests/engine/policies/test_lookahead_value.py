"""How the expert scores a rollout (engine/core/lookahead.py ``outcome_value``): the share of the other seats
it finishes ahead of, as tournaments rank seats (analysis/standings.py), minus a little per point held.
Scripted positions; the expected values are worked out by hand from that definition."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scenario_tools import C

from unosim.engine.core import lookahead as LA
from unosim.game import protocol as L

PENALTY = LA.POINTS_WEIGHT / 100.0   # per point the scored seat holds


def position(hands: list[list[str]], winner: int = -1, out: tuple[int, ...] = ()):
    """A rollout's end: seat t holds hands[t]; ``winner`` won the round (-1: the horizon came first);
    the seats in ``out`` were knocked out."""
    world = np.zeros(1, LA.WORLD)[0]
    world["st"][L.ST_N] = len(hands)
    world["st"][L.ST_WINNER] = winner
    for t, hand in enumerate(hands):
        world["seat"][t, L.SE_ACTIVE] = t not in out
        world["hlen"][t] = len(hand)
        world["hands"][t, :len(hand)] = [C(name) for name in hand]
    return world


def value(world, p: int = 0) -> float:
    return LA.outcome_value(world, p, np.empty(world["st"][L.ST_N]))


def test_a_win_is_ahead_of_every_other_seat():
    assert value(position([[], ["R5"], ["G9", "B9"], ["Y1"]], winner=0)) == 1.0


def test_when_another_seat_wins_the_points_held_rank_the_rest():
    # seat 1 won; seat 0 (5 points) is behind it, ahead of seat 2 (18 points), behind seat 3 (1 point)
    world = position([["R5"], [], ["G9", "B9"], ["Y1"]], winner=1)
    assert value(world) == pytest.approx(1 / 3 - 5 * PENALTY)


def test_equal_points_count_half():
    world = position([["R5"], [], ["G5"], ["Y1"]], winner=1)
    assert value(world) == pytest.approx((0.5 + 0.0) / 3 - 5 * PENALTY)


def test_a_knocked_out_seat_is_behind_every_seat_still_in():
    world = position([["R9", "R8"], [], ["G1"], ["Y1"]], winner=1, out=(2,))
    assert value(world) == pytest.approx(1 / 3 - 17 * PENALTY)
    knocked_out = position([["R9"], [], ["G1"], ["Y1"]], winner=1, out=(0,))
    assert value(knocked_out) == -LA.POINTS_WEIGHT * LA.KO_POINTS / 100.0


def test_at_the_horizon_equal_positions_are_even():
    # four seats with one 5 each: every seat wins with chance 1/4, and against each other seat the
    # expert is ahead when it wins (1/4) or, half the time, when one of the two others wins (1/2 × 1/2)
    world = position([["R5"], ["G5"], ["B5"], ["Y5"]])
    assert value(world) == pytest.approx(0.5 - 5 * PENALTY)


def test_at_the_horizon_fewer_points_and_cards_are_worth_more():
    world = position([["R1"], ["G9", "G8"], ["B9", "B8"], ["Y9", "Y8"]])
    # the expert's chance of winning: 1 / (1 + 3 × 1/2) = 0.4; each other seat's 0.2
    ahead = 1.0 / (1.0 + math.exp((1 - 17) / LA.POINTS_SCALE))   # points 1 against 17, softened
    assert value(world) == pytest.approx(0.4 + 0.4 * ahead - PENALTY)


@pytest.mark.parametrize("winner", [-1, 1])
def test_at_two_players_the_value_is_the_chance_of_winning(winner):
    # no third seat ranks the loser: the points the other seat holds do not enter
    world = position([["R5", "G2"], ["WILD"] if winner < 0 else []], winner=winner)
    chance = 0.0 if winner == 1 else (1 / 2) / (1 / 2 + 1 / LA.WILD_SIZE)
    assert value(world) == pytest.approx(chance - 7 * PENALTY)
