"""Games (= matches): dealer rotation, scoring modes, and the output tables (docs/rules.md §1.12, §1.13)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..game import custom_cards
from ..game import protocol as L
from ..game.checks import as_int
from ..game.protocol import RawResults
from ..game.rules import RuleSet
from . import hooks
from .card_tables import HAND_CLASS
from .policies import resolve_lineup
from .rng import DECK_STREAM, PLAY_STREAM, Xoshiro
from .table import Event, Game, Table
from .turn import KNOCKOUT_POINTS, play_round, round_points


def run_games(rules: RuleSet, players: int, lineup: Any, seed: int, first_game: int, n_games: int,
              deck_order: Sequence[int] | None, trace: bool,
              observer: Callable[[Table, Event], None] | None) -> RawResults:
    """:func:`unosim.reference.play` with an optional ``observer(table, event)`` called at every event."""
    rules.check_players(players)
    players = int(players)
    seed, first_game = as_int("seed", seed, 0, 2**63 - 1), as_int("first_game", first_game, 0, 2**63 - 1)
    n_games = as_int("n_games", n_games, 0, 2**63 - first_game)   # the last game is at most 2**63 - 1
    seats = resolve_lineup(lineup, players)
    deck = [int(c) for c in np.repeat(np.arange(custom_cards.N_ALL_IDS), rules.all_counts())]
    if deck_order is not None:
        deck_order = [int(c) for c in deck_order]
        if sorted(deck_order) != deck:
            raise ValueError(f"deck_order must be a permutation of the {len(deck)}-card {rules.family} "
                             f"deck (got {len(deck_order)} cards)")
    events: list[Event] | None = [] if trace else None
    out = _Collector(players)
    for index in range(first_game, first_game + n_games):
        game = Game(rules=rules, players=players, seats=seats, index=index,
                    deck_rng=Xoshiro(seed, index, DECK_STREAM), play_rng=Xoshiro(seed, index, PLAY_STREAM),
                    events=events, observer=observer, deck=deck)
        play_match(game, deck_order, out)
    return out.results(events)


def play_match(game: Game, deck_order: Sequence[int] | None, out: _Collector) -> None:
    """Rounds until the match is decided (docs/rules.md §1.12); the dealer rotates left after every round."""
    rules, n = game.rules, game.players
    first_dealer = game.deck_rng.below(n) if rules.first_dealer == "random" else rules.first_dealer
    dealer, totals, round_index = first_dealer, [0] * n, 0
    while True:     # terminates: at most max_rounds_per_match rounds
        # The testing hook replaces only the first shuffle of each game.
        table = play_round(game, dealer, round_index, deck_order if round_index == 0 else None)
        out.add_round(table)
        winners = score_round(table, totals)
        n_rounds = round_index + 1
        if winners:
            end = L.MATCH_END_WON
        elif rules.match_mode == "single_round":
            end = L.MATCH_END_NO_WINNER
        elif n_rounds == rules.max_rounds_per_match:
            end = L.MATCH_END_TRUNCATED
        else:
            dealer, round_index = (dealer + 1) % n, n_rounds
            continue
        mask = sum(1 << s for s in winners)
        winner = min(winners) if winners else -1
        table.emit(L.EV_MATCH_END, winner, mask, end)
        out.add_match((game.index, n_rounds, first_dealer, winner, len(winners), mask, end))
        return


def score_round(table: Table, totals: list[int]) -> list[int]:
    """Add the round to the running totals; returns the match winners (empty while undecided).

    Rounds without a winner score nothing in every mode (docs/rules.md §1.6).
    """
    rules, winner = table.rules, table.winner
    if winner < 0:
        return []
    if rules.match_mode == "single_round":
        return [winner]
    if rules.match_mode == "points":
        totals[winner] += round_points(table)
        return [winner] if totals[winner] >= rules.target else []
    # lowest: everyone but the winner adds its own hand (a knocked-out player 250 instead, docs/rules.md
    # §1.12); lowest totals win, ties are co-winners (C14)
    for seat in range(table.players):
        if seat != winner:
            totals[seat] += table.hand_points(seat) if table.active[seat] else KNOCKOUT_POINTS
    if max(totals) < rules.target:
        return []
    lowest = min(totals)
    return [seat for seat in range(table.players) if totals[seat] == lowest]


class _Collector:
    """Accumulates table rows as Python lists; converted to numpy arrays once at the end."""

    def __init__(self, players: int):
        self.players = players
        self.rounds: list[list[int]] = []
        self.seats: list[list[int]] = []
        self.opening: list[list[int]] = []
        self.matches: list[tuple[int, ...]] = []

    def add_round(self, table: Table) -> None:
        row = [0] * L.RC_SIZE
        row[L.RC_GAME] = table.game.index
        row[L.RC_ROUND] = table.round_index
        row[L.RC_DEALER] = table.dealer
        row[L.RC_FIRST_SEAT] = table.first_seat
        row[L.RC_WINNER] = table.winner
        row[L.RC_END] = table.end
        row[L.RC_TURNS] = table.n_turns
        row[L.RC_PLAYS] = table.n_plays
        row[L.RC_DRAWS] = table.n_draws
        row[L.RC_RESHUFFLES] = table.n_reshuffles
        row[L.RC_POINTS] = round_points(table)
        row[L.RC_KNOCKOUTS] = table.knockouts
        row[L.RC_LARGEST_STACK] = table.largest_stack
        row[L.RC_LOOP_BOUND_HITS] = table.loop_bound_hits
        row[L.RC_LEAD_CHANGES] = table.quality.lead_changes
        row[L.RC_WINNER_MAX_DEFICIT] = table.quality.winner_max_deficit(table.winner)
        row[L.RC_MAX_HAND] = table.quality.max_hand
        hooks.write(table, row)
        self.rounds.append(row)
        for seat in range(self.players):
            seat_row = [0] * L.SC_SIZE
            seat_row[L.SC_WON] = int(seat == table.winner)
            seat_row[L.SC_CARDS_LEFT] = len(table.hands[seat])
            seat_row[L.SC_POINTS_LEFT] = table.hand_points(seat)
            seat_row[L.SC_DRAWN] = table.n_drawn[seat]
            seat_row[L.SC_PLAYED] = table.n_played[seat]
            seat_row[L.SC_KNOCKED_OUT] = int(not table.active[seat])
            seat_row[L.SC_KNOCKOUT_TURN] = table.knockout_turn[seat]
            hooks.write_seat(table, seat_row, seat)
            self.seats.append(seat_row)
            counts = [0] * L.N_OPENING
            for card in table.opening_hands[seat]:
                counts[HAND_CLASS[card]] += 1
            self.opening.append(counts)

    def add_match(self, row: tuple[int, ...]) -> None:
        self.matches.append(row)

    def results(self, events: list[Event] | None) -> RawResults:
        def as_array(rows, width, dtype):
            return np.array(rows, dtype).reshape(len(rows), width)

        return RawResults(
            rounds=as_array(self.rounds, L.RC_SIZE, np.int64),
            seats=as_array(self.seats, L.SC_SIZE, np.int32),
            opening=as_array(self.opening, L.N_OPENING, np.int8),
            matches=as_array(self.matches, L.MC_SIZE, np.int64),
            events=as_array(events or [], 4, np.int64),
        )
