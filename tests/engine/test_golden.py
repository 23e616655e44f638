"""Golden playthroughs: complete replays of fixed games, checked into tests/engine/golden/.

A change of behaviour shows up here as a readable diff. If it is intended, bump
``unosim.engine.ENGINE_VERSION`` and regenerate with ``UNOSIM_REGENERATE_GOLDEN=1 make test``.
Every golden game is also replayed by the reference engine, which must agree event for event.
"""

import os
from pathlib import Path

import numpy as np
import pytest

from unosim import reference, replay
from unosim.play.simulate import resolve
from unosim.play.trace import describe, describe_events

GOLDEN = Path(__file__).parent / "golden"
GAMES = {
    "classic_4p_random": dict(variant="classic", players=4, seed=11, rules={"match_mode": "single_round"}),
    "classic_2p_points_greedy": dict(variant="classic", players=2, seed=5, lineup="greedy_points,random",
                                     rules={"target": 150}),
    "classic_5p_blanks_bluffers": dict(
        variant="classic", players=5, seed=3, lineup="random(p_bluff=0.5,p_challenge=0.5)",
        rules={"match_mode": "single_round", "p_forget_uno": 0.5,
               "blank_effects": ["shuffle_hands", "discard_colour", "others_draw_1"]}),
    "minions_3p_keep_wilds": dict(variant="minions", players=3, seed=8, lineup="keep_wilds",
                                  rules={"match_mode": "single_round", "p_dumbfu_fail": 0.5}),
    "no_mercy_4p_random": dict(variant="no_mercy", players=4, seed=7, rules={"match_mode": "single_round"}),
    "no_mercy_3p_jump_in": dict(variant="no_mercy", players=3, seed=2, lineup="greedy_points,random*",
                                rules={"match_mode": "single_round", "jump_in": True}),
    "spin_4p_random": dict(variant="spin", players=4, seed=3, rules={"match_mode": "single_round"}),
    "spin_3p_keep_wilds": dict(variant="spin", players=3, seed=5, lineup="keep_wilds",
                               rules={"match_mode": "single_round", "spin_weights": [1, 1, 1, 1, 1, 1, 3, 3, 1]}),
    "classic_4p_house_rules": dict(variant="classic", players=4, seed=9, lineup="random(p_challenge=0.5)",
                                   rules={"match_mode": "single_round", "stacking": "any_draw",
                                          "seven_o": True, "jump_in": True}),
    "flip_3p_random": dict(variant="flip", players=3, seed=4, lineup="random(p_bluff=0.3,p_challenge=0.5)",
                           rules={"match_mode": "single_round"}),
}


def test_every_trace_event_has_a_description():
    from unosim.game import protocol as L
    for code in L.EV_NAMES:
        assert describe((code, 0, 1, 0))


@pytest.mark.parametrize("name", list(GAMES))
def test_replay_matches_the_golden_file(name):
    text = replay(**GAMES[name])
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("UNOSIM_REGENERATE_GOLDEN"):
        path.write_text(text)
    assert path.exists(), f"missing golden file {path}; regenerate it"
    assert text == path.read_text()


@pytest.mark.parametrize("name", list(GAMES))
def test_reference_engine_reproduces_the_golden_game(name):
    spec = GAMES[name]
    rs, lineup = resolve(spec["variant"], spec["players"], spec.get("lineup", "random"), spec.get("rules"))
    events = np.asarray(reference.play(rs, spec["players"], lineup, spec["seed"], 0, 1, trace=True).events)
    assert describe_events(events) == (GOLDEN / f"{name}.txt").read_text()
