"""Invariants over many random games of the reference engine, checked at every trace event."""

from collections import Counter

import numpy as np
import pytest

from unosim.game import cards
from unosim.game import protocol as L
from unosim.game.rule_table import BLANK_EFFECTS
from unosim.game.rules import get_variant
from unosim.reference import PythonPolicy, run_games

CONFIGS = {
    "classic-default": ("classic", {}),
    "classic-blanks-a": ("classic", {"blank_effects": ("shuffle_hands", "discard_colour", "others_draw_1"),
                                     "draw_until_playable": True, "p_forget_uno": 0.5}),
    "classic-blanks-b": ("classic", {"blank_effects": ("draw_two_next", "plain_wild", "swap_hands"),
                                     "force_play_drawn": True, "no_bluffing": True, "hand_size": 4}),
    "classic-off": ("classic", {"final_card_effects": False, "two_player_reverse_skip": False,
                                "voluntary_draw": False, "wd4_challenge": False}),
    "minions": ("minions", {"p_dumbfu_fail": 0.5, "p_forget_uno": 0.3, "p_catch": 0.7}),
    "no_mercy": ("no_mercy", {}),
    "no_mercy-toggles": ("no_mercy", {"jump_in": True, "final_card_effects": True, "p_forget_uno": 0.3,
                                      "mercy_limit": 15}),
    "classic-stacking": ("classic", {"stacking": "escalating", "jump_in": True, "seven_o": True,
                                     "mercy_limit": 20, "p_forget_uno": 0.2}),
    "classic-stacking-b": ("classic", {"stacking": "same_kind", "draw_until_playable": True,
                                       "final_card_effects": False, "mercy_limit": 12}),
    "minions-stacking": ("minions", {"stacking": "any_draw", "jump_in": True, "seven_o": True,
                                     "mercy_limit": 10, "p_dumbfu_fail": 0.5, "no_bluffing": True}),
    "spin": ("spin", {}),
    "spin-toggles": ("spin", {"spin_weights": (1, 1, 1, 2, 2, 3, 1, 3, 3), "spin_first_card_spins": True,
                              "spin_continue_after_winner": False, "shout_weight": 2.0, "p_forget_uno": 0.3}),
    "spin-house-rules": ("spin", {"jump_in": True, "stacking": "any_draw", "mercy_limit": 20,
                                  "draw_until_playable": True, "final_card_effects": False}),
}
POLICIES = ["random", "random(p_draw=0.3,p_bluff=0.5,p_challenge=0.5)", "greedy_points(p_challenge=0.5)",
            "keep_wilds", "python"]


def _is_legal_play(card, hand_before, top, colour):
    """docs/rules.md §1.4 written out again, independently of the engine."""
    c_colour, t_colour = cards.COLOUR[card], cards.COLOUR[top]
    if c_colour == cards.NO_COLOUR or c_colour == colour:
        return True
    if t_colour == cards.NO_COLOUR:
        return False
    if cards.KIND[card] == cards.NUMBER:
        return cards.KIND[top] == cards.NUMBER and cards.NUMBER_OF[card] == cards.NUMBER_OF[top]
    return cards.KIND[card] == cards.KIND[top]


