"""The hooks through which the core calls the mechanism wings (:mod:`..mechanics`).

The core (``effects``, ``turn``, ``output``, ``audit``, ``lookahead``) calls a wing only through the hooks
below, and this module is the one place that lists the wings (the mercy rule's knock-out is not a wing:
the draw verb, ``record.piles.draw_one``, knocks out itself). Each hook calls a wing under its
compile-time switch (``if HAS_<NAME>:``, :mod:`..features`), so a
build without the mechanism never compiles the wing, and every hook is inlined (``inline='always'``),
so dispatch costs nothing:

=============================  ==========================  ==================================================
hook                           called from                 what a wing does there
=============================  ==========================  ==================================================
``reset(g)``                   ``turn.reset_round``        zero its scratch and counters
``turn_passes_to(g, s)``       ``turn.take_turn``,         the turn passes to s (its turn or its skip)
                               ``effects.skip_seat``
``replaces_turn(g, p)``        ``turn.take_turn``          a turn the wing plays instead (the designated
                                                           spinner spins): the next seat, or ``NOT_MINE``
``respond(g, p)``              ``turn.take_turn``          a response turn to a pending penalty: the hand
                                                           index to play, ``ACCEPTED`` (p drew it), or
                                                           ``NOT_MINE`` (an ordinary turn)
``response_options(g, p, l)``  ``lookahead.candidates``    l[:ns] = what p may answer a pending penalty
                                                           with: ns, or ``NOT_MINE``
``on_draw_card(g, p, c)``      ``effects.draw_card_…``     a draw card that is not resolved at once
                                                           (stacking): the responder, or ``NOT_MINE``
``acts_first(g, p)``           ``lookahead.candidates``    whether p's turn starts with the wing acting (a
                                                           draw before any decision: no search)
``turn_up_first(g, f)``        ``turn.first_card``         the wing's own setup of T (No Mercy: a NUMBER,
                                                           without effect): F's seat, or ``NOT_MINE``
``on_first_card(g, f, c)``     ``turn.first_card_effect``  a first card of its kinds (§1.9; F has named a
                                                           wild's colour): F's seat, ``SKIPS - v``, or
                                                           ``NOT_MINE`` (F takes the first turn)
``colour_named_by_wing(c)``    ``effects.place_card``      whether a wild c leaves the colour to its wing
                                                           (No Mercy's Roulette: its victim names it)
``on_play(g, p, c, guilty)``   ``effects.action_effect``   the effect of a card of its kinds, played with
                                                           cards left: the next seat, ``SKIPS - v`` (v
                                                           loses its turn), or ``NOT_MINE`` (the core's
                                                           effect applies)
``on_number(g, p, c)``         ``effects.number_effect``   what a NUMBER card adds to its effect
``on_last_card(g, p, c)``      ``effects.last_card``       p played its last card c (final_card_effects):
                                                           the round goes on (the next seat) or
                                                           ``NOT_MINE`` (p wins)
``on_final(g, p, c)``          ``effects.final_card_…``    its final-card effect (§1.11)
``on_jump_in(g)``              ``turn.jump_ins``           a jump-in happens (§4: it cancels a pending spin)
``seen_counts(g, p, counts)``  ``lookahead.search``        what a searching seat sees: known hands, and the
                                                           deck counted as it shows now
``deal_by_backs(g, t, …)``     ``worlds.deal_world``       deal t's cards a searching seat sees only the
                                                           backs of: (h, j) past them
``physical(c)``                ``audit.audit``             the card id a face belongs to
``consistent(g)``              ``audit.audit``             its own invariants hold
``write(g, row)``              ``output.write_round``      its round counters (the output zeroes every
                                                           wing's first)
``write_seat(g, srow, s)``     ``output.write_seats``      its seat counters
=============================  ==========================  ==================================================

Adding a wing: its module pair, a line under each hook it uses here and in
``reference/hooks.py``, and its entry in ``protocol.MECHANISMS`` (CONTRIBUTING.md).
"""

from unosim.engine.compiler.jit import njit

from ..features import HAS_BLANK, HAS_FLIP, HAS_MINIONS, HAS_NO_MERCY, HAS_SEVEN_O, HAS_SPIN, HAS_STACKING
from ..mechanics import blank, flip, minions, no_mercy, seven_o, spin, stacking
from ..record.state import ACCEPTED, NOT_MINE, SKIPS  # noqa: F401 (the hooks' answers, for the core)


