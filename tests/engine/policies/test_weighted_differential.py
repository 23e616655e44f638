"""The ``weighted`` policy, its presets and arbitrary weights: the compiled engine and the reference
twin (unosim/reference/weighted.py) emit identical traces and tables over the differential grid (every
rule combination of ``differential_cases.CASES``: all four variants, 2-10 players, house rules)."""

import numpy as np
import pytest
from differential_cases import CASES

from unosim import reference
from unosim.game import protocol as L
from unosim.game.policies import PRESETS, _split_top_level
from unosim.game.protocol import WEIGHT_PARAMS
from unosim.play.simulate import resolve, run_compiled


def _random_weights(seed: int) -> str:
    """A ``weighted(...)`` spec with every weight drawn at random (some exactly 0, ties stay possible:
    small integers), plus p_challenge and p_keep_drawn."""
    rng = np.random.default_rng(seed)
    weights = {name: int(rng.integers(-3, 4)) for name in WEIGHT_PARAMS}
    body = ",".join(f"{k}={v}" for k, v in weights.items())
    return f"weighted({body},p_challenge=0.5,p_keep_drawn=0.3)"


def _first_difference(a: np.ndarray, b: np.ndarray) -> str:
    n = min(len(a), len(b))
    bad = np.flatnonzero((a[:n] != b[:n]).any(axis=1))
    i = int(bad[0]) if len(bad) else n
    return f"first difference at event {i} of {len(a)} / {len(b)}: {a[i:i + 1].tolist()} vs {b[i:i + 1].tolist()}"


def _agree(variant, players, lineup, rules, games, seed):
    rs, specs = resolve(variant, players, lineup, rules)
    compiled = run_compiled(rs, players, specs, seed, 0, games, trace=True)
    slow = reference.play(rs, players, specs, seed, 0, games, trace=True)
    events = np.asarray(slow.events)
    assert compiled.events.shape == events.shape and np.array_equal(compiled.events, events), \
        _first_difference(compiled.events, events)
    for table in ("rounds", "seats", "opening", "matches"):
        assert np.array_equal(getattr(compiled, table), np.asarray(getattr(slow, table))), table


def _lineup(case_lineup: str, policy: str) -> str:
    """The case's lineup with ``policy`` in seat 0 (the case's policies, parameters included, fill the
    other seats)."""
    entries = _split_top_level(case_lineup)
    if len(entries) == 1:
        return f"{policy},{entries[0]}*"
    return ",".join([policy, *entries[1:]])


def _games(rules: dict) -> int:
    return 60 if rules.get("match_mode") == "single_round" else 8


# The Python twin replays about 25,000 turns a second. Random weights can make every round of a match
# score nothing: minions-2-mixed played 8 matches of 1,000 rounds each to the round cap (1.3 million turns),
# and even one of them cost 15 s. A match mode's round cap is lowered to ROUND_CAP here (both engines play
# it, and it still ends the matches that reach it), and a case plays the most games that fit in TWIN_TURNS.
TWIN_TURNS = 60_000
ROUND_CAP = 100


def _games_within_budget(variant, players, lineup, rules, seed) -> int:
    """The case's games (or matches), fewer when their turns exceed TWIN_TURNS: the most whose turns,
    counted by the compiled engine, fit (at least one)."""
    rs, specs = resolve(variant, players, lineup, rules)
    games = _games(rules)
    raw = run_compiled(rs, players, specs, seed, 0, games)
    turns = np.bincount(raw.rounds[:, L.RC_GAME], weights=raw.rounds[:, L.RC_TURNS], minlength=games)
    return max(1, int(np.searchsorted(np.cumsum(turns), TWIN_TURNS, side="right")))


def _preset_pairs() -> list[tuple[str, str]]:
    """Each case with two presets, rotating through them in order, so that every preset meets every
    variant and most house rules (9-10 cases each) at a third of the cost of every pair."""
    presets = sorted(PRESETS)
    return [(case, presets[(2 * i + k) % len(presets)]) for i, case in enumerate(CASES) for k in (0, 1)]


@pytest.mark.slow
@pytest.mark.parametrize(("case", "preset"), _preset_pairs())
def test_every_preset_agrees_on_the_differential_grid(case, preset):
    variant, players, lineup, rules = CASES[case]
    whole = preset if case.endswith(("random", "random-single", "random-match")) else None
    _agree(variant, players, whole or _lineup(lineup, preset), rules, _games(rules), 2025)


@pytest.mark.parametrize("case", list(CASES))
def test_arbitrary_weights_agree_on_the_differential_grid(case):
    variant, players, _, rules = CASES[case]
    if rules.get("match_mode", "points") != "single_round":
        rules = {**rules, "max_rounds_per_match": min(rules.get("max_rounds_per_match", ROUND_CAP), ROUND_CAP)}
    seed = sum(map(ord, case))
    lineup = ",".join(_random_weights(seed + s) for s in range(players))
    _agree(variant, players, lineup, rules, _games_within_budget(variant, players, lineup, rules, seed), seed)


def test_voluntary_draw_bluff_and_challenge_weights_agree():
    """Weights that make the non-card options win often: voluntary draws, bluffs, challenges by the
    WD4 player's hand size, accepting a penalty, keeping drawn cards and declining jump-ins."""
    lineup = ("weighted(w_voluntary_draw=3,w_bluff=40,w_points=0.1,w_challenge=-3,w_challenge_hand=1,"
              "w_keep=2,w_accept=1,w_order=0.5),by_number,punisher(w_keep=5),colour_counter")
    for rules in ({"match_mode": "single_round", "stacking": "any_draw", "jump_in": True},
                  {"match_mode": "single_round", "seven_o": True, "mercy_limit": 20}):
        _agree("classic", 4, lineup, rules, 150, 9)
    _agree("no_mercy", 4, lineup, {"match_mode": "single_round"}, 60, 9)
    _agree("spin", 4, lineup, {"match_mode": "single_round", "jump_in": True}, 60, 9)
