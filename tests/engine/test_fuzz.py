"""Fuzz harness: random valid rule sets, lineups and player counts for every variant, played with the
in-kernel audit in a subprocess under a watchdog (a hang fails the test instead of hanging the suite;
every other draw is also compared with the reference engine), and random invalid calls, each of which must raise one ValueError naming the field and the value.

Budget: ``UNOSIM_FUZZ_DRAWS`` valid draws (default 400, a few seconds once the engine is compiled),
``UNOSIM_FUZZ_EXTREME`` pairs of a sane call and the same call with extreme numbers (default 200; see
``fuzz_draws.extreme_pair``) and ``UNOSIM_FUZZ_INVALID`` invalid ones (default 400) from ``UNOSIM_FUZZ_SEED`` (default 12), plus further
batches of valid draws while ``UNOSIM_FUZZ_BUDGET`` seconds last (default 0; extreme pairs for a quarter
of it); ``make fuzz`` runs a long
session (10 minutes) with a fresh seed. Every failure prints the seed and index that reproduce it.

The named regression cases below are the reproductions of issue 12 ("Why" items 1-4 and 9, engine and
API side).
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from commands import UNOSIM
from fuzz_draws import FAMILIES, compare_with_reference, extreme_pair, invalid_draw, valid_draw

import unosim
from unosim import reference
from unosim.game import protocol as L
from unosim.game.policies import parse_policy
from unosim.game.rules import get_variant
from unosim.play.simulate import resolve, run_compiled
from unosim.play.trace import replay, replay_events

SEED = int(os.environ.get("UNOSIM_FUZZ_SEED", "12"))
DRAWS = int(os.environ.get("UNOSIM_FUZZ_DRAWS", "400"))
INVALID = int(os.environ.get("UNOSIM_FUZZ_INVALID", "400"))
EXTREME = int(os.environ.get("UNOSIM_FUZZ_EXTREME", "200"))
BUDGET = float(os.environ.get("UNOSIM_FUZZ_BUDGET", "0"))   # seconds of further valid batches (make fuzz)
DRAW_SECONDS = 60.0      # one draw plays at most 4 matches of at most 5 short rounds: a hang, not slowness
WORKER = Path(__file__).parents[1] / "helpers" / "fuzz_draws.py"
ROOT = Path(__file__).parents[2]


def _run_worker(args: list[str], stdin: str | None = None, timeout: float = 600) -> list[dict]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, str(WORKER), *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=ROOT)
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    started = [x["start"] for x in lines if "start" in x]
    if proc.returncode != 0:
        raise AssertionError(f"fuzz worker died (exit {proc.returncode}) during draw "
                             f"{started[-1] if started else '(warm-up)'}; a hang shows as a faulthandler "
                             f"traceback:\n{proc.stderr[-3000:]}")
    return lines


def _check(lines: list[dict], describe) -> None:
    failures = [x for x in lines if "fail" in x]
    assert not failures, "\n".join(f"draw {x['fail']}: {x['error']}\n  {describe(x['fail'])}" for x in failures)


def test_random_valid_rule_sets_play_with_the_audit():
    start, deadline = 0, time.monotonic() + BUDGET
    while True:   # one batch of DRAWS, then more batches while the optional time budget lasts
        lines = _run_worker([str(SEED), str(start), str(DRAWS), str(DRAW_SECONDS)])
        _check(lines, lambda i: f"UNOSIM_FUZZ_SEED={SEED}: {valid_draw(random.Random(f'{SEED}:{i}'))}")
        done = [x for x in lines if "done" in x]
        assert len(done) == DRAWS
        start += DRAWS
        if time.monotonic() >= deadline:
            break
    # the draws really reach the extreme corners (not just defaults)
    draws = [valid_draw(random.Random(f"{SEED}:{i}")) for i in range(DRAWS)]
    assert {d["variant"] for d in draws} == set(FAMILIES)
    assert any(d["rules"].get("jump_in") and d["rules"].get("mercy_limit") == d["rules"]["hand_size"] + 1
               for d in draws)
    assert sum(x["rounds"] for x in done) >= DRAWS


def test_random_extreme_numbers_play_the_sane_games_or_are_refused_by_name():
    """Every numeric parameter at the edges of the float range: weights and spin/shout weights scaled by
    any exact power of two play the games of the sane scale (or are refused naming the weights);
    extreme probabilities play with the audit. Batches go on for a quarter of the time budget."""
    start, deadline = 0, time.monotonic() + BUDGET / 4
    outcomes = []
    while True:
        lines = _run_worker(["extreme", str(SEED), str(start), str(EXTREME), str(DRAW_SECONDS)])
        _check(lines, lambda i: f"UNOSIM_FUZZ_SEED={SEED}: {extreme_pair(random.Random(f'extreme:{SEED}:{i}'))}")
        outcomes += [x["outcome"] for x in lines if "done" in x]
        start += EXTREME
        if time.monotonic() >= deadline:
            break
    assert len(outcomes) == start
    pairs = [extreme_pair(random.Random(f"extreme:{SEED}:{i}")) for i in range(EXTREME)]
    scales = [float(spec.split("(", 1)[1].split(",")[0].split("=")[1]) for _, b in pairs for spec in b["lineup"]
              if spec.split("(")[0] in ("weighted", *unosim.game.policies.PRESETS)]
    assert max(map(abs, scales)) > 1e250 and min(abs(x) for x in scales if x) < 1e-250   # the corners are reached
    assert outcomes.count("same") > len(outcomes) // 2


@pytest.mark.parametrize("weight", ["1e307", "1.7e308", "1e-300", "5e-324"])
def test_regression_an_extreme_weight_plays_the_games_of_the_same_weights_at_a_sane_scale(weight):
    """Issue 24: weighted(w_points=1e307) played other games than the same preferences at a sane scale
    (scores overflowed from about 3.6e306 and tied at inf). Now every weight vector plays as it does
    scaled by any power of two that keeps it finite and normal; here the preset base's weights and
    w_points, all scaled by 2**-k into ordinary numbers."""
    given = dict(unosim.game.policies.POLICIES["weighted"].defaults, w_points=float(weight))
    exponents = [math.frexp(v)[1] for v in given.values() if v]
    k = -(max(exponents) + min(exponents)) // 2   # centred: far from overflow and from subnormals
    sane = "weighted(" + ",".join(f"{name}={math.ldexp(value, k)!r}" for name, value in given.items()) + ")"
    assert all(1e-200 < abs(math.ldexp(v, k)) < 1e200 for v in given.values() if v)
    for family in ("classic", "spin"):
        rules = {"match_mode": "single_round"}
        a = unosim.simulate(family, players=4, games=300, seed=3, lineup=f"{sane},random*", rules=rules)
        b = unosim.simulate(family, players=4, games=300, seed=3, lineup=f"weighted(w_points={weight}),random*",
                            rules=rules)
        for table in ("rounds", "seats", "matches"):
            assert getattr(a, table).drop("policy", strict=False).equals(getattr(b, table).drop("policy", strict=False))


def test_regression_weights_too_far_apart_for_any_scale_are_refused_by_name():
    with pytest.raises(ValueError, match="weights of policy 'weighted' span too wide a range.*w_points=1e\\+308.*"
                                         "w_seen=1e-300"):
        unosim.simulate("classic", players=2, games=1, seed=1, lineup="weighted(w_points=1e308,w_seen=1e-300)")


def test_random_invalid_calls_raise_one_clear_value_error():
    rng = random.Random(f"invalid:{SEED}")
    for index in range(INVALID):
        call, field, token = invalid_draw(rng)
        kwargs = dict(call)
        variant = kwargs.pop("variant")
        with pytest.raises(ValueError) as caught:
            unosim.simulate(variant, **kwargs)
        message = str(caught.value)
        context = f"invalid draw {index} (UNOSIM_FUZZ_SEED={SEED}): {call!r} -> {message!r}"
        assert type(caught.value) is ValueError, context
        assert any(f in message for f in field.split("|")), f"message does not name {field}: {context}"
        assert token in message, f"message does not show {token}: {context}"
        assert "\n" not in message.strip() and "Traceback" not in message, context


# ---- regression cases of issue 12 -------------------------------------------------------------------
HANG = {"jump_in": True, "mercy_limit": 11, "uno_penalty": 10, "p_forget_uno": 0.5,
        "match_mode": "single_round"}


def test_regression_jump_in_hang_cli_exactly_as_reported():
    """Why 1: the CLI call of the issue ran forever (jump_in, mercy_limit ≤ uno_penalty + 1)."""
    cmd = [*UNOSIM, "simulate", "classic", "-n", "4", "--seed", "1", "--games", "1",
           "--first-game", "1", "--set", "jump_in=true", "--set", "mercy_limit=11", "--set", "uno_penalty=10",
           "--set", "p_forget_uno=0.5", "--set", "match_mode=single_round"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "1 games, 1 rounds" in proc.stdout


def test_regression_jump_in_hang_every_family_in_a_subprocess():
    """Why 1: the same hang in classic, minions and spin (and no_mercy for good measure), 200 games
    each, audited, under the watchdog; the kernel and the reference agree on the reported game."""
    draws = [{"variant": v, "players": 4, "lineup": "random", "rules": HANG, "seed": 1, "first_game": 0,
              "games": 200} for v in ("classic", "minions", "spin")]
    draws.append({"variant": "no_mercy", "players": 4, "lineup": "random",
                  "rules": {**HANG, "mercy_limit": 11}, "seed": 1, "first_game": 0, "games": 200})
    lines = _run_worker(["-", str(DRAW_SECONDS)], stdin=json.dumps(draws))
    _check(lines, lambda i: draws[i])
    assert len([x for x in lines if "done" in x]) == len(draws)


def test_regression_jump_in_after_the_last_player_is_knocked_out_matches_the_reference():
    """The decision of docs/rules.md §4 jump_in when the last player was knocked out by its UNO penalty:
    the other active seats may still jump in on T; both engines play it identically."""
    rs, specs = resolve("classic", 4, "random", HANG)
    compiled = run_compiled(rs, 4, specs, 1, 1, 1, trace=True)
    ref = reference.play(rs, 4, specs, 1, 1, 1, trace=True)
    assert np.array_equal(compiled.events, ref.events)
    assert np.array_equal(compiled.rounds, ref.rounds)
    events = compiled.events
    knocked = [i for i, e in enumerate(events) if e[0] == L.EV_KNOCKOUT]
    assert knocked, "the reported game has a knock-out by an UNO penalty"


@pytest.mark.parametrize("weights", [[1e308] * 9, [1e-300] * 9, [1e308, 1e308, 0, 0, 0, 0, 0, 0, 1e308]])
def test_regression_extreme_spin_weights_give_the_normalised_distribution(weights):
    """Why 2: [1e308]*9 made every spin UNO_SPIN (the sum overflowed); the draw must follow w / sum(w)."""
    rules = {"spin_weights": weights, "match_mode": "single_round"}
    counts = unosim.simulate("spin", players=4, games=3000, seed=5, rules=rules).rounds.select(
        unosim.game.rule_table.SPIN_OUTCOMES).sum().row(0)
    p = np.array(weights, float) / max(weights)
    p /= p.sum()
    n = sum(counts)
    assert n > 1000
    for observed, prob in zip(counts, p, strict=True):
        assert abs(observed - n * prob) <= 5 * np.sqrt(n * prob * (1 - prob)) + 1, (counts, p)


@pytest.mark.parametrize("bad", [0, float("inf"), float("nan"), -1.0, [1.0, 0.0, 1.0, 1.0]])
def test_regression_shout_weight_must_be_finite_and_positive(bad):
    with pytest.raises(ValueError, match="shout_weight"):
        get_variant("spin", {"shout_weight": bad})


def test_regression_huge_equal_shout_weights_pick_every_eligible_seat_alike():
    """Why 2: shout_weight [1e308]*4 made the last eligible seat shout 105 times in 106."""
    rules = {"shout_weight": [1e308] * 4, "spin_weights": {"uno_spin": 1.0}, "match_mode": "single_round"}
    rs, specs = resolve("spin", 4, "random", rules)
    events = run_compiled(rs, 4, specs, 3, 0, 600, trace=True).events
    shouters = Counter(int(e[1]) for e in events if e[0] == L.EV_SHOUT)
    n = sum(shouters.values())
    assert n > 2000
    # each seat is eligible whenever it holds a card (almost always): about a quarter each
    for seat in range(4):
        assert abs(shouters[seat] / n - 0.25) < 0.05, shouters


@pytest.mark.parametrize("bad", [[float("inf")] + [1.0] * 8, [float("nan")] + [1.0] * 8, [0.0] * 9,
                                 {"war": "x"}, [1.0] * 8, [-1.0] + [1.0] * 8, [1e309] * 9])
def test_regression_invalid_spin_weights_are_refused(bad):
    with pytest.raises(ValueError, match="spin_weights"):
        get_variant("spin", {"spin_weights": bad})


def test_regression_game_labels_do_not_wrap():
    """Why 3: game was stored in 32 bits."""
    res = unosim.simulate("classic", players=4, games=3, seed=1, first_game=2**31 - 2)
    assert res.matches["game"].to_list() == [2147483646, 2147483647, 2147483648]
    assert set(res.rounds["game"].unique().to_list()) == {2147483646, 2147483647, 2147483648}
    assert set(res.seats["game"].unique().to_list()) == {2147483646, 2147483647, 2147483648}
    res = unosim.simulate("classic", players=4, games=3, seed=1, first_game=2**32 + 5,
                          rules={"match_mode": "single_round"})
    assert res.matches["game"].to_list() == [4294967301, 4294967302, 4294967303]
    assert str(res.rounds["game"].dtype) == "Int64" and str(res.rounds["round"].dtype) == "Int32"
    assert str(res.seats["round"].dtype) == "Int32"


def test_regression_large_game_numbers_seed_both_engines_alike():
    """Seeding accepts 64-bit game numbers identically in both engines, up to 2**63 - 1."""
    rs, specs = resolve("classic", 3, "random", {"match_mode": "single_round"})
    for first in (2**32 + 5, 2**63 - 3):
        compiled = run_compiled(rs, 3, specs, 7, first, 3, trace=True)
        ref = reference.play(rs, 3, specs, 7, first, 3, trace=True)
        assert np.array_equal(compiled.rounds, ref.rounds) and np.array_equal(compiled.events, ref.events)
        assert compiled.matches[:, L.MC_GAME].tolist() == [first, first + 1, first + 2]
        starts = compiled.events[compiled.events[:, 0] == L.EV_ROUND_START]
        assert starts[:, 3].tolist() == [first, first + 1, first + 2]


def test_regression_round_labels_beyond_16_bits():
    """Why 3: round was stored in 16 bits; a 40 000-round match keeps counting."""
    rules = {"match_mode": "points", "target": 10**9, "max_rounds_per_match": 40_000, "hand_size": 1,
             "max_turns_per_round": 1}
    res = unosim.simulate("classic", players=2, games=1, seed=1, rules=rules)
    assert res.rounds["round"].max() == 39_999
    assert res.matches["n_rounds"].to_list() == [40_000]


def test_regression_numpy_integer_player_counts():
    """Why 4: np.int16(10) corrupted the heap (an int16 size overflow); np.int8(4) raised OverflowError."""
    res = unosim.simulate("classic", players=np.int16(10), games=1200, seed=1)
    assert res.matches.height == 1200 and res.players == 10 and type(res.players) is int
    res = unosim.simulate("classic", players=np.int8(4), games=np.int8(3), seed=np.uint8(1),
                          first_game=np.int16(7), rules={"hand_size": np.int8(5), "first_dealer": np.int64(2)})
    assert res.matches["game"].to_list() == [7, 8, 9]


def test_regression_duplicate_policy_parameters_are_refused():
    with pytest.raises(ValueError, match="p_bluff twice"):
        parse_policy("random(p_bluff=0.1,p_bluff=0.2)")


@pytest.mark.parametrize("rules, field", [([1], "rules=[1]"), ({"spin_weights": {"war": "x"}}, "war='x'"),
                                          ({"target": 10**20}, "target")])
def test_regression_errors_name_the_field(rules, field):
    with pytest.raises(ValueError, match=field.replace("[", r"\[").replace("]", r"\]")):
        unosim.simulate("spin", players=4, games=1, seed=1, rules=rules)


def test_regression_replay_of_the_last_game_number():
    """Why 9: replay(game=2**63-1) reported "seed"; it is a valid game, and 2**63 is refused as game."""
    text = replay("classic", players=3, seed=1, game=2**63 - 1, rules={"match_mode": "single_round"})
    assert text.startswith(f"== game {2**63 - 1}, round 0")
    with pytest.raises(ValueError, match=r"^game=9223372036854775808"):
        replay_events("classic", players=3, seed=1, game=2**63)


@pytest.mark.parametrize("games", [100_000_000, 10**13])
def test_regression_oversized_calls_name_the_memory_budget(games):
    """Why 8 (API side): a MemoryError traceback became a clear error naming the per-call budget."""
    with pytest.raises(ValueError, match="per-call memory budget"):
        unosim.simulate("classic", players=4, games=games, seed=1)


def test_regression_shuffle_hands_deals_to_active_seats_only_in_both_engines():
    """Found by this fuzz: the reference engine dealt a shuffle_hands redeal to knocked-out seats too
    (protocol §3: active seats only, as the kernel does)."""
    draw = {"variant": "classic", "players": 9, "lineup": ["keep_wilds(p_challenge=1)", "random(p_bluff=1)",
            "keep_wilds(p_challenge=1)", "greedy_points(p_challenge=1)", "keep_wilds(p_challenge=0)",
            "random(p_bluff=0,p_challenge=0.851)", "random(p_draw=0)", "random(p_challenge=1)", "greedy_points"],
            "rules": {"hand_size": 11, "blank_effects": ["shuffle_hands", "shuffle_hands", "plain_wild"],
                      "match_mode": "single_round", "first_dealer": 2,
                      "p_forget_uno": [1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.4967], "p_catch": 0.0,
                      "stacking": "same_kind", "force_play_drawn": True, "two_player_reverse_skip": False,
                      "mercy_limit": 12},
            "seed": 6530915526694911152, "first_game": 2147483646, "games": 1}
    rs, specs = resolve(draw["variant"], draw["players"], draw["lineup"], draw["rules"])
    events = run_compiled(rs, 9, specs, draw["seed"], draw["first_game"], 1, trace=True).events
    codes = events[:, 0].tolist()
    assert L.EV_KNOCKOUT in codes and L.EV_REDEAL in codes[codes.index(L.EV_KNOCKOUT):]
    compare_with_reference(draw)


@pytest.mark.parametrize("variant, players, rules, seed, first_game", [
    ("classic", 8, {"n_blank": 3, "hand_size": 1, "blank_effects": ["discard_colour", "draw_two_next", "swap_hands"],
                    "match_mode": "single_round", "p_forget_uno": 1.0, "p_catch": 1.0, "uno_penalty": 1,
                    "stacking": "escalating", "draw_until_playable": True, "mercy_limit": 2},
     1099641489259734590, 4294967301),
    ("no_mercy", 7, {"hand_size": 1, "match_mode": "single_round", "p_forget_uno": 1.0, "p_catch": 1.0,
                     "uno_penalty": 2, "final_card_effects": True, "mercy_limit": 3},
     2815716272630513298, 1592741112811555457)])
def test_regression_round_over_at_the_first_checkpoint(variant, players, rules, seed, first_game):
    """Found by this fuzz: UNO penalties at the first checkpoint knock out all but one seat. The round
    is then over: the kernel went on checking (and knocking out) the winner, the reference played a
    turn. Both now end the round with 0 turns, won by knock-out."""
    draw = {"variant": variant, "players": players, "lineup": "greedy_points", "rules": rules, "seed": seed,
            "first_game": first_game, "games": 1}
    compare_with_reference(draw)
    rs, specs = resolve(variant, players, "greedy_points", rules)
    raw = run_compiled(rs, players, specs, seed, first_game, 1, audit=True)
    assert raw.rounds[0, L.RC_END] == L.END_KNOCKOUT and raw.rounds[0, L.RC_TURNS] == 0
    assert raw.rounds[0, L.RC_KNOCKOUTS] == players - 1
