"""The reference engine replays the compiled engine's lookahead decisions and plays the same games.

The search itself runs only in the compiled engine (unosim.reference.lookahead says why); everything
around it is compared event by event: the turn loop that pauses before a lookahead seat's turn and
resumes, the choice it stores, the one play-stream number each search draws, and every other decision
taken by the seat's rollout preset. Points-mode matches check that beliefs and pauses carry over
rounds; the rules exercise stacking (stack decisions), voluntary draws and hand swaps.
"""

from __future__ import annotations

import numpy as np
import pytest

from unosim import reference
from unosim.game import protocol as L
from unosim.play.simulate import resolve, run_compiled
from unosim.reference.lookahead import replayed_lineup

CASES = {
    "classic": ("classic", 3, "lookahead(rollouts=3,horizon=8),random(p_draw=0.2)*",
                {"seven_o": True, "n_blank": 2, "stacking": "any_draw", "target": 150}),
    "minions": ("minions", 4, "lookahead(rollouts=2,rollout=random),keep_wilds,lookahead(rollouts=2),random",
                {"match_mode": "single_round"}),
    "spin": ("spin", 3, "greedy_points,lookahead(rollouts=2,rollout=keep_wilds,horizon=6),random",
             {"match_mode": "single_round", "jump_in": True}),
    "no_mercy": ("no_mercy", 4, "lookahead(rollouts=2,horizon=10,rollout=punisher),random*", {"match_mode": "single_round"}),
}
GAMES = 6


@pytest.mark.parametrize("case", list(CASES))
def test_reference_replaying_lookahead_plays_identical_games(case):
    variant, players, lineup, rules = CASES[case]
    rs, specs = resolve(variant, players, lineup, rules)
    searched = 0
    for game in range(GAMES):
        compiled = run_compiled(rs, players, specs, 31, game, 1, trace=True, audit=True)
        events = compiled.events
        decided = events[events[:, 0] == L.EV_LOOKAHEAD]
        searched += int(decided[:, 3].sum())
        slow = reference.play(rs, players, replayed_lineup(lineup, players, events), 31, game, 1, trace=True)
        assert np.array_equal(events[events[:, 0] != L.EV_LOOKAHEAD], np.asarray(slow.events)), \
            f"game {game}: the traces differ"
        for table in ("rounds", "seats", "opening", "matches"):
            assert np.array_equal(getattr(compiled, table), np.asarray(getattr(slow, table))), table
    assert searched >= 10, f"only {searched} searched decisions: the replay proves little"


def test_the_reference_engine_refuses_to_play_lookahead_itself():
    rs, _ = resolve("classic", 2, "random", {})
    with pytest.raises(ValueError, match="compiled engine only"):
        reference.play(rs, 2, "lookahead,random", 1)