@njit(inline='always')
def reset(g):
    if HAS_MINIONS:
        minions.reset(g)
    if HAS_SPIN:
        spin.reset(g)
    if HAS_SEVEN_O:
        seven_o.reset(g)
    if HAS_FLIP:
        flip.reset(g)


@njit(inline='always')
def turn_passes_to(g, s):
    if HAS_MINIONS:
        minions.turn_passes_to(g, s)


@njit(inline='always')
def replaces_turn(g, p):
    r = NOT_MINE
    if HAS_SPIN:
        r = spin.replaces_turn(g, p)
    return r


@njit(inline='always')
def respond(g, p):
    r = NOT_MINE
    if HAS_STACKING:
        r = stacking.respond(g, p)
    return r


@njit(inline='always')
def response_options(g, p, legal):
    r = NOT_MINE
    if HAS_STACKING:
        r = stacking.response_options(g, p, legal)
    return r


@njit(inline='always')
def on_draw_card(g, p, c):
    r = NOT_MINE
    if HAS_STACKING:
        r = stacking.on_draw_card(g, p, c)
    return r


@njit(inline='always')
def acts_first(g, p):
    first = False
    if HAS_MINIONS:
        first = first or minions.poses_now(g, p)
    if HAS_SPIN:
        first = first or spin.spins_now(g, p)
    return first


@njit(inline='always')
def turn_up_first(g, f):
    r = NOT_MINE
    if HAS_NO_MERCY:
        r = no_mercy.turn_up_first(g, f)
    return r


@njit(inline='always')
def on_first_card(g, f, c):
    r = NOT_MINE
    if HAS_SPIN:
        spin.on_first_card(g, f, c)
    if HAS_BLANK and r == NOT_MINE:
        r = blank.on_first_card(g, f, c)
    return r


@njit(inline='always')
def colour_named_by_wing(c):
    named = False
    if HAS_NO_MERCY:
        named = no_mercy.victim_names_colour(c)
    return named


@njit(inline='always')
def on_play(g, p, c, guilty):
    r = NOT_MINE
    if HAS_BLANK and r == NOT_MINE:
        r = blank.on_play(g, p, c)
    if HAS_MINIONS and r == NOT_MINE:
        r = minions.on_play(g, p, c)
    if HAS_NO_MERCY and r == NOT_MINE:
        r = no_mercy.on_play(g, p, c)
    if HAS_FLIP and r == NOT_MINE:
        r = flip.on_play(g, p, c, guilty)
    return r


@njit(inline='always')
def on_number(g, p, c):
    if HAS_SPIN:
        spin.on_number(g, p, c)
    if HAS_SEVEN_O:
        seven_o.on_number(g, p, c)


@njit(inline='always')
def on_final(g, p, c):
    if HAS_BLANK:
        blank.on_final(g, p, c)
    if HAS_SPIN:
        spin.on_final(g, p, c)
    if HAS_FLIP:
        flip.on_final(g, p, c)


@njit(inline='always')
def on_last_card(g, p, c):
    r = NOT_MINE
    if HAS_BLANK:
        r = blank.on_last_card(g, p, c)
    return r


@njit(inline='always')
def on_jump_in(g):
    if HAS_SPIN:
        spin.on_jump_in(g)


@njit(inline='always')
def seen_counts(g, p, deck_counts):
    counts = deck_counts
    if HAS_FLIP:
        counts = flip.seen_counts(g, p, counts)
    return counts


@njit(inline='always')
def deal_by_backs(g, t, whands, h, pool, j, m):
    if HAS_FLIP:
        return flip.deal_by_backs(g, t, whands, h, pool, j, m)
    return h, j


@njit(inline='always')
def physical(c):
    if HAS_FLIP:
        c = flip.physical(c)
    return c


@njit(inline='always')
def consistent(g):
    ok = True
    if HAS_FLIP:
        ok = ok and flip.sides_agree(g)
    return ok


@njit(inline='always')
def write(g, row):
    if HAS_MINIONS:
        minions.write(g, row)
    if HAS_SPIN:
        spin.write(g, row)
    if HAS_SEVEN_O:
        seven_o.write(g, row)
    if HAS_FLIP:
        flip.write(g, row)


@njit(inline='always')
def write_seat(g, srow, s):
    if HAS_SPIN:
        spin.write_seat(g, srow, s)
