"""Differential tests: the compiled engine and the pure-Python reference engine, written independently
from docs/rules.md and the protocol of ``unosim.engine``, must emit identical per-event traces and identical
output tables for the same seed, variant, lineup and rules."""

import numpy as np
import pytest
from differential_cases import CASES, registry_cases

from unosim import reference
from unosim.engine.core.round import new_game
from unosim.game import protocol as L
from unosim.play.simulate import resolve, run_compiled


def _first_difference(a: np.ndarray, b: np.ndarray) -> str:
    n = min(len(a), len(b))
    bad = np.flatnonzero((a[:n] != b[:n]).any(axis=1))
    i = int(bad[0]) if len(bad) else n
    window = range(max(0, i - 3), min(n, i + 2))
    lines = [f"{k}: compiled {L.EV_NAMES.get(int(a[k, 0]))} {a[k].tolist()} | reference "
             f"{L.EV_NAMES.get(int(b[k, 0]))} {b[k].tolist()}" for k in window]
    return f"first difference at event {i} (lengths {len(a)}, {len(b)}):\n" + "\n".join(lines)


@pytest.mark.parametrize("case", list(registry_cases()))
def test_every_registered_variant_and_policy_agrees(case):
    """Derived from the registries: a new variant or built-in policy is compared without a test edit."""
    variant, players, lineup, rules = registry_cases()[case]
    rs, specs = resolve(variant, players, lineup, rules)
    compiled = run_compiled(rs, players, specs, 77, 0, 60, trace=True)
    slow = reference.play(rs, players, specs, 77, 0, 60, trace=True)
    assert np.array_equal(compiled.events, np.asarray(slow.events)), \
        _first_difference(compiled.events, np.asarray(slow.events))
    for table in ("rounds", "seats", "opening", "matches"):
        assert np.array_equal(getattr(compiled, table), np.asarray(getattr(slow, table))), table


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
    from unosim.engine.record import rng as kernel_rng
    from unosim.reference.rng import Xoshiro

    ir, fr, _ = resolve("classic", 4, "random", None)[0].compile(4)
    block = new_game(ir, fr, np.zeros(4, np.int64), np.zeros((4, L.N_POLICY_PARAMS)))
    g = block[0]
    kernel_rng.seed_streams(g, 123456789, 42)
    for stream in (0, 1):
        slow = Xoshiro(123456789, 42, stream)
        assert [int(kernel_rng.next64(g, stream)) for _ in range(1000)] == [slow.next64() for _ in range(1000)]
