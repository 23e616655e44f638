"""Invariants of the compiled engine over many random games (docs/rules.md §1, §1.13).

Every game here runs in audit mode: after every turn the kernel recounts every card identity across
hands and piles against the deck, checks that T is the top of the discard pile and that a won round
leaves the winner without cards (a violation raises). The output tables are then checked against the
counting rules of §1.13. Legality of every play is checked event by event on the reference engine
(tests/reference/test_reference_invariants.py), which the differential tests tie to this engine.
"""

import numpy as np
import pytest

from unosim.engine.core import audit as kernel_audit
from unosim.engine.core.round import new_game
from unosim.engine.record import state as kernel_state
from unosim.game import cards, rule_table
from unosim.game import protocol as L
from unosim.game.policies import SEARCH_POLICIES
from unosim.game.protocol import POLICY_NAMES
from unosim.game.rules import variant_names
from unosim.play.simulate import resolve, run_compiled

#: audited games per variant × policy × player count (2-10), in batches. In the first batch every card kind
#: of the deck and every rule step (trace event) the cell reaches must occur at least MIN_SEEN times
#: (counted on the batch's trace; the rarest, a first card Wild Draw Four put back, about 13 times in 500
#: games, most steps hundreds of times): the audit runs on every path of the cell, not on a blind number
#: of games. Piles that run out are rare at small tables, so more audited batches follow while the cell has
#: had fewer than MIN_SEEN reshuffles, up to MAX_GAMES (the 4,000 games per cell this test used to play).
BATCH = 500
MAX_GAMES = 4_000
MIN_SEEN = 5
#: not required in the first batch: reshuffles (counted over the batches instead) and a draw from two empty
#: piles (rare by nature; scripted in test_failed_draws_and_stalemate_on_the_compiled_engine below)
RARE_EVENTS = {L.EV_DRAW_FAIL, L.EV_RESHUFFLE}


@pytest.mark.slow
@pytest.mark.parametrize("variant", variant_names())
# every policy mechanism (the presets share weighted's code: two of them stand for all, the
# differential grid plays every preset)
# (lookahead's own audited games, rollouts included, are in tests/engine/policies/test_lookahead_policy.py)
@pytest.mark.parametrize("policy", [*(name for name in POLICY_NAMES if name not in SEARCH_POLICIES),
                                    "punisher", "colour_counter"])
def test_audited_games_for_every_player_count(variant, policy):
    for players in range(2, 11):
        rs, specs = resolve(variant, players, policy, {"match_mode": "single_round"})
        raw = run_compiled(rs, players, specs, 99, 0, BATCH, audit=True)
        _check_audited_tables(rs, players, raw)
        _check_every_path_is_exercised(rs, players, raw, _events(rs, players, specs, 99, 0, raw))
        reshuffles, games = int(raw.rounds[:, L.RC_RESHUFFLES].sum()), BATCH
        while reshuffles < MIN_SEEN and games < MAX_GAMES:
            raw = run_compiled(rs, players, specs, 99, games, BATCH, audit=True)
            _check_audited_tables(rs, players, raw)
            reshuffles, games = reshuffles + int(raw.rounds[:, L.RC_RESHUFFLES].sum()), games + BATCH


def _events(rs, players, specs, seed, first_game, audited) -> np.ndarray:
    """The trace of the ``audited`` games (played with the audit, untraced), from the same games played again
    traced without the audit, which must give the same round table (a traced audit costs more than the
    two apart)."""
    traced = run_compiled(rs, players, specs, seed, first_game, len(audited.matches), trace=True)
    assert np.array_equal(traced.rounds, audited.rounds), "the audit or the trace changed the games"
    return traced.events