class Checker:
    """Observer: checks every event against the table it leaves behind."""

    def __init__(self, rules, deck_size, may_bluff):
        self.rules, self.deck_size, self.may_bluff = rules, deck_size, may_bluff
        self.before = None
        self.events = Counter()
        self.knocked_out = set()
        self.pending = 0        # the pending total, followed from the events alone

    def __call__(self, table, event):
        code, seat, a, _ = event
        self.events[code] += 1
        in_play = sum(map(len, table.hands)) + len(table.draw_pile) + len(table.discard_pile) + \
            len(table.set_aside)
        assert in_play == self.deck_size, f"card conservation broken at {L.EV_NAMES[code]}"
        if code == L.EV_ROUND_START:
            self.knocked_out, self.pending = set(), 0
        if code in (L.EV_TURN, L.EV_PLAY, L.EV_DRAW, L.EV_ACCEPT, L.EV_COLOUR, L.EV_SWAP, L.EV_PASS,
                    L.EV_ROULETTE, L.EV_UNO, L.EV_CHALLENGE, L.EV_SKIP, L.EV_POSE, L.EV_DISCARD):
            assert seat not in self.knocked_out, f"knocked-out seat {seat} in a {L.EV_NAMES[code]} event"
        if code == L.EV_SWAP:
            assert a not in self.knocked_out, "a knocked-out seat is no swap target"
        if code == L.EV_KNOCKOUT:
            assert len(self.before[0][seat]) + 1 >= self.rules.mercy_limit and table.hands[seat] == []
            self.knocked_out.add(seat)
        if self.rules.mercy_limit is not None and code != L.EV_DRAW:
            # a hand at the limit never survives its Mercy check (docs/rules.md §2.4.6)
            assert max(map(len, table.hands)) < self.rules.mercy_limit
        if code == L.EV_PLAY:
            hands, top, colour = self.before
            assert a in hands[seat]
            if self.pending:
                assert cards.DRAW_VALUE[a] > 0, "only draw cards answer a pending penalty"
            elif cards.KIND[a] == cards.WD4:
                holds_colour = any(cards.COLOUR[c] == colour for c in hands[seat])
                assert self.may_bluff or not holds_colour, "illegal WD4 from a policy that never bluffs"
            else:
                assert _is_legal_play(a, hands[seat], top, colour)
        self.pending = table.pending
        if code == L.EV_ROUND_END:
            everywhere = table.draw_pile + table.discard_pile + table.set_aside + [c for h in table.hands for c in h]
            assert sorted(everywhere) == table.game.deck          # the very same cards, not just as many
            if a == L.END_WON:
                assert table.hands[seat] == [] and seat == table.winner
            if a == L.END_KNOCKOUT:
                assert [s for s in range(table.players) if s not in self.knocked_out] == [seat]
        if table.discard_pile:
            self.before = ([list(h) for h in table.hands], table.discard_pile[-1], table.colour)


def _swaps_by_sevens(events):
    """SWAP events caused by a 7 (the last PLAY before them is a number), not by a blank swap_hands."""
    count, last_play = 0, -1
    for code, _, a, _ in events:
        if code == L.EV_PLAY:
            last_play = int(a)
        elif code == L.EV_SWAP:
            count += int(cards.KIND[last_play] == cards.NUMBER)
    return count


def _lineup(policy, players):
    return [PythonPolicy() for _ in range(players)] if policy == "python" else policy


@pytest.mark.parametrize("config", list(CONFIGS))
@pytest.mark.parametrize("policy", POLICIES)
def test_invariants_over_random_games(config, policy):
    variant, overrides = CONFIGS[config]
    for players in range(2, 11):
        rules = get_variant(variant, {**overrides, "match_mode": "single_round"})
        if players > rules.max_players():
            continue
        may_bluff = "p_bluff" in policy and not rules.no_bluffing
        checker = Checker(rules, rules.deck_size, may_bluff)
        r = run_games(rules, players, _lineup(policy, players), seed=players, first_game=0, n_games=2,
                      deck_order=None, trace=True, observer=checker)
        check_tables(r, players, rules)
        ev = Counter(int(e[0]) for e in r.events)
        assert ev == checker.events


