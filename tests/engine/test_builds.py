"""Engine builds (unosim/engine/compiler/builds.py): what a call compiles, and that the build never changes a game.

A call runs on the smallest compiled build that covers it (``unosim.engine.choose``), so the same game
can be played by builds with more mechanisms or policies compiled in than it uses; here the specialised
builds are compared with the full one, table for table and event for event.
"""

from __future__ import annotations

import numpy as np
import pytest

from unosim import engine
from unosim.engine import features
from unosim.engine.compiler import builds
from unosim.engine.compiler.builds import MECHANISMS, POLICY_TIERS, Build, build_for
from unosim.play.simulate import resolve, run_compiled


def _build(variant, players, lineup, rules=None):
    rs, specs = resolve(variant, players, lineup, rules)
    return build_for(rs, specs)


def test_a_call_needs_its_family_house_rules_and_policy_tier():
    assert _build("classic", 4, "random") == Build(frozenset({"blank"}), "basic")
    assert _build("classic", 4, "greedy_points,keep_wilds*", {"n_blank": 0}) == Build()
    assert _build("no_mercy", 3, "random").mechanisms == {"no_mercy", "stacking", "mercy", "seven_o"}
    assert _build("spin", 2, "by_colour", {"jump_in": True}) == Build(frozenset({"spin", "jump_in"}), "weighted")
    assert _build("minions", 5, "lookahead,random*", {"stacking": "any_draw", "mercy_limit": 20}) == Build(
        frozenset({"minions", "stacking", "mercy"}), "lookahead")
    assert _build("classic", 4, "random", {"seven_o": True}).key == "blank-seven_o.basic"
    assert _build("flip", 3, "random", {"jump_in": True}) == Build(frozenset({"flip", "jump_in"}))
    assert Build(frozenset({"flip"})).describe() == "flip engine, random/greedy policies"


def test_build_keys_round_trip_and_name_what_is_compiled():
    for build in (Build(), Build.full(), Build(frozenset({"spin", "stacking"}), "weighted")):
        assert Build.from_key(build.key) == build
    assert Build().describe() == "classic engine, random/greedy policies"
    assert Build(frozenset({"blank"})).describe() == "classic engine (blank cards), random/greedy policies"
    no_mercy = Build(frozenset({"no_mercy", "stacking", "mercy", "seven_o", "jump_in"}), "weighted")
    assert no_mercy.describe() == "no_mercy engine (jump-in), random/greedy/weighted policies"
    for bad in ("classic.basic", "core.basic.plain", "jump_in-blank.basic", "core.greedy"):
        with pytest.raises(ValueError, match="build|tier|mechanism"):
            Build.from_key(bad)


def test_covering_and_joining_builds():
    small, big = Build(frozenset({"blank"})), Build(frozenset({"blank", "spin"}), "weighted")
    assert big.covers(small) and not small.covers(big) and small.covers(small)
    assert Build.full().covers(big) and not big.covers(Build(frozenset({"mercy"})))
    assert small.union(Build(frozenset({"mercy"}), "lookahead")) == Build(frozenset({"blank", "mercy"}), "lookahead")


def test_the_engine_package_is_the_full_build():
    """unosim.engine's own modules (which tests reach into) compile everything."""
    switches = {k: v for k, v in vars(features).items() if k.isupper()}
    assert switches == Build.full().constants()
    assert engine.OWN_BUILD == Build.full() and engine.package_name(engine.OWN_BUILD) == "unosim.engine"
    assert set(Build().constants()) == set(switches)
    assert len(MECHANISMS) + len(POLICY_TIERS) - 1 == len(switches)


def test_a_build_that_cannot_play_the_call_is_refused():
    rs, specs = resolve("spin", 3, "random", {"match_mode": "single_round"})
    with pytest.raises(ValueError, match="cannot play this call: it needs 'spin.basic'"):
        run_compiled(rs, 3, specs, 1, 0, 2, build=Build(frozenset({"blank"})))


def test_the_compile_estimate_follows_the_measured_model():
    assert builds.model_seconds(Build()) < builds.model_seconds(Build(frozenset({"spin"})))
    assert builds.model_seconds(Build.full()) > 3 * builds.model_seconds(Build())
    assert set(builds.MECHANISM_COMPILE_SECONDS) == set(builds.MECHANISMS)   # every mechanism has its estimate