def _check_every_path_is_exercised(rs, players, raw, events):
    """Every card kind of the deck (both faces in UNO Flip) is played, and every trace event of the batch
    but the rare ones occurs, at least MIN_SEEN times; the No Mercy counters register their steps."""
    codes = np.bincount(events[:, 0], minlength=len(L.EV_NAMES) + 1)
    seldom = [L.EV_NAMES[c] for c in np.flatnonzero((codes > 0) & (codes < MIN_SEEN)) if c not in RARE_EVENTS]
    assert not seldom, f"{players} players: rule steps reached fewer than {MIN_SEEN} times: {seldom}"
    faces = cards.deck_ids(rs.deck_counts())
    if rs.mechanics == "flip":
        faces = np.concatenate([faces, cards.FLIP_PARTNER[faces]])
    played = np.bincount(cards.KIND[events[events[:, 0] == L.EV_PLAY, 2]], minlength=cards.N_KINDS)
    kinds = np.unique(cards.KIND[faces])
    names = [cards.KIND_NAMES[k] for k in kinds]
    assert (played[kinds] >= MIN_SEEN).all(), f"{players} players: card kinds played {dict(zip(names, played[kinds].tolist(), strict=True))}"
    rounds = raw.rounds
    if rs.mechanics == "no_mercy":
        # a stack is at least the value of the draw card that started it; some take effect
        assert rounds[:, L.RC_LARGEST_STACK].max() >= 10
        assert (rounds[:, L.RC_SWAPS_7] > 0).any() and (rounds[:, L.RC_PASSES_0] > 0).any()


def _check_audited_tables(rs, players, raw):
    """The round and seat tables of audited games obey the counting rules of docs/rules.md §1.13."""
    games = len(raw.matches)
    rounds, seats = raw.rounds, raw.seats.reshape(games, players, L.SC_SIZE)
    ends = rounds[:, L.RC_END]
    allowed = (L.END_WON, L.END_KNOCKOUT) if rs.mechanics == "no_mercy" else (L.END_WON,)
    assert np.isin(ends, allowed).all(), f"{players} players: rounds without a winner at defaults"
    won = seats[:, :, L.SC_WON]
    assert (won.sum(axis=1) == 1).all()
    winner = rounds[:, L.RC_WINNER]
    knocked = seats[:, :, L.SC_KNOCKED_OUT].astype(bool)
    assert (knocked.sum(axis=1) == rounds[:, L.RC_KNOCKOUTS]).all()
    assert not knocked[np.arange(games), winner].any()
    assert ((seats[:, :, L.SC_KNOCKOUT_TURN] > 0) == knocked).all()
    assert (seats[:, :, L.SC_KNOCKOUT_TURN] <= rounds[:, L.RC_TURNS][:, None]).all()
    assert (seats[:, :, L.SC_CARDS_LEFT][knocked] == 0).all()
    by_knockout = ends == L.END_KNOCKOUT
    # a knock-out win: everybody else is out, worth exactly 250·(n−1) (docs/rules.md §1.13)
    assert (rounds[by_knockout, L.RC_KNOCKOUTS] == players - 1).all()
    assert (rounds[by_knockout, L.RC_POINTS] == 250 * (players - 1)).all()
    if rs.mechanics != "spin":   # a final-card spin may empty a loser's hand (docs/rules.md §2.3.6)
        assert (seats[:, :, L.SC_CARDS_LEFT][(won == 0) & ~knocked] > 0).all()
    if rs.mechanics == "spin":
        outcomes = rounds[:, L.RC_OUTCOME:L.RC_OUTCOME + rule_table.N_SPIN_OUTCOMES]
        assert (outcomes.sum(axis=1) == rounds[:, L.RC_SPINS]).all()
        assert (rounds[:, L.RC_FINAL_SPINS] <= 1).all()
    else:
        assert (rounds[:, L.RC_SPINS] == 0).all()
    if rs.mechanics != "no_mercy":
        assert (rounds[:, [L.RC_KNOCKOUTS, L.RC_SWAPS_7, L.RC_PASSES_0]] == 0).all()
    won_by_play = ends == L.END_WON   # a knock-out winner may still hold cards (docs/rules.md §6 N20)
    assert (seats[np.arange(games), winner, L.SC_CARDS_LEFT][won_by_play] == 0).all()
    assert (seats[:, :, L.SC_PLAYED].sum(axis=1) == rounds[:, L.RC_PLAYS]).all()
    assert (seats[:, :, L.SC_DRAWN].sum(axis=1) == rounds[:, L.RC_DRAWS]).all()
    # each turn plays at most one card, except nothing: plays ≤ turns
    assert (rounds[:, L.RC_PLAYS] <= rounds[:, L.RC_TURNS]).all()
    # points are the losers' hands (+250 per knock-out), every card left is worth at most the deck's
    # dearest face (50; UNO Flip's Wild Draw Colour 60)
    losers_points = (seats[:, :, L.SC_POINTS_LEFT] * (won == 0)).sum(axis=1)
    assert (losers_points + 250 * rounds[:, L.RC_KNOCKOUTS] == rounds[:, L.RC_POINTS]).all()
    ids = cards.deck_ids(rs.deck_counts())
    faces = np.concatenate([ids, cards.FLIP_PARTNER[ids][cards.FLIP_PARTNER[ids] >= 0]])
    dearest = int(cards.POINTS[faces].max())
    assert (seats[:, :, L.SC_POINTS_LEFT] <= dearest * seats[:, :, L.SC_CARDS_LEFT]).all()
    # cards: dealt + drawn − played (− discarded by effects, − set aside) = left, over all seats
    dealt = rs.hand_size * players
    left = seats[:, :, L.SC_CARDS_LEFT].sum(axis=1)
    assert (left <= dealt + rounds[:, L.RC_DRAWS] - rounds[:, L.RC_PLAYS]).all()
    assert (raw.opening.reshape(games, players, -1).sum(axis=2) == rs.hand_size).all()
    if rs.mechanics == "classic" and rs.blank_effects == ("swap_hands",) * rule_table.N_BLANK_SLOTS:
        # without discard effects every card that left a hand was played
        assert (left == dealt + rounds[:, L.RC_DRAWS] - rounds[:, L.RC_PLAYS]).all()


