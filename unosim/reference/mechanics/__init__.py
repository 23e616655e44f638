"""Mechanism wings of the reference engine (the readable twins of ``unosim/engine/mechanics/``), and the
hooks through which the core calls them.

Each wing holds one mechanism's verbs, its round state (kept on the ``Table``, set by its ``start``)
and its round counters. The core (:mod:`..round`, :mod:`..effects`, :mod:`..match`) calls the wings only
through the hooks below, at the same points as the compiled engine's (listed in
``unosim.engine.mechanics``); this module is the one place that lists the wings:

=====================================  ===============================================================
hook                                   what a wing does there
=====================================  ===============================================================
``start(table)``                       set its round state (round start)
``on_play(table, player, card, g)``    the effect of a card of its kinds played with cards left: the
                                       next seat, ``None`` (the round ended), or ``NOT_MINE``
``on_number(table, player, card)``     what a NUMBER card adds to its effect
``on_final(table, player, card)``      its final-card effect (docs/rules.md §1.11)
``write(table, row)``                  its round counters
=====================================  ===============================================================
"""

from __future__ import annotations

from ..table import NOT_MINE, Table  # noqa: F401 (the play hook's answer, for the core)
from . import flip, seven_o


def start(table: Table) -> None:
    seven_o.start(table)
    flip.start(table)


def on_play(table: Table, player: int, card: int, guilty: bool):
    return flip.on_play(table, player, card, guilty)


def on_number(table: Table, player: int, card: int) -> None:
    seven_o.on_number(table, player, card)


def on_final(table: Table, player: int, card: int) -> None:
    flip.on_final(table, player, card)


def write(table: Table, row: list[int]) -> None:
    seven_o.write(table, row)
    flip.write(table, row)
