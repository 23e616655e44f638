"""Seeded random draws for the fuzz harness (tests/engine/test_fuzz.py), and the worker that plays them.

``valid_draw(rng)`` draws a configuration the API must accept: a variant, a player count, a lineup and
a random subset of every rule the variant allows, including extreme but valid values (a mercy limit just
above the hand size, the largest UNO penalty, weights of 1e-300 and 1e308, tiny turn caps...).
``invalid_draw(rng)`` draws a call that must be refused with one ValueError, with the field and the
value its message must name. ``extreme_pair(rng)`` draws a valid call twice: with sane numbers, and with
every scale-free number (each weight of a ``weighted`` seat, ``spin_weights``, ``shout_weight``)
multiplied by one power of two from anywhere in the float range, exactly; both take extreme
probabilities (the smallest subnormal, 1 - 2**-53 …). The extreme call must play the sane call's games
or be refused by one ValueError naming the field.

Run as a script (``python tests/helpers/fuzz_draws.py SEED START COUNT DRAW_SECONDS``, or ``- DRAW_SECONDS`` with
a JSON list of draws on stdin, or ``extreme SEED START COUNT DRAW_SECONDS``), it plays valid draws ``START .. START+COUNT-1`` of ``SEED`` with the
in-kernel audit, one JSON line per draw on stdout, under a faulthandler watchdog: a draw that runs longer than DRAW_SECONDS (a hang) kills the process with a
traceback, and the parent test names the last draw started. Every other draw also replays its first game
in the reference engine and requires identical traces and tables.
"""

from __future__ import annotations

import faulthandler
import json
import math
import random
import sys

import numpy as np

from unosim.game import families, rule_table
from unosim.game import rules as R
from unosim.game.policies import POLICIES, PRESETS, TWINNED_POLICIES
from unosim.game.protocol import PROBABILITY_PARAMS, WEIGHT_PARAMS

FAMILIES = tuple(R.variant_names())   # derived from the registry: a new variant is fuzzed too
WEIGHTS = (0.0, 1e-300, 1e-9, 0.5, 1.0, 3.0, 1e9, 1e308)
DIFFERENTIAL_EVERY = 2   # every other draw also compares its first game with the reference engine


def _policy(rng: random.Random) -> str:
    name = rng.choice(TWINNED_POLICIES)   # a search policy's decisions are replayed, not twinned
    params = POLICIES[name].params
    chosen = [p for p in params if rng.random() < 0.5]
    if not chosen:
        return name
    return f"{name}({','.join(f'{p}={rng.choice((0, 1, round(rng.random(), 3)))}' for p in chosen)})"


def _prob(rng: random.Random) -> float:
    return rng.choice((0.0, 1.0, round(rng.random(), 4)))


