"""Effects of comparisons: intervals that agree with their tests, Holm, identical games, synthetic known
answers for every measure, Kaplan-Meier under a turn cap, card balance."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats

from unosim.analysis import inference, survival
from unosim.analysis.card_balance import card_balance
from unosim.analysis.effects import compare_cells, fairness_change, finish_effects


def _agrees(row) -> bool:
    excludes = row["ci_low"] > 0 or row["ci_high"] < 0
    return excludes == (row["p_value"] < 0.05)


@pytest.mark.parametrize("shift", [0.0, 0.05, 0.08, 0.1, 0.12, 0.2, 1.0])
def test_paired_interval_test_and_fieller_agree(shift):
    rng = np.random.default_rng(int(shift * 100))
    a = rng.normal(10, 1, 400)
    b = a + rng.normal(shift, 1, 400)
    out = inference.paired_difference(a, b)
    assert out["p_value"] == pytest.approx(stats.ttest_rel(b, a).pvalue)
    assert _agrees(out)
    rel_excludes = out["rel_low"] > 0 or out["rel_high"] < 0
    assert rel_excludes == (out["p_value"] < 0.05)
    assert out["rel_low"] < out["rel_change"] < out["rel_high"]


def test_fieller_interval_is_consistent_at_the_boundary():
    """Shift b until the t test crosses 0.05: the relative interval crosses 0 at the same point."""
    rng = np.random.default_rng(9)
    a = rng.normal(20, 3, 300)
    noise = rng.normal(0, 3, 300)
    for shift in np.linspace(0.0, 1.0, 201):
        out = inference.paired_difference(a, a + noise - noise.mean() + shift)
        assert (out["rel_low"] > 0 or out["rel_high"] < 0) == (out["p_value"] < 0.05), shift


def test_welch_and_score_tests_agree_with_their_intervals():
    rng = np.random.default_rng(1)
    for shift in (0.0, 0.1, 0.2, 0.5):
        a, b = rng.normal(5, 1, 300), rng.normal(5 + shift, 1.5, 250)
        out = inference.unpaired_difference(a, b)
        assert out["p_value"] == pytest.approx(stats.ttest_ind(b, a, equal_var=False).pvalue)
        assert _agrees(out)
    for k in range(60, 140, 3):
        out = inference.score_test_proportion(k, 400, 0.25)
        assert _agrees(out), k


def test_holm_matches_the_textbook_step_down():
    p = [0.01, 0.04, 0.03, 0.005, np.nan]
    # sorted 0.005, 0.01, 0.03, 0.04 with multipliers 4, 3, 2, 1, then a running maximum
    expected = [0.03, 0.06, 0.06, 0.02, np.nan]
    assert np.allclose(inference.holm(p), expected, equal_nan=True)
    assert np.all(inference.holm([0.5, 0.9]) <= 1.0)


def _rounds(rng, n, *, turns, lead, deficit_share, players=4, no_winner=0.0):
    dealer = rng.integers(0, players, n)
    winner = np.where(rng.random(n) < no_winner, -1, rng.integers(0, players, n))
    deficit = np.where(rng.random(n) < deficit_share, 4, 0)
    return pl.DataFrame({"game": np.arange(n), "round": 0, "n_turns": turns, "lead_changes": lead,
                         "winner_max_deficit": deficit, "max_hand": np.full(n, 9), "largest_stack": 0,
                         "knockouts": 0, "winner_seat": winner.astype(np.int8),
                         "dealer_seat": dealer.astype(np.int8), "points": rng.integers(0, 200, n),
                         "end": np.where(winner < 0, "truncated", "won")})


def test_compare_cells_recovers_known_synthetic_effects():
    rng = np.random.default_rng(3)
    n = 5000
    base_turns = rng.poisson(40, n)
    a = _rounds(rng, n, turns=base_turns, lead=rng.poisson(3, n), deficit_share=0.1)
    b = a.with_columns(n_turns=pl.Series(np.round(base_turns * 1.5).astype(np.int64)),
                       winner_max_deficit=pl.Series(np.where(rng.random(n) < 0.3, 5, 0)))
    rows = {r["measure"]: r for r in compare_cells(a, b, 4, paired=True, seed=1)}
    assert set(rows) == {"length", "lead_changes", "comebacks", "max_hand", "fairness"}  # no stacks/KOs
    assert rows["length"]["rel_low"] < 0.5 < rows["length"]["rel_high"]
    assert rows["length"]["p_value"] < 1e-10
    assert rows["comebacks"]["ci_low"] < 0.2 < rows["comebacks"]["ci_high"]
    assert rows["lead_changes"]["estimate"] == 0 and rows["lead_changes"]["p_value"] == 1.0
    assert rows["fairness"]["p_value"] > 0.05  # the winner positions are the same
    for row in rows.values():
        assert row["measure"] == "fairness" or _agrees(row)


def test_identical_cells_are_reported_as_identical_not_as_zero_intervals():
    rng = np.random.default_rng(4)
    a = _rounds(rng, 300, turns=rng.poisson(40, 300), lead=rng.poisson(3, 300), deficit_share=0.1)
    rows = compare_cells(a, a.clone(), 4, paired=True)
    assert rows and all(r["identical"] for r in rows)
    assert all("ci_low" not in r for r in rows)
    table = finish_effects([{"axis": "variant", "a": "x", "b": "y", **r} for r in rows])
    assert table["ci_low"].is_null().all() and not table["significant"].any()


def test_fairness_change_finds_a_seat_advantage_paired_and_unpaired():
    rng = np.random.default_rng(5)
    n, players = 6000, 4
    fair = rng.integers(0, players, n)
    biased = np.where(rng.random(n) < 0.15, 1, fair)  # position 1 wins 15% more often
    for paired in (True, False):
        out = fair_change = fairness_change(fair, biased, players, paired=paired, seed=2)
        assert out["estimate"] > 0.1 and out["p_value"] < 0.001, fair_change
        # the spread of B grows by ~0.15 · 3/4 ≈ 0.11 over A's ~0: its bootstrap interval holds it, away from 0
        assert 0.05 < out["ci_low"] < out["estimate"] < out["ci_high"] < 0.2, fair_change
    # a permutation p-value is never 0: (hits + 1) / (draws + 1)
    assert fairness_change(fair, biased, players, paired=True, seed=2)["p_value"] > 0


def test_kaplan_meier_from_counts_matches_scipy_ecdf():
    rng = np.random.default_rng(6)
    t = rng.geometric(0.03, 3000)
    cap = 60
    observed, censored = np.minimum(t, cap), t > cap
    values, idx = np.unique(observed, return_inverse=True)
    km = survival.kaplan_meier(values, np.bincount(idx, ~censored), np.bincount(idx, censored))
    ref = stats.ecdf(stats.CensoredData(uncensored=observed[~censored], right=observed[censored]))
    assert np.allclose(km["survival"], ref.sf.evaluate(values))
    ci = ref.sf.confidence_interval()
    assert np.allclose(km["ci_low"][:-1], ci.low.evaluate(values)[:-1], atol=1e-9)


def test_restricted_mean_is_the_mean_without_censoring_and_of_min_t_cap_with():
    rng = np.random.default_rng(7)
    t = rng.geometric(0.05, 4000)
    rounds = pl.DataFrame({"cell": "x", "n_turns": t, "end": np.where(t > 0, "won", "")})
    out = survival.restricted_means(rounds, by=["cell"]).row(0, named=True)
    assert out["restricted_mean"] == pytest.approx(t.mean()) and out["truncated_share"] == 0
    cap = 30
    capped = pl.DataFrame({"cell": "x", "n_turns": np.minimum(t, cap), "end": np.where(t > cap, "truncated", "won")})
    out = survival.restricted_means(capped, by=["cell"]).row(0, named=True)
    assert out["restricted_mean"] == pytest.approx(np.minimum(t, cap).mean())
    assert out["truncated_share"] == pytest.approx(np.mean(t > cap)) and out["restricted_to"] == cap


def test_card_balance_moves_only_supported_cards_and_only_as_far_as_their_interval_demands():
    values = pl.DataFrame({
        "variant": "v", "players": 4, "lineup": "random",
        "card": ["n1", "n9", "skip", "wild", "wd4"], "points": [1, 9, 20, 50, 50],
        "estimate": [-0.02, -0.03, 0.01, 0.06, 0.03], "std_error": [0.002] * 5,
        "ci_low": [-0.024, -0.034, 0.006, 0.056, 0.026], "ci_high": [-0.016, -0.026, 0.014, 0.064, 0.034],
        "mean_count": [1.0, 1.0, 0.5, 0.3, 0.3], "n": 1000})
    out = card_balance(values)
    assert out["rank"].to_list() == list(range(1, 6))
    # the mismatch is value minus the line through (points, value)
    assert out.filter(pl.col("card") == "n9")["estimate"].item() < 0
    for row in out.iter_rows(named=True):
        moves = row["p_holm"] < 0.05 and abs(row["estimate"]) >= 0.005 and row["slope"] > 0
        if not moves:
            assert row["suggested_points"] == row["points"], row
            continue
        # towards the value: up for an under-valued card, down for an over-valued one, to the points
        # the line gives the interval's edge nearest to it (never beyond the estimate's own points)
        assert (row["suggested_points"] - row["points"]) * row["estimate"] >= 0, row
        edge = row["ci_low"] if row["estimate"] > 0 else row["ci_high"]
        assert row["suggested_points"] == max(round(row["points"] + edge / row["slope"]), 0), row
    assert (out["suggested_points"] != out["points"]).any()


def test_game_quality_per_cell_and_its_chart():
    from unosim.analysis.quality import game_quality
    from unosim.reporting import plots
    rng = np.random.default_rng(8)
    n = 2000
    frames = []
    for variant, share in (("calm", 0.05), ("wild", 0.25)):
        deficit = np.where(rng.random(n) < share, 3, 1).astype(np.int16)
        no_winner = rng.random(n) < 0.1
        frames.append(pl.DataFrame({
            "variant": variant, "players": 4, "lineup": "random", "lead_changes": rng.poisson(2, n),
            "winner_max_deficit": pl.Series(deficit).set(pl.Series(no_winner), None),
            "winner_seat": np.where(no_winner, -1, 0), "max_hand": rng.integers(7, 20, n)}))
    table = game_quality(pl.concat(frames))
    assert set(table["measure"]) == {"lead_changes", "comebacks", "max_hand"}
    comebacks = table.filter(pl.col("measure") == "comebacks").sort("variant")
    for frame, row in zip(frames, comebacks.iter_rows(named=True), strict=True):
        # the share is over the rounds with a winner (a null deficit: no winner, left out)
        deficit = frame["winner_max_deficit"]
        won = int(deficit.is_not_null().sum())
        assert row["estimate"] == pytest.approx(((deficit >= 3) & deficit.is_not_null()).sum() / won)
        assert row["n"] == won < n and row["ci_low"] < row["estimate"] < row["ci_high"]
    assert comebacks["estimate"][0] < comebacks["estimate"][1]
    assert plots.quality_by_cell(table).axes
    assert game_quality(pl.DataFrame({"variant": ["x"], "players": [4], "lineup": ["r"]})).is_empty()


def test_card_balance_keeps_the_printed_points_when_the_mismatches_are_noise():
    rng = np.random.default_rng(9)
    points = [0, 1, 2, 5, 9, 20, 20, 50, 50]
    value = 0.001 * np.array(points) + rng.normal(0, 0.01, len(points))  # noise ten times the signal
    values = pl.DataFrame({"variant": "v", "players": 3, "lineup": "random", "card": [f"c{i}" for i in range(9)],
                           "points": points, "estimate": value, "std_error": 0.01, "ci_low": value - 0.02,
                           "ci_high": value + 0.02, "mean_count": 0.5, "n": 100})
    out = card_balance(values)
    assert (out["p_holm"] >= 0.05).all()
    assert (out["suggested_points"] == out["points"]).all()


def test_tension_and_comebacks_are_over_rounds_with_a_winner_and_truncation_is_recorded():
    """With 30 % of rounds at the cap, "fewer comebacks" came from counting capped rounds as no comeback."""
    rng = np.random.default_rng(10)
    n = 4000
    a = _rounds(rng, n, turns=rng.poisson(40, n), lead=rng.poisson(3, n), deficit_share=0.2)
    b = _rounds(rng, n, turns=rng.poisson(40, n), lead=rng.poisson(3, n), deficit_share=0.2, no_winner=0.3)
    b = b.with_columns(game=a["game"])
    rows = {r["measure"]: r for r in compare_cells(a, b, 4, paired=True, seed=1)}
    won_pairs = int((b["winner_seat"] >= 0).sum())
    assert rows["comebacks"]["n"] == rows["lead_changes"]["n"] == n   # the paired games, each cell on its own won rounds
    assert rows["comebacks"]["p_value"] > 0.001  # the same share among won rounds: no spurious drop
    assert rows["length"]["truncated_b"] == pytest.approx(1 - won_pairs / n) and rows["length"]["truncated_a"] == 0
    # the rounds with no winner are a measure of their own, over every round
    assert rows["no_winner"]["n"] == n and rows["no_winner"]["mean_b"] == pytest.approx(1 - won_pairs / n)
    assert rows["no_winner"]["ci_low"] < 0.3 < rows["no_winner"]["ci_high"] and rows["no_winner"]["mean_a"] == 0


def test_identical_games_compare_every_round_of_a_match():
    """Two match-mode cells whose first rounds agree but whose second rounds differ are not identical."""
    from unosim.analysis.effects import effects
    rng = np.random.default_rng(12)
    first = _rounds(rng, 50, turns=rng.poisson(40, 50), lead=rng.poisson(3, 50), deficit_share=0.1)
    second = first.with_columns(round=pl.lit(1))
    rows = []
    for variant, later in (("base", second), ("rule", second.with_columns(n_turns=pl.col("n_turns") + 1))):
        rows += [frame.with_columns(variant=pl.lit(variant), players=pl.lit(4), lineup=pl.lit("random"))
                 for frame in (first, later)]
    rounds = pl.concat(rows, how="vertical_relaxed")
    cells = pl.DataFrame({"name": ["b", "r"], "variant": ["base", "rule"], "players": [4, 4],
                          "lineup": ["random", "random"], "lineup_spec": ["random", "random"]})
    table = effects(rounds, cells, [{"axis": "variant", "a": "base", "b": "rule"}], lambda a, b: True)
    assert not table["identical"].any()
    same = effects(rounds.filter(pl.col("variant") == "base").vstack(
        rounds.filter(pl.col("variant") == "base").with_columns(variant=pl.lit("rule"))), cells,
        [{"axis": "variant", "a": "base", "b": "rule"}], lambda a, b: True)
    assert same["identical"].all()


def test_comebacks_are_each_cells_own_won_rounds_when_the_rule_selects_which_rounds_have_a_winner():
    """A rule that stalls half the rounds that would have been comebacks: over the pairs where both cells
    have a winner the two shares are equal (the rule chose the pairs), over each cell's own won rounds B
    has fewer comebacks; the paired row is the latter, and A's share is the one its own table prints."""
    rng = np.random.default_rng(43)
    n = 6000
    a = _rounds(rng, n, turns=rng.poisson(40, n), lead=rng.poisson(3, n), deficit_share=0.3)
    stall = (a["winner_max_deficit"] >= 3).to_numpy() & (rng.random(n) < 0.5)
    b = a.with_columns(winner_seat=pl.Series(np.where(stall, -1, a["winner_seat"].to_numpy()).astype(np.int8)),
                       end=pl.Series(np.where(stall, "truncated", a["end"].to_numpy())))
    row = {r["measure"]: r for r in compare_cells(a, b, 4, paired=True, seed=1)}["comebacks"]
    won_b = b["winner_seat"].to_numpy() >= 0
    share_a = float((a["winner_max_deficit"] >= 3).mean())
    share_b = float((b["winner_max_deficit"].to_numpy()[won_b] >= 3).mean())
    assert row["mean_a"] == pytest.approx(share_a) and row["mean_b"] == pytest.approx(share_b)
    assert row["estimate"] == pytest.approx(share_b - share_a) and row["ci_high"] < 0 and row["n"] == n
    assert row["test"].startswith("paired delta method")


