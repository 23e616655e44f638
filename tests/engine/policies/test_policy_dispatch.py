"""The compiled engine's one policy dispatch (unosim/engine/policies/dispatch.py): an unknown policy id raises
instead of playing, and a decision depends only on what it computes or receives, never on what an
earlier decision left in the game record's scratch buffers."""

import numpy as np
import pytest

from unosim.engine.core.round import new_game, run_games
from unosim.engine.policies import dispatch as policy
from unosim.engine.record import state as S
from unosim.game import cards
from unosim.game import protocol as L
from unosim.game.policies import parse_policy
from unosim.game.protocol import N_POLICY_PARAMS, output_buffers
from unosim.play.simulate import resolve

BUILT_IN_IDS = (S.RANDOM, S.GREEDY_POINTS, S.KEEP_WILDS, S.WEIGHTED, S.LOOKAHEAD)
# weighted with weights on every kind of decision (all zero it would only break ties)
WEIGHTED_SPEC = "colour_counter(w_order=0.1,w_challenge=-5,w_challenge_hand=1,w_target_order=1)"


def _game(variant, players, pol, pp=None):
    rs, _ = resolve(variant, players, "random", {"match_mode": "single_round"})
    ir, fr, deck = rs.compile(players)
    pp = np.zeros((players, N_POLICY_PARAMS)) if pp is None else pp
    block = new_game(ir, fr, np.asarray(pol, np.int64), pp)
    return block, deck


@pytest.mark.parametrize("bad_id", [-1, len(L.POLICY_NAMES), 99])
def test_a_kernel_call_with_an_unknown_policy_id_raises_before_playing(bad_id):
    block, deck = _game("classic", 4, [S.RANDOM, S.GREEDY_POINTS, bad_id, S.KEEP_WILDS])
    rounds, seats, opening, matches = output_buffers(4, 4, 4)
    for table in (rounds, seats, matches):
        table[:] = -7
    with pytest.raises(ValueError, match="unknown policy id"):
        run_games(block[0], deck, 1, 0, 4, deck[:0], rounds, seats, opening, matches, 0, 10**9)
    assert (rounds == -7).all() and (matches == -7).all() and (seats == -7).all()
    assert not opening.any()


def _dealt(variant, pid, seed=3):
    """A record with seat 0 of policy ``pid`` holding a dealt 9-card hand and a wild as T."""
    pp = np.zeros((4, N_POLICY_PARAMS))
    if pid == S.WEIGHTED:
        pp[0] = parse_policy(WEIGHTED_SPEC).vector()
    block, deck = _game(variant, 4, [pid, S.RANDOM, S.RANDOM, S.RANDOM], pp)
    g = block[0]
    rng = np.random.default_rng(seed)
    order = rng.permutation(deck)
    for s in range(4):
        g["hands"][s, :9] = order[9 * s:9 * s + 9]
        g["hlen"][s] = 9
        S.recount_held(g, s)
        g["seat"][s, S.SE_ACTIVE] = 1
    g["st"][S.ST_N_ACTIVE] = 4
    g["st"][S.ST_DIR] = 1
    g["st"][S.ST_TOP] = cards.ID_WILD
    g["st"][S.ST_COLOUR] = cards.R
    g["rng"][:] = np.arange(1, 9, dtype=np.uint64)
    return block


DECISIONS = {
    "play": lambda g: policy.choose_play(g, 0, g["legal"], 3, -1),
    "stack": lambda g: policy.choose_stack(g, 0, g["legal"], 3),
    "plays_drawn": lambda g: policy.plays_drawn(g, 0, 0),
    "jumps_in": lambda g: policy.jumps_in(g, 0, 0),
    "colour": lambda g: policy.choose_colour(g, 0),
    "target": lambda g: policy.choose_target(g, 0),
    "challenges": lambda g: policy.challenges(g, 0),
    "almost_uno": lambda g: policy.almost_uno_discards(g, 0, g["order"]),
    "group": lambda g: policy.choose_group(g, 0, np.array([0, 2, 1, 3]), np.array([0, 9, 40, 3]), 4, 3),
    "order_discards": lambda g: policy.order_discards(g, 0, g["order"], 4),
    "war_reveal": lambda g: policy.war_reveal(g, 0, 3),
    "uno_spin": lambda g: policy.uno_spin_discard(g, 0),
}


@pytest.mark.parametrize("decision", sorted(DECISIONS))
def test_every_decision_raises_for_an_unknown_policy_id(decision):
    block = _dealt("spin", len(L.POLICY_NAMES))   # the first id no policy has
    g = block[0]
    g["legal"][:3] = (0, 1, 2)
    with pytest.raises(ValueError, match="unknown policy id"):
        DECISIONS[decision](g)


@pytest.mark.parametrize("pid", BUILT_IN_IDS)
@pytest.mark.parametrize("decision", sorted(DECISIONS))
def test_a_decision_ignores_what_earlier_decisions_left_in_scratch_space(decision, pid):
    """Same state and random stream, scratch buffers clean or full of junk: the same answer, the same
    draws from the play stream, the same order filled."""
    answers = []
    for junk in (0, 5):
        block = _dealt("spin", pid)
        g = block[0]
        for name in ("cand", "order", "buf", "tally", "group_points", "mark", "fbuf", "scores"):
            g[name][...] = junk
        g["legal"][:3] = (0, 1, 2)
        g["order"][:4] = (3, 1, 0, 2)   # the input of order_discards
        answer = DECISIONS[decision](g)
        answers.append((answer, g["rng"].tolist(), g["order"][:4].tolist()))
    assert answers[0] == answers[1]
