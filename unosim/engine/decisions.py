"""Built-in policies (protocol §4-§5): every choice a rule gives a player, dispatched on the
integer policy id of the seat (``random``, ``greedy_points``, ``keep_wilds``)."""

from numba import njit

from .. import protocol as L
from .rng import PLAY_STREAM, below, bernoulli
from .state import (
    COLOUR,
    DRAW_VALUE,
    GREEDY_POINTS,
    KEEP_WILDS,
    KIND,
    NO_COLOUR,
    POINTS,
    PP_BLUFF,
    PP_DRAW,
    RANDOM,
    SE_ACTIVE,
    ST_DIR,
    ST_K,
    ST_N,
    ST_V,
    next_seat,
    step,
)


# ---- built-in policies (protocol §4) ----------------------------------------------------------------
@njit(cache=True)
def policy_play(g, p, nleg, bluff_index):
    """Index of the card p plays, or -1 to draw."""
    hands = g["hands"]
    hlen = g["hlen"]
    ir = g["ir"]
    pol = g["pol"]
    pp = g["pp"]
    legal = g["legal"]
    if nleg == 0:
        return -1
    pid = pol[p]
    if pid == RANDOM:
        if ir[L.IR_VOLUNTARY_DRAW] and bernoulli(g, PLAY_STREAM, pp[p, PP_DRAW]):
            return -1
        if bluff_index >= 0 and not ir[L.IR_NO_BLUFFING] and bernoulli(g, PLAY_STREAM, pp[p, PP_BLUFF]):
            return bluff_index
        return legal[below(g, PLAY_STREAM, nleg)]
    if pid == GREEDY_POINTS:
        best = legal[0]
        for k in range(1, nleg):
            if POINTS[hands[p, legal[k]]] > POINTS[hands[p, best]]:
                best = legal[k]
        return best
    # KEEP_WILDS: the coloured card of the longest colour (then points); wilds last
    count = g["count"]
    count[:] = 0
    for i in range(hlen[p]):
        count[COLOUR[hands[p, i]]] += 1
    best = -1
    best_score = -1
    for k in range(nleg):
        c = hands[p, legal[k]]
        if COLOUR[c] != NO_COLOUR:
            score = 100 * count[COLOUR[c]] + POINTS[c]
            if score > best_score:
                best, best_score = legal[k], score
    return best if best >= 0 else legal[0]


@njit(cache=True)
def policy_colour(g, p):
    hands = g["hands"]
    hlen = g["hlen"]
    pol = g["pol"]
    if pol[p] == RANDOM:
        return below(g, PLAY_STREAM, 4)
    count = g["count"]
    count[:] = 0
    for i in range(hlen[p]):
        c = COLOUR[hands[p, i]]
        if c != NO_COLOUR:
            count[c] += 1
    best = 0
    for c in range(1, 4):
        if count[c] > count[best]:
            best = c
    if count[best] == 0:
        return below(g, PLAY_STREAM, 4)
    if pol[p] == KEEP_WILDS:   # spin SHOW_HAND: among ties, the colour the next seat showed fewest of
        seen = g["shown"][next_seat(g, p)]
        for c in range(best + 1, 4):
            if count[c] == count[best] and seen[c] < seen[best]:
                best = c
    return best


@njit(cache=True)
def policy_target(g, p):
    """Seat p swaps hands with: candidates are the other active seats from next(p) in direction d."""
    hlen = g["hlen"]
    pol = g["pol"]
    cand = g["cand"]
    seat = g["seat"]
    n = g["st"][ST_N]
    k = 0
    s = p
    for _ in range(n - 1):   # each other seat once, from next(p)
        s = step(s, g["st"][ST_DIR], n)
        if seat[s, SE_ACTIVE]:
            cand[k] = s
            k += 1
    if pol[p] == RANDOM:
        return cand[below(g, PLAY_STREAM, k)]
    best = cand[0]
    for j in range(1, k):
        if hlen[cand[j]] < hlen[best]:
            best = cand[j]
    return best


@njit(cache=True)
def can_stack(st, stacking, c):
    """A stack response allowed by the stacking mode (§1.7, §2.4.5, §4); no colour match needed."""
    value = DRAW_VALUE[c]
    if value == 0:
        return False
    if stacking == L.STACKING_SAME_KIND:
        return KIND[c] == st[ST_K]
    if stacking == L.STACKING_ESCALATING:
        return value >= st[ST_V]
    return True


@njit(cache=True)
def policy_stack(g, p, ns):
    """Index (from legal[:ns]) of the card p stacks, or -1 to accept (protocol §5)."""
    if ns == 0:
        return -1
    if g["pol"][p] == RANDOM:
        return g["legal"][below(g, PLAY_STREAM, ns)]
    return policy_play(g, p, ns, -1)


@njit(cache=True)
def keep_score(g, p, c):
    """How much a heuristic wants to keep card c (ALMOST_UNO, protocol §6)."""
    if g["pol"][p] == GREEDY_POINTS:
        return -POINTS[c]
    if COLOUR[c] == NO_COLOUR:
        return 1000
    return 100 * g["count"][COLOUR[c]] + POINTS[c]
