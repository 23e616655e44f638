"""Differential tests: the compiled engine and the pure-Python reference engine, written independently
from RULES.md and the protocol of ``unosim.engine``, must emit identical per-event traces and identical
output tables for the same seed, variant, lineup and rules."""

import numpy as np
import pytest

from unosim import reference
from unosim import protocol as L
from unosim.simulate import resolve, run_compiled

CASES = {
    "classic-4-random-single": ("classic", 4, "random", {"match_mode": "single_round"}),
    "classic-2-random": ("classic", 2, "random", {"match_mode": "single_round"}),
    "classic-3-greedy-points-match": ("classic", 3, "greedy_points", {}),
    "classic-5-keep-wilds-blanks": ("classic", 5, "keep_wilds",
                                    {"blank_effects": ["shuffle_hands", "others_draw_1", "discard_colour"]}),
    "classic-4-bluff-challenge-lowest": (
        "classic", 4, "random(p_bluff=0.5,p_challenge=0.5,p_draw=0.3)",
        {"p_forget_uno": 0.3, "match_mode": "lowest", "target": 200,
         "blank_effects": ["draw_two_next", "plain_wild", "swap_hands"]}),
    "classic-6-mixed-no-blanks": ("classic", 6, "greedy_points,keep_wilds,random*",
                                  {"n_blank": 0, "match_mode": "single_round", "p_forget_uno": 0.2}),
    "classic-10-draw-until-playable": ("classic", 10, "random",
                                       {"draw_until_playable": True, "force_play_drawn": True,
                                        "match_mode": "single_round"}),
    "classic-6-big-hands": ("classic", 6, "random", {"hand_size": 15, "match_mode": "single_round"}),
    "classic-2-toggles-off": ("classic", 2, "random(p_draw=0.2,p_challenge=0.5)",
                              {"two_player_reverse_skip": False, "final_card_effects": False,
                               "voluntary_draw": False, "wd4_challenge": False, "match_mode": "single_round"}),
    "classic-3-no-bluffing": ("classic", 3, "random(p_bluff=1,p_challenge=1)",
                              {"no_bluffing": True, "match_mode": "single_round"}),
    "classic-4-tiny-cap": ("classic", 4, "random", {"max_turns_per_round": 15, "match_mode": "points",
                                                    "max_rounds_per_match": 5}),
    "minions-4-random-match": ("minions", 4, "random", {}),
    "minions-2-mixed": ("minions", 2, "random,greedy_points", {"p_dumbfu_fail": 0.5}),
    "minions-7-keep-wilds": ("minions", 7, "keep_wilds(p_challenge=0.3)",
                             {"p_dumbfu_fail": 1.0, "match_mode": "single_round", "p_catch": 1.0,
                              "p_forget_uno": 0.5}),
    # house rules on the classic family (RULES §4)
    "classic-4-same-kind-jump-in-seven-o": ("classic", 4, "random(p_challenge=0.4)",
                                            {"stacking": "same_kind", "jump_in": True, "seven_o": True,
                                             "match_mode": "single_round"}),
    "classic-3-any-draw-mercy": ("classic", 3, "random(p_bluff=0.3,p_challenge=0.5)",
                                 {"stacking": "any_draw", "mercy_limit": 16, "match_mode": "single_round",
                                  "draw_until_playable": True}),
    "classic-2-escalating-final": ("classic", 2, "greedy_points,keep_wilds",
                                   {"stacking": "escalating", "jump_in": True, "match_mode": "single_round"}),
    "minions-5-escalating-mercy": ("minions", 5, "keep_wilds,random*",
                                   {"stacking": "escalating", "mercy_limit": 18, "jump_in": True,
                                    "p_dumbfu_fail": 0.4, "match_mode": "single_round"}),
    # no_mercy (RULES §2.4)
    "no-mercy-4-random": ("no_mercy", 4, "random", {"match_mode": "single_round"}),
    "no-mercy-2-random": ("no_mercy", 2, "random", {"match_mode": "single_round"}),
    "no-mercy-6-heuristics": ("no_mercy", 6, "greedy_points,keep_wilds,random*", {"match_mode": "single_round"}),
    "no-mercy-3-points-match": ("no_mercy", 3, "random(p_draw=0.2)", {"p_forget_uno": 0.3, "target": 600}),
    "no-mercy-8-jump-in-final": ("no_mercy", 8, "random", {"jump_in": True, "final_card_effects": True,
                                                           "match_mode": "lowest", "target": 800}),
    # spin (RULES §2.3)
    "spin-4-random": ("spin", 4, "random", {"match_mode": "single_round"}),
    "spin-2-random-points": ("spin", 2, "random", {"target": 200}),
    "spin-6-heuristics": ("spin", 6, "keep_wilds,greedy_points,random*", {"match_mode": "single_round"}),
    "spin-5-weights-toggles": ("spin", 5, "random(p_bluff=0.2,p_challenge=0.5)",
                               {"spin_weights": [1, 1, 1, 2, 2, 3, 1, 4, 4], "spin_first_card_spins": True,
                                "spin_continue_after_winner": False, "shout_weight": [1, 2, 3, 4, 5],
                                "match_mode": "single_round"}),
    "spin-3-house-rules": ("spin", 3, "keep_wilds", {"jump_in": True, "stacking": "any_draw",
                                                     "seven_o": True, "match_mode": "single_round"}),
}


