"""The Minions family's wing, reference twin of ``unosim/engine/mechanics/minions.py``: Dumb Fu pose
windows (docs/rules.md §2.2.2, §6 M1-M6).

State on the table, set by :func:`start`: ``pose_window`` (per seat: events counted so far for an open
window, None if closed) and the round's ``dumbfu_penalties``.
"""

from __future__ import annotations

from ...game import cards
from ...game import protocol as L
from ..card_tables import KIND
from ..table import NOT_MINE, Table


def start(table: Table) -> None:
    table.pose_window = [None] * table.players
    table.dumbfu_penalties = 0


def turn_passes_to(table: Table, seat: int) -> None:
    """The turn passes to ``seat`` (its turn or a skip): a pose event. The second such event of an open
    window closes it: the seat holds the pose or breaks it (``p_dumbfu_fail``) and draws the penalty."""
    events = table.pose_window[seat]
    if events is None:
        return
    if events == 0:
        table.pose_window[seat] = 1   # the first event: the target's coming turn
        return
    table.pose_window[seat] = None
    failed = table.game.play_rng.bernoulli(table.rules.p_dumbfu_fail)
    table.emit(L.EV_POSE, seat, int(failed))
    if failed:
        # docs/rules.md §6 M6: the failure counts even when the piles cannot supply the cards.
        table.dumbfu_penalties += 1
        table.draw(seat, table.rules.dumbfu_penalty)


def on_play(table: Table, player: int, card: int, guilty: bool):
    """A Dumb Fu aimed at ``next(player)`` opens its window, replacing an open one without any draw; the
    target is not skipped (docs/rules.md §6 M1)."""
    if KIND[card] != cards.DUMB_FU:
        return NOT_MINE
    target = table.next_seat(player)
    table.pose_window[target] = 0
    table.emit(L.EV_DUMBFU, target)
    return target


def write(table: Table, row: list[int]) -> None:
    row[L.RC_DUMBFU_PENALTIES] = table.dumbfu_penalties
