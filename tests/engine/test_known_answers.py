"""Statistical known answers for the compiled engine, with tolerances from the standard error.

Each check compares an observed proportion with its exact value under docs/rules.md and allows 4.5
standard errors (a false alarm about once in 150,000 runs; the seeds are fixed, so the suite is
deterministic). A rules bug that shifts a proportion by a few standard errors fails the test.
"""

import numpy as np
import polars as pl
import pytest
from scipy import stats

import unosim
from unosim.game import cards
from unosim.game import protocol as L
from unosim.play.simulate import resolve, run_compiled

Z = 4.5


def assert_proportion(hits: int, n: int, p: float, what: str):
    se = np.sqrt(p * (1 - p) / n)
    observed = hits / n
    assert abs(observed - p) <= Z * se, f"{what}: observed {observed:.5f}, expected {p:.5f} ± {Z * se:.5f}"


@pytest.mark.slow
@pytest.mark.parametrize("n_blank,players", [(0, 4), (3, 4), (0, 2)])
def test_first_card_decides_who_starts(n_blank, players):
    """docs/rules.md §1.9 with the WD4 put back: the first card is uniform over the 104 + n_blank cards that
    are not WD4. NUMBER, WILD and BLANK (swap_hands) let F = D+1 start; SKIP and DRAW_TWO pass to
    next(F); REVERSE gives the dealer the first turn. With two players all three make the dealer start."""
    games = 60_000
    r = unosim.simulate("classic", players=players, games=games, seed=17,
                        rules={"n_blank": n_blank, "match_mode": "single_round"}).rounds
    rel = ((r["first_seat"].to_numpy().astype(int) - r["dealer_seat"].to_numpy()) % players)
    total = 104 + n_blank
    f_starts = (76 + 4 + n_blank) / total
    assert_proportion(int((rel == 1).sum()), games, f_starts, "F starts")
    if players > 2:
        assert_proportion(int((rel == 2).sum()), games, 16 / total, "next(F) starts")
        assert_proportion(int((rel == 0).sum()), games, 8 / total, "dealer starts")
    else:
        assert_proportion(int((rel == 0).sum()), games, 24 / total, "dealer starts (two players)")


@pytest.mark.slow
def test_first_card_turned_up_is_an_action_card_with_probability_28_in_104():
    rs, specs = resolve("classic", 4, "random", {"n_blank": 0, "match_mode": "single_round"})
    events = run_compiled(rs, 4, specs, 23, 0, 30_000, trace=True).events
    # the card that stays is the last FIRST_CARD event of each round
    starts = np.flatnonzero(events[:, 0] == L.EV_ROUND_START)
    kept = []
    for a, b in zip(starts, np.append(starts[1:], len(events)), strict=True):
        block = events[a:b]
        kept.append(block[block[:, 0] == L.EV_FIRST_CARD][-1, 2])
    kept = np.array(kept)
    action = (cards.KIND[kept] != cards.NUMBER).sum()
    assert (cards.KIND[kept] != cards.WD4).all()
    assert_proportion(int(action), len(kept), 28 / 104, "action first card")


@pytest.mark.slow
@pytest.mark.parametrize("variant,players", [("classic", 4), ("classic", 6), ("minions", 3)])
def test_win_rates_by_seat_are_symmetric_with_a_random_first_dealer(variant, players):
    games = 120_000
    seats = unosim.simulate(variant, players=players, games=games, seed=29,
                            rules={"match_mode": "single_round"}).seats
    wins = seats.filter(seats["won"]).group_by("seat").len().sort("seat")["len"].to_numpy()
    assert wins.sum() == games
    chi2 = stats.chisquare(wins).pvalue
    assert chi2 > 1e-5, f"seat win counts {wins} are not uniform (p = {chi2:.2e})"


@pytest.mark.slow
def test_dealer_relative_advantage_sums_to_one_and_dealer_left_leads():
    """Relative to the dealer the seats are not symmetric (F = D+1 plays first): the first player has
    the largest win rate among 4 players — a property any correct implementation shows."""
    seats = unosim.simulate("classic", players=4, games=150_000, seed=31,
                            rules={"n_blank": 0, "match_mode": "single_round"}).seats
    rates = seats.group_by("rel_dealer").agg(pl.col("won").mean().alias("rate")).sort("rel_dealer")
    rate = rates["rate"].to_numpy()
    assert abs(rate.sum() - 1) < 1e-9
    assert rate.argmax() == 1


