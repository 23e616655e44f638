"""The hooks through which the reference engine's core calls the mechanism wings (:mod:`.mechanics`, the
readable twins of ``unosim/engine/mechanics/``).

Each wing holds one mechanism's verbs, its round state (kept on the ``Table``, set by its ``start``)
and its round counters. The core (:mod:`.turn`, :mod:`.effects`, :mod:`.round`) calls the wings only
through the hooks below, at the same points as the compiled engine's (listed in
``unosim.engine.core.hooks``); this module is the one place that lists the wings:

=====================================  ===============================================================
hook                                   what a wing does there
=====================================  ===============================================================
``start(table)``                       set its round state (round start)
``turn_passes_to(table, seat)``        the turn passes to ``seat`` (its turn or its skip)
``replaces_turn(table, seat)``         a turn the wing plays instead (the spinner spins): the next
                                       seat (``None``: the round ended), or ``NOT_MINE``
``respond(table, seat)``               a response turn to a pending penalty: the index of the card to
                                       play, ``ACCEPTED`` (it drew the penalty), or ``NOT_MINE``
``on_draw_card(table, p, card, v)``    a draw card not resolved at once (stacking): the responder, or
                                       ``NOT_MINE``
``turn_up_first(table)``               the wing's own setup of ``T`` (No Mercy: a NUMBER, without
                                       effect): F's seat, or ``NOT_MINE``
``on_first_card(table, first, card)``  a first card of its kinds (F has named a wild's colour): F's
                                       seat, ``Skips(v)``, or ``NOT_MINE`` (F takes the first turn)
``colour_named_by_wing(card)``        whether a wild leaves the colour to its wing (No Mercy's
                                       Roulette: its victim names it), not to its player
``on_play(table, player, card, g)``    the effect of a card of its kinds played with cards left: the
                                       next seat, ``Skips(v)`` (v loses its turn), or ``NOT_MINE``
``on_number(table, player, card)``     what a NUMBER card adds to its effect
``on_last_card(table, player, card)``  a last card under final_card_effects: the round goes on (the
                                       next seat), or ``NOT_MINE`` (the player wins)
``on_final(table, player, card)``      its final-card effect (docs/rules.md §1.11)
``on_jump_in(table)``                  a jump-in happens (docs/rules.md §4: it cancels a pending spin)
``write(table, row)``                  its round counters
``write_seat(table, row, seat)``       its seat counters
=====================================  ===============================================================
"""

from __future__ import annotations

from .mechanics import blank, flip, minions, no_mercy, seven_o, spin, stacking
from .mechanics.stacking import ACCEPTED  # noqa: F401 (a response turn's answer, for the core)
from .table import NOT_MINE, Table  # noqa: F401 (the hooks' answer, for the core)


def start(table: Table) -> None:
    minions.start(table)
    spin.start(table)
    seven_o.start(table)
    flip.start(table)


def turn_passes_to(table: Table, seat: int) -> None:
    minions.turn_passes_to(table, seat)


def replaces_turn(table: Table, seat: int):
    return spin.replaces_turn(table, seat)


def turn_up_first(table: Table):
    return no_mercy.turn_up_first(table)


def respond(table: Table, seat: int):
    return stacking.respond(table, seat)


def on_draw_card(table: Table, player: int, card: int, victim: int):
    return stacking.on_draw_card(table, player, card, victim)


def on_first_card(table: Table, first: int, card: int):
    spin.on_first_card(table, first, card)
    return blank.on_first_card(table, first, card)


def colour_named_by_wing(card: int) -> bool:
    return no_mercy.victim_names_colour(card)


def on_play(table: Table, player: int, card: int, guilty: bool):
    for wing in (blank, minions, no_mercy, flip):
        answer = wing.on_play(table, player, card, guilty)
        if answer is not NOT_MINE:
            return answer
    return NOT_MINE


def on_number(table: Table, player: int, card: int) -> None:
    spin.on_number(table, player, card)
    seven_o.on_number(table, player, card)


def on_last_card(table: Table, player: int, card: int):
    return blank.on_last_card(table, player, card)


def on_final(table: Table, player: int, card: int) -> None:
    blank.on_final(table, player, card)
    spin.on_final(table, player, card)
    flip.on_final(table, player, card)


def on_jump_in(table: Table) -> None:
    spin.on_jump_in(table)


def write(table: Table, row: list[int]) -> None:
    minions.write(table, row)
    spin.write(table, row)
    seven_o.write(table, row)
    flip.write(table, row)


def write_seat(table: Table, row: list[int], seat: int) -> None:
    spin.write_seat(table, row, seat)
