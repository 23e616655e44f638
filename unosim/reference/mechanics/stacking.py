"""The stacking house rule's wing, reference twin of ``unosim/engine/mechanics/stacking.py`` (docs/rules.md
§1.7, §2.4.3-§2.4.5, §4 ``stacking``, protocol §5): a draw card joins the pending penalty and the
responder's next turn is a response turn — stack a draw card the mode allows, or accept and draw it.

The pending penalty (``table.pending``, ``pending_value``, ``pending_kind``, ``responder``) is the
core's: it is in every policy's view, a final draw card adds it (docs/rules.md §1.11), a win or a
knock-out of the responder clears it.
"""

from __future__ import annotations

from ...game import cards
from ...game import protocol as L
from ..table import NOT_MINE, Table

ACCEPTED = -1   # a response turn's answer: the responder accepted the pending penalty and drew it


def stack_indices(table: Table, seat: int) -> tuple[int, ...]:
    """Cards allowed as a response to the pending penalty (docs/rules.md §4 ``stacking``, §2.4.5): no colour
    match and no Wild Draw Four restriction (§1.8)."""
    mode, hand, book = table.rules.stacking, table.hands[seat], table.book

    def allowed(card: int) -> bool:
        if book.draw_value[card] == 0:
            return False                    # only draw cards may answer (docs/rules.md §6 N6)
        if mode == "same_kind":
            return book.kind[card] == table.pending_kind
        if mode == "escalating":
            return book.draw_value[card] >= table.pending_value
        return True                         # any_draw

    return tuple(i for i, card in enumerate(hand) if allowed(card))


def on_draw_card(table: Table, player: int, card: int, victim: int):
    """A draw card played with cards left and not challenged: with stacking the responder takes the
    next turn, a response turn (docs/rules.md §2.4.3 step 1) — ``next(p)``, or ``p`` itself for a WRD4 with
    two active players (§2.4.4, §6 N4, N18); ``NOT_MINE`` without stacking (it resolves at once)."""
    if table.rules.stacking == "none":
        return NOT_MINE
    responder = player if table.book.kind[card] == cards.WRD4 and table.n_active == 2 else victim
    table.responder = responder
    return responder


def respond(table: Table, responder: int):
    """docs/rules.md §1.7, §2.4.3 step 1, when a penalty is pending: the index of the card the responder
    stacks (the core plays it), or ``ACCEPTED`` after it drew the whole total (P, V and K are reset
    before the draws, protocol §5; a knock-out ends the draw, §2.4.6); ``NOT_MINE`` otherwise."""
    if table.pending == 0:
        return NOT_MINE
    options = stack_indices(table, responder)
    choice = table.ask_stack(responder, options) if options else None
    if choice is not None:
        return choice
    total = table.pending
    table.clear_pending()
    table.emit(L.EV_ACCEPT, responder, total)
    table.draw(responder, total)
    return ACCEPTED
