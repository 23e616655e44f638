"""Seat fairness is calibrated: checked by simulation on tables drawn from multinomials (no engine).

* The seat-spread interval of :func:`unosim.analysis.fairness.spread_interval` covers 0 for a fair game
  at its nominal 95 %: in 200 fair cells it covers 0 in 93–97 % of them (the issue's target; the
  binomial standard error of a 95 % rate over 200 cells is 1.5 points), and covers the true spread of
  unfair cells at least at the nominal rate.
* The fairness-change test of :func:`unosim.analysis.effects.fairness_change` has size ≈ α: in 200 null
  pairs it rejects in 3–7 % (independent cells: χ² homogeneity; paired cells: its permutation test),
  and on a real difference it is at least as powerful as χ² homogeneity.

Seeds are fixed, so each test is one deterministic draw from the calibration it asserts.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from unosim.analysis.effects import fairness_change
from unosim.analysis.fairness import spread_interval

CELLS = 200


def _positions(rng, n: int, shares: np.ndarray) -> np.ndarray:
    """Winner positions (−1: no winner) of ``n`` rounds: column 0 of ``shares`` is "no winner"."""
    return rng.choice(len(shares), size=n, p=shares) - 1


def _fair_coverage(rng, players: int, rounds: int, no_winner: float, cells: int) -> float:
    shares = np.r_[no_winner, np.full(players, (1 - no_winner) / players)]
    return sum(spread_interval(rng.multinomial(rounds, shares)[1:], rounds)["ci_low"] <= 0
               for _ in range(cells)) / cells


@pytest.mark.parametrize("players, rounds, no_winner", [(2, 400, 0.0), (4, 1000, 0.1), (6, 2000, 0.05)])
def test_the_spread_interval_covers_zero_for_a_fair_game_at_its_nominal_rate(players, rounds, no_winner):
    coverage = _fair_coverage(np.random.default_rng(players * 1000 + rounds), players, rounds, no_winner, CELLS)
    assert 0.93 <= coverage <= 0.97, coverage


@pytest.mark.slow
@pytest.mark.parametrize("players, rounds, no_winner", [(3, 300, 0.0), (4, 300, 0.3), (4, 4000, 0.1), (8, 800, 0.0)])
def test_the_spread_interval_is_calibrated_in_small_and_large_cells(players, rounds, no_winner):
    """4,000 fair cells each: the coverage is within 3 standard errors (1.0 point) of 95 %, down to about
    50 won rounds per position (the intervals are asymptotic: with 3 positions of 50 won rounds each the
    coverage measured 93.7 %)."""
    cells = 4000
    coverage = _fair_coverage(np.random.default_rng(players * 7 + rounds), players, rounds, no_winner, cells)
    assert abs(coverage - 0.95) <= 3 * np.sqrt(0.95 * 0.05 / cells), coverage


def test_the_spread_interval_covers_an_unfair_spread_and_agrees_with_its_test():
    rng = np.random.default_rng(11)
    shares = np.array([0.1, 0.27, 0.21, 0.21, 0.21])  # position 1 wins 6 points more than the others
    truth = 0.27 - 0.21
    covered = 0
    for _ in range(CELLS):
        out = spread_interval(rng.multinomial(1500, shares)[1:], 1500)
        covered += out["ci_low"] <= truth <= out["ci_high"]
        assert (out["ci_low"] > 0) == (out["range_p"] < 0.05)
    # simultaneous intervals: at least nominal (3 standard errors of slack below 95 %)
    assert covered / CELLS >= 0.95 - 3 * np.sqrt(0.95 * 0.05 / CELLS)


@pytest.mark.parametrize("paired", [False, True])
def test_the_fairness_change_test_has_size_alpha(paired):
    rng = np.random.default_rng(21 + paired)
    players, rounds = 4, 800
    shares = np.array([0.1, 0.3, 0.2, 0.2, 0.2])  # an unfair game, the same in both cells: the null
    rejected = 0
    for i in range(CELLS):
        a = _positions(rng, rounds, shares)
        b = _positions(rng, rounds, shares)
        if paired:  # common decks: the same winner in 60 % of the games, exchangeable within a game
            b = np.where(rng.random(rounds) < 0.6, a, b)
        rejected += fairness_change(a, b, players, paired=paired, seed=i)["p_value"] < 0.05
    assert 0.03 <= rejected / CELLS <= 0.07, rejected


def test_the_fairness_change_test_is_chi_square_homogeneity_or_more_powerful():
    """Independent cells: exactly scipy's χ² homogeneity. Paired cells (common decks): the permutation
    test rejects a real change at least as often as χ² homogeneity on the same rounds."""
    rng = np.random.default_rng(31)
    players, rounds = 4, 1000
    base = np.array([0.05, 0.2375, 0.2375, 0.2375, 0.2375])
    shifted = np.array([0.05, 0.3375, 0.2042, 0.2042, 0.2041])
    ours = chi2 = 0
    for i in range(CELLS // 2):
        a = _positions(rng, rounds, base)
        b = np.where(rng.random(rounds) < 0.6, a, _positions(rng, rounds, shifted))
        table = np.array([np.bincount(a[a >= 0], minlength=players), np.bincount(b[b >= 0], minlength=players)])
        reference = stats.chi2_contingency(table, correction=False).pvalue
        assert fairness_change(a, b, players, paired=False)["p_value"] == pytest.approx(reference, rel=1e-9, abs=1e-300)
        ours += fairness_change(a, b, players, paired=True, seed=i)["p_value"] < 0.05
        chi2 += reference < 0.05
    assert ours >= chi2 and ours / (CELLS // 2) > 0.3, (ours, chi2)
