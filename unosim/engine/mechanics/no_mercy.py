"""The No Mercy family's wing: its setup and its own action cards (docs/rules.md §2.4.2, §2.4.4, §6 N5,
N14, N15). Its other mechanisms are wings or core verbs of their own: stacking and its draw cards
(Wild Draw Six / Ten, Wild Reverse Draw Four), mercy knock-outs, 7-0; Skip Everyone is the core's.

* the first card: cards are turned up until a NUMBER, the others stay under it without effect;
* Discard All: every other card of its printed colour goes under it (an emptied hand wins);
* Wild Color Roulette: the victim next(p) names the colour, then reveals until a card of it, and loses
  its turn (the core leaves a Roulette's colour to the victim).
"""

from unosim.engine.compiler.jit import njit
from unosim.game import cards as C
from unosim.game import protocol as L

from ..policies.dispatch import choose_colour
from ..record.piles import discard_colour, draw_until_colour, win
from ..record.state import (
    COLOUR,
    DISC,
    DRAW,
    K_NUMBER,
    KIND,
    NOT_MINE,
    ST_COLOUR,
    ST_TOP,
    discarded,
    emit,
    next_seat,
)

K_DISCARD_ALL, K_ROULETTE = C.DISCARD_ALL, C.ROULETTE


@njit
def turn_up_first(g, f):
    """§2.4.2 (no_mercy only): turn up cards until a NUMBER, which becomes T; the others stay under it,
    without effect; F takes the first turn. NOT_MINE in other families. Terminates: the deal leaves more
    than 88 cards (rules: hand_size × n ≤ deck − 88 − 1) and only 88 are not NUMBERs."""
    if g["ir"][L.IR_FAMILY] != L.FAMILY_NO_MERCY:
        return NOT_MINE
    st = g["st"]
    pile = g["pile"]
    plen = g["plen"]
    while True:
        plen[DRAW] -= 1
        c = pile[DRAW, plen[DRAW]]
        emit(g, L.EV_FIRST_CARD, f, c, 0)
        pile[DISC, plen[DISC]] = c
        plen[DISC] += 1
        discarded(g, c)
        if KIND[c] == K_NUMBER:
            st[ST_TOP] = c
            st[ST_COLOUR] = COLOUR[c]
            return f


@njit(inline='always')
def victim_names_colour(c):
    """A Wild Color Roulette's player names no colour when it is placed: its victim does (§6 N5)."""
    return KIND[c] == K_ROULETTE


@njit(inline='always')
def on_play(g, p, c):
    """Discard All or Wild Color Roulette played by p with cards left: the next seat (-1 when Discard
    All emptied p's hand: p won); NOT_MINE for any other card."""
    k = KIND[c]
    if k == K_DISCARD_ALL:
        discard_colour(g, p, COLOUR[c])
        if g["hlen"][p] == 0:
            win(g, p)
            return -1
        return next_seat(g, p)
    if k == K_ROULETTE:
        return roulette(g, p)
    return NOT_MINE


@njit
def roulette(g, p):
    """WILD_COLOR_ROULETTE (§2.4.4, N5): the victim names C, then reveals until a card of colour C."""
    v = next_seat(g, p)
    colour = choose_colour(g, v)
    emit(g, L.EV_ROULETTE, v, colour, 0)
    g["st"][ST_COLOUR] = colour
    draw_until_colour(g, v, colour)
    return next_seat(g, v)
