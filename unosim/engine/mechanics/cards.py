"""Cards declared as data (docs/rules.md §2.7): where a declared card's row is, and the verbs its effects
use that no built-in card has as such (every other seat draws N; every hand passes on, without 7-0's
counter). The interpreter that applies the effects in order is the core's (``effects.declared_*``: it
skips seats and plays draw cards, which are the core's verbs), the compiled twin of
``unosim/reference/mechanics/cards.py``.

A declared card's effects are not code: they are a row of the compiled rules (``ir[IR_CARDS + slot *
CARD_ROW]``: points, draw value, effect count, then (code, N) per effect, ``custom_cards.rows``), read at
play time. So a rule set with other declared cards runs the same compiled build: adding a card to a spec
compiles nothing. The card ids (colour by id, a kind per slot) are constants of
:mod:`unosim.game.custom_cards`.
"""

from unosim.engine.compiler.jit import njit
from unosim.game import card_effects as E
from unosim.game import protocol as L
from unosim.game.card_effects import CARD_ROW
from unosim.game.custom_cards import ID_CUSTOM0

from ..record.piles import draw_n, rotate_hands
from ..record.state import SE_ACTIVE, ST_DIR, ST_ENDED, ST_N, emit, step

DRAW, SKIP, REVERSE, SKIP_EVERYONE, OTHERS_DRAW = (E.BY_NAME[n].code for n in (
    "draw", "skip", "reverse", "skip_everyone", "others_draw"))
DISCARD_COLOUR, SWAP_HANDS, PASS_HANDS, DRAW_UNTIL_COLOUR, SELF_DRAW = (E.BY_NAME[n].code for n in (
    "discard_colour", "swap_hands", "pass_hands", "draw_until_colour", "self_draw"))
ROW_EFFECTS = 3   # a row: points, draw value, effect count, then (code, N) per effect


@njit(inline='always')
def row_of(c):
    """Where declared card c's row starts in ``ir``."""
    return L.IR_CARDS + (c - ID_CUSTOM0) // 5 * CARD_ROW


@njit(inline='always')
def has_draw(ir, row):
    return ir[row + 1] > 0


@njit
def others_draw(g, p, n):
    """Every other active seat draws n, from next(p) in direction d."""
    st = g["st"]
    s = p
    for _ in range(st[ST_N] - 1):   # each other seat once; a seat knocked out by its card is passed by
        s = step(s, st[ST_DIR], st[ST_N])
        if st[ST_ENDED] and st[L.ST_END] == L.END_KNOCKOUT:
            return
        if g["seat"][s, SE_ACTIVE]:
            draw_n(g, s, n)


@njit
def pass_hands(g, p):
    """Every active hand moves to next(its seat) in direction d (7-0's pass, without its counter)."""
    order = g["cand"]
    st = g["st"]
    n = st[ST_N]
    k = 0
    s = p
    for _ in range(n):
        if g["seat"][s, SE_ACTIVE]:
            order[k] = s
            k += 1
        s = step(s, st[ST_DIR], n)
    rotate_hands(g, order, k)
    emit(g, L.EV_PASS, p, 0, 0)
