"""The game-quality measures ``lead_changes``, ``winner_max_deficit`` and ``max_hand``
(``unosim.engine.record.quality``; protocol §3 "Quality measures").

Scripted rounds are counted by hand below. Every scripted round leaves each seat exactly one sensible
choice, so the compiled engine with a built-in lineup plays the very same game from the same stacked
deck: both engines must agree with the hand count, event for event. The kernel-versus-reference
comparison over the differential grid lives in ``test_differential.py``; the invariants run the
compiled engine over a part of that grid.

Hand sizes are written (seat 0, seat 1, ...) after each standings check; dealer 0, so seat 1 is F.
"""

import numpy as np
import polars as pl
import pytest
from differential_cases import CASES
from scenario_tools import E, Scripted, run, stacked_deck

import unosim
from unosim.engine.core.round import new_game
from unosim.game import protocol as L
from unosim.play.simulate import resolve, run_compiled

QUALITY = ("lead_changes", "winner_max_deficit", "max_hand")
GREEN = 2


def both_engines(hands, first, draws=(), *, scripts=None, lineup="greedy_points", variant="classic",
                 **overrides):
    """The scripted reference round and the same deck played by the compiled engine; checks that the
    two games are identical and returns the reference scenario and the compiled round row."""
    s = run(hands, first, draws, scripts=scripts, variant=variant, **overrides)
    settings = {"hand_size": len(hands[0]), "first_dealer": 0, "match_mode": "single_round", **overrides}
    rs, specs = resolve(variant, len(hands), lineup, settings)
    deck = stacked_deck(rs.deck_counts(), len(hands), 0, hands, first, draws)
    raw = run_compiled(rs, len(hands), specs, 1, 0, 1, deck_order=deck, trace=True)
    assert np.array_equal(raw.events, s.results.events), "the compiled engine played another game"
    return s, dict(zip(L.ROUND_COLUMNS, (int(x) for x in raw.rounds[0]), strict=True))


def quality(row):
    return tuple(row[k] for k in QUALITY)


def test_two_player_lead_changes_hands_twice_and_ties_keep_the_previous_leader():
    """(3,3) tie · T1 s1 plays (3,2) leader s1 · T2 s0 plays (2,2) tie · T3 s1 draws (2,3) leader s0:
    change 1 · T4 s0 plays (1,3) · T5 s1 plays (1,2) · T6 s0 draws (2,2) tie · T7 s1 plays (2,1) leader
    s1: change 2 · T8 s0 plays (1,1) tie · T9 s1 goes out (1,0): s1 again, no change. Seat 1 was at most
    2 behind (T4); nobody ever held more than 3 cards."""
    hands = [["R3", "G3", "Y8"], ["R5", "G7", "B7"]]
    s, compiled = both_engines(hands, "R9", ["B2", "B1"])
    assert s.turn(3) == [E("draw", 1, "B2")] and s.turn(6) == [E("draw", 0, "B1")]
    assert (s.round["winner_seat"], s.round["n_turns"]) == (1, 9)
    assert quality(s.round) == quality(compiled) == (2, 2, 3)


def test_comeback_from_three_cards_behind():
    """hand 2: (2,2) tie · T1 s1 plays R+2, s0 draws 2 and is skipped (4,1) leader s1, s0 3 behind ·
    T2 s1 draws (4,2) · T3 s0 plays (3,2) · T4 s1 draws (3,3) tie · T5 s0 plays (2,3) leader s0: change
    1 · T6 s1 draws (2,4) · T7 s0 plays (1,4) · T8 s1 draws (1,5) · T9 s0 goes out. Seat 1 peaked at 5."""
    hands = [["R3", "G3"], ["R+2", "Y1"]]
    s, compiled = both_engines(hands, "R9", ["G5", "B5", "Y4", "Y6", "Y7", "Y8"])
    assert s.turn(1) == [E("play", 1, "R+2"), E("draw", 0, "G5"), E("draw", 0, "B5"), E("skip", 0),
                         E("uno", 1, 1)]
    assert (s.round["winner_seat"], s.round["n_turns"]) == (0, 9)
    assert quality(s.round) == quality(compiled) == (1, 3, 5)


