"""Penalties: skips (a pose event in minions, .mechanics.minions), draw cards with the Wild Draw Four
challenge (§1.7, §1.8) and the pending penalty P (§1.7, protocol §5), which resolves at once unless the
stacking wing (.mechanics.stacking) turns it into a response turn.

State on the table: ``pending`` (P), ``pending_value`` (V), ``pending_kind`` (K) and ``responder``.
"""

from __future__ import annotations

from ..game import cards
from ..game import protocol as L
from . import hooks
from .table import Table


# ---- skips ------------------------------------------------------------------------------------------------
def skip(table: Table, victim: int) -> None:
    """``victim`` loses its turn. A skip passes the turn to the victim, so it is a pose event.

    Decision: a seat knocked out by the skipping card's own draws is not skipped any more (no event,
    no pose event): knocked-out players take no further part in the round (docs/rules.md §2.4.6)."""
    if not table.active[victim]:
        return
    table.emit(L.EV_SKIP, victim)
    hooks.turn_passes_to(table, victim)


def victim_draws_and_is_skipped(table: Table, victim: int, count: int) -> int | None:
    """DRAW_TWO without stacking, an unchallenged WD4, blank ``draw_two_next``: draw, lose the turn
    (docs/rules.md §6 M5). None if a knock-out during the draw ended the round."""
    table.draw(victim, count)
    if table.over:
        return None
    skip(table, victim)
    return table.next_seat(victim)


# ---- draw cards (docs/rules.md §1.7, §1.8, §2.4.4) -------------------------------------------------------
def add_to_pending(table: Table, card: int) -> None:
    """A draw card that takes effect: ``P += value``, ``V = value``, ``K = kind``; ``largest_stack``
    is the largest P of the round (docs/rules.md §1.13), also without stacking, where P resolves at once."""
    value = table.book.draw_value[card]
    table.pending += value
    table.pending_value, table.pending_kind = value, table.book.kind[card]
    table.largest_stack = max(table.largest_stack, table.pending)


def draw_card_played(table: Table, player: int, card: int, guilty: bool) -> int | None:
    """A draw card played with cards left, as a normal play or as a stack response.

    * WRD4 reverses first (docs/rules.md §2.4.4), then adds to P like every draw card.
    * A WD4 played normally (not as a stack response) may be challenged by its victim before anything
      else (§1.8); a challenger cannot stack, and the challenge resolves the penalty. A stack response
      is exempt from the legality rule and cannot be challenged (§1.8, §6 C17).
    * ``stacking = none``: the victim draws P at once and is skipped (§1.7).
    * Otherwise the responder takes the next turn, a response turn (§2.4.3 step 1): ``next(p)``; for a
      WRD4 with two active players ``p`` itself (§2.4.4, §6 N4, N18).
    """
    responding = table.pending > 0
    kind, value = table.book.kind[card], table.book.draw_value[card]
    if kind == cards.WRD4:
        table.direction = -table.direction
    add_to_pending(table, card)
    victim = table.next_seat(player)
    # The compiled rules fold no_bluffing into wd4_challenge: with no bluffing nobody is ever guilty,
    # so the challenge is not offered at all (docs/rules.md §4).
    may_challenge = table.rules.wd4_challenge and not table.rules.no_bluffing
    if table.book.restricted[card] and not responding and may_challenge and table.ask_challenge(victim):
        table.clear_pending()
        table.emit(L.EV_CHALLENGE, victim, int(guilty))
        if guilty:
            table.draw(player, value)
            return victim                   # the victim keeps its turn (docs/rules.md §6 C8)
        return victim_draws_and_is_skipped(table, victim, value + 2)
    responder = hooks.on_draw_card(table, player, card, victim)   # stacking: a response turn
    if responder is not hooks.NOT_MINE:
        return responder
    count = table.pending
    table.clear_pending()
    return victim_draws_and_is_skipped(table, victim, count)


def final_draw(table: Table, player: int, card: int, pending: int) -> None:
    """A draw card that emptied the hand, with ``final_card_effects`` on (docs/rules.md §1.11, §4): the next
    active player (after a WRD4's reversal) draws P including this card, with no response and no
    challenge; the Mercy rule applies to that draw. ``largest_stack`` does not count it (§1.13)."""
    if table.book.kind[card] == cards.WRD4:
        table.direction = -table.direction
    table.draw(table.next_seat(player), pending + table.book.draw_value[card])