def check_tables(r, players, rules):
    rounds, seats, events = r.rounds, r.seats.reshape(len(r.rounds), players, L.SC_SIZE), r.events
    ev = Counter(int(e[0]) for e in events)
    assert rounds[:, L.RC_TURNS].sum() == ev[L.EV_TURN]
    assert rounds[:, L.RC_PLAYS].sum() == ev[L.EV_PLAY] == seats[:, :, L.SC_PLAYED].sum()
    assert rounds[:, L.RC_DRAWS].sum() == ev[L.EV_DRAW] == seats[:, :, L.SC_DRAWN].sum()
    assert rounds[:, L.RC_RESHUFFLES].sum() == ev[L.EV_RESHUFFLE]
    assert rounds[:, L.RC_DUMBFU_PENALTIES].sum() == sum(1 for e in events if e[0] == L.EV_POSE and e[2] == 1)
    assert rounds[:, L.RC_KNOCKOUTS].sum() == ev[L.EV_KNOCKOUT] == seats[:, :, L.SC_KNOCKED_OUT].sum()
    assert rounds[:, L.RC_SWAPS_7].sum() == _swaps_by_sevens(events)
    assert rounds[:, L.RC_PASSES_0].sum() == ev[L.EV_PASS]
    assert ((seats[:, :, L.SC_KNOCKOUT_TURN] > 0) == (seats[:, :, L.SC_KNOCKED_OUT] == 1)).all()
    assert (seats[:, :, L.SC_KNOCKOUT_TURN] <= rounds[:, L.RC_TURNS][:, None]).all()
    assert (rounds[:, L.RC_PLAYS] == seats[:, :, L.SC_PLAYED].sum(axis=1)).all()
    assert (rounds[:, L.RC_DRAWS] == seats[:, :, L.SC_DRAWN].sum(axis=1)).all()
    for row, seat_rows in zip(rounds, seats, strict=True):
        winner = row[L.RC_WINNER]
        assert seat_rows[:, L.SC_WON].sum() == (winner >= 0)
        out = seat_rows[:, L.SC_KNOCKED_OUT] == 1
        assert (seat_rows[out, L.SC_CARDS_LEFT] == 0).all() and row[L.RC_KNOCKOUTS] == out.sum()
        if winner >= 0:
            assert row[L.RC_END] in (L.END_WON, L.END_KNOCKOUT) and not out[winner]
            if row[L.RC_END] == L.END_WON:
                assert seat_rows[winner, L.SC_CARDS_LEFT] == 0
            else:
                assert out.sum() == players - 1
            # docs/rules.md §2.4.8: the active opponents' hands plus 250 per knocked-out player
            opponents = seat_rows[:, L.SC_POINTS_LEFT].sum() - seat_rows[winner, L.SC_POINTS_LEFT]
            assert row[L.RC_POINTS] == opponents + 250 * out.sum()
        else:
            assert row[L.RC_END] in (L.END_STALEMATE, L.END_TRUNCATED) and row[L.RC_POINTS] == 0
        assert row[L.RC_TURNS] <= rules.max_turns_per_round
    # turn numbers run 1, 2, ... within each round
    numbers = [int(e[2]) for e in events if e[0] in (L.EV_TURN, L.EV_ROUND_START)]
    codes = [int(e[0]) for e in events if e[0] in (L.EV_TURN, L.EV_ROUND_START)]
    expected = 0
    for code, number in zip(codes, numbers, strict=True):
        expected = 0 if code == L.EV_ROUND_START else expected + 1
        assert code == L.EV_ROUND_START or number == expected


@pytest.mark.parametrize("mode", ["points", "lowest"])
@pytest.mark.parametrize("players", [2, 4, 7])
def test_match_results_follow_from_the_round_table(mode, players):
    rules = get_variant("classic", {"match_mode": mode, "target": 200, "max_rounds_per_match": 30})
    r = run_games(rules, players, "random", seed=13, first_game=0, n_games=4, deck_order=None, trace=False,
                  observer=None)
    seats = r.seats.reshape(len(r.rounds), players, L.SC_SIZE)
    start = 0
    for match in r.matches:
        n = match[L.MC_ROUNDS]
        rows, seat_rows = r.rounds[start:start + n], seats[start:start + n]
        start += n
        assert (rows[:, L.RC_GAME] == match[L.MC_GAME]).all()
        assert list(rows[:, L.RC_ROUND]) == list(range(n))
        assert list(rows[:, L.RC_DEALER]) == [(match[L.MC_FIRST_DEALER] + k) % players for k in range(n)]
        totals = [0] * players
        for k, (row, srow) in enumerate(zip(rows, seat_rows, strict=True)):
            if row[L.RC_WINNER] >= 0:
                if mode == "points":
                    totals[row[L.RC_WINNER]] += row[L.RC_POINTS]
                else:
                    totals = [t + (s != row[L.RC_WINNER]) * srow[s, L.SC_POINTS_LEFT] for s, t in enumerate(totals)]
            decided = max(totals) >= rules.target
            assert decided == (k == n - 1 and match[L.MC_END] == L.MATCH_END_WON)
        if match[L.MC_END] == L.MATCH_END_WON:
            best = max(totals) if mode == "points" else min(totals)
            winners = [s for s in range(players) if totals[s] == best]
            assert match[L.MC_WINNERS_MASK] == sum(1 << s for s in winners)
            assert match[L.MC_WINNER] == winners[0] and match[L.MC_N_WINNERS] == len(winners)
        else:
            assert n == rules.max_rounds_per_match and match[L.MC_WINNER] == -1