@pytest.mark.parametrize("rules", [
    {"stacking": "same_kind", "jump_in": True, "seven_o": True},
    {"stacking": "any_draw", "mercy_limit": 20, "draw_until_playable": True, "force_play_drawn": True},
    {"stacking": "escalating", "no_bluffing": True, "jump_in": True, "mercy_limit": 25},
    {"blank_effects": ["shuffle_hands", "discard_colour", "others_draw_1"], "p_forget_uno": 0.5},
    {"blank_effects": ["draw_two_next", "plain_wild", "swap_hands"], "draw_until_playable": True},
    {"final_card_effects": False, "voluntary_draw": False, "two_player_reverse_skip": False},
], ids=["same-kind-jump-in-seven-o", "any-draw-mercy", "escalating-jump-in", "blanks-a", "blanks-b",
        "toggles-off"])
@pytest.mark.parametrize("players", [2, 5, 9])
def test_audited_games_with_house_rules_and_blank_effects(rules, players):
    rs, specs = resolve("classic", players, "random(p_draw=0.2,p_bluff=0.3,p_challenge=0.5)", rules)
    matches, rounds = _audited_until_every_step_is_seen(rs, players, specs, 7, 2_000)
    assert matches == 2_000
    # Truncation is possible but rare here: seen with two players, a voluntary drawer holding one card
    # keeps drawing and playing Skip/Reverse onto itself while the piles hold a single card; cards
    # move every turn, so it is no stalemate. (Also seen: hand_size 12 with draw_until_playable.)
    assert (rounds[:, L.RC_END] == L.END_TRUNCATED).mean() < 0.002


def _audited_until_every_step_is_seen(rs, players, specs, seed, games, batch=200):
    """Play ``games`` games (from game 0): audited in batches of ``batch`` until every rule step (trace event)
    of the first batch but the rare ones has occurred MIN_SEEN times (asserted), the rest unaudited (the
    audit only checks: it changes no game, see _events). Returns the number of matches and the round table of them all.
    (Batches of 200 games: two-player games here last up to 1,500 turns; the rare knock-outs of the Mercy
    rules take more batches.)"""
    audited, counts, rounds = 0, None, []
    while audited < games:
        n = min(batch, games - audited)
        raw = run_compiled(rs, players, specs, seed, audited, n, audit=True)
        codes = np.bincount(_events(rs, players, specs, seed, audited, raw)[:, 0], minlength=len(L.EV_NAMES) + 1)
        audited += len(raw.matches)
        rounds.append(raw.rounds)
        if counts is None:
            counts, steps = codes, [c for c in np.flatnonzero(codes) if c not in RARE_EVENTS]
        else:
            counts = counts + codes
        if (counts[steps] >= MIN_SEEN).all():
            break
    seldom = {L.EV_NAMES[c]: int(counts[c]) for c in steps if counts[c] < MIN_SEEN}
    assert not seldom, f"{players} players: rule steps reached fewer than {MIN_SEEN} times in {audited} games: {seldom}"
    if audited < games:
        rest = run_compiled(rs, players, specs, seed, audited, games - audited)
        rounds.append(rest.rounds)
        audited += len(rest.matches)
    return audited, np.concatenate(rounds)


