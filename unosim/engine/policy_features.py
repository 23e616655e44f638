"""The named features the ``weighted`` policy scores its options by (the weights: ``w_<feature>``,
``unosim.protocol.WEIGHT_PARAMS``; the policy: :mod:`.policy_weighted`).

Every feature reads public information or the deciding seat's own hand only. An option's score is the
sum of weight × feature over its features, added in the order listed here (``unosim.reference.weighted``
adds them in the same order, so both engines compute the same float64 score bit for bit).

Card option: card ``c`` at hand index ``i`` of seat ``p`` (a play, a stack, a drawn card, a jump-in,
or a card the spin wheel lets ``p`` discard), with ``A`` the colour in play and ``T`` the top card:

================ ===================================================================== ===========
feature          formula                                                               range
================ ===================================================================== ===========
points           card points of ``c`` (docs/rules.md §1.10 and the variant's tables)   0 .. 50
action           1 if ``c`` is coloured and not a NUMBER card                          0, 1
wild             1 if ``c`` has no colour (wild, Wild Draw Four, every wild action)    0, 1
draw             1 if ``c`` makes someone draw (its draw value > 0)                    0, 1
colour_left      cards of ``c``'s colour ``p`` holds besides ``c``; 0 for a wild       0 .. 167
keeps_colour     1 if ``c``'s colour is ``A`` (the play keeps the colour in play)      0, 1
number_match     1 if ``c`` and ``T`` are NUMBER cards with the same number            0, 1
attack           1 if ``c`` is a draw card, a Skip or a Skip Everyone                  0, 1
attack_close     attack × [next(p) holds ≤ 2 cards]                                    0, 1
reverse_close    1 if ``c`` reverses (Reverse, Wild Reverse Draw Four) and the seat    0, 1
                 before ``p`` (next after the reversal) holds ≤ 2 cards
own_hand         cards ``p`` holds (the same for every card option: it weighs the     0 .. 168
                 cards against the options that are not a card)
seen             cards of ``c``'s colour in the discard pile (counting: they are out   0 .. 167
                 of every hand); 0 for a wild
order            ``-i`` (a positive weight prefers the earlier card in hand order)    -167 .. 0
================ ===================================================================== ===========

The other options of a decision are constants: ``voluntary_draw`` (drawing instead of playing, when
``voluntary_draw`` is on), ``bluff`` (added to the card features of a Wild Draw Four played although
``p`` holds the colour in play, docs/rules.md §1.8), ``accept`` (accepting a pending penalty instead of
stacking) and ``keep`` (not playing a legal drawn card, not jumping in).

Colour option ``k`` (naming a colour for a wild, or as a Wild Color Roulette's victim):
``colour_held`` = cards of colour ``k`` held; ``colour_seen`` = cards of colour ``k`` in the discard
pile; ``colour_shown`` = cards of colour ``k`` next(p) showed at its last Show Hand of the round (spin);
``colour_order`` = ``-k`` when ``p`` holds colour ``k``, else ``-4`` (a positive weight prefers the lowest
colour index among the colours held; the colours not held tie).

Target option, seat ``t`` at position ``j`` of the candidates (the other active seats from next(p)):
``target_hand`` = cards ``t`` holds; ``target_order`` = ``-j``.

Challenge of a Wild Draw Four played on ``v``: score = ``w_challenge`` + ``w_challenge_hand`` × cards
held by the Wild Draw Four's player (the seat before ``v``, after the play).
"""

from numba import njit

from .state import (
    COLOUR,
    DISC,
    DRAW_VALUE,
    K_NUMBER,
    K_REVERSE,
    K_SKIP,
    K_SKIP_EVERYONE,
    K_WRD4,
    KIND,
    NO_COLOUR,
    NUMBER_OF,
    POINTS,
    SE_ACTIVE,
    ST_COLOUR,
    ST_DIR,
    ST_N,
    ST_TOP,
    step,
)
from ..protocol import (
    PP_W_ACTION,
    PP_W_ATTACK,
    PP_W_ATTACK_CLOSE,
    PP_W_COLOUR_LEFT,
    PP_W_DRAW,
    PP_W_KEEPS_COLOUR,
    PP_W_NUMBER_MATCH,
    PP_W_ORDER,
    PP_W_OWN_HAND,
    PP_W_POINTS,
    PP_W_REVERSE_CLOSE,
    PP_W_SEEN,
    PP_W_WILD,
)

