"""Moving cards: draws (with reshuffles), removal, swaps, discards under the top card, the end of a round by
a win (docs/rules.md §1.6, §2.1.3, §2.4.4) and by knock-outs (the mercy rule, §2.4.6-§2.4.8; No Mercy
plays it always).

The knock-out is a core verb, not a wing: whether a seat is active (``SE_ACTIVE``, ``ST_N_ACTIVE``) is the
core's — turn order, the standings scan, scoring (``KO_POINTS`` per knocked-out seat, §2.4.8) and the
lookahead's values read it — and the draw that reaches the limit knocks the drawer out at once, under the
``mercy`` mechanism's switch."""

from unosim.engine.compiler.jit import njit
from unosim.game import protocol as L

from ..features import HAS_MERCY
from .quality import OUT
from .rng import DECK_STREAM, shuffle
from .state import (
    ASIDE,
    COLOUR,
    DISC,
    DRAW,
    N_COLOURS,
    SE_ACTIVE,
    SE_DRAWN,
    SE_KO_TURN,
    SE_UNO_DONE,
    ST_DRAWS,
    ST_END,
    ST_ENDED,
    ST_KNOCKOUTS,
    ST_KO_SEAT,
    ST_MAX_HAND,
    ST_MOVES,
    ST_N,
    ST_N_ACTIVE,
    ST_P,
    ST_RESHUFFLES,
    ST_RESPONDER,
    ST_TURNS,
    ST_WINNER,
    clear_stack,
    discarded,
    emit,
    recount_discards,
    recount_held,
)


# ---- moving cards -----------------------------------------------------------------------------------
@njit
def remove_card(g, p, i):
    hands = g["hands"]
    hlen = g["hlen"]
    c = hands[p, i]
    for j in range(i, hlen[p] - 1):
        hands[p, j] = hands[p, j + 1]
    hlen[p] -= 1
    g["held"][p, COLOUR[c]] -= 1
    return c


@njit
def reshuffle(g):
    """§1.6: every discard but T, then the set-aside hands, become the new draw pile, shuffled."""
    st = g["st"]
    pile = g["pile"]
    plen = g["plen"]
    m = plen[DISC] - 1 + plen[ASIDE]
    if m <= 0:
        return
    k = plen[DISC] - 1
    for i in range(k):
        pile[DRAW, i] = pile[DISC, i]
    for i in range(plen[ASIDE]):
        pile[DRAW, k + i] = pile[ASIDE, i]
    pile[DISC, 0] = pile[DISC, k]
    plen[DISC] = 1
    recount_discards(g)
    plen[ASIDE] = 0
    plen[DRAW] = m
    shuffle(g, pile[DRAW], m, DECK_STREAM)
    st[ST_RESHUFFLES] += 1
    emit(g, L.EV_RESHUFFLE, -1, m, 0)


@njit
def draw_one(g, s):
    """One draw for seat s; False when both piles are exhausted or a wing ends the obligation (a
    knock-out)."""
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    pile = g["pile"]
    plen = g["plen"]
    seat = g["seat"]
    if plen[DRAW] == 0:
        reshuffle(g)
        if plen[DRAW] == 0:
            emit(g, L.EV_DRAW_FAIL, s, 0, 0)
            return False
    plen[DRAW] -= 1
    c = pile[DRAW, plen[DRAW]]
    hands[s, hlen[s]] = c
    hlen[s] += 1
    g["held"][s, COLOUR[c]] += 1
    if hlen[s] > st[ST_MAX_HAND]:   # quality measure max_hand (engine.quality): only draws grow a hand
        st[ST_MAX_HAND] = hlen[s]
    st[ST_DRAWS] += 1
    st[ST_MOVES] += 1
    seat[s, SE_DRAWN] += 1
    seat[s, SE_UNO_DONE] = 0
    emit(g, L.EV_DRAW, s, c, 0)
    if HAS_MERCY:   # a hand at the mercy limit is knocked out (§2.4.6): the draws stop
        return not_knocked_out(g, s)
    return True


@njit
def draw_n(g, s, k):
    """Up to k draws; ends early when the piles run dry or s is knocked out."""
    for _ in range(k):
        if not draw_one(g, s):
            return


@njit
def draw_until_colour(g, s, colour):
    """s draws until a card of ``colour`` (wilds do not count) or a draw fails or knocks s out (UNO Flip's
    Wild Draw Colour §2.6.4, §6 F4; No Mercy's Roulette §6 N5; a declared card's draw_until_colour);
    returns whether the card of ``colour`` came (the obligation goes on)."""
    hands = g["hands"]
    hlen = g["hlen"]
    while draw_one(g, s):   # terminates: each pass moves a card from the piles to s (none come back)
        if COLOUR[hands[s, hlen[s] - 1]] == colour:
            return True
    return False


