"""One round: deal, first card, the turn loop with its checkpoints, and the end (protocol §3).

The functions follow RULES §1.3-§1.11 in order: :func:`play_round` is the round procedure,
:func:`take_turn` is ``TURN(p)``, :func:`play_card` is step 6 and :func:`checkpoint` is §1.10.
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import cards
from ..engine import layout as L
from .card_tables import COLOUR, KIND, is_wild
from .effects import apply_final_card, apply_first_card, apply_played_card, pose_event
from .table import Game, Table


def play_round(game: Game, dealer: int, round_index: int, deck_order: Sequence[int] | None) -> Table:
    """Play one round to its end and return the final table (counters, hands, winner)."""
    table = Table(game, dealer, round_index)
    table.draw_pile = list(game.deck)
    table.emit(L.EV_ROUND_START, dealer, round_index, game.index)
    if deck_order is None:
        game.deck_rng.shuffle(table.draw_pile)
    else:
        table.draw_pile = list(deck_order)
    deal(table)
    table.opening_hands = [list(hand) for hand in table.hands]
    turn_up_first_card(table)
    first = apply_first_card(table)
    # A blank discard_colour turned up can empty F's hand: F wins with 0 turns (RULES §6 C29), and
    # as the round is over there is no FIRST_SEAT event and no checkpoint (RULES §1.10).
    if first is not None:
        table.first_seat = first
        table.emit(L.EV_FIRST_SEAT, first, table.direction)
        checkpoint(table, table.left_of_dealer)
        play_turns(table, first)
    table.emit(L.EV_ROUND_END, table.winner, table.end, round_points(table))
    return table


def deal(table: Table) -> None:
    """RULES §1.3: ``hand_size`` rounds of one card each, starting left of the dealer."""
    for _ in range(table.rules.hand_size):
        for offset in range(1, table.players + 1):
            table.hands[(table.dealer + offset) % table.players].append(table.draw_pile.pop())


def turn_up_first_card(table: Table) -> None:
    """RULES §1.9: a turned-up WD4 goes back at a uniformly random position of the draw pile."""
    while True:
        card = table.draw_pile.pop()
        table.discard_pile.append(card)
        table.emit(L.EV_FIRST_CARD, table.left_of_dealer, card)
        if KIND[card] != cards.WD4:
            return
        table.discard_pile.pop()
        # Index m (= len of the pile) is the top, so the card may come straight back up.
        position = table.game.deck_rng.below(len(table.draw_pile) + 1)
        table.draw_pile.insert(position, card)
        table.emit(L.EV_RETURN, -1, card, position)


def play_turns(table: Table, player: int) -> None:
    """The turn loop with the turn cap and the stalemate rule (RULES §1.6)."""
    idle_turns = 0
    while True:
        if table.n_turns == table.rules.max_turns_per_round:
            table.end_without_winner(L.END_TRUNCATED)
            return
        table.n_turns += 1
        table.emit(L.EV_TURN, player, table.n_turns)
        moves_before = table.moves
        next_player = take_turn(table, player)
        if table.over:
            return
        checkpoint(table, player)
        idle_turns = idle_turns + 1 if table.moves == moves_before else 0
        if idle_turns >= table.n_active:
            table.end_without_winner(L.END_STALEMATE)
            return
        player = next_player


def take_turn(table: Table, player: int) -> int | None:
    """``TURN(p)`` of the classic family (RULES §1.5); returns the next player, None if the round ended."""
    pose_event(table, player)   # minions: every TURN(t) is a pose event (RULES §2.2.2)
    legal = table.legal_indices(player)
    choice = table.ask_play(player, legal) if legal else None
    if choice is None:
        choice = draw_for_turn(table, player)
        if choice is None:
            return table.next_seat(player)
    return play_card(table, player, choice)


def draw_for_turn(table: Table, player: int) -> int | None:
    """RULES §1.5 step 5: draw one card (or until a legal one); returns its index if it is played.

    Only a *legal* drawn card may be played: an illegal Wild Draw Four drawn cannot be bluffed out.
    """
    hand = table.hands[player]
    while True:
        if table.draw(player, 1) == 0:
            return None
        if table.is_legal(player, len(hand) - 1):
            break
        if not table.rules.draw_until_playable:
            return None
    drawn_index = len(hand) - 1
    if table.rules.force_play_drawn or table.ask_play_drawn(player, hand[drawn_index]):
        return drawn_index
    return None


def play_card(table: Table, player: int, index: int) -> int | None:
    """RULES §1.5 step 6: place the card, name a colour for a wild, then the win or the effect."""
    # Guilt is judged on the hand at the moment of play, before the colour changes (RULES §1.8).
    card = table.hands[player][index]
    guilty = KIND[card] == cards.WD4 and table.holds_colour_in_play(player)
    table.play_from_hand(player, index)
    if is_wild(card):
        table.colour = table.ask_colour(player)
        table.emit(L.EV_COLOUR, player, table.colour)
    else:
        table.colour = COLOUR[card]
    if table.hands[player]:
        return apply_played_card(table, player, card, guilty)
    return finish_with_last_card(table, player, card)


def finish_with_last_card(table: Table, player: int, card: int) -> int | None:
    """RULES §1.11: the emptied hand wins, then the final-card effects, unless a last shuffle_hands
    blank redeals (RULES §6 C21) and play goes on."""
    rules = table.rules
    is_last_shuffle = KIND[card] == cards.BLANK and \
        rules.blank_effects[cards.ID_BLANK.index(card)] == "shuffle_hands"
    if is_last_shuffle and rules.final_card_effects:
        table.redeal(player)
        return table.next_seat(player)
    table.win(player)
    if rules.final_card_effects:
        apply_final_card(table, player, card)
    return None


def checkpoint(table: Table, acting: int) -> None:
    """RULES §1.10: one UNO chance per one-card state, seats in turn order from the acting player."""
    rules = table.rules
    forget = rules.p_forget_uno
    seat = acting
    for _ in range(table.players):
        if len(table.hands[seat]) == 1 and not table.uno_done[seat]:
            p_forget = forget[seat] if isinstance(forget, tuple) else forget
            if not table.game.play_rng.bernoulli(p_forget):
                table.emit(L.EV_UNO, seat, 1)
            elif table.game.play_rng.bernoulli(rules.p_catch):
                table.emit(L.EV_UNO, seat, 2)
                table.draw(seat, rules.uno_penalty)
            else:
                table.emit(L.EV_UNO, seat, 3)
            table.uno_done[seat] = True
        seat = (seat + table.direction) % table.players


def round_points(table: Table) -> int:
    """The winner's score as in ``points`` mode (RULES §1.12): every other hand's points."""
    if table.winner < 0:
        return 0
    return sum(table.hand_points(s) for s in range(table.players) if s != table.winner)