def test_the_paired_ratio_difference_is_the_paired_t_when_every_round_counts_and_covers_its_truth():
    rng = np.random.default_rng(5)
    a, b = rng.poisson(3, 500).astype(float), rng.poisson(3.3, 500).astype(float)
    ones = np.ones(500)
    got, t = inference.paired_ratio_difference(a, ones, b, ones), inference.paired_difference(a, b)
    assert all(got[k] == pytest.approx(t[k]) for k in ("estimate", "ci_low", "ci_high", "p_value", "rel_low"))
    # coverage of the difference of two ratio means, with informative missingness, over 400 replications
    hits, truth = 0, _mean_kept() - 3.0   # R_B − R_A: E[x | kept] − E[y]
    for rep in range(400):
        r = np.random.default_rng([7, rep])
        x = r.poisson(3, 300).astype(float)
        wa, wb = r.random(300) < 0.9, r.random(300) < 1 / (1 + np.exp(x - 4))   # B keeps the small values
        y = x + r.normal(0, 1, 300)
        row = inference.paired_ratio_difference(np.where(wa, y, 0), wa, np.where(wb, x, 0), wb)
        hits += row["ci_low"] <= truth <= row["ci_high"]
    se = np.sqrt(0.95 * 0.05 / 400)
    assert abs(hits / 400 - 0.95) < 3 * se