def test_every_blank_effect_is_exercised():
    """Sanity check of the invariant sweep: each effect really fires in random games."""
    for effect in BLANK_EFFECTS:
        rules = get_variant("classic", {"blank_effects": (effect,) * 3, "match_mode": "single_round"})
        r = run_games(rules, 4, "random", seed=2, first_game=0, n_games=20, deck_order=None, trace=True,
                      observer=None)
        blank_plays = sum(1 for e in r.events if e[0] == L.EV_PLAY and cards.KIND[e[2]] == cards.BLANK)
        assert blank_plays > 0


@pytest.mark.parametrize("players", range(2, 11))
def test_no_mercy_invariants_over_many_random_games(players):
    """The no_mercy checks above over more games per player count, and a sanity check that every
    no_mercy mechanism really fires (knock-outs, stacks, swaps, passes, Roulette, Discard All)."""
    rules = get_variant("no_mercy", {"match_mode": "single_round"})
    checker = Checker(rules, rules.deck_size, may_bluff=False)
    r = run_games(rules, players, "random", seed=100 + players, first_game=0, n_games=25, deck_order=None,
                  trace=True, observer=checker)
    check_tables(r, players, rules)
    for code in (L.EV_KNOCKOUT, L.EV_ACCEPT, L.EV_SWAP, L.EV_PASS, L.EV_ROULETTE, L.EV_DISCARD):
        assert checker.events[code] > 0, L.EV_NAMES[code]
    assert (r.rounds[:, L.RC_END] == L.END_KNOCKOUT).any() and (r.rounds[:, L.RC_END] == L.END_WON).any()


class SpinChecker(Checker):
    """The checks above plus the wheel's (docs/rules.md §2.3, protocol §6), followed from the events alone: only
    a spin card played with cards left (or turned up first, with the toggle) designates a spinner;
    the designated spinner's turn is a spin; a jump-in cancels the designation; a final spin follows a
    winning spin card at once; wheel discards land on top."""

    def __init__(self, rules, deck_size):
        super().__init__(rules, deck_size, may_bluff=False)
        self.previous, self.designated, self.last_card = None, -1, -1

    def __call__(self, table, event):
        super().__call__(table, event)
        code, seat, a, b = event
        previous, self.previous = self.previous, event
        if code in (L.EV_PLAY, L.EV_FIRST_CARD):
            self.last_card = a
        if code == L.EV_ROUND_START:
            self.designated = -1
        elif code == L.EV_SPINNER:
            assert cards.SPIN[self.last_card] == 1 and previous[0] in (L.EV_PLAY, L.EV_FIRST_CARD)
            self.designated = seat
        elif code == L.EV_TURN:
            self.spin_expected = seat == self.designated and b == 0
            if b == 1 or seat == self.designated:
                self.designated = -1                 # spins now, or cancelled by the jump-in
        elif code == L.EV_SPIN:
            if b == 0:
                assert previous[0] == L.EV_TURN and self.spin_expected
            else:
                assert previous[0] == L.EV_PLAY and cards.SPIN[previous[2]] == 1 and table.over
                assert seat == table.next_seat(table.winner) and self.rules.final_card_effects
        elif code == L.EV_DISCARD:
            assert table.discard_pile[-1] == a       # on top, never under T (docs/rules.md §6 S9)
        if previous is not None and previous[0] == L.EV_TURN and code != L.EV_SPIN:
            assert not self.spin_expected, "the designated spinner did not spin"


@pytest.mark.parametrize("players", range(2, 11))
def test_spin_invariants_over_many_random_games(players):
    """The spin checks over more games per player count, every outcome and the final spin firing at least 10
    times (100 games: each outcome fires 30-80 times, final spins 13-29, so every step of the wheel is
    checked many times over; 300 games before, with only "fires at all" asserted)."""
    rules = get_variant("spin", {"match_mode": "single_round"})
    checker = SpinChecker(rules, rules.deck_size)
    lineup = ["random", "keep_wilds", "greedy_points"][players % 3]
    r = run_games(rules, players, lineup, seed=200 + players, first_game=0, n_games=100, deck_order=None,
                  trace=True, observer=checker)
    check_tables(r, players, rules)
    spins = r.events[r.events[:, 0] == L.EV_SPIN]
    assert r.rounds[:, L.RC_SPINS].sum() == len(spins) and r.rounds[:, L.RC_FINAL_SPINS].sum() == spins[:, 3].sum()
    assert (np.bincount(spins[:, 2], minlength=9) >= 10).all() and spins[:, 3].sum() >= 10
