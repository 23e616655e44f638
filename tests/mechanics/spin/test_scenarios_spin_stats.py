"""Statistics of the spin wheel on the reference engine (docs/rules.md §2.3.3, §3 ``spin_weights`` /
``shout_weight``, §1.13 counters): outcome frequencies against the weights (χ², fixed seeds) and the
round/seat counters recomputed from the trace."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from scipy.stats import chisquare

from unosim.game import protocol as L
from unosim.game.rule_table import SPIN_OUTCOMES
from unosim.game.rules import get_variant
from unosim.reference import run_games

P_MIN = 1e-3     # a correct engine fails one of these χ² tests with probability ~1e-3 per seed; seeds fixed


def play(players, lineup, games, seed, observer=None, **overrides):
    rules = get_variant("spin", {"match_mode": "single_round", **overrides})
    return run_games(rules, players, lineup, seed, 0, games, None, True, observer)


WEIGHT_ROWS = [
    ((1,) * 9, 4, 500),
    ((4, 0, 1, 2, 0, 3, 1, 1, 6), 3, 500),
    ((0, 0, 0, 0, 0, 1, 0, 9, 0), 5, 300),
]


@pytest.mark.parametrize("weights,players,games", WEIGHT_ROWS, ids=["uniform", "custom", "two-outcomes"])
def test_outcome_frequencies_match_the_weights(weights, players, games):
    """A few thousand spins; outcomes of weight 0 never occur; the others pass a χ² test."""
    results = play(players, "random", games, seed=20240 + players, spin_weights=weights)
    counts = results.rounds[:, L.RC_OUTCOME:L.RC_OUTCOME + 9].sum(axis=0)
    spins = results.events[results.events[:, 0] == L.EV_SPIN]
    assert counts.sum() == results.rounds[:, L.RC_SPINS].sum() == len(spins) > 2000
    assert np.array_equal(counts, np.bincount(spins[:, 2], minlength=9))
    weights = np.asarray(weights, float)
    assert (counts[weights == 0] == 0).all()
    positive = weights > 0
    expected = counts.sum() * weights[positive] / weights.sum()
    assert chisquare(counts[positive], expected).pvalue > P_MIN, dict(zip(SPIN_OUTCOMES, counts.tolist(), strict=True))


def test_uniform_outcome_frequencies_are_one_ninth_each():
    results = play(6, "greedy_points", 400, seed=99)
    counts = results.rounds[:, L.RC_OUTCOME:L.RC_OUTCOME + 9].sum(axis=0)
    assert counts.sum() > 2000
    assert chisquare(counts).pvalue > P_MIN
    assert np.abs(counts / counts.sum() - 1 / 9).max() < 0.03


@pytest.mark.parametrize("shout", [(1.0, 2.0, 3.0, 4.0), (5.0, 1.0, 1.0, 1.0)], ids=["rising", "seat0-fast"])
def test_shouters_follow_the_shout_weights(shout):
    """Every spin is UNO Spin; mid-round every seat holds a card, so all four are eligible."""
    results = play(4, "random", 500, seed=7, spin_weights={"uno_spin": 1}, shout_weight=shout)
    ev = results.events
    mid_round = np.flatnonzero((ev[:, 0] == L.EV_SPIN) & (ev[:, 3] == 0))
    assert (ev[mid_round + 1, 0] == L.EV_SHOUT).all()
    shouters = np.bincount(ev[mid_round + 1, 1], minlength=4)
    assert shouters.sum() > 2000
    expected = shouters.sum() * np.asarray(shout) / sum(shout)
    assert chisquare(shouters, expected).pvalue > P_MIN, shouters.tolist()


class CounterCheck:
    """Observer recomputing ``wheel_gained`` / ``wheel_lost`` per seat from the events."""

    def __init__(self, players):
        self.players = players
        self.rows = []
        self.drawing = -1          # the seat drawing for a Draw Red / Draw Blue, while it draws

    def __call__(self, table, event):
        code, seat, a, b = event
        if code == L.EV_ROUND_START:
            self.gained, self.lost = [0] * self.players, [0] * self.players
        elif code == L.EV_ROUND_END:
            self.rows.append((self.gained, self.lost))
        if code == L.EV_DRAW and seat == self.drawing:
            self.gained[seat] += 1
        elif code not in (L.EV_DRAW, L.EV_RESHUFFLE):
            self.drawing = -1
        if code == L.EV_SPIN and SPIN_OUTCOMES[a] in ("draw_red", "draw_blue"):
            self.drawing = seat
        elif code == L.EV_DISCARD:
            self.lost[seat] += 1           # in spin only the wheel discards
        elif code == L.EV_TRADE:
            # after the trade: each taking-part seat holds what its right-hand neighbour gave
            final = table.over
            part = [s for s in range(self.players) if table.active[s] and not (final and s == table.winner)]
            if len(part) >= 2:
                for i, receiver in enumerate(part):
                    giver = part[i - 1]
                    self.gained[receiver] += len(table.hands[receiver])
                    self.lost[giver] += len(table.hands[receiver])


@pytest.mark.parametrize("lineup,players,overrides", [
    ("random", 3, {}),
    ("greedy_points", 5, {"spin_weights": (1, 1, 1, 3, 3, 3, 1, 1, 1), "match_mode": "points", "target": 200}),
    ("keep_wilds,random,greedy_points,random", 4, {"spin_first_card_spins": True, "p_forget_uno": 0.3}),
    ("random", 2, {"spin_continue_after_winner": False, "spin_weights": {"trade_hands": 1, "war": 1}}),
], ids=["random-3", "greedy-5-points", "mixed-4", "random-2"])
def test_counters_agree_with_the_trace(lineup, players, overrides):
    check = CounterCheck(players)
    results = play(players, lineup, 60, seed=5, observer=check, **overrides)
    ev, rounds = results.events, results.rounds
    starts = list(np.flatnonzero(ev[:, 0] == L.EV_ROUND_START)) + [len(ev)]
    assert rounds[:, L.RC_SPINS].sum() > 0
    for r, (begin, end) in enumerate(zip(starts, starts[1:], strict=False)):
        spins = ev[begin:end][ev[begin:end, 0] == L.EV_SPIN]
        row = rounds[r]
        assert row[L.RC_SPINS] == len(spins)
        assert row[L.RC_FINAL_SPINS] == (spins[:, 3] == 1).sum() <= 1
        assert list(row[L.RC_OUTCOME:L.RC_OUTCOME + 9]) == list(np.bincount(spins[:, 2], minlength=9))
        seats = results.seats[r * players:(r + 1) * players]
        gained, lost = check.rows[r]
        assert list(seats[:, L.SC_WHEEL_GAINED]) == gained
        assert list(seats[:, L.SC_WHEEL_LOST]) == lost
        # a final spin only follows a winning spin card, and only the spin is left before the end
        if row[L.RC_FINAL_SPINS]:
            assert row[L.RC_WINNER] >= 0


def test_random_almost_uno_always_leaves_two_cards():
    """docs/rules.md §5 item 8: ``random`` keeps a 2-card subset, i.e. discards the maximum; the kept pair is
    uniform, so over many spins every hand position is kept about equally often."""
    kept_positions = Counter()

    def observe(table, event):
        if event[0] == L.EV_SPIN and event[2] == 0:
            observe.before = list(table.hands[event[1]])
            observe.seat = event[1]
        elif event[0] in (L.EV_TURN, L.EV_ROUND_END) and getattr(observe, "before", None) is not None:
            before, after = observe.before, table.hands[observe.seat]
            if len(before) > 2 and not table.over:
                assert len(after) == 2
                if len(before) == 7 and len(set(before)) == 7:
                    kept_positions.update(before.index(c) for c in after)
            observe.before = None

    play(4, "random", 300, seed=11, observer=observe, spin_weights={"almost_uno": 1})
    counts = [kept_positions[k] for k in range(7)]
    assert sum(counts) > 100
    assert chisquare(counts).pvalue > P_MIN
