"""Analyses: interval coverage, known answers from simulation and synthetic data, tidy tables."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats

from unosim import analysis
from unosim.game.cards import HAND_CLASSES
from unosim.play.simulate import simulate
from unosim.store.reader import open_dataset

TIDY = {"estimate", "ci_low", "ci_high", "n"}


@pytest.mark.parametrize("p", [0.1, 0.3, 0.5])
@pytest.mark.parametrize("n", [60, 600])
def test_wilson_intervals_cover_at_the_nominal_rate(p, n):
    rng = np.random.default_rng(round(p * 1000) + n)
    reps = 4000
    k = rng.binomial(n, p, size=reps)
    low, high = analysis.wilson_interval(k, n, 0.95)
    coverage = np.mean((low <= p) & (p <= high))
    assert abs(coverage - 0.95) < 4 * np.sqrt(0.95 * 0.05 / reps) + 0.01, coverage


def test_wilson_expression_matches_the_array_version():
    table = pl.DataFrame({"k": [0, 3, 50, 100], "n": [100, 100, 100, 100]})
    out = analysis.with_wilson(table, "k", "n", 0.9)
    low, high = analysis.wilson_interval(table["k"].to_numpy(), 100, 0.9)
    assert np.allclose(out["ci_low"], low) and np.allclose(out["ci_high"], high)
    assert out["estimate"].to_list() == [0.0, 0.03, 0.5, 1.0]


def _seats_of(results, variant="classic", lineup="random"):
    return results.seats.with_columns(variant=pl.lit(variant), lineup=pl.lit(lineup))


def test_symmetric_seats_win_their_fair_share():
    """Identical policies and a random first dealer: every seat wins P(round won) / n, by symmetry."""
    results = simulate("classic", players=3, games=20_000, seed=2024, rules={"match_mode": "single_round"})
    won_share = (results.rounds["winner_seat"] >= 0).mean()
    table = analysis.win_rates(_seats_of(results), confidence=0.99)
    assert table.height == 3
    for row in table.iter_rows(named=True):
        assert row["ci_low"] <= won_share / 3 <= row["ci_high"], row


def test_a_house_rule_that_changes_nothing_compares_as_exactly_zero(small_dataset):  # noqa: F811
    """With random policies that never bluff or challenge, no_bluffing plays identical games."""
    ds = open_dataset(small_dataset)
    a = {"variant": "classic", "players": 3, "lineup": "random"}
    b = {"variant": "no_bluffing", "players": 3, "lineup": "random"}
    wins = analysis.compare_wins(ds.seats, a, b, paired=True)
    assert wins["estimate"].to_list() == [0.0] * 3 and wins["p_value"].to_list() == [1.0] * 3
    assert (wins["only_a_won"] + wins["only_b_won"]).to_list() == [0] * 3
    turns = analysis.compare_lengths(ds.rounds, a, b, "n_turns", paired=True)
    assert turns["estimate"] == 0.0 and turns["p_value"] == 1.0


def test_common_random_numbers_deal_the_same_hands_to_every_lineup(small_dataset):  # noqa: F811
    seats = open_dataset(small_dataset).seats.filter(pl.col("variant") == "classic", pl.col("players") == 3)
    hands = [seats.filter(pl.col("lineup") == lu).sort("game", "seat").select("^open_.*$").collect()
             for lu in ("random", "greedy_first")]
    assert hands[0].equals(hands[1])


def test_paired_win_comparison_is_the_paired_t_test():
    rng = np.random.default_rng(3)
    a = rng.random(500) < 0.4
    b = np.where(rng.random(500) < 0.2, ~a, a)
    game = np.arange(500)
    frame = pl.concat([pl.DataFrame({"game": game, "round": 0, "seat": 0, "won": w, "cell": c})
                       for w, c in ((a, "a"), (b, "b"))])
    out = analysis.compare_wins(frame, {"cell": "a"}, {"cell": "b"}, paired=True).row(0, named=True)
    only_a, only_b = int(np.sum(a & ~b)), int(np.sum(~a & b))
    assert (out["only_a_won"], out["only_b_won"]) == (only_a, only_b)
    assert out["estimate"] == pytest.approx((only_b - only_a) / 500)
    assert out["p_value"] == pytest.approx(stats.ttest_rel(b.astype(float), a.astype(float)).pvalue)
    assert out["ci_low"] < out["estimate"] < out["ci_high"]


def test_unpaired_comparisons_use_independent_sample_tests():
    rng = np.random.default_rng(4)
    frame = pl.concat([pl.DataFrame({"game": np.arange(2000), "round": 0, "seat": 0,
                                     "won": rng.random(2000) < p, "n_turns": rng.poisson(m, 2000), "cell": c})
                       for p, m, c in ((0.3, 40, "a"), (0.4, 44, "b"))])
    wins = analysis.compare_wins(frame, {"cell": "a"}, {"cell": "b"}, paired=False).row(0, named=True)
    assert wins["test"] == "Welch t" and wins["ci_low"] < 0.1 < wins["ci_high"]
    turns = analysis.compare_lengths(frame, {"cell": "a"}, {"cell": "b"}, "n_turns", paired=False)
    assert turns["test"] == "Welch t" and turns["ci_low"] < 4 < turns["ci_high"]
    welch = stats.ttest_ind(frame.filter(pl.col("cell") == "b")["n_turns"], frame.filter(pl.col("cell") == "a")["n_turns"],
                            equal_var=False)
    assert turns["p_value"] == pytest.approx(welch.pvalue)


def test_card_values_recover_known_effects():
    """Synthetic hands of 7 cards over 4 kinds with a known linear win probability."""
    rng = np.random.default_rng(5)
    games, players = 20_000, 4
    counts = rng.multinomial(7, [0.4, 0.3, 0.2, 0.1], size=games * players)
    slope = np.array([0.00, 0.02, 0.05, -0.03])
    p_win = 0.1 + counts @ slope
    seat = np.tile(np.arange(players), games)
    frame = pl.DataFrame({"game": np.repeat(np.arange(games), players), "seat": seat.astype(np.int8),
                          "rel_dealer": ((seat - np.repeat(rng.integers(0, players, games), players)) % players)
                          .astype(np.int8), "won": rng.random(len(p_win)) < p_win,
                          "variant": "synthetic", "players": np.int8(players), "lineup": "random"})
    opening = {f"open_{c}": np.zeros(len(frame), np.int8) for c in HAND_CLASSES}
    for i, card in enumerate(("n1", "skip", "wild", "wd4")):
        opening[f"open_{card}"] = counts[:, i].astype(np.int8)
    table = analysis.card_values(frame.with_columns(**opening), confidence=0.99)
    assert table["card"].to_list() == ["n1", "skip", "wild", "wd4"]
    shares = counts.mean(axis=0) / 7
    truth = slope - shares @ slope
    assert np.all((table["ci_low"].to_numpy() <= truth) & (truth <= table["ci_high"].to_numpy()))
    assert table["points"].to_list() == [1, 20, 50, 50]


def test_standard_tables_are_tidy(small_dataset):  # noqa: F811
    tables = analysis.standard_tables(open_dataset(small_dataset))
    assert {"win_rates", "win_rates_dealer", "points", "lengths", "length_distributions", "card_values",
            "compare_wins", "effects", "fairness", "survival", "card_balance", "skill"} <= set(tables)
    for name, table in tables.items():
        columns = set(table.columns)
        if name == "length_distributions":  # a distribution: counts and shares (its survival is Kaplan–Meier's)
            assert {"value", "count", "pmf", "n"} <= columns and not {"estimate", "ci_low"} & columns
            continue
        if name == "verdicts":  # one verdict per comparison, its reason a sentence: no estimate of its own
            assert {"verdict", "reason", "profile", "a", "b"} <= columns and "estimate" not in columns
            assert set(table["verdict"]) <= {"better", "worse", "mixed", "same", "too close to call"}
            continue
        if name == "scorecard":  # effects on the measures' own scales, with their intervals
            assert (table["effect_low"] <= table["effect"] + 1e-12).all() and \
                   (table["effect"] <= table["effect_high"] + 1e-12).all()
            continue
        assert TIDY <= columns, name
        assert (table["ci_low"] <= table["estimate"] + 1e-12).all() and \
               (table["estimate"] <= table["ci_high"] + 1e-12).all(), name
    wins = tables["win_rates"]
    per_round = wins.group_by("variant", "players", "lineup").agg(pl.col("estimate").sum())
    assert (per_round["estimate"] <= 1 + 1e-12).all()


def test_length_distribution_is_a_distribution(small_dataset):  # noqa: F811
    rounds = open_dataset(small_dataset).rounds
    dist = analysis.length_distributions(rounds)
    sums = dist.group_by("variant", "players", "lineup", "metric").agg(pl.col("pmf").sum(), pl.col("estimate").min())
    assert np.allclose(sums["pmf"], 1.0) and (sums["estimate"] == 0).all()  # survival reaches 0 at the max
    summary = analysis.length_summary(rounds)
    mean = rounds.filter(pl.col("variant") == "classic", pl.col("players") == 2, pl.col("lineup") == "random") \
        .select(pl.col("n_turns").mean()).collect().item()
    row = summary.filter(pl.col("variant") == "classic", pl.col("players") == 2, pl.col("lineup") == "random",
                         pl.col("metric") == "n_turns")
    assert row["estimate"].item() == pytest.approx(mean)
    assert row["q10"].item() <= row["q50"].item() <= row["q90"].item()


def test_match_statistics(match_dataset):  # noqa: F811
    ds = open_dataset(match_dataset)
    tables = analysis.standard_tables(ds)
    wins = tables["match_wins"]
    assert wins.height == 3
    assert wins["match_wins"].sum() == ds.matches.filter(pl.col("winner_seat") >= 0)\
        .select(pl.col("n_winners").sum()).collect().item()
    rounds = tables["rounds_per_match"]
    assert rounds["value"].min() >= 1
    assert tables["match_ends"]["count"].sum() == 120


def test_match_mode_intervals_are_clustered_by_match(match_dataset):  # noqa: F811
    """The rounds of a match are not independent: win rates, skill and fairness intervals are clustered
    by match (one cluster per game) and agree with a direct sandwich computation."""
    from unosim.analysis.intervals import clustered_rates
    from unosim.analysis.standard import standard_tables
    ds = open_dataset(match_dataset)
    tables = standard_tables(ds)
    rates = tables["win_rates"]
    assert "clusters" in rates.columns and (rates["clusters"] == ds.cells()["games"][0]).all()
    seats = ds.seats.collect()
    seat0 = seats.filter(pl.col("seat") == 0).group_by("game").agg(wins=pl.col("won").sum(), n=pl.len())
    k, n = seat0["wins"].to_numpy().astype(float), seat0["n"].to_numpy().astype(float)
    rate = k.sum() / n.sum()
    se = np.sqrt(np.sum((k - rate * n) ** 2) * len(k) / (len(k) - 1)) / n.sum()
    row = rates.filter(pl.col("seat") == 0).row(0, named=True)
    assert row["estimate"] == pytest.approx(rate) and row["ci_high"] - row["estimate"] == pytest.approx(1.96 * se, rel=1e-3)
    direct = clustered_rates(seat0.with_columns(g=pl.lit(0)), ["g"]).row(0, named=True)
    assert direct["se"] == pytest.approx(se)
    fairness = tables["fairness"].row(0, named=True)
    assert fairness["ci_low"] <= fairness["estimate"] <= fairness["ci_high"]


def test_a_quantile_at_the_turn_cap_is_not_printed_as_a_length():
    """With 80 % of rounds stopped at a 100-turn cap, the median "100" was a length no round had."""
    from unosim.analysis.standard import lengths_with_censoring
    n = 1000
    turns = np.where(np.arange(n) < 800, 100, np.arange(n) % 50 + 20)
    rounds = pl.DataFrame({"variant": "v", "players": 2, "lineup": "random", "n_turns": turns, "n_plays": turns // 2,
                           "n_draws": turns // 2, "end": np.where(turns == 100, "truncated", "won")})
    row = lengths_with_censoring(rounds.lazy()).filter(pl.col("metric") == "n_turns").row(0, named=True)
    assert row["restricted_to"] == 100 and row["truncated_share"] == pytest.approx(0.8)
    assert row["q50"] is None and row["q90"] is None and row["q99"] is None
    assert row["q10"] is not None and row["q10"] < 100