CLOSE_TO_UNO = 2   # attack_close / reverse_close: the seat holds at most this many cards


@njit(cache=True)
def prev_seat(g, s):
    """The first active seat before s (against direction d): next(it) is s."""
    seat = g["seat"]
    n = g["st"][ST_N]
    d = -g["st"][ST_DIR]
    t = s
    for _ in range(n):
        t = step(t, d, n)
        if seat[t, SE_ACTIVE]:
            return t
    return s


@njit(cache=True)
def count_held(g, p, held):
    """held[k] = cards of colour k in p's hand (held[NO_COLOUR]: its wilds)."""
    hands = g["hands"]
    held[:] = 0
    for i in range(g["hlen"][p]):
        held[COLOUR[hands[p, i]]] += 1


@njit(cache=True)
def count_seen(g, seen):
    """seen[k] = cards of colour k in the discard pile (public: every discard was shown face up)."""
    pile = g["pile"]
    seen[:] = 0
    for j in range(g["plen"][DISC]):
        seen[COLOUR[pile[DISC, j]]] += 1


@njit(cache=True)
def card_context(g, p, held, seen):
    """Fill held and seen and return (next(p) is close to UNO, the seat before p is close to UNO), each
    only when some weight reads it (a weight of 0 multiplies whatever is left there)."""
    w = g["pp"][p]
    if w[PP_W_COLOUR_LEFT] != 0.0:
        count_held(g, p, held)
    if w[PP_W_SEEN] != 0.0:
        count_seen(g, seen)
    hlen = g["hlen"]
    next_close = False
    if w[PP_W_ATTACK_CLOSE] != 0.0:
        seat = g["seat"]
        n = g["st"][ST_N]
        d = g["st"][ST_DIR]
        nxt = p
        for _ in range(n):
            nxt = step(nxt, d, n)
            if seat[nxt, SE_ACTIVE]:
                break
        next_close = hlen[nxt] <= CLOSE_TO_UNO
    prev_close = False
    if w[PP_W_REVERSE_CLOSE] != 0.0:
        prev_close = hlen[prev_seat(g, p)] <= CLOSE_TO_UNO
    return next_close, prev_close


# inlined (numba IR): it runs for every legal card of every weighted decision
@njit(cache=True, inline='always')
def card_score(g, p, i, held, seen, next_close, prev_close):
    """The card option's score: Σ weight × feature in the order of the module docstring."""
    w = g["pp"][p]
    st = g["st"]
    c = g["hands"][p, i]
    colour = COLOUR[c]
    kind = KIND[c]
    top = st[ST_TOP]
    coloured = colour != NO_COLOUR
    draws = DRAW_VALUE[c] > 0
    attack = draws or kind == K_SKIP or kind == K_SKIP_EVERYONE
    score = w[PP_W_POINTS] * POINTS[c]
    score += w[PP_W_ACTION] * (1.0 if coloured and kind != K_NUMBER else 0.0)
    score += w[PP_W_WILD] * (0.0 if coloured else 1.0)
    score += w[PP_W_DRAW] * (1.0 if draws else 0.0)
    score += w[PP_W_COLOUR_LEFT] * (held[colour] - 1 if coloured else 0)
    score += w[PP_W_KEEPS_COLOUR] * (1.0 if colour == st[ST_COLOUR] else 0.0)
    score += w[PP_W_NUMBER_MATCH] * (1.0 if kind == K_NUMBER and KIND[top] == K_NUMBER
                                     and NUMBER_OF[c] == NUMBER_OF[top] else 0.0)
    score += w[PP_W_ATTACK] * (1.0 if attack else 0.0)
    score += w[PP_W_ATTACK_CLOSE] * (1.0 if attack and next_close else 0.0)
    score += w[PP_W_REVERSE_CLOSE] * (1.0 if (kind == K_REVERSE or kind == K_WRD4) and prev_close else 0.0)
    score += w[PP_W_OWN_HAND] * g["hlen"][p]
    score += w[PP_W_SEEN] * (seen[colour] if coloured else 0)
    score += w[PP_W_ORDER] * (-i)
    return score