# a 3-player deck: seat 1 plays a Wild Draw Four on seat 2, which draws B1-B4
WD4_HANDS = [["G3", "Y1", "Y9"], ["WD4", "G1", "B1"], ["Y2", "Y3", "Y5"]]


def wd4_scripts():
    return [Scripted(), Scripted(colours=[GREEN]), Scripted()]


def test_max_hand_after_a_wild_draw_four_and_null_deficit_without_a_winner():
    """(3,3,3) tie · T1 s1 plays WD4, s2 draws 4 (3,2,7) leader s1 · T2 s0 plays G3 (2,2,7) tie; the
    turn cap ends the round: no winner, so no winner's deficit."""
    s, compiled = both_engines(WD4_HANDS, "R9", ["B1", "B2", "B3", "B4"], scripts=wd4_scripts(),
                               max_turns_per_round=2)
    assert s.turn(1)[:2] == [E("play", 1, "WD4"), E("colour", 1, GREEN)]
    assert (s.round["winner_seat"], s.round["end"]) == (-1, L.END_TRUNCATED)
    assert quality(s.round) == quality(compiled) == (0, -1, 7)


def test_knocked_out_seats_are_not_in_the_standings_and_count_in_max_hand():
    """mercy_limit 7: the fourth card of the WD4 knocks seat 2 out with 7 cards (max_hand 7) · T1 (3,2,-)
    leader s1 · T2 s0 G3 (2,2) tie · T3 s1 G1 (2,1) · T4 s0 Y1 (1,1) tie · T5 s1 goes out. Seat 1 was
    never behind an active seat; the empty hand of the knocked-out seat 2 would have put it 2 behind."""
    s, compiled = both_engines(WD4_HANDS, "R9", ["B1", "B2", "B3", "B4"], scripts=wd4_scripts(),
                               mercy_limit=7)
    assert s.turn(1)[-2:] == [E("draw", 2, "B4"), E("knockout", 2, 1)]
    assert (s.round["winner_seat"], s.round["n_turns"], s.round["knockouts"]) == (1, 5, 1)
    assert quality(s.round) == quality(compiled) == (0, 0, 7)


def test_the_setup_is_a_standings_check_and_max_hand_counts_the_peak_inside_a_turn():
    """First card R+2: F = s1 draws 2 and is skipped; before turn 1 (2,4) makes s0 the first leader.
    T1 s0 draws until playable: G3-G6 then R1, which it plays: it held 7 cards, ends with 6, (6,4)
    leader s1: a change, counted only because the setup was a check. The cap ends the round."""
    hands = [["G1", "G2"], ["Y1", "Y2"]]
    s, compiled = both_engines(hands, "R+2", ["B1", "B2", "G3", "G4", "G5", "G6", "R1"],
                               draw_until_playable=True, max_turns_per_round=1)
    assert s.turn(1)[-1] == E("play", 0, "R1")
    assert s.round["end"] == L.END_TRUNCATED
    assert quality(s.round) == quality(compiled) == (1, -1, 7)


def test_columns_in_the_round_table():
    """Compact dtypes; winner_max_deficit is null exactly in the rounds without a winner."""
    rounds = unosim.simulate("classic", players=3, games=300, seed=4,
                             rules={"match_mode": "single_round", "max_turns_per_round": 30}).rounds
    assert rounds.schema["lead_changes"] == pl.Int32
    assert rounds.schema["winner_max_deficit"] == pl.Int16 and rounds.schema["max_hand"] == pl.Int16
    no_winner = rounds["winner_seat"] == -1
    assert 0 < no_winner.sum() < len(rounds)         # the cap truncates some rounds, not all
    assert (rounds["winner_max_deficit"].is_null() == no_winner).all()