def valid_draw(rng: random.Random) -> dict:
    """One random valid call: {variant, players, lineup, rules, seed, first_game, games}."""
    family = rng.choice(FAMILIES)
    rules: dict = {}
    if family == "classic" and rng.random() < 0.5:
        rules["n_blank"] = rng.randint(0, 3)
    base = R.get_variant(family, rules)
    players = rng.randint(2, 10)
    spare = base.deck_size - base.first_card_excluded() - 1
    hand_size = rng.randint(1, min(15, spare // players))
    rules["hand_size"] = hand_size
    fixed = families.get(family).fixed

    def maybe(key, value_fn, p=0.5):
        if key not in fixed and R.applies(key, family) and rng.random() < p:
            rules[key] = value_fn()

    maybe("blank_effects", lambda: [rng.choice(rule_table.BLANK_EFFECTS) for _ in range(3)], 0.7)
    rules["match_mode"] = rng.choice(R.MATCH_MODES)
    maybe("target", lambda: rng.choice((1, 50, 500, 2000)))
    maybe("first_dealer", lambda: rng.choice(("random", rng.randrange(players))))
    maybe("max_turns_per_round", lambda: rng.choice((1, 2, 10, 300, 3000)))
    rules["max_rounds_per_match"] = rng.choice((1, 2, 5))
    maybe("p_forget_uno", lambda: _prob(rng) if rng.random() < 0.5 else [_prob(rng) for _ in range(players)], 0.7)
    maybe("p_catch", lambda: _prob(rng))
    maybe("uno_penalty", lambda: rng.choice((0, 1, 2, 10, 20)), 0.7)
    maybe("p_dumbfu_fail", lambda: _prob(rng))
    maybe("dumbfu_penalty", lambda: rng.choice((0, 4, 20)))
    maybe("spin_weights", lambda: _spin_weights(rng), 0.7)
    maybe("shout_weight", lambda: rng.choice(WEIGHTS[1:]) if rng.random() < 0.5
          else [rng.choice(WEIGHTS[1:]) for _ in range(players)])
    maybe("stacking", lambda: rng.choice(rule_table.STACKING))
    for toggle in ("jump_in", "seven_o", "draw_until_playable", "force_play_drawn", "voluntary_draw",
                   "wd4_challenge", "no_bluffing", "two_player_reverse_skip", "final_card_effects",
                   "spin_first_card_spins", "spin_continue_after_winner"):
        maybe(toggle, lambda: rng.random() < 0.5, 0.6 if toggle == "jump_in" else 0.4)
    # a mercy limit just above the hand size is the hardest case (knock-outs from the first draws)
    maybe("mercy_limit", lambda: rng.choice((None, hand_size + 1, hand_size + 2, hand_size + rng.randint(3, 30),
                                             200)), 0.7)
    lineup = [_policy(rng) for _ in range(players)] if rng.random() < 0.6 else _policy(rng)
    return {"variant": family, "players": players, "lineup": lineup, "rules": rules,
            "seed": rng.randrange(2**63), "first_game": rng.choice((0, 2**31 - 2, 2**32 + 5, rng.randrange(2**62))),
            "games": rng.randint(1, 4)}


def _spin_weights(rng: random.Random):
    weights = [rng.choice(WEIGHTS) for _ in range(9)]
    if not any(weights):
        weights[rng.randrange(9)] = 1.0
    if rng.random() < 0.3:
        return {o: w for o, w in zip(rule_table.SPIN_OUTCOMES, weights, strict=True) if w}
    return weights


# ---- extreme numbers: the same games at any scale, or a named error ----------------------------------
#: valid probabilities at the edges of the float range
EXTREME_PROBABILITIES = (0.0, 5e-324, 2.2250738585072014e-308, 1e-300, 1e-16, 0.5, 1 - 2**-53, 1.0)


def _power_of_two(rng: random.Random, values: list[float]) -> int:
    """An exponent k from anywhere in the float range such that every value × 2**k is exact, finite and
    normal (so the scaled call is the same call at another scale)."""
    exponents = [math.frexp(v)[1] for v in values if v != 0.0]
    if not exponents:
        return 0
    low, high = -1021 - min(exponents), 1024 - max(exponents) - 1
    return rng.choice((low, high, rng.randint(low, high), rng.randint(min(0, high), high), rng.randint(low, max(0, low))))


def _scaled(values: list[float], k: int) -> list[float]:
    return [math.ldexp(v, k) for v in values]


def _weighted_seat(rng: random.Random) -> tuple[str, str]:
    """(sane, extreme) specs of one weighted seat: every weight given, the extreme one scaled."""
    name = rng.choice(("weighted", *PRESETS))
    weights = [0.0 if rng.random() < 0.4 else rng.choice((-100.0, -1.0, 1.0, 20.0, round(rng.uniform(-50, 50), 3)))
               for _ in WEIGHT_PARAMS]
    k = _power_of_two(rng, weights)
    probabilities = [f"{p}={rng.choice(EXTREME_PROBABILITIES)!r}" for p in ("p_challenge", "p_keep_drawn")
                     if rng.random() < 0.5]

    def spec(values):
        terms = [f"{w}={v!r}" for w, v in zip(WEIGHT_PARAMS, values, strict=True)] + probabilities
        return f"{name}({','.join(terms)})"
    return spec(weights), spec(_scaled(weights, k))


def _probability_seat(rng: random.Random) -> str:
    name = rng.choice(("random", "greedy_points", "keep_wilds"))
    params = [p for p in POLICIES[name].params if p in PROBABILITY_PARAMS and rng.random() < 0.6]
    return f"{name}({','.join(f'{p}={rng.choice(EXTREME_PROBABILITIES)!r}' for p in params)})" if params else name


def extreme_pair(rng: random.Random) -> tuple[dict, dict]:
    """(sane, extreme) calls: see the module docstring."""
    base = valid_draw(rng)
    players, family = base["players"], base["variant"]
    sane, extreme = [], []
    for _ in range(players):
        if rng.random() < 0.5:
            a, b = _weighted_seat(rng)
        else:
            a = b = _probability_seat(rng)
        sane.append(a)
        extreme.append(b)
    rules_sane = {k: v for k, v in base["rules"].items() if k not in ("spin_weights", "shout_weight")}
    for key in ("p_forget_uno", "p_catch", "p_dumbfu_fail"):
        if key in rules_sane:
            rules_sane[key] = (rng.choice(EXTREME_PROBABILITIES) if not isinstance(rules_sane[key], list)
                               else [rng.choice(EXTREME_PROBABILITIES) for _ in range(players)])
    rules_extreme = dict(rules_sane)
    if family == "spin":
        spin = [rng.choice((0.0, 0.25, 1.0, 3.0, 7.5)) for _ in range(9)]
        spin[rng.randrange(9)] = 1.0
        shout = [rng.choice((0.5, 1.0, 2.0, 9.0)) for _ in range(players)]
        k = _power_of_two(rng, spin + shout)
        rules_sane.update(spin_weights=spin, shout_weight=shout)
        rules_extreme.update(spin_weights=_scaled(spin, k), shout_weight=_scaled(shout, k))
    draw = {**base, "games": min(base["games"], 2)}
    return {**draw, "lineup": sane, "rules": rules_sane}, {**draw, "lineup": extreme, "rules": rules_extreme}


def play_extreme(sane: dict, extreme: dict) -> str:
    """Play both calls; the extreme one must play the sane one's games ("same") or raise a ValueError
    naming the field that holds the extreme numbers ("refused: ...")."""
    from unosim.play.simulate import resolve, run_compiled

    rs, specs = resolve(sane["variant"], sane["players"], sane["lineup"], sane["rules"])
    expected = run_compiled(rs, sane["players"], specs, sane["seed"], sane["first_game"], sane["games"], audit=True)
    try:
        rs, specs = resolve(extreme["variant"], extreme["players"], extreme["lineup"], extreme["rules"])
        from unosim.game.policies import lineup_arrays
        lineup_arrays(specs)
    except ValueError as error:
        message = str(error)
        assert any(f in message for f in ("weights", "spin_weights", "shout_weight")), message
        assert "\n" not in message, message
        return f"refused: {message[:80]}"
    found = run_compiled(rs, extreme["players"], specs, extreme["seed"], extreme["first_game"], extreme["games"],
                         audit=True)
    for name in ("rounds", "seats", "opening", "matches"):
        a, b = getattr(expected, name), getattr(found, name)
        assert a.shape == b.shape and np.array_equal(a, b), f"the extreme call plays other games ({name} differ)"
    return "same"


# ---- invalid calls: (description, call kwargs, field the message must name, value token it must show) --
def invalid_draw(rng: random.Random) -> tuple[dict, str, str]:
    """A call that must raise one ValueError naming ``field`` (or one of ``a|b``) and showing ``token``."""
    variant = rng.choice(FAMILIES)
    call = {"variant": variant, "players": 4, "games": 1, "seed": 1, "lineup": "random", "rules": {}}
    kind = rng.randrange(9)
    if kind == 0:   # call-level numbers
        field, value = rng.choice([
            ("players", 1), ("players", 11), ("players", 2.0), ("players", True), ("players", "4"),
            ("players", np.int64(2**40)), ("players", np.int8(-1)), ("players", None),
            ("games", 0), ("games", -1), ("games", 1.5), ("games", 10**13), ("games", np.uint64(2**64 - 1)),
            ("seed", -1), ("seed", 2**63), ("seed", 0.5), ("seed", float("nan")),
            ("first_game", -1), ("first_game", 2**63), ("first_game", np.int16(-5))])
        call[field] = value
        return call, field, _token(value)
    if kind == 1:   # unknown rule key
        key = rng.choice(("bogus_key", "jumpin", "Hand_size", "spin_weight"))
        call["rules"] = {key: 1}
        return call, key, key
    if kind == 2:   # out-of-range or mistyped integers
        key, value = rng.choice([
            ("hand_size", 0), ("hand_size", 16), ("hand_size", 7.5), ("hand_size", "7"), ("hand_size", True),
            ("hand_size", np.int8(-3)), ("uno_penalty", 21), ("uno_penalty", -1), ("target", 0),
            ("target", 10**20), ("max_turns_per_round", 0), ("max_rounds_per_match", 10**6),
            ("mercy_limit", 7), ("mercy_limit", 3), ("mercy_limit", 1000), ("mercy_limit", 12.5),
            ("first_dealer", 10), ("first_dealer", -1), ("first_dealer", "left")])
        call["rules"] = {key: value}
        return call, key, _token(value)
    if kind == 3:   # probabilities
        key = rng.choice(("p_catch", "p_forget_uno") + (("p_dumbfu_fail",) if variant == "minions" else ()))
        value = rng.choice((float("nan"), float("inf"), -0.1, 1.5, "0.5", None, True))
        if key == "p_forget_uno" and rng.random() < 0.5:
            value = [0.1, value, 0.2, 0.3]
        call["rules"] = {key: value}
        return call, key, _token(value[1] if isinstance(value, list) else value)
    if kind == 4 and variant == "spin":   # weights
        key = rng.choice(("spin_weights", "shout_weight"))
        if key == "shout_weight":
            value = rng.choice((0, -1.0, float("inf"), float("nan"), "x", 1e309))
            call["rules"] = {key: value if rng.random() < 0.5 else [1.0, value, 1.0, 1.0]}
            return call, key, _token(value)
        bad = rng.choice((float("inf"), float("nan"), -1.0, "x", None))
        weights = [1.0] * 9
        weights[rng.randrange(9)] = bad
        if rng.random() < 0.5:
            call["rules"] = {key: {"war": bad}}
        else:
            call["rules"] = {key: weights}
        return call, key, _token(bad)
    if kind == 5:   # toggles and choices
        key, value = rng.choice([("jump_in", "yes"), ("jump_in", 1), ("stacking", "bogus"),
                                 ("match_mode", 3), ("blank_effects", ["nope"]), ("final_card_effects", None)])
        if variant != "classic" and key == "blank_effects":
            key, value = "jump_in", "yes"
        call["rules"] = {key: value}
        return call, key, _token(value[0] if isinstance(value, list) else value)
    if kind == 6:   # policies and lineups
        lineup, token = rng.choice([
            ("random(p_bluff=0.1,p_bluff=0.2)", "p_bluff"), ("random(p_bluff=2)", "p_bluff"),
            ("random(p_bluff=nan)", "p_bluff"), ("random(q=1)", "q"), ("smart", "smart"),
            ("keep_wilds(p_draw=0.5)", "p_draw"), ("random\nrandom", "random"), (["random"] * 3, "3"),
            ("random*,greedy_points*", "*"), ([1, 2, 3, 4], "1"), ("", "lineup")])
        call["lineup"] = lineup
        return call, "polic|lineup", token
    if kind == 7:   # rules that are not a table
        value = rng.choice(([1], "jump_in=true", 3))
        call["rules"] = value
        return call, "rules", _token(value)
    # fixed, not-applicable or other-family rules
    key, value = rng.choice({
        "no_mercy": [("stacking", "none"), ("seven_o", False), ("n_blank", 2), ("spin_weights", [2] * 9)],
        "classic": [("spin_weights", [2] * 9), ("dumbfu_penalty", 2)],
        "minions": [("spin_weights", [2] * 9), ("n_blank", 2)],
        "spin": [("dumbfu_penalty", 2), ("n_blank", 2)],
        "flip": [("stacking", "any_draw"), ("n_blank", 2), ("spin_weights", [2] * 9), ("dumbfu_penalty", 2)]}[variant])
    call["rules"] = {key: value}
    return call, key, key


def _token(value) -> str:
    """The text an error message shows for ``value`` (str of the number, repr of a string)."""
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    if isinstance(value, (np.integer, np.floating)):
        return str(value.item())
    return str(value)


def play(draw: dict) -> dict:
    """Play one valid draw with the audit; returns a summary, raises on any broken invariant."""
    from unosim.game import protocol as L
    from unosim.play.simulate import resolve, run_compiled

    rs, specs = resolve(draw["variant"], draw["players"], draw["lineup"], draw["rules"])
    raw = run_compiled(rs, draw["players"], specs, draw["seed"], draw["first_game"], draw["games"], audit=True)
    games = raw.matches[:, L.MC_GAME]
    expected = np.arange(draw["games"], dtype=np.int64) + draw["first_game"]
    assert (games == expected).all(), f"game labels {games} != {expected}"
    assert np.isin(raw.rounds[:, L.RC_GAME], expected).all()
    assert (raw.rounds[:, L.RC_END] >= 0).all() and (raw.rounds[:, L.RC_END] <= L.END_TRUNCATED).all()
    assert (raw.rounds[:, L.RC_TURNS] <= rs.max_turns_per_round).all()
    return {"rounds": len(raw.rounds), "loop_bound_hits": int(raw.rounds[:, L.RC_LOOP_BOUND_HITS].sum())}


def compare_with_reference(draw: dict) -> None:
    """The first game of the draw, traced, must be identical in the kernel and the reference engine."""
    from unosim import reference
    from unosim.play.simulate import resolve, run_compiled

    rs, specs = resolve(draw["variant"], draw["players"], draw["lineup"], draw["rules"])
    compiled = run_compiled(rs, draw["players"], specs, draw["seed"], draw["first_game"], 1, trace=True)
    ref = reference.play(rs, draw["players"], specs, draw["seed"], draw["first_game"], 1, trace=True)
    for name in ("events", "rounds", "seats", "opening", "matches"):
        a, b = getattr(compiled, name), getattr(ref, name)
        if a.shape != b.shape or not np.array_equal(a, b):
            rows = np.flatnonzero((a[:min(len(a), len(b))] != b[:min(len(a), len(b))]).any(axis=1))
            raise AssertionError(f"kernel and reference differ in {name} (first row {rows[:1].tolist()}, "
                                 f"lengths {len(a)}, {len(b)})")


def main(argv: list[str]) -> None:
    """``SEED START COUNT DRAW_SECONDS``: play those seeded draws; ``- DRAW_SECONDS``: a JSON list on stdin;
    ``extreme SEED START COUNT DRAW_SECONDS``: play those extreme pairs."""
    if argv[0] == "extreme":
        return main_extreme(int(argv[1]), int(argv[2]), int(argv[3]), float(argv[4]))
    if argv[0] == "-":
        draws = list(enumerate(json.load(sys.stdin)))
        draw_seconds = float(argv[1])
    else:
        seed, start, count, draw_seconds = int(argv[0]), int(argv[1]), int(argv[2]), float(argv[3])
        draws = [(i, valid_draw(random.Random(f"{seed}:{i}"))) for i in range(start, start + count)]
    play({"variant": "classic", "players": 2, "lineup": "random", "rules": {}, "seed": 0, "first_game": 0,
          "games": 1})   # warm-up: loads (or compiles) the engine before any watchdog runs
    for index, draw in draws:
        print(json.dumps({"start": index}), flush=True)
        faulthandler.dump_traceback_later(draw_seconds, exit=True)
        try:
            summary = play(draw)
            if index % DIFFERENTIAL_EVERY == 0:
                compare_with_reference(draw)
        except Exception as error:   # reported to the parent with the draw that failed
            print(json.dumps({"fail": index, "error": f"{type(error).__name__}: {error}"}), flush=True)
            continue
        finally:
            faulthandler.cancel_dump_traceback_later()
        print(json.dumps({"done": index, **summary}), flush=True)


def main_extreme(seed: int, start: int, count: int, draw_seconds: float) -> None:
    play({"variant": "classic", "players": 2, "lineup": "random", "rules": {}, "seed": 0, "first_game": 0,
          "games": 1})   # warm-up, as in main
    for index in range(start, start + count):
        print(json.dumps({"start": index}), flush=True)
        faulthandler.dump_traceback_later(draw_seconds, exit=True)
        try:
            outcome = play_extreme(*extreme_pair(random.Random(f"extreme:{seed}:{index}")))
        except Exception as error:
            print(json.dumps({"fail": index, "error": f"{type(error).__name__}: {error}"}), flush=True)
            continue
        finally:
            faulthandler.cancel_dump_traceback_later()
        print(json.dumps({"done": index, "outcome": outcome}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
