"""The No Mercy family's wing, reference twin of ``unosim/engine/mechanics/no_mercy.py``: its setup and its
own action cards (docs/rules.md §2.4.2, §2.4.4, §6 N5, N14, N15). Stacking, mercy knock-outs and 7-0 are
verbs of their own; Skip Everyone is the core's.
"""

from __future__ import annotations

from ...game import cards
from ...game import protocol as L
from ..card_tables import COLOUR, KIND
from ..table import NOT_MINE, Table


def turn_up_first(table: Table):
    """docs/rules.md §2.4.2, §6 N15 (no_mercy only): turn up cards until a NUMBER; the others stay in the
    discard pile under it, without effect; ``A`` is the number card's colour, and F takes the first turn
    (no first-card effect). ``NOT_MINE`` in other families.

    Terminates: the deal leaves more than 88 cards (docs/rules.md §3: ``hand_size × n ≤ deck − 88 − 1``) and
    only 88 cards are not NUMBERs."""
    if table.rules.mechanics != "no_mercy":
        return NOT_MINE
    while True:
        card = table.draw_pile.pop()
        table.discard_pile.append(card)
        table.emit(L.EV_FIRST_CARD, table.left_of_dealer, card)
        if KIND[card] == cards.NUMBER:
            table.colour = COLOUR[card]
            return table.left_of_dealer


def victim_names_colour(card: int) -> bool:
    """A Wild Color Roulette's player names no colour when it is placed: its victim does (docs/rules.md
    §2.4.4, §6 N5)."""
    return KIND[card] == cards.ROULETTE


def on_play(table: Table, player: int, card: int, guilty: bool):
    """Discard All or Wild Color Roulette played with cards left: the next seat (None: Discard All emptied
    the hand, which wins); ``NOT_MINE`` for any other card."""
    if KIND[card] == cards.DISCARD_ALL:
        return discard_all(table, player, card)
    if KIND[card] == cards.ROULETTE:
        return roulette(table, player)
    return NOT_MINE


def discard_all(table: Table, player: int, card: int) -> int | None:
    """Every other card of the Discard All's printed colour (docs/rules.md §6 N14) goes under it, in hand
    order, without effects; an emptied hand wins (§2.4.7)."""
    table.discard_colour(player, COLOUR[card])
    if not table.hands[player]:
        table.win(player)
        return None
    return table.next_seat(player)


def roulette(table: Table, player: int) -> int:
    """The victim ``v = next(p)`` names a colour, which is in play at once (docs/rules.md §6 N5), then reveals
    until a card of that colour (wilds do not count), keeping every revealed card; the reveal stops on
    a failed draw or a knock-out. ``v`` loses the turn; next ``next(v)``."""
    victim = table.next_seat(player)
    table.colour = table.ask_colour(victim)
    table.emit(L.EV_ROULETTE, victim, table.colour)
    table.draw_until_colour(victim, table.colour)
    return table.next_seat(victim)
