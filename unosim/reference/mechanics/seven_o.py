"""The 7-0 house rule's wing, reference twin of ``unosim/engine/mechanics/seven_o.py`` (docs/rules.md §4
``seven_o``, §2.4.4): a 7 swaps hands with a seat of the player's choice (``Table.swap_hands``, shared
with the blank cards), a 0 passes every active hand on (``Table.pass_hands``). The round's counters are ``table.swaps_7`` and
``table.passes_0``, set by :func:`start`.
"""

from __future__ import annotations

from ...game import protocol as L
from ..card_tables import NUMBER_OF
from ..table import Table


def start(table: Table) -> None:
    table.swaps_7 = table.passes_0 = 0


def on_number(table: Table, player: int, card: int) -> None:
    """7: ``player`` MUST swap hands with an active player of its choice (two players: the opponent,
    still asked); 0: every active hand passes to ``next(its seat)``. Knocked-out seats take no part."""
    if not table.rules.seven_o:
        return
    if NUMBER_OF[card] == 7:
        table.swap_hands(player, table.ask_target(player, table.others_from(player)))
        table.swaps_7 += 1
    elif NUMBER_OF[card] == 0:
        table.pass_hands(player)
        table.passes_0 += 1


def write(table: Table, row: list[int]) -> None:
    row[L.RC_SWAPS_7] = table.swaps_7
    row[L.RC_PASSES_0] = table.passes_0