def _first_difference(a: np.ndarray, b: np.ndarray) -> str:
    n = min(len(a), len(b))
    bad = np.flatnonzero((a[:n] != b[:n]).any(axis=1))
    i = int(bad[0]) if len(bad) else n
    window = range(max(0, i - 3), min(n, i + 2))
    lines = [f"{k}: compiled {L.EV_NAMES.get(int(a[k, 0]))} {a[k].tolist()} | reference "
             f"{L.EV_NAMES.get(int(b[k, 0]))} {b[k].tolist()}" for k in window]
    return f"first difference at event {i} (lengths {len(a)}, {len(b)}):\n" + "\n".join(lines)


@pytest.mark.parametrize("case", list(CASES))
def test_compiled_and_reference_traces_are_identical(case):
    variant, players, lineup, rules = CASES[case]
    rs, specs = resolve(variant, players, lineup, rules)
    games = 300 if rs.match_mode == "single_round" else 40
    compiled = run_compiled(rs, players, specs, 2024, 0, games, trace=True)
    slow = reference.play(rs, players, specs, 2024, 0, games, trace=True)
    events = np.asarray(slow.events)
    assert compiled.events.shape == events.shape and np.array_equal(compiled.events, events), \
        _first_difference(compiled.events, events)
    rounds = np.asarray(slow.rounds)
    assert compiled.rounds.shape == rounds.shape
    differ = [name for i, name in enumerate(L.ROUND_COLUMNS) if not np.array_equal(compiled.rounds[:, i],
                                                                                     rounds[:, i])]
    assert not differ, f"round columns differ: {differ}"
    for table in ("seats", "opening", "matches"):
        assert np.array_equal(getattr(compiled, table), np.asarray(getattr(slow, table))), table
    # the game-quality measures (engine.quality) are tracked, not constant, in every case of the grid
    # (a winner's deficit once enough rounds have a winner)
    won = (rounds[:, L.RC_WINNER] >= 0).sum()
    for name in ("lead_changes", "max_hand", *(("winner_max_deficit",) if won >= 20 else ())):
        assert len(np.unique(rounds[:, L.ROUND_COLUMNS.index(name)])) > 1, name


@pytest.mark.parametrize("case", ["classic-4-random-single", "minions-4-random-match"])
def test_tracing_does_not_change_the_games(case):
    variant, players, lineup, rules = CASES[case]
    rs, specs = resolve(variant, players, lineup, rules)
    traced = run_compiled(rs, players, specs, 5, 0, 50, trace=True)
    plain = run_compiled(rs, players, specs, 5, 0, 50)
    for table in ("rounds", "seats", "opening", "matches"):
        assert np.array_equal(getattr(traced, table), getattr(plain, table))


def test_rng_streams_match_the_reference_implementation():
    from unosim.engine import rng as kernel_rng
    from unosim.engine import state as kernel_state
    from unosim.reference_rng import Xoshiro

    ir, fr, _ = resolve("classic", 4, "random", None)[0].compile(4)
    block = kernel_state.new_game(ir, fr, np.zeros(4, np.int64), np.zeros((4, 3)))
    g = block[0]
    kernel_rng.seed_streams(g, 123456789, 42)
    for stream in (0, 1):
        slow = Xoshiro(123456789, 42, stream)
        assert [int(kernel_rng.next64(g, stream)) for _ in range(1000)] == [slow.next64() for _ in range(1000)]