def _mean_kept() -> float:
    """E[x | kept] = E[x · k(x)] / E[k(x)] for x ~ Poisson(3) kept with probability k(x) = 1 / (1 + e^(x − 4))."""
    k = np.arange(60)
    pmf = stats.poisson.pmf(k, 3)
    keep = 1 / (1 + np.exp(k - 4))
    return float((k * pmf * keep).sum() / (pmf * keep).sum())


def test_rounds_with_no_winner_use_the_exact_mcnemar_test():
    """Four rounds stalled by the rule and none by the baseline: the exact test's p is 2 · ½⁴ = 0.125 (a
    paired t test says 0.046), and its interval, the inversion of that test, includes 0."""
    a, b = np.zeros(3000, bool), np.zeros(3000, bool)
    b[:4] = True
    row = inference.exact_paired_proportions(a, b)
    assert row["p_value"] == pytest.approx(0.125) and row["ci_low"] < 0 < row["ci_high"]
    assert inference.paired_difference(a, b)["p_value"] < 0.05
    # the interval covers a rare event's change at its nominal rate (Wald's does not), over 400 replications
    hits = 0
    for rep in range(400):
        r = np.random.default_rng([11, rep])
        x = r.random(3000) < 0.001
        y = x | (r.random(3000) < 0.002)
        got = inference.exact_paired_proportions(x, y)
        hits += got["ci_low"] <= 0.002 * (1 - 0.001) <= got["ci_high"]
    assert hits / 400 > 0.95 - 3 * np.sqrt(0.95 * 0.05 / 400)


def test_rounds_with_no_winner_in_independent_cells_use_fishers_exact_test():
    """0 of 3,000 against 4 of 3,000: Fisher's exact p is 0.125 (Welch's t says 0.046); Newcombe's interval
    covers a rare event's change at its nominal rate."""
    a, b = np.zeros(3000, bool), np.zeros(3000, bool)
    b[:4] = True
    row = inference.exact_unpaired_proportions(a, b)
    assert row["p_value"] == pytest.approx(stats.fisher_exact([[0, 3000], [4, 2996]]).pvalue) and row["p_value"] > 0.1
    assert row["ci_low"] < 0 < row["ci_high"] and inference.unpaired_difference(a, b)["p_value"] < 0.05
    hits = 0
    for rep in range(400):
        r = np.random.default_rng([13, rep])
        got = inference.exact_unpaired_proportions(r.random(3000) < 0.001, r.random(2000) < 0.003)
        hits += got["ci_low"] <= 0.002 <= got["ci_high"]
    assert hits / 400 > 0.95 - 3 * np.sqrt(0.95 * 0.05 / 400)