def test_audit_detects_a_corrupted_state():
    rs, specs = resolve("classic", 4, "random", {"match_mode": "single_round"})
    ir, fr, deck = rs.compile(4)
    block = new_game(ir, fr, np.zeros(4, np.int64), np.zeros((4, L.N_POLICY_PARAMS)))
    g = block[0]
    counts = np.bincount(deck, minlength=len(kernel_state.KIND))
    g["pile"][kernel_state.DRAW, :len(deck)] = deck
    g["plen"][kernel_state.DRAW] = len(deck)
    kernel_audit.audit(g, counts, False)
    assert g["st"][kernel_state.ST_VIOLATIONS] == 0
    g["pile"][kernel_state.DRAW, 0] = deck[-1]          # one card duplicated, another lost
    kernel_audit.audit(g, counts, False)
    assert g["st"][kernel_state.ST_VIOLATIONS] == 1


def test_failed_draws_and_stalemate_on_the_compiled_engine():
    """Seven players hold 15 cards each; five non-matching cards remain to draw. A policy that always
    draws empties the pile, then every draw fails (the discard pile holds only T): after 7 idle turns
    the round is a stalemate — and the reference engine agrees event for event."""
    from scenario_tools import fill_hands, stacked_deck

    from unosim import reference
    from unosim.game.policies import make_lineup
    from unosim.game.rules import get_variant

    drawn = ["G1", "G2", "G3", "G4", "G5"]
    rs = get_variant("classic", {"hand_size": 15, "first_dealer": 0, "match_mode": "single_round"})
    order = stacked_deck(rs.deck_counts(), 7, 0, fill_hands(7, 15, {}, reserved=["R9", *drawn]), "R9", drawn)
    lineup = make_lineup("random(p_draw=1)", 7)
    raw = run_compiled(rs, 7, lineup, 1, 0, 1, deck_order=order, trace=True, audit=True)
    round_ = raw.rounds[0]
    assert round_[L.RC_END] == L.END_STALEMATE and round_[L.RC_WINNER] == -1 and round_[L.RC_POINTS] == 0
    assert round_[L.RC_TURNS] == 5 + 7 and round_[L.RC_DRAWS] == 5 and round_[L.RC_RESHUFFLES] == 0
    assert (raw.events[:, 0] == L.EV_DRAW_FAIL).sum() == 7
    assert raw.matches[0, L.MC_END] == L.MATCH_END_NO_WINNER
    slow = reference.play(rs, 7, lineup, 1, 0, 1, deck_order=order, trace=True)
    assert np.array_equal(raw.events, np.asarray(slow.events))


def test_turn_cap_truncates_rounds():
    rs, specs = resolve("classic", 4, "random", {"max_turns_per_round": 3, "match_mode": "single_round"})
    raw = run_compiled(rs, 4, specs, 1, 0, 500, audit=True)
    assert (raw.rounds[:, L.RC_TURNS] <= 3).all()
    truncated = raw.rounds[:, L.RC_END] == L.END_TRUNCATED
    assert truncated.mean() > 0.9 and (raw.rounds[truncated, L.RC_TURNS] == 3).all()
    assert (raw.rounds[truncated, L.RC_WINNER] == -1).all() and (raw.rounds[truncated, L.RC_POINTS] == 0).all()


@pytest.mark.parametrize("variant,rules", [
    ("no_mercy", {"jump_in": True, "p_forget_uno": 0.3}),
    ("no_mercy", {"final_card_effects": True, "voluntary_draw": False}),
    ("spin", {"jump_in": True, "stacking": "any_draw", "seven_o": True}),
    ("spin", {"spin_weights": [0, 0, 0, 1, 1, 3, 0, 2, 2], "spin_first_card_spins": True,
              "spin_continue_after_winner": False}),
    ("minions", {"stacking": "escalating", "mercy_limit": 18, "jump_in": True}),
], ids=["no-mercy-jump-in", "no-mercy-final-effects", "spin-house-rules", "spin-weights", "minions-mercy"])
@pytest.mark.parametrize("players", [2, 3, 7])
def test_audited_games_with_variant_house_rules(variant, rules, players):
    rs, specs = resolve(variant, players, "random(p_draw=0.1,p_challenge=0.3)", rules)
    matches, rounds = _audited_until_every_step_is_seen(rs, players, specs, 13, 1_000)
    assert matches == 1_000
    assert (rounds[:, L.RC_END] == L.END_TRUNCATED).mean() < 0.002
