"""Cards declared as data (docs/rules.md §2.7): the effect interpreter, compiled twin of
``unosim/reference/mechanics/cards.py``.

A declared card's effects are not code: they are a row of the compiled rules (``ir[IR_CARDS + slot *
CARD_ROW]``: points, draw value, effect count, then (code, N) per effect, ``custom_cards.rows``), read
here at play time. So a rule set with other declared cards runs the same compiled build: adding a card
to a spec compiles nothing. The card ids (colour by id, a kind per slot) are constants of
:mod:`unosim.game.custom_cards`.

While the effects run, ``anchor`` is the last seat the card passed over (at first the player): the turn
goes to ``next(anchor)``, or back to the player after ``skip_everyone``.
"""

from unosim.engine._jit import njit

from unosim.game import card_effects as E
from unosim.game import protocol as L
from unosim.game.custom_cards import ID_CUSTOM0
from unosim.game.rule_table import CARD_ROW
from .. import effects
from ..piles import discard_colour, draw_n, rotate_hands, swap_hands, win
from ..policy import choose_target
from ..state import NOT_MINE, SE_ACTIVE, ST_COLOUR, ST_DEALER, ST_DIR, ST_ENDED, ST_N, ST_N_ACTIVE, emit, \
    next_seat, step
from .flip import draw_until_colour

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
def skip_next(g, anchor):
    v = next_seat(g, anchor)
    effects.skip_seat(g, v)
    return v


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


@njit
def on_play(g, p, c, guilty):
    """Declared card c played by p with cards left: the next seat, -1 when an effect ended the round;
    NOT_MINE for any other card."""
    if c < ID_CUSTOM0:
        return NOT_MINE
    st = g["st"]
    ir = g["ir"]
    row = row_of(c)
    anchor = p
    again = False
    for e in range(ir[row + 2]):
        code = ir[row + ROW_EFFECTS + 2 * e]
        n = ir[row + ROW_EFFECTS + 2 * e + 1]
        if code == DRAW:   # always the last effect: a draw card (§1.7, §4)
            return effects.draw_card_effect(g, p, c, st[L.ST_P] > 0, guilty)
        if code == REVERSE:
            st[ST_DIR] = -st[ST_DIR]
            if st[ST_N_ACTIVE] == 2 and ir[L.IR_TWO_PLAYER_REVERSE_SKIP] and not has_draw(ir, row):
                anchor = skip_next(g, anchor)
        elif code == SKIP:
            for _ in range(min(n, st[ST_N_ACTIVE] - 1)):
                anchor = skip_next(g, anchor)
        elif code == SKIP_EVERYONE:
            again = True
        elif code == OTHERS_DRAW:
            others_draw(g, p, n)
        elif code == DISCARD_COLOUR:
            discard_colour(g, p, st[ST_COLOUR])
            if g["hlen"][p] == 0:
                win(g, p)
                return -1
        elif code == SWAP_HANDS:
            swap_hands(g, p, choose_target(g, p))
        elif code == PASS_HANDS:
            pass_hands(g, p)
        elif code == DRAW_UNTIL_COLOUR:
            v = next_seat(g, anchor)
            draw_until_colour(g, v, st[ST_COLOUR])
            if not st[ST_ENDED]:
                effects.skip_seat(g, v)
            anchor = v
        elif code == SELF_DRAW:
            draw_n(g, p, n)
        if st[ST_ENDED]:   # a knock-out left one player (§2.4.6)
            return -1
    if again:
        return p
    return next_seat(g, anchor)


@njit
def on_first_card(g, f, c):
    """A declared card turned up first (F has named a wild's colour): its skip and draw effects act as if
    the dealer had played it, its reverse as the built-in Reverse (the dealer starts); NOT_MINE for any
    other card."""
    if c < ID_CUSTOM0:
        return NOT_MINE
    st = g["st"]
    ir = g["ir"]
    row = row_of(c)
    anchor = st[ST_DEALER]
    for e in range(ir[row + 2]):
        code = ir[row + ROW_EFFECTS + 2 * e]
        n = ir[row + ROW_EFFECTS + 2 * e + 1]
        if code == REVERSE:
            before = next_seat(g, anchor)   # in the new direction its next seat is the anchor
            st[ST_DIR] = -st[ST_DIR]
            anchor = before
        elif code == SKIP:
            for _ in range(min(n, st[ST_N_ACTIVE] - 1)):
                anchor = skip_next(g, anchor)
        elif code == DRAW:
            v = next_seat(g, anchor)
            draw_n(g, v, n)
            effects.skip_seat(g, v)
            anchor = v
    return next_seat(g, anchor)


@njit
def on_final(g, p, c, pending):
    """Declared card c emptied p's hand (final_card_effects, §1.11): its effects on the others act in
    order (reverse, draw:N with the pending P, others_draw, draw_until_colour)."""
    st = g["st"]
    ir = g["ir"]
    row = row_of(c)
    for e in range(ir[row + 2]):
        if st[L.ST_END] == L.END_KNOCKOUT:
            return
        code = ir[row + ROW_EFFECTS + 2 * e]
        n = ir[row + ROW_EFFECTS + 2 * e + 1]
        if code == REVERSE:
            st[ST_DIR] = -st[ST_DIR]
        elif code == DRAW:
            draw_n(g, next_seat(g, p), pending + n)
        elif code == OTHERS_DRAW:
            others_draw(g, p, n)
        elif code == DRAW_UNTIL_COLOUR:
            draw_until_colour(g, next_seat(g, p), st[ST_COLOUR])
