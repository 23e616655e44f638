"""Findings and effect tables on real studies: known effects, identical games, agreeing intervals and tests,
and Kaplan-Meier lengths under a turn cap."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from unosim import analysis
from unosim.analysis.checker import check_claims
from unosim.analysis.effects import finish_effects
from unosim.analysis.findings import claims, findings
from unosim.analysis.standard import as_written
from unosim.play.simulate import simulate
from unosim.store.reader import open_dataset

# Every p-value here comes from the test its interval inverts (t, Welch, score, z, Tukey's range test),
# so "CI excludes 0" and "p < 0.05" agree exactly (the fairness-change test has no interval).


def assert_intervals_agree_with_p_values(tables: dict[str, pl.DataFrame]) -> int:
    checked = 0
    for name, table in tables.items():
        p_column = "range_p" if name == "fairness" else "p_value"
        if not {"ci_low", "ci_high", p_column} <= set(table.columns):
            continue
        rows = table.filter(pl.col("ci_low").is_not_null() & pl.col(p_column).is_not_null())
        for row in rows.iter_rows(named=True):
            centre = 0.5 if name == "head_to_head" else 0.0
            excludes = row["ci_low"] > centre or row["ci_high"] < centre
            assert excludes == (row[p_column] < 0.05), (name, row)
            checked += 1
        if "rel_low" in table.columns:  # Fieller's relative interval agrees with the same test
            for row in rows.filter(pl.col("rel_low").is_not_nan() & ~pl.col("test").str.contains("bootstrap")) \
                    .iter_rows(named=True):
                assert (row["rel_low"] > 0 or row["rel_high"] < 0) == (row["p_value"] < 0.05), (name, row)
    return checked


@pytest.fixture(scope="module")
def house_tables(house_rule_dataset):  # noqa: F811
    return analysis.standard_tables(open_dataset(house_rule_dataset))


def test_every_interval_agrees_with_its_p_value(house_tables, small_dataset):  # noqa: F811
    checked = assert_intervals_agree_with_p_values(house_tables)
    checked += assert_intervals_agree_with_p_values(analysis.standard_tables(open_dataset(small_dataset)))
    assert checked > 50


def test_a_large_effect_is_found_and_a_rule_that_never_triggers_is_called_identical(house_tables):
    effects = house_tables["effects"]
    length = effects.filter(pl.col("b") == "draw_until_playable", pl.col("measure") == "length").row(0, named=True)
    assert length["significant"] and length["rel_low"] > 0.2
    assert effects.filter(pl.col("b") == "force_play_drawn")["identical"].all()
    assert effects.filter(pl.col("b") == "force_play_drawn")["ci_low"].is_null().all()
    ranked = [f for f in findings(house_tables) if f.section != "verdict"]
    found = {}
    for f in ranked:  # each subject's first (strongest) finding
        found.setdefault(f.subject.split(" ")[0], f)
    assert found["draw_until_playable"].kind == "effect"
    assert any(f.subject.startswith("draw_until_playable") and "rounds" in f.text and "longer" in f.text
               for f in ranked)
    assert found["force_play_drawn"].kind == "identical"
    assert "changed none of the 1,500 games" in found["force_play_drawn"].text
    assert ranked.index(found["draw_until_playable"]) < ranked.index(found["force_play_drawn"])
    written = as_written(house_tables)
    assert check_claims(written, claims(written)) == []



def test_a_rule_that_leaves_rounds_without_a_winner_is_said_to():
    """draw_until_playable with players who keep a card drawn after a bluff challenge: hands grow until
    the piles are spent, and many rounds end in a stalemate (none under the published rules). The
    effects state the share of rounds with no winner, in points, with the table's own shares."""
    from unosim.analysis.effects import compare_cells

    lineup = "random(p_draw=0.2,p_bluff=0.5,p_challenge=0.5,p_keep_drawn=0.3)"
    frames = [simulate("classic", players=3, games=400, seed=8, lineup=lineup,
                       rules={"match_mode": "single_round", **rules}).rounds
              for rules in ({}, {"draw_until_playable": True})]
    shares = [float((frame["winner_seat"] < 0).mean()) for frame in frames]
    assert shares[0] == 0 and shares[1] > 0.2
    rows = compare_cells(*frames, 3, paired=True, seed=1)
    row = next(r for r in rows if r["measure"] == "no_winner")
    assert (row["mean_a"], row["mean_b"]) == (0.0, pytest.approx(shares[1]))
    assert row["ci_low"] > 0.15 and row["p_value"] < 1e-10
    table = finish_effects([{**r, "axis": "variant", "a": "classic", "b": "draw_until_playable", "variant": None,
                             "players": 3, "lineup": "bluffers", "paired": True} for r in rows])
    found = claims({"effects": table})
    said = next(c for c in found if c.measure == "no_winner")
    assert said.kind == "effect" and said.direction == 1
    assert "more rounds with no winner (a stalemate or the turn cap): " in said.text
    assert f"(0.0% → {shares[1]:.1%} of rounds)" in said.text
    assert check_claims({"effects": table}, found) == []

