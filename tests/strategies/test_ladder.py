"""The skill ladder (unosim.strategies.tournaments.ladder) and its luck/skill figures (unosim.analysis.luck)."""

from __future__ import annotations

import json
import math

import numpy as np
import polars as pl
import pytest
from scipy import stats

from unosim.analysis import luck
from unosim.game.policies import parse_policy
from unosim.strategies.tournaments.ladder import ladder, parse_rung


def _stays_from(q: float, share: float = 0.5) -> int:
    """The slow twin: scan every count up to twice the Hoeffding bound (beyond it every count reaches the
    goal); the answer is one past the last count whose chance falls short."""
    top = int(2 * math.log(1 / (1 - luck.GOAL)) / (2 * (q - share) ** 2)) + 50
    counts = np.arange(1, top)
    chance = stats.binom.sf(np.floor(counts * share + 1e-9), counts, q)
    short = np.flatnonzero(chance < luck.GOAL)
    return int(counts[short[-1]] + 1) if short.size else 1


@pytest.mark.parametrize("q", [0.501, 0.52, 0.55, 0.6, 0.7, 0.75, 0.9, 0.99])
def test_rounds_needed_is_the_count_from_which_the_chance_stays_at_the_goal(q):
    n = luck.rounds_needed(q)
    assert n == _stays_from(q)
    assert stats.binom.sf(n // 2, n, q) >= luck.GOAL and (n == 1 or stats.binom.sf((n - 1) // 2, n - 1, q) < luck.GOAL)
    # for a small edge, the normal approximation at the lowest points of the saw-tooth (even counts, where
    # a tie is not more: P(X ≥ n/2 + 1) ≈ Φ(((q − ½)n − ½) / σ√n)) is close
    if q <= 0.55:
        z, sigma, edge = stats.norm.ppf(luck.GOAL), math.sqrt(q * (1 - q)), q - 0.5
        approx = ((z * sigma + math.sqrt(z * z * sigma * sigma + 2 * edge)) / (2 * edge)) ** 2
        assert abs(n - approx) / approx < 0.02


def test_the_saw_tooth_first_crossing_is_not_the_answer():
    """At q = 0.64 the chance first reaches 95 % at 33 rounds and falls back below it at 34."""
    q = 0.64
    chance = {m: stats.binom.sf(m // 2, m, q) for m in range(1, 80)}
    first = min(m for m in chance if chance[m] >= luck.GOAL)
    assert any(chance[m] < luck.GOAL for m in chance if m > first)   # the saw-tooth
    assert luck.rounds_needed(q) > first and luck.rounds_needed(q) == _stays_from(q)


def test_rounds_needed_edges_and_bad_input():
    assert luck.rounds_needed(0.5) is None and luck.rounds_needed(0.3) is None
    assert luck.rounds_needed(1.0) == 1
    assert luck.rounds_needed(0.5 + 1e-9) is None          # beyond MAX_ROUNDS: unmeasurable
    with pytest.raises(ValueError, match="q=1.5"):
        luck.rounds_needed(1.5)
    row = luck.rounds_needed_row(0.6, 0.55, 0.65)
    assert row["rounds_needed_ci_low"] < row["rounds_needed"] < row["rounds_needed_ci_high"]
    # an interval that reaches ½ has no point value (216,671 printed for a share of 0.5016 [0.49, 0.51])
    assert luck.rounds_needed_row(0.52, 0.49, 0.55) == {"rounds_needed": None,
                                                         "rounds_needed_ci_low": luck.rounds_needed(0.55),
                                                         "rounds_needed_ci_high": None}


def test_rating_spread_is_the_standard_deviation_with_a_bootstrap_interval():
    point = np.array([-30.0, 0.0, 30.0])
    boot = point + np.random.default_rng(1).normal(0, 5, (200, 3))
    spread = luck.rating_spread(point, boot)
    assert math.isclose(spread["rating_spread"], float(np.std(point)))
    assert spread["rating_spread_ci_low"] < spread["rating_spread"] < spread["rating_spread_ci_high"]
    assert luck.rating_spread(np.zeros(3), np.zeros((10, 3)))["rating_spread"] == 0


def _h2h(pairs):
    rows = []
    for (a, b), (est, low, high) in pairs.items():
        rows += [{"a": a, "b": b, "estimate": est, "ci_low": low, "ci_high": high},
                 {"a": b, "b": a, "estimate": 1 - est, "ci_low": 1 - high, "ci_high": 1 - low}]
    return pl.DataFrame(rows)


def test_inconsistencies_name_a_higher_rated_policy_that_loses_head_to_head():
    h2h = _h2h({("x", "y"): (0.45, 0.42, 0.48), ("x", "z"): (0.6, 0.55, 0.65), ("y", "z"): (0.5, 0.47, 0.53)})
    consistent = pl.DataFrame({"policy": ["y", "x", "z"], "rating": [20.0, 10.0, -30.0]})
    assert luck.inconsistencies(consistent, h2h).is_empty()
    wrong = pl.DataFrame({"policy": ["x", "y", "z"], "rating": [20.0, 10.0, -30.0]})
    bad = luck.inconsistencies(wrong, h2h)
    assert bad.select("higher", "lower").rows() == [("x", "y")]


def test_a_rung_names_its_variant_and_rules_and_bad_ones_are_refused():
    rung = parse_rung("classic:n_blank=0,stacking=any_draw")
    assert (rung.variant, rung.rules) == ("classic", {"n_blank": 0, "stacking": "any_draw"})
    with pytest.raises(ValueError, match="'clasic' is unknown"):
        parse_rung("clasic")
    with pytest.raises(ValueError, match="n_blank"):
        parse_rung("classic:n_blank=-1")
    with pytest.raises(ValueError, match="must hold 'lookahead'"):
        ladder("classic", games=2, seed=1, policies="random,greedy_points")
    # one parser at the door: a comma inside a policy's parentheses does not split it
    with pytest.raises(ValueError, match=r"policies \['random\(p_bluff=0.1,p_draw=0.2\)', 'random'\] must hold"):
        ladder("classic", games=2, seed=1, policies="random(p_draw=0.2, p_bluff=0.1),random")


def test_the_chart_draws_one_line_per_variant_in_the_first_ladder_order():
    from unosim.reporting.tournament_chart import ladder_chart
    ratings = pl.DataFrame({"variant": ["a"] * 3 + ["b"] * 3, "policy": ["x", "y", "z"] * 2,
                            "rating": [10.0, -20.0, 10.0, 5.0, 0.0, -5.0]}).with_columns(
        rating_ci_low=pl.col("rating") - 3, rating_ci_high=pl.col("rating") + 3)
    ax = ladder_chart(ratings, players=2).axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["y", "x", "z"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["a", "b"]
    assert len(ax.containers) == 2   # one errorbar line per variant


@pytest.mark.slow
def test_a_small_ladder_rates_every_policy_and_checks_itself(tmp_path):
    policies = ["random", "greedy_points", "lookahead(rollouts=4,horizon=4)"]
    result = ladder(["classic:n_blank=0", "no_mercy"], players=2, games=12, seed=3, policies=policies)
    assert result.ratings.height == 6 and set(result.ratings["variant"]) == {"classic:n_blank=0", "no_mercy"}
    for variant in ("classic:n_blank=0", "no_mercy"):
        rows = result.ratings.filter(pl.col("variant") == variant)
        assert rows["rank"].to_list() == [1, 2, 3]
        assert rows["rating"].to_list() == sorted(rows["rating"].to_list(), reverse=True)
        assert abs(rows["rating"].sum()) < 1e-6                     # mean 0
        h2h = result.head_to_head.filter(pl.col("variant") == variant).drop("variant")
        assert result.inconsistencies.filter(pl.col("variant") == variant).height == \
            luck.inconsistencies(rows, h2h).height
    skill = result.skill.row(0, named=True)
    expert = parse_policy(policies[2]).label
    assert skill["expert"] == expert and skill["best_other"] == "greedy_points"
    vs = result.head_to_head.filter(pl.col("variant") == "classic:n_blank=0", pl.col("a") == expert,
                                    pl.col("b") == "random").row(0, named=True)
    assert skill["vs_random"] == vs["estimate"]
    expected = luck.rounds_needed(vs["estimate"]) if vs["ci_low"] > 0.5 else None   # none when no edge is ruled out
    assert skill["rounds_needed_vs_random"] == expected
    assert '"n_blank": 0' in result.to_json()
    written = json.loads(result.write(tmp_path / "ladder.json").read_text())   # `unosim ladder --out`
    assert written["commit"] and written["skill"] and (tmp_path / "ladder.png").read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize("q, share", [(0.3, 0.25), (0.45, 1 / 3), (0.6, 0.25), (0.26, 0.2), (0.27, 0.25),
                                      (0.35, 1 / 3), (0.21, 0.2), (0.52, 0.5), (0.13, 0.1)])
def test_rounds_needed_at_more_seats_stays_beating_the_fair_share(q, share):
    """One skilled seat among N: the first n from which it keeps a 95 % chance of having won more than
    n/N rounds, against the slow twin's scan of every count."""
    assert luck.rounds_needed(q, share=share) == _stays_from(q, share)
    assert luck.rounds_needed(share, share=share) is None
    for bad in (1.5, 0.3):
        with pytest.raises(ValueError, match=f"share={bad}"):
            luck.rounds_needed(0.6, share=bad)


def test_the_chance_at_each_run_start_rises_with_the_runs():
    """The search's premise: c(k) = P(Bin(kN, q) > k) rises with k for q > 1/N."""
    k = np.arange(1, 4000)
    for seats in (2, 3, 4, 5, 6, 8, 10):
        for q in np.linspace(1 / seats + 0.002, 0.999, 60):
            assert np.all(np.diff(stats.binom.sf(k, k * seats, q)) >= -1e-12), (seats, q)


def _first_legal(view):
    """A tiny user policy: the first legal card in hand order."""
    return view.legal[0]


def test_a_python_policy_takes_a_rung_of_the_ladder_but_lookahead_cannot_meet_it(tmp_path):
    result = ladder(["classic:n_blank=0"], players=2, games=40, seed=2,
                    policies=[_first_legal, "random", "colour_counter"])
    written = json.loads(result.write(tmp_path / "ladder.json").read_text())   # the results file and its chart
    assert written["deals"] == 40 and written["variants"]["classic:n_blank=0"]["rule_set"]["n_blank"] == 0
    assert written["machine"]["cpus"] and written["date"] and (tmp_path / "ladder.png").read_bytes()[:4] == b"\x89PNG"
    assert set(result.ratings["policy"]) == {"_first_legal", "random", "colour_counter"}
    skill = result.skill.row(0, named=True)
    vs = result.head_to_head.filter(pl.col("a") == "_first_legal", pl.col("b") == "random").row(0, named=True)
    assert skill["expert"] == "_first_legal" and skill["vs_random"] == vs["estimate"]
    with pytest.raises(ValueError, match="'lookahead' cannot play against a Python policy: .* no lookahead twin"):
        ladder(["classic"], players=2, games=4, seed=2, policies=[_first_legal, "random", "lookahead"])
    with pytest.raises(ValueError, match="n_jobs=2: .* valid is n_jobs=1"):
        ladder(["classic"], players=2, games=4, seed=2, policies=[_first_legal, "random"], n_jobs=2)
