"""Both engines play UNO Flip under the transcribed pairing of faces (docs/rules.md §6 F1) event for
event, with the kernel's conservation audit on, and a Python policy sees the others' hands only when the
backs name the cards (§2.6.6)."""

import numpy as np
import pytest

from unosim import reference
from unosim.game import flip_pairing
from unosim.play.simulate import resolve, run_compiled


@pytest.mark.parametrize("players,lineup,rules", [
    (2, "greedy_points,keep_wilds", {"target": 300}),
    (4, "random(p_bluff=0.4,p_challenge=0.5)", {"match_mode": "single_round", "p_forget_uno": 0.3}),
    (6, "keep_wilds,random*", {"jump_in": True, "seven_o": True, "mercy_limit": 22, "match_mode": "single_round"}),
])
def test_both_engines_play_the_transcribed_pairing_event_for_event(players, lineup, rules):
    rs, specs = resolve("flip", players, lineup, {**rules, "flip_pairing": "transcribed"})
    compiled = run_compiled(rs, players, specs, 4711, 0, 40, trace=True, audit=True)   # audit: conservation
    slow = reference.play(rs, players, specs, 4711, 0, 40, trace=True)
    assert np.array_equal(compiled.events, np.asarray(slow.events))
    for table in ("rounds", "seats", "opening", "matches"):
        assert np.array_equal(getattr(compiled, table), np.asarray(getattr(slow, table))), table
    default, _ = resolve("flip", players, lineup, rules)
    other = run_compiled(default, players, specs, 4711, 0, 40, trace=True)
    assert not np.array_equal(other.events, compiled.events)   # the pairing is in play, not ignored


def test_a_seat_sees_the_others_hands_only_when_backs_name_cards():
    """§2.6.6: under shared backs a Python policy's view holds every other hand; under the transcribed
    pairing a back leaves the card open, so the view holds none."""
    seen = {}

    class Peek(reference.PythonPolicy):
        def play(self, view):
            seen.setdefault(pairing, view.others)
            return super().play(view)

    for pairing in flip_pairing.names():
        rs, _ = resolve("flip", 3, "random", {"flip_pairing": pairing, "match_mode": "single_round"})
        reference.play(rs, 3, [Peek()] * 3, 1, 0, 1)
    assert sum(hand is not None for hand in seen[flip_pairing.DEFAULT]) == 2
    assert seen["transcribed"] == ()