def test_nothing_is_claimed_without_holm_support():
    """A nominal p = 0.01 among ten tests is not an effect after Holm's adjustment (0.1)."""
    base = {"axis": "variant", "a": "classic", "variant": None, "players": 4, "lineup": "random",
            "paired": True, "identical": False, "mean_a": 40.0, "n": 1000, "test": "paired t"}
    rows = [{**base, "b": "rule_x", "measure": "length", "mean_b": 41.0, "estimate": 1.0, "ci_low": 0.25,
             "ci_high": 1.75, "p_value": 0.01, "rel_change": 0.025, "rel_low": 0.006, "rel_high": 0.044}]
    rows += [{**base, "b": f"rule_{i}", "measure": "length", "mean_b": 40.2, "estimate": 0.2, "ci_low": -0.6,
              "ci_high": 1.0, "p_value": 0.6, "rel_change": 0.005, "rel_low": -0.015, "rel_high": 0.025}
             for i in range(9)]
    table = finish_effects(rows)
    assert table.filter(pl.col("b") == "rule_x")["p_holm"].item() == pytest.approx(0.1)
    found = {f.subject.split(" ")[0]: f for f in findings({"effects": table}) if f.section != "verdict"}
    assert found["rule_x"].kind == "no_effect" and "no detectable change in round length" in found["rule_x"].text
    # Holm: 0.01, supported, and the interval [+2.1%, +2.9%] clear of the 2% minimum
    rows[0].update(p_value=0.001, ci_low=0.85, ci_high=1.15, rel_low=0.021, rel_high=0.029)
    found = {f.subject.split(" ")[0]: f for f in findings({"effects": finish_effects(rows)}) if f.section != "verdict"}
    assert found["rule_x"].kind == "effect" and "rounds 2.5% longer" in found["rule_x"].text


@pytest.mark.slow
def test_kaplan_meier_under_a_turn_cap_recovers_the_uncapped_tail():
    """With max_turns_per_round=40 the rounds longer than 40 turns are censored: Kaplan-Meier's P(T > t)
    for t ≤ 40 matches the empirical share of an uncapped run (independent seeds) within sampling error,
    where counting truncated rounds as ended would give P(T > 40) = 0."""
    games = 20_000
    capped = simulate("classic", players=4, games=games, seed=11,
                      rules={"match_mode": "single_round", "max_turns_per_round": 40}).rounds
    free = simulate("classic", players=4, games=games, seed=12, rules={"match_mode": "single_round"}).rounds
    assert (capped["end"].cast(pl.String) == "truncated").mean() > 0.2
    km = analysis.turn_survival(capped.with_columns(variant=pl.lit("c"), lineup=pl.lit("r")))
    for t in (30, 35, 40):
        estimate = km.filter(pl.col("value") <= t).sort("value")["estimate"][-1]
        truth = float((free["n_turns"] > t).mean())
        se = np.sqrt(2 * truth * (1 - truth) / games)
        assert abs(estimate - truth) < 4 * se, (t, estimate, truth)
    means = analysis.restricted_means(capped.with_columns(variant=pl.lit("c"), lineup=pl.lit("r")))
    row = means.row(0, named=True)
    assert row["restricted_to"] == 40
    assert row["truncated_share"] == pytest.approx((capped["end"].cast(pl.String) == "truncated").mean())
    restricted_truth = float(np.minimum(free["n_turns"].to_numpy(), 40).mean())
    assert abs(row["restricted_mean"] - restricted_truth) < 4 * np.sqrt(2) * free["n_turns"].clip(0, 40).std() \
        / np.sqrt(games)