@pytest.mark.slow
def test_uno_forget_and_catch_probabilities():
    rs, specs = resolve("classic", 4, "random", {"p_forget_uno": 0.4, "p_catch": 0.25,
                                                 "match_mode": "single_round"})
    events = run_compiled(rs, 4, specs, 37, 0, 20_000, trace=True).events
    uno = events[events[:, 0] == L.EV_UNO, 2]
    assert_proportion(int((uno != 1).sum()), len(uno), 0.4, "forgot UNO")
    forgot = uno[uno != 1]
    assert_proportion(int((forgot == 2).sum()), len(forgot), 0.25, "caught")


@pytest.mark.slow
def test_dumbfu_pose_fails_with_p_dumbfu_fail():
    rs, specs = resolve("minions", 4, "random", {"p_dumbfu_fail": 0.3, "match_mode": "single_round"})
    raw = run_compiled(rs, 4, specs, 41, 0, 40_000, trace=True)
    pose = raw.events[raw.events[:, 0] == L.EV_POSE, 2]
    assert_proportion(int(pose.sum()), len(pose), 0.3, "pose failures")
    assert raw.rounds[:, L.RC_DUMBFU_PENALTIES].sum() == pose.sum()


@pytest.mark.slow
def test_challenges_of_random_bluffs_succeed_exactly_when_guilty():
    """A bluffer with p_bluff=1 plays an illegal WD4 whenever it holds one besides a legal card; a
    challenger with p_challenge=1 always challenges: guilty iff the WD4 was illegal."""
    rs, specs = resolve("classic", 4, "random(p_bluff=1,p_challenge=1)", {"match_mode": "single_round"})
    events = run_compiled(rs, 4, specs, 43, 0, 5_000, trace=True).events
    challenges = events[events[:, 0] == L.EV_CHALLENGE]
    assert len(challenges) > 1_000
    assert 0 < challenges[:, 2].mean() < 1


@pytest.mark.slow
@pytest.mark.parametrize("weights", [None, [0, 1, 0, 2, 2, 0, 1, 3, 1]], ids=["uniform", "custom"])
def test_wheel_outcome_frequencies_follow_the_spin_weights(weights):
    rules = {"match_mode": "single_round"} | ({"spin_weights": weights} if weights else {})
    rs, specs = resolve("spin", 4, "random", rules)
    rounds = run_compiled(rs, 4, specs, 47, 0, 20_000).rounds
    counts = rounds[:, L.RC_OUTCOME:L.RC_OUTCOME + 9].sum(axis=0)
    w = np.ones(9) if weights is None else np.asarray(weights, float)
    assert (counts[w == 0] == 0).all()
    expected = counts.sum() * w[w > 0] / w.sum()
    p = stats.chisquare(counts[w > 0], expected).pvalue
    assert p > 1e-5, f"outcome counts {counts.tolist()} do not follow the weights (p = {p:.2e})"


@pytest.mark.slow
def test_no_mercy_knockout_wins_score_250_per_opponent_and_cards_return():
    """docs/rules.md §1.13/§2.4.8: a knock-out win is worth exactly 250·(n−1); every knock-out happens at
    a hand of at least 25 cards, so the set-aside cards must come back through reshuffles for long
    rounds to continue (card conservation is audited)."""
    rs, specs = resolve("no_mercy", 5, "random", {"match_mode": "single_round"})
    raw = run_compiled(rs, 5, specs, 53, 0, 20_000, audit=True)
    r = raw.rounds
    ko_win = r[:, L.RC_END] == L.END_KNOCKOUT
    assert ko_win.any() and (r[ko_win, L.RC_POINTS] == 1000).all()
    assert (r[:, L.RC_END] != L.END_TRUNCATED).all()
    assert r[:, L.RC_RESHUFFLES].max() > 0