@njit
def swap_hands(g, p, t):
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    seat = g["seat"]
    m = max(hlen[p], hlen[t])
    for i in range(m):
        hands[p, i], hands[t, i] = hands[t, i], hands[p, i]
    hlen[p], hlen[t] = hlen[t], hlen[p]
    held = g["held"]
    for k in range(N_COLOURS + 1):
        held[p, k], held[t, k] = held[t, k], held[p, k]
    seat[p, SE_UNO_DONE] = 0
    seat[t, SE_UNO_DONE] = 0
    st[ST_MOVES] += 1
    emit(g, L.EV_SWAP, p, t, 0)


@njit
def discard_colour(g, p, colour):
    """Blank discard_colour: every card of `colour` goes under T, in hand order (no effects)."""
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    pile = g["pile"]
    plen = g["plen"]
    seat = g["seat"]
    i = 0
    while i < hlen[p]:   # terminates: each pass removes card i or moves past it
        c = hands[p, i]
        if COLOUR[c] == colour:
            remove_card(g, p, i)
            top = pile[DISC, plen[DISC] - 1]
            pile[DISC, plen[DISC] - 1] = c
            pile[DISC, plen[DISC]] = top
            plen[DISC] += 1
            discarded(g, c)
            st[ST_MOVES] += 1
            seat[p, SE_UNO_DONE] = 0
            emit(g, L.EV_DISCARD, p, c, 0)
        else:
            i += 1


@njit
def win(g, p):
    st = g["st"]
    st[ST_ENDED] = 1
    st[ST_WINNER] = p
    st[ST_END] = L.END_WON
    clear_stack(st)   # a pending P is discarded (its draws, if any, are final-card effects)


@njit
def rotate_hands(g, order, k):
    """Every hand moves one place along order[:k] at once: order[j] receives the hand of order[j-1],
    order[0] that of order[k-1] (0-pass, Trade Hands)."""
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    seat = g["seat"]
    buf = g["buf"]
    last = order[k - 1]
    m = hlen[last]
    # copied card by card: a slice assignment compiles numba's shape-mismatch message (string code)
    for i in range(m):
        buf[i] = hands[last, i]
    for j in range(k - 1, 0, -1):
        dst, src = order[j], order[j - 1]
        for i in range(hlen[src]):
            hands[dst, i] = hands[src, i]
        hlen[dst] = hlen[src]
    first = order[0]
    for i in range(m):
        hands[first, i] = buf[i]
    hlen[first] = m
    for j in range(k):
        recount_held(g, order[j])
        seat[order[j], SE_UNO_DONE] = 0
    st[ST_MOVES] += 1


# ---- knock-outs (the mercy rule) --------------------------------------------------------------------
@njit(inline='always')
def not_knocked_out(g, s):
    """s has just drawn: at the mercy limit it is knocked out (the draws stop: False)."""
    limit = g["ir"][L.IR_MERCY_LIMIT]
    if limit > 0 and g["hlen"][s] >= limit:
        knock_out(g, s)
        return False
    return True


@njit
def knock_out(g, s):
    """§2.4.6: s's hand is set aside, s leaves the round; the last active seat wins by knock-out."""
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    pile = g["pile"]
    plen = g["plen"]
    seat = g["seat"]
    emit(g, L.EV_KNOCKOUT, s, st[ST_TURNS], 0)
    for i in range(hlen[s]):
        pile[ASIDE, plen[ASIDE]] = hands[s, i]
        plen[ASIDE] += 1
    hlen[s] = 0
    g["held"][s, :] = 0
    seat[s, SE_ACTIVE] = 0
    g["out_pad"][s] = OUT
    seat[s, SE_UNO_DONE] = 0
    seat[s, SE_KO_TURN] = st[ST_TURNS]
    st[ST_N_ACTIVE] -= 1
    st[ST_KNOCKOUTS] += 1
    st[ST_KO_SEAT] = s
    st[ST_MOVES] += 1
    if st[ST_P] > 0 and st[ST_RESPONDER] == s:
        clear_stack(st)
    if st[ST_N_ACTIVE] == 1 and not st[ST_ENDED]:
        for t in range(st[ST_N]):
            if seat[t, SE_ACTIVE]:
                st[ST_ENDED] = 1
                st[ST_WINNER] = t
                st[ST_END] = L.END_KNOCKOUT