def test_the_estimate_is_scaled_by_the_fastest_earlier_compiles_here(tmp_path, monkeypatch):
    """Four compiles recorded at 1.5x, 3x, 4x and 5x the model (the slower ones sharing their core) say
    this machine, uncontended, takes 1.5x the model's time: the estimate is 1.5x the model, not the median."""
    from unosim.engine.compiler import cache, loader
    monkeypatch.setattr(cache, "CACHE_DIR", tmp_path / "unosim-engine-now")
    recorded = {Build(frozenset({"blank"})): 1.5, Build(frozenset({"spin"})): 3.0,
                Build(frozenset({"minions"})): 4.0, Build(frozenset({"no_mercy"})): 5.0}
    for build, times in recorded.items():
        marker = tmp_path / "unosim-engine-earlier" / build.key / cache.MARKER
        marker.parent.mkdir(parents=True)
        marker.write_text(f'{{"seconds": {times * builds.model_seconds(build)}}}\n')
    assert loader.estimate_seconds(Build.full()) == pytest.approx(1.5 * builds.model_seconds(Build.full()))
    # a cache with no record: the model as measured on the development machine
    monkeypatch.setattr(cache, "CACHE_DIR", tmp_path / "empty" / "unosim-engine-now")
    assert loader.estimate_seconds(Build()) == pytest.approx(builds.model_seconds(Build()))


# Two specialised builds, which between them leave out every mechanism and policy tier, play their
# games as the full build does (the one every other test runs on): rows and trace events alike. CLASSIC_FLIP
# holds classic's blank cards and flip's wing and nothing else; NO_MERCY, no_mercy's own, leaves out blank
# cards, minions, the wheel, jump-ins, flip and the weighted and lookahead policies, and plays classic's house
# rules too. (A user's first build, blank.basic, is compiled cold by tests/engine/test_warm_cache.py.)
CLASSIC_FLIP = Build(frozenset({"blank", "flip"}))
NO_MERCY = Build(frozenset({"no_mercy", "stacking", "mercy", "seven_o"}))
CASES = [
    ("classic", 4, "random", {"match_mode": "single_round"}, CLASSIC_FLIP),
    ("classic", 5, "keep_wilds,random*", {"blank_effects": ["shuffle_hands", "others_draw_1", "discard_colour"],
                                          "p_forget_uno": 0.3, "target": 200}, CLASSIC_FLIP),
    ("classic", 3, "greedy_points,keep_wilds,random", {"n_blank": 0, "target": 200, "stacking": "any_draw",
                                                       "seven_o": True, "mercy_limit": 15}, NO_MERCY),
    ("no_mercy", 4, "random,greedy_points*", {"match_mode": "single_round", "p_forget_uno": 0.3}, NO_MERCY),
    ("no_mercy", 3, "keep_wilds", {"target": 600}, NO_MERCY),
    ("flip", 4, "random(p_bluff=0.3,p_challenge=0.5),greedy_points*", {"target": 300}, CLASSIC_FLIP),
]


def test_the_specialised_builds_leave_out_every_mechanism_and_tier_between_them():
    builds_used = {case[4] for case in CASES}
    for mechanism in MECHANISMS:
        assert any(mechanism not in b.mechanisms for b in builds_used), mechanism
    assert all(b.policies == "basic" for b in builds_used)


@pytest.mark.long   # first on its worker: the compiles overlap the session's full build (on a cold cache)
def test_the_specialised_builds_compile_or_load():
    """Compiles them into the session's cache while the full build compiles, so that the comparisons
    below, which wait for the full build, load them."""
    for build in sorted({case[4] for case in CASES}, key=lambda b: b.key):
        assert engine.kernel(build).build == build


@pytest.mark.parametrize("variant, players, lineup, rules, build", CASES,
                         ids=[f"{c[0]}-{c[4].key}" for c in CASES])
def test_a_specialised_build_plays_the_games_of_the_full_one(variant, players, lineup, rules, build):
    rs, specs = resolve(variant, players, lineup, rules)
    assert build.covers(build_for(rs, specs))
    own = run_compiled(rs, players, specs, 17, 0, 300, build=build)
    full = run_compiled(rs, players, specs, 17, 0, 300, build=engine.OWN_BUILD)
    for table in ("rounds", "seats", "opening", "matches"):
        np.testing.assert_array_equal(getattr(own, table), getattr(full, table), err_msg=table)
    own = run_compiled(rs, players, specs, 17, 0, 3, trace=True, build=build)
    full = run_compiled(rs, players, specs, 17, 0, 3, trace=True, build=engine.OWN_BUILD)
    np.testing.assert_array_equal(own.events, full.events)
    assert len(full.events) > 100
