"""One round: deal, first card, the turn loop with its checkpoints and jump-ins, and the end
(protocol §3, §5).

The functions follow docs/rules.md §1.3-§1.11 and §2.4.2-§2.4.3 in order: :func:`play_round` is the round
procedure, :func:`take_turn` is ``TURN(p)``, :func:`play_card` is step 6, :func:`checkpoint` is §1.10
and :func:`jump_ins` is the ``jump_in`` house rule (§4).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..game import protocol as L
from . import hooks
from .card_tables import BASE_FACE, COLOUR, is_wild
from .effects import apply_final_card, apply_first_card, apply_played_card
from .table import Game, Table

KNOCKOUT_POINTS = 250   # docs/rules.md §2.4.8, for every family with a mercy_limit (protocol §5)


def play_round(game: Game, dealer: int, round_index: int, deck_order: Sequence[int] | None) -> Table:
    """Play one round to its end and return the final table (counters, hands, winner)."""
    table = Table(game, dealer, round_index)
    hooks.start(table)
    table.draw_pile = list(game.deck)
    table.emit(L.EV_ROUND_START, dealer, round_index, game.index)
    if deck_order is None:
        game.deck_rng.shuffle(table.draw_pile)
    else:
        table.draw_pile = list(deck_order)
    deal(table)
    table.opening_hands = [list(hand) for hand in table.hands]
    table.quality.hand_grew(max(len(hand) for hand in table.hands))
    first = hooks.turn_up_first(table)  # No Mercy: a NUMBER, no first-card effect (docs/rules.md §2.4.2)
    if first is hooks.NOT_MINE:
        if not turn_up_first_card(table):
            first = None                    # the return bound was hit: the round ended truncated
        else:
            first = apply_first_card(table)
            if table.last_knocked_out >= 0 and not table.over:
                first = table.next_seat(table.last_knocked_out)   # only with a tiny mercy_limit
    # A blank discard_colour turned up can empty F's hand: F wins with 0 turns (docs/rules.md §6 C29), and
    # as the round is over there is no FIRST_SEAT event and no checkpoint (docs/rules.md §1.10).
    if first is not None and not table.over:
        table.first_seat = first
        table.emit(L.EV_FIRST_SEAT, first, table.direction)
        checkpoint(table, table.left_of_dealer)
        check_standings(table)
        if not table.over:      # UNO penalties can knock out all but one seat (tiny mercy_limit)
            play_turns(table, first)
    else:
        check_standings(table)     # the setup ended the round
    table.emit(L.EV_ROUND_END, table.winner, table.end, round_points(table))
    return table


def deal(table: Table) -> None:
    """docs/rules.md §1.3: ``hand_size`` rounds of one card each, starting left of the dealer."""
    for _ in range(table.rules.hand_size):
        for offset in range(1, table.players + 1):
            table.hands[(table.dealer + offset) % table.players].append(table.draw_pile.pop())


def turn_up_first_card(table: Table) -> bool:
    """docs/rules.md §1.9: a turned-up WD4 goes back at a uniformly random position of the draw pile.

    Almost surely a few tries, but not bounded by construction: after ``FIRST_CARD_MAX_RETURNS``
    returns the WD4 stays as ``T`` and the round ends ``truncated`` before its first turn, counted in
    ``loop_bound_hits`` (returns False).
    """
    returns = 0
    while True:
        card = table.draw_pile.pop()
        table.discard_pile.append(card)
        table.emit(L.EV_FIRST_CARD, table.left_of_dealer, card)
        if not table.book.restricted[card]:   # a WD4 (UNO Flip: a Wild Draw Two, a challengeable declared card) goes back
            return True
        if returns == L.FIRST_CARD_MAX_RETURNS:
            table.loop_bound_hits += 1
            table.end_without_winner(L.END_TRUNCATED)
            return False
        returns += 1
        table.discard_pile.pop()
        # Index m (= len of the pile) is the top, so the card may come straight back up.
        position = table.game.deck_rng.below(len(table.draw_pile) + 1)
        table.draw_pile.insert(position, card)
        table.emit(L.EV_RETURN, -1, card, position)


def play_turns(table: Table, player: int) -> None:
    """The turn loop with the turn cap, the stalemate rule (docs/rules.md §1.6) and jump-ins (§4)."""
    idle_turns = 0
    while True:     # terminates: every pass counts a turn, and the turn cap is checked first
        if cap_reached(table):
            return
        moves_before = table.moves
        next_player = one_turn(table, player)
        if table.over:
            return
        idle_turns = idle_turns + 1 if table.moves == moves_before else 0
        if idle_turns >= table.n_active:
            table.end_without_winner(L.END_STALEMATE)
            return
        jumped = jump_ins(table, player)
        if table.over:
            return
        if jumped is not None:
            next_player, idle_turns = jumped, 0     # a jump-in always moves a card
        player = next_player


def cap_reached(table: Table) -> bool:
    """The turn cap (docs/rules.md §1.6), checked before a turn would start."""
    if table.n_turns == table.rules.max_turns_per_round:
        table.end_without_winner(L.END_TRUNCATED)
        return True
    return False


def one_turn(table: Table, player: int, jump_in_index: int | None = None) -> int | None:
    """One counted turn (docs/rules.md §1.13) with its checkpoint; a jump-in plays ``jump_in_index`` at once.

    After a knock-out the next turn belongs to ``next(last knocked-out seat)`` (docs/rules.md §2.4.6, §6 N11),
    applied when the turn, its checkpoint included, is over. Returns the next player (None: round over).
    """
    table.n_turns += 1
    table.emit(L.EV_TURN, player, table.n_turns, int(jump_in_index is not None))
    table.last_knocked_out = -1
    table.played = False
    if jump_in_index is None:
        next_player = take_turn(table, player)
    else:
        hooks.on_jump_in(table)             # a jump-in cancels a pending spin (docs/rules.md §4)
        next_player = play_card(table, player, jump_in_index)
    if table.over:
        check_standings(table)
        return None
    checkpoint(table, player)
    check_standings(table)
    if table.over:
        return None
    if table.last_knocked_out >= 0:
        next_player = table.next_seat(table.last_knocked_out)
    return next_player


def jump_ins(table: Table, last_player: int) -> int | None:
    """docs/rules.md §4 ``jump_in``: after a turn that placed a card (or a jump-in), with nothing pending and a
    coloured ``T``, the first active player from ``next(last player)`` in direction ``d`` who holds a
    card identical to ``T`` and wants to plays it out of turn; the players in between are bypassed
    (no pose event, decision). Jump-ins chain. Returns the player after the last jump-in, None if none."""
    next_player = None
    # terminates: every pass returns or counts a jump-in turn, and the turn cap is checked first
    while table.rules.jump_in and table.played and table.pending == 0 and not is_wild(table.top):
        jumper = find_jumper(table, last_player)
        if jumper is None:
            break
        seat, index = jumper
        if cap_reached(table):
            return None
        next_player = one_turn(table, seat, index)
        if table.over:
            return None
        last_player = seat
    return next_player


def find_jumper(table: Table, last_player: int) -> tuple[int, int] | None:
    """The first active seat other than ``last_player``, from ``next(last_player)`` in direction ``d``,
    holding a card identical to ``T`` and willing to jump in: (seat, first such hand index).

    Each other seat is asked at most once. ``last_player`` may have been knocked out after its play (an
    UNO penalty reaching the mercy limit at the checkpoint): its card is still ``T``, so the remaining
    active seats may jump in on it as on any play (docs/rules.md §4 ``jump_in``, §2.4.6); the knocked-out
    seat is never asked, and without a jump-in the next turn is ``next(knocked-out seat)``.
    """
    face = BASE_FACE[table.top]   # identical faces, whatever their backs (an UNO Flip pairing's copies)
    for seat in table.others_from(last_player):
        index = next((i for i, card in enumerate(table.hands[seat]) if BASE_FACE[card] == face), None)
        if index is not None and table.ask_jump_in(seat, index):
            return seat, index
    return None


def take_turn(table: Table, player: int) -> int | None:
    """``TURN(p)`` (docs/rules.md §1.5, §2.4.3); returns the next player, None if the round ended."""
    hooks.turn_passes_to(table, player)   # minions: every TURN(t) is a pose event (docs/rules.md §2.2.2)
    if table.over or not table.active[player]:
        return table.next_seat(player)          # knocked out by a pose penalty: the turn is over
    answer = hooks.replaces_turn(table, player)   # spin: spinning replaces the turn (docs/rules.md §1.5 step 2)
    if answer is not hooks.NOT_MINE:
        return answer
    choice = hooks.respond(table, player)   # a response turn to a pending penalty (stacking)
    if choice == hooks.ACCEPTED:
        return table.next_seat(player)
    if choice is not hooks.NOT_MINE:
        return play_card(table, player, choice)
    legal = table.legal_indices(player)
    choice = table.ask_play(player, legal) if legal else None
    if choice is None:
        choice = draw_for_turn(table, player)
        if choice is None:
            return table.next_seat(player)
    return play_card(table, player, choice)


def draw_for_turn(table: Table, player: int) -> int | None:
    """docs/rules.md §1.5 step 5, §2.4.3 step 2: draw one card (or until a legal one); returns its index if it
    is played.

    Only a *legal* drawn card may be played: an illegal Wild Draw Four drawn cannot be bluffed out.
    A drawer knocked out by the card it draws plays nothing, even a legal card (docs/rules.md §6 N19).
    """
    hand = table.hands[player]
    while True:     # terminates: each pass moves a card from the piles to the hand (none come back)
        if not table.draw_one(player):
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
    """docs/rules.md §1.5 step 6: place the card, name a colour for a wild, then the win or the effect."""
    # Guilt is judged on the hand at the moment of play, before the colour changes (docs/rules.md §1.8).
    card = table.hands[player][index]
    guilty = table.book.restricted[card] and table.holds_colour_in_play(player)
    pending = table.pending
    table.play_from_hand(player, index)
    table.played = True
    if hooks.colour_named_by_wing(card):
        pass        # No Mercy's Roulette: its victim names the colour (docs/rules.md §2.4.4, §6 N5)
    elif is_wild(card):
        table.colour = table.ask_colour(player)
        table.emit(L.EV_COLOUR, player, table.colour)
    else:
        table.colour = COLOUR[card]
    if table.hands[player]:
        return apply_played_card(table, player, card, guilty)
    return finish_with_last_card(table, player, card, pending)


def finish_with_last_card(table: Table, player: int, card: int, pending: int) -> int | None:
    """docs/rules.md §1.11, §2.4.7: the emptied hand wins, then the final-card effects (with ``pending``, the
    P pending before the card), unless a last shuffle_hands blank redeals (docs/rules.md §6 C21) and play
    goes on. Without final-card effects a pending P is discarded."""
    rules = table.rules
    if rules.final_card_effects:
        answer = hooks.on_last_card(table, player, card)   # a shuffle_hands blank redeals
        if answer is not hooks.NOT_MINE:
            return answer
    table.win(player)
    table.clear_pending()
    if rules.final_card_effects:
        apply_final_card(table, player, card, pending)
    return None


def checkpoint(table: Table, acting: int) -> None:
    """docs/rules.md §1.10: one UNO chance per one-card state, seats in turn order from the acting player."""
    rules = table.rules
    forget = rules.p_forget_uno
    seat = acting
    for _ in range(table.players):
        if table.over:
            return      # an UNO penalty knocked out the last opponent (tiny mercy_limit only)
        if table.active[seat] and len(table.hands[seat]) == 1 and not table.uno_done[seat]:
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


def check_standings(table: Table) -> None:
    """The standings check of the quality measures (protocol §3): before the first turn and after every
    counted turn, its checkpoint done or the round over."""
    table.quality.check_standings(table.hands, table.active)


def round_points(table: Table) -> int:
    """The winner's score as in ``points`` mode (docs/rules.md §1.12, §2.4.8): every other active hand's points
    plus 250 per player knocked out in the round (their hands are set aside, so they count 0)."""
    if table.winner < 0:
        return 0
    hands = sum(table.hand_points(s) for s in range(table.players) if s != table.winner)
    return hands + KNOCKOUT_POINTS * table.knockouts
