"""The expert's decision rule (engine/core/lookahead.py ``significant_option``): it plays its anchor preset's
card unless the search finds an option better than it by more than z standard errors of the paired mean
gain. Hand-made gains for the rule itself; real mid-game states for what the search chooses."""

from __future__ import annotations

import numpy as np
import pytest
from lookahead_states import decisions, lean_copy

import unosim
from unosim.engine.core import lookahead as LA
from unosim.engine.core import turn as T
from unosim.engine.policies import heuristic as H
from unosim.game import protocol as L
from unosim.game.policies import parse_policy

WORK = np.zeros(LA.WORK_RECORDS, LA.WORLD)


def paired(gains: list[list[float]]) -> tuple[np.ndarray, np.ndarray]:
    """(Σ gain, Σ gain²) per option over the worlds: gains[j] = option j's gain over the anchor per world."""
    g = np.asarray(gains, np.float64)
    return g.sum(axis=1), (g ** 2).sum(axis=1)


def test_an_option_must_beat_the_anchor_by_z_standard_errors():
    # option 1 gains 0, 0.2, 0, 0.2 over 4 worlds: mean 0.1, sample variance 0.04 / 3, standard error
    # sqrt(0.04 / 12) = 0.0577: the mean is 1.73 standard errors
    gain, gain_sq = paired([[0.0] * 4, [0.0, 0.2, 0.0, 0.2], [0.0] * 4])
    assert LA.significant_option(gain, gain_sq, 3, 0, 1.7, WORK[0], np.uint64(1), 4, 4) == 1
    assert LA.significant_option(gain, gain_sq, 3, 0, 1.75, WORK[0], np.uint64(1), 4, 4) == 0
    # a losing option never overrules, whatever z; the largest significant mean wins (option 3: mean
    # 0.2, 1.73 standard errors; option 2: 0.05 in every world, no error)
    gain, gain_sq = paired([[-0.3] * 4, [0.0] * 4, [0.05] * 4, [0.0, 0.4, 0.0, 0.4]])
    assert LA.significant_option(gain, gain_sq, 4, 1, 0.0, WORK[0], np.uint64(1), 4, 4) == 3
    assert LA.significant_option(gain, gain_sq, 4, 1, 3.0, WORK[0], np.uint64(1), 4, 4) == 2
    gain, gain_sq = paired([[-0.3] * 4, [0.0] * 4])
    assert LA.significant_option(gain, gain_sq, 2, 1, 0.0, WORK[0], np.uint64(1), 4, 4) == 1


def test_equal_significant_means_are_broken_by_the_generator():
    gain, gain_sq = paired([[0.0] * 4, [0.1] * 4, [0.1] * 4])
    picks = {int(LA.significant_option(gain, gain_sq, 3, 0, 1.0, WORK[0], np.uint64(seed), 4, 4)) for seed in range(40)}
    assert picks == {1, 2}


def keep_wilds_card(g, p: int) -> int:
    """The card id the engine's keep_wilds would play for p in g (its legal cards, in hand order)."""
    legal = np.empty(L.MAX_CARDS, np.int64)
    nleg, _ = T.legal_plays(g, p, legal)
    return int(g["hands"][p, H.play(g, p, legal, nleg, True)])


@pytest.mark.parametrize("z, anchored", [(100.0, True), (0.0, False)])
def test_at_a_large_z_the_expert_plays_its_anchors_card(z, anchored):
    """Classic, 4 players (rules of tests/helpers/lookahead_states.py): with z = 100 every searched decision is
    keep_wilds's card; with z = 0 the search overrules it often (else the first half proves little)."""
    searched = same = 0
    for block, p, deck_counts in decisions("classic", seed=3, games=8):
        state = lean_copy(block)
        g = state[0]
        g["pp"][p, L.PP_ROLLOUTS] = 16
        g["pp"][p, L.PP_ANCHOR] = L.ROLLOUT_PRESETS.index("keep_wilds")
        g["pp"][p, L.PP_Z] = z
        expected = keep_wilds_card(g, p)
        LA.search(g, p, deck_counts, np.zeros(LA.WORK_RECORDS, LA.WORLD))
        choice = g["st"][L.ST_LA_CHOICE]
        if choice == LA.NO_CHOICE:
            continue
        searched += 1
        same += choice >= 0 and g["hands"][p, choice] == expected
    assert searched >= 50, searched
    if anchored:
        assert same == searched
    else:
        assert same < 0.9 * searched, (same, searched)


def test_the_anchor_and_z_are_parameters():
    vector = parse_policy("lookahead(anchor=greedy_points,z=1.5)").vector()
    assert vector[L.PP_ANCHOR] == L.ROLLOUT_PRESETS.index("greedy_points") and vector[L.PP_Z] == 1.5
    with pytest.raises(ValueError, match="z='-1' of 'lookahead' is invalid"):
        parse_policy("lookahead(z=-1)")
    # a weighted anchor's weights ride in the seat's vector, which holds one preset's weights
    vector = parse_policy("lookahead(anchor=colour_counter)").vector()
    assert vector[L.PP_W_COLOUR_SEEN] == parse_policy("colour_counter").vector()[L.PP_W_COLOUR_SEEN] != 0
    with pytest.raises(ValueError, match="two weighted presets"):
        parse_policy("lookahead(rollout=save_wilds,anchor=colour_counter)").vector()


def test_two_player_games_take_the_best_mean_whatever_z():
    """At 2 players the anchor rule is off (engine/core/lookahead.py): z changes no game."""
    kwargs = dict(players=2, games=6, seed=2, rules={"match_mode": "single_round"})
    rounds = [unosim.simulate("classic", lineup=f"lookahead(rollouts=8,z={z}),keep_wilds", **kwargs).rounds
              for z in (0, 100)]
    assert rounds[0].equals(rounds[1])
