"""Inputs a script gives unosim's Python side: rules holding numpy values, Python policies whose methods
are not methods or whose answers are huge, a deal that cannot be made, and a tournament of a slow Python
policy (progress and a timeout). Each is refused or handled in one clear message naming the value."""

from __future__ import annotations

import re
import time

import numpy as np
import pytest

import unosim
from unosim.game import designer_deck, rules
from unosim.reference import PythonPolicy, play


@pytest.mark.parametrize("overrides, message", [
    ({"hand_size": np.array([7])}, "rule hand_size=[7] is invalid: valid is an integer in 1..15"),
    ({"stacking": np.array(["none"])}, "rule stacking=['none'] is invalid: valid is one of"),
    ({"deck": np.array([1, 2])}, "rule deck=[1, 2] is invalid: valid is a table of card class"),
    ({"p_forget_uno": np.array([[0.1], [0.2]])}, "p_forget_uno"),
])
def test_numpy_values_in_rules_are_checked_as_the_values_they_hold(overrides, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        rules.get_variant("classic", overrides)


def test_numpy_values_that_are_valid_are_taken_as_plain_values():
    rs = rules.get_variant("classic", {"p_forget_uno": np.array([0.1, 0.2]), "hand_size": np.int64(5),
                                       "deck": {"draw_two": np.int64(12)}})
    assert rs.p_forget_uno == (0.1, 0.2) and type(rs.hand_size) is int and rs.deck == (("draw_two", 12),)


@pytest.mark.parametrize("count", [1, 2, 5, 8, 15, 40])
@pytest.mark.parametrize("players", [2, 4, 10])
def test_the_deal_check_advises_only_what_would_deal(count, players):
    classic = rules.get_variant("classic")
    deck = dict.fromkeys(designer_deck.valid_classes(classic.spec.kinds), 0) | {"n1": count}
    rs = rules.get_variant("classic", {"deck": deck})
    try:
        rs.check_players(players)
    except ValueError as exc:
        message = str(exc)
    else:
        return
    assert not re.search(r"at most -?\d+ players", message) or all(
        int(n) >= rs.player_range[0] for n in re.findall(r"at most (\d+) players", message)), message
    for n in re.findall(r"use at most (\d+) players", message):   # the advice deals
        rs.check_players(int(n))
    for hand in re.findall(r"hand_size of at most (\d+)", message):
        rules.get_variant("classic", {"deck": deck, "hand_size": int(hand)}).check_players(players)
    assert "-1" not in message


class NotAMethod:
    play = 3


class ColourIsText(PythonPolicy):
    colour = "red"


@pytest.mark.parametrize("policy, message", [
    (NotAMethod(), "policy NotAMethod: its play is 3 (of type int), not a method"),
    (ColourIsText(), "policy ColourIsText: its colour is 'red' (of type str), not a method"),
])
def test_a_policy_whose_decision_is_not_callable_is_refused(policy, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        play(rules.get_variant("classic"), 2, [policy, "random"], seed=1)


class HugeAnswer(PythonPolicy):
    def play(self, view):
        return "x" * 5_000_000


def test_an_invalid_answer_is_named_in_a_bounded_message():
    with pytest.raises(ValueError) as info:
        play(rules.get_variant("classic"), 2, [HugeAnswer(), "random"], seed=1)
    message = str(info.value)
    assert message.startswith("policy 'HugeAnswer' at seat 0 answered 'xxx") and "valid answers: legal indices" in message
    assert len(message) < 700


class SlowPolicy(PythonPolicy):
    def play(self, view):
        time.sleep(0.002)
        return super().play(view)


def test_a_python_tournament_shows_progress_and_stops_at_its_timeout(capsys):
    result = unosim.tournament("classic", players=2, policies=[PythonPolicy(), "random"], games=60, seed=1,
                               progress=True)
    assert result.standings["deals"].to_list() == [60, 60]
    assert "120/120" in capsys.readouterr().err
    started = time.perf_counter()
    with pytest.raises(TimeoutError, match=r"stopped at its timeout of 0.5 s after \d+ of 4,000 games"):
        unosim.tournament("classic", players=2, policies=[SlowPolicy(), "random"], games=2000, seed=1, timeout=0.5)
    assert time.perf_counter() - started < 30
    with pytest.raises(ValueError, match="only a tournament with a Python policy takes a timeout"):
        unosim.tournament("classic", players=2, policies=["greedy_points", "random"], games=10, seed=1, timeout=5)
