"""Card effects: as played (docs/rules.md §1.7, §2.4.4), as first card (§1.9) and as final card (§1.11).
Draw cards, stacking and skips are in :mod:`.penalties`; a mechanism's own cards (blanks, Dumb Fu, spin
cards, 7-0, UNO Flip's) act through its wing (:mod:`.hooks`).

Every effect function returns the seat that takes the next turn, or ``None`` when the effect ended
the round. A knock-out that ends the round stops everything at once (docs/rules.md §2.4.6).
"""

from __future__ import annotations

from ..game import cards
from ..game import protocol as L
from . import hooks
from .card_tables import COLOUR, DRAW_VALUE, KIND
from .mechanics import cards as declared
from .penalties import (
    draw_card_played,
    final_draw,
    skip,
    victim_draws_and_is_skipped,
)
from .table import Skips, Table


def after_wing(table: Table, answer):
    """A wing's answer (reference/hooks.py): ``Skips(v)`` skips ``v`` and the turn goes to ``next(v)``;
    anything else (a seat, None, ``NOT_MINE``) is returned as it is."""
    if isinstance(answer, Skips):
        skip(table, answer.seat)
        return table.next_seat(answer.seat)
    return answer


# ---- effects of a card played with cards left (docs/rules.md §1.7) -----------------------------------------
def apply_played_card(table: Table, player: int, card: int, guilty: bool) -> int | None:
    """The effect of ``card`` just played by ``player``; ``guilty``: an illegal (bluffed) WD4."""
    kind = KIND[card]
    if table.book.is_custom(card):   # a declared card's effects (docs/rules.md §2.7)
        return declared.on_play(table, player, card, guilty)
    answer = hooks.on_play(table, player, card, guilty)
    answer = after_wing(table, answer)
    if answer is not hooks.NOT_MINE:
        return answer
    if DRAW_VALUE[card] > 0:
        return draw_card_played(table, player, card, guilty)
    if kind == cards.SKIP:
        victim = table.next_seat(player)
        skip(table, victim)
        return table.next_seat(victim)      # two players: back to the player
    if kind == cards.REVERSE:
        return reverse(table, player)
    if kind == cards.NUMBER:
        hooks.on_number(table, player, card)    # a spin card's designation (§2.3.2), 7-0's swap and pass (§4)
        return table.next_seat(player)
    if kind == cards.SKIP_EVERYONE:
        return player                       # docs/rules.md §2.4.4: p takes another turn
    return table.next_seat(player)          # WILD


def reverse(table: Table, player: int) -> int:
    table.direction = -table.direction
    if table.n_active == 2 and table.rules.two_player_reverse_skip:   # two *active* players (N12)
        # Two players: acts as SKIP, but the direction still changes (docs/rules.md §6 C27).
        skip(table, table.next_seat(player))
        return player
    return table.next_seat(player)


# ---- the first card (docs/rules.md §1.9) ---------------------------------------------------------------------
def apply_first_card(table: Table) -> int | None:
    """The effect of the turned-up ``T`` with ``F`` acting; returns the seat taking the first turn."""
    f_seat, top = table.left_of_dealer, table.top
    kind = KIND[top]
    if COLOUR[top] != cards.NO_COLOUR:
        table.colour = COLOUR[top]
    else:
        # WILD, DUMB_FU (no pose, docs/rules.md §6 M4) and BLANK: F names the colour.
        table.colour = table.ask_colour(f_seat)
        table.emit(L.EV_COLOUR, f_seat, table.colour)
    if kind == cards.SKIP:
        skip(table, f_seat)
        return table.next_seat(f_seat)
    if DRAW_VALUE[top] > 0 and COLOUR[top] != cards.NO_COLOUR:   # Draw Two, UNO Flip's Draw One
        # No stacking against a turned-up card (docs/rules.md §4).
        return victim_draws_and_is_skipped(table, f_seat, DRAW_VALUE[top])
    if kind == cards.REVERSE:
        table.direction = -1
        return table.dealer
    if table.book.is_custom(top):   # a declared card (docs/rules.md §2.7)
        return declared.on_first_card(table, f_seat, top)
    answer = hooks.on_first_card(table, f_seat, top)   # spin_first_card_spins (§2.3.6), a blank (§2.1.3)
    answer = after_wing(table, answer)
    if answer is not hooks.NOT_MINE:
        return answer
    return f_seat


# ---- the final card (docs/rules.md §1.11) ------------------------------------------------------------------
def apply_final_card(table: Table, player: int, card: int, pending: int) -> None:
    """Effects of the card that emptied ``player``'s hand, after the win and before scoring.

    Only called with ``final_card_effects`` on. ``pending``: the penalty P pending before this card.
    A last ``shuffle_hands`` blank never gets here (the round goes on); a wing's card acts through its
    wing. No other no_mercy card has a final-card effect (docs/rules.md §4).
    """
    if table.book.is_custom(card):
        declared.on_final(table, player, card, pending)   # a declared card's effects (§2.7)
    elif DRAW_VALUE[card] > 0:
        final_draw(table, player, card, pending)   # no response, no challenge
    else:
        hooks.on_final(table, player, card)    # a last blank (§2.1.3), a last spin card (§2.3.6)