INVARIANT_CASES = ["classic-4-random-single", "classic-2-random", "classic-5-keep-wilds-blanks",
                   "minions-4-random-match", "classic-3-any-draw-mercy",
                   "classic-4-same-kind-jump-in-seven-o", "no-mercy-4-random", "no-mercy-8-jump-in-final",
                   "spin-4-random", "spin-3-house-rules"]


@pytest.mark.slow
@pytest.mark.parametrize("case", INVARIANT_CASES)
def test_invariants(case):
    """0 <= winner_max_deficit <= max_hand (null exactly without a winner), lead_changes <= n_turns,
    hand_size <= max_hand and every hand left at the end <= max_hand; with a mercy limit, max_hand
    reaches the limit exactly in the rounds with a knock-out."""
    variant, players, lineup, rules = CASES[case]
    res = unosim.simulate(variant, players=players, games=3000, seed=99, lineup=lineup, rules=rules)
    r = res.rounds.with_row_index("row")
    won = r["winner_seat"] >= 0
    assert (r["winner_max_deficit"].is_null() == ~won).all()
    deficit = r.filter(won)
    assert (deficit["winner_max_deficit"] >= 0).all()
    assert (deficit["winner_max_deficit"] <= deficit["max_hand"]).all()
    assert (r["lead_changes"] <= r["n_turns"]).all()
    assert (r["max_hand"] >= res.rules.hand_size).all()
    left = res.seats.group_by(["game", "round"]).agg(pl.col("cards_left").max())
    joined = r.join(left, on=["game", "round"])
    assert (joined["cards_left"] <= joined["max_hand"]).all()
    if res.rules.mercy_limit is not None:
        knocked = r["knockouts"] > 0
        assert knocked.any()
        assert ((r["max_hand"] == res.rules.mercy_limit) == knocked).all()
        assert (r["max_hand"] <= res.rules.mercy_limit).all()
    # the measures are not constant: the tests above could fail
    assert all(r[name].n_unique() > 2 for name in QUALITY)


@pytest.mark.parametrize("players", range(2, L.MAX_PLAYERS + 1))
def test_every_compiled_scan_agrees_with_the_reference_check(players):
    """The straight-line scans (2-7 seats), the vectorised one (8-10) and the variant without the
    knock-out padding (no mercy rule) against the reference twin's check, over random standings with
    ties and knocked-out seats."""
    from unosim.engine.record import quality as Q
    from unosim.engine.record import state as S
    from unosim.reference.quality import QualityCounters

    rng = np.random.default_rng(players)
    for mercy in (0, 25):
        rules = {"match_mode": "single_round", **({"mercy_limit": mercy} if mercy else {})}
        rs, _ = resolve("classic", players, "random", rules)
        ir, fr, _ = rs.compile(players)
        block = new_game(ir, fr, np.zeros(players, np.int64), np.zeros((players, L.N_POLICY_PARAMS)))
        g = block[0]
        g["st"][S.ST_N] = players
        g["st"][S.ST_LEADER] = -1
        twin = QualityCounters(players)
        for _ in range(300):
            active = np.ones(players, bool)
            if mercy:
                active[rng.choice(players, rng.integers(0, players), replace=False)] = False
            sizes = np.where(active, rng.integers(0, 4, players), 0)   # small sizes: many ties
            g["hlen"][:players] = sizes
            g["out_pad"][:players] = np.where(active, 0, Q.OUT)
            Q.check_standings(g)
            twin.check_standings([[0] * size for size in sizes], list(active))
            assert list(g["deficit"][:players]) == twin.max_deficit
            leader = -1 if twin.leader is None else twin.leader
            assert (g["st"][S.ST_LEADER], g["st"][S.ST_LEAD_CHANGES]) == (leader, twin.lead_changes)
