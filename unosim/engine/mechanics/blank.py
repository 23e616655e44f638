"""Classic's blank cards' wing (docs/rules.md §2.1.3, §6 C20-C23): the customizable blanks, each slot
with the effect the rules give it (``blank_effects``: swap_hands, shuffle_hands, others_draw_1,
discard_colour, draw_two_next or plain_wild).

A blank is a wild: the core names the colour when it is placed; this wing applies its effect, played
with cards left, as the first card (§1.9) and as the last card (§1.11 with ``final_card_effects``: a
last shuffle_hands redeals and the round goes on). The swap (``piles.swap_hands``) and the choice of
partner (``policy.choose_target``) are shared with 7-0; discard_colour's verb (``piles.discard_colour``)
with No Mercy's Discard All.
"""

from unosim.engine.compiler.jit import njit
from unosim.game import cards as C
from unosim.game import protocol as L

from ..policies.dispatch import choose_target
from ..record.piles import discard_colour, draw_n, draw_one, swap_hands, win
from ..record.rng import DECK_STREAM, shuffle
from ..record.state import (
    KIND,
    NOT_MINE,
    SE_ACTIVE,
    SE_UNO_DONE,
    SKIPS,
    ST_COLOUR,
    ST_DIR,
    ST_MOVES,
    ST_N,
    emit,
    next_seat,
    recount_held,
    step,
)

K_BLANK = C.BLANK
BLANK_ID0 = C.ID_BLANK[0]   # the first blank id: a blank's effect is at its offset from it (effect_of)
BLANK_DRAW_CARDS = 2        # draw_two_next: the next seat draws 2 (docs/rules.md §2.1.3)


@njit(inline='always')
def effect_of(g, c):
    """The rule-given effect of blank c (``protocol.BLANK_*``)."""
    return g["ir"][L.IR_BLANK_EFFECT + c - BLANK_ID0]


@njit(inline='always')
def on_play(g, p, c):
    """A blank played by p with cards left (§2.1.3): the next seat, SKIPS - v when draw_two_next's
    victim v drew, -1 when discard_colour emptied p's hand (p won); NOT_MINE for any other card."""
    if KIND[c] != K_BLANK:
        return NOT_MINE
    st = g["st"]
    effect = effect_of(g, c)
    if effect == L.BLANK_SWAP_HANDS:
        swap_hands(g, p, choose_target(g, p))
    elif effect == L.BLANK_SHUFFLE_HANDS:
        redeal(g, p)
    elif effect == L.BLANK_OTHERS_DRAW_1:
        others_draw_one(g, p)
    elif effect == L.BLANK_DISCARD_COLOUR:
        discard_colour(g, p, st[ST_COLOUR])
        if g["hlen"][p] == 0:
            win(g, p)
            return -1
    elif effect == L.BLANK_DRAW_TWO_NEXT:
        v = next_seat(g, p)
        draw_n(g, v, BLANK_DRAW_CARDS)
        return SKIPS - v
    return next_seat(g, p)


@njit
def on_first_card(g, f, c):
    """A first blank (§1.9, §2.1.3; F has named the colour): draw_two_next has F draw 2 and be skipped
    (SKIPS - f); the other effects act as when F plays the blank, then F takes the first turn."""
    if KIND[c] != K_BLANK:
        return NOT_MINE
    if effect_of(g, c) == L.BLANK_DRAW_TWO_NEXT:
        draw_n(g, f, BLANK_DRAW_CARDS)
        return SKIPS - f
    on_play(g, f, c)
    return f


@njit(inline='always')
def on_last_card(g, p, c):
    """p's last card c under final_card_effects: a shuffle_hands blank redeals and the round goes on
    (§2.1.3: the next seat); NOT_MINE otherwise (p wins)."""
    if KIND[c] == K_BLANK and effect_of(g, c) == L.BLANK_SHUFFLE_HANDS:
        redeal(g, p)
        return next_seat(g, p)
    return NOT_MINE


@njit
def on_final(g, p, c):
    """A last blank's effect on the others (§1.11, §2.1.3; a last swap_hands swaps nothing, §6 C22)."""
    if KIND[c] != K_BLANK:
        return
    effect = effect_of(g, c)
    if effect == L.BLANK_OTHERS_DRAW_1:
        others_draw_one(g, p)
    elif effect == L.BLANK_DRAW_TWO_NEXT:
        draw_n(g, next_seat(g, p), BLANK_DRAW_CARDS)


@njit
def redeal(g, p):
    """Blank shuffle_hands (§2.1.3): collect every active hand, shuffle, deal from p+1 clockwise."""
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    seat = g["seat"]
    buf = g["buf"]
    n = st[ST_N]
    m = 0
    for s in range(n):
        if seat[s, SE_ACTIVE]:
            for i in range(hlen[s]):
                buf[m] = hands[s, i]
                m += 1
            hlen[s] = 0
            seat[s, SE_UNO_DONE] = 0
    shuffle(g, buf, m, DECK_STREAM)
    s = p
    while m > 0:   # terminates: p is active, so every n steps deal at least one card
        s = (s + 1) % n
        if seat[s, SE_ACTIVE]:
            m -= 1
            hands[s, hlen[s]] = buf[m]
            hlen[s] += 1
    for s in range(n):
        recount_held(g, s)
    st[ST_MOVES] += 1
    emit(g, L.EV_REDEAL, p, 0, 0)


@njit
def others_draw_one(g, p):
    """Blank others_draw_1: every other active seat draws one, from next(p) in direction d."""
    st = g["st"]
    n = st[ST_N]
    s = p
    for _ in range(n - 1):   # each other seat once; a seat knocked out by its card is passed by
        s = step(s, st[ST_DIR], n)
        if g["seat"][s, SE_ACTIVE]:
            draw_one(g, s)
