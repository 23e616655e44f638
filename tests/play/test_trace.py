"""The replay's lines (unosim.play.trace): a wing's events read by the line their ``protocol.Event`` declares."""

from __future__ import annotations

from unosim.game import protocol as L
from unosim.play import trace


def test_a_wing_s_events_read_as_their_declared_lines():
    assert trace.describe((L.EV_SPIN, 2, L.TRADE_HANDS, 1)) == "  seat 2 spins (final card): TRADE_HANDS"
    assert trace.describe((L.EV_SPIN, 0, L.WAR, 0)) == "  seat 0 spins: WAR"
    assert trace.describe((L.EV_WAR, 3, 0, 0)) == "  War won by seat 3"
    assert trace.describe((L.EV_WAR, -1, 0, 0)) == "  War: no winner"
    assert trace.describe((L.EV_REVEAL, 1, 7, 0), names=tuple(f"card{i}" for i in range(10))) == "  seat 1 reveals card7"
    assert trace.describe((L.EV_ROULETTE, 1, 2, 0)) == "  seat 1 names colour G for the Roulette and reveals"
    assert trace.describe((L.EV_POSE, 0, 1, 0)) == "  seat 0 breaks the Dumb Fu pose"


def test_an_event_that_sets_the_side_names_the_colours_of_that_side_after_it():
    events = [(L.EV_ROUND_START, 0, 0, 0), (L.EV_COLOUR, 1, 0, 0), (L.EV_FLIP, 1, 1, 0), (L.EV_COLOUR, 2, 0, 0),
              (L.EV_ROUND_START, 0, 1, 0), (L.EV_COLOUR, 1, 0, 0)]
    lines = trace.describe_events(events).splitlines()
    assert lines[1:4] == ["  seat 1 names colour R", "  seat 1's Flip turns every card over: the dark side is in play",
                          "  seat 2 names colour P"]
    assert lines[5] == "  seat 1 names colour R"   # a new round starts on the light side


def test_every_hand_move_a_wing_declares_is_one_the_count_knows():
    assert {event.hands for event in L.EVENTS if event.hands} <= set(trace.HAND_MOVES)
