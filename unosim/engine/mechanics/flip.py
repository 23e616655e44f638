"""UNO Flip's wing (docs/rules.md §2.6, protocol §7): the double-sided cards.

Every hand and pile holds the face in play (``cards.FLIP_PARTNER`` pairs the faces), so the core's
turn, legality and scoring work on the side in play unchanged; this wing turns everything over, draws
for the Wild Draw Colour, answers what a seat sees of the others (the faces turned away from their
owners), turns a lookahead seat's beliefs over with the cards, and keeps its scratch (``ST_SIDE``,
``ST_FLIPS``) and its round counter (``RC_FLIPS``). The core reaches it only through the hooks of
:mod:`unosim.engine.core.hooks`.
"""

import numpy as np

from unosim.engine.compiler.jit import njit
from unosim.game import cards as C
from unosim.game import custom_cards as CC
from unosim.game import protocol as L

from ..features import HAS_LOOKAHEAD
from ..policies.dispatch import challenges, choose_colour
from ..record.piles import draw_n, draw_until_colour
from ..record.state import (
    ASIDE,
    CHALLENGE_PENALTY,
    COLOUR,
    DISC,
    DRAW,
    KIND,
    N_IDS,
    NO_COLOUR,
    NOT_MINE,
    SKIPS,
    ST_COLOUR,
    ST_ENDED,
    ST_LA_SEARCH,
    ST_N,
    ST_TOP,
    ST_VIOLATIONS,
    emit,
    next_seat,
    recount_discards,
    recount_held,
)

# over every id (the declared cards' ids too: no other face, light; docs/rules.md §2.7), as the core's tables
FLIP_PARTNER = np.concatenate([np.asarray(C.FLIP_PARTNER), np.full(N_IDS - C.N_CARD_IDS, -1, np.int64)])
DARK_FACE = np.concatenate([np.asarray(C.DARK_FACE), np.zeros(N_IDS - C.N_CARD_IDS, np.int64)])
BASE_FACE = np.asarray(CC.ALL_BASE_FACE)
NAMED_BY_BACK = np.concatenate([np.asarray(C.NAMED_BY_BACK), np.ones(N_IDS - C.N_CARD_IDS, np.int64)])
K_FLIP, K_WDC = C.FLIP, C.WDC


@njit
def reset(g):
    """A round starts light side up (the deck is dealt by its light faces)."""
    st = g["st"]
    st[L.ST_SIDE] = 0
    st[L.ST_FLIPS] = 0


@njit(inline='always')
def physical(c):
    """The physical card showing face c, named by its light face (audit: conservation over both faces)."""
    return FLIP_PARTNER[c] if DARK_FACE[c] else c


@njit
def turn_pile_over(pile, row, m):
    """Turn a pile of m cards over as one block: its order reverses and every card shows its other face."""
    for i in range(m // 2):
        j = m - 1 - i
        pile[row, i], pile[row, j] = pile[row, j], pile[row, i]
    for i in range(m):
        pile[row, i] = FLIP_PARTNER[pile[row, i]]


@njit
def turn_over(g, p):
    """§2.6.3: p's Flip card turns every hand (order kept) and the draw, discard and set-aside piles
    (each turned over as a block, §6 F2) to their other faces. The new T is in play; a wild T has p name
    the colour (§6 F3). Emits FLIP(p, side) and, for a wild T, COLOUR(p, c)."""
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    pile = g["pile"]
    plen = g["plen"]
    for s in range(st[ST_N]):
        for i in range(hlen[s]):
            hands[s, i] = FLIP_PARTNER[hands[s, i]]
        recount_held(g, s)
    for row in (DRAW, DISC, ASIDE):
        turn_pile_over(pile, row, plen[row])
    recount_discards(g)
    st[L.ST_SIDE] = 1 - st[L.ST_SIDE]
    st[L.ST_FLIPS] += 1
    t = pile[DISC, plen[DISC] - 1]
    st[ST_TOP] = t
    if COLOUR[t] != NO_COLOUR:
        st[ST_COLOUR] = COLOUR[t]
    emit(g, L.EV_FLIP, p, st[L.ST_SIDE], 0)
    if HAS_LOOKAHEAD and st[ST_LA_SEARCH] and not st[ST_ENDED]:   # what every seat saw (engine/record/belief.py)
        turn_beliefs_over(g, st[ST_N])
    if COLOUR[t] == NO_COLOUR:
        st[ST_COLOUR] = choose_colour(g, p)
        emit(g, L.EV_COLOUR, p, st[ST_COLOUR], 0)


@njit
def turn_beliefs_over(g, n):
    """A Flip turned every card over: each known copy and void entry of a lookahead seat's beliefs
    (engine/record/belief.py) moves to the face on its back."""
    known = g["known"]
    void = g["void"]
    for t in range(n):
        for c in range(known.shape[2]):
            d = FLIP_PARTNER[c]
            if c < d:   # each pair of faces once (ids without a back, -1, never move)
                for o in range(n):
                    known[o, t, c], known[o, t, d] = known[o, t, d], known[o, t, c]
                void[t, c], void[t, d] = void[t, d], void[t, c]


@njit(inline='always')
def on_play(g, p, c, guilty):
    """A card of flip's kinds played by p with cards left: the next seat (SKIPS - v when the Wild Draw
    Colour's victim v drew), or NOT_MINE for any other card."""
    k = KIND[c]
    if k == K_WDC:
        v = next_seat(g, p)
        return SKIPS - v if wild_draw_colour(g, p, v, guilty) else v
    if k == K_FLIP:
        turn_over(g, p)
        return next_seat(g, p)
    return NOT_MINE


@njit(inline='always')
def on_final(g, p, c):
    """§2.6.7: a last Flip still turns the cards (the hands score by the side it turns up); a last Wild
    Draw Colour still makes next(p) draw until the colour."""
    k = KIND[c]
    if k == K_FLIP:
        turn_over(g, p)
    elif k == K_WDC:
        draw_until_colour(g, next_seat(g, p), g["st"][ST_COLOUR])


@njit
def wild_draw_colour(g, p, v, guilty):
    """§2.6.4: p's Wild Draw Colour (its colour already named) against v = next(p). v may challenge
    (wd4_challenge, docs/rules.md §1.8): guilty, p draws until the colour and v keeps its turn;
    innocent, v draws until the colour, then 2 more. Returns True when v drew and loses its turn."""
    colour = g["st"][ST_COLOUR]
    if g["ir"][L.IR_WD4_CHALLENGE] and challenges(g, v):
        emit(g, L.EV_CHALLENGE, v, 1 if guilty else 0, 0)
        if guilty:
            draw_until_colour(g, p, colour)
            return False
        if draw_until_colour(g, v, colour):   # a failed draw or a knock-out ends the whole obligation
            draw_n(g, v, CHALLENGE_PENALTY)
        return True
    draw_until_colour(g, v, colour)
    return True


@njit
def face_counts(g, deck_counts, out):
    """out = the deck counted by the faces now in play (deck_counts counts the light faces). Element by
    element, as everywhere in kernel code (CONTRIBUTING.md: a slice assignment costs compile time)."""
    dark = g["st"][L.ST_SIDE]
    for c in range(deck_counts.shape[0]):
        out[c] = 0 if dark else deck_counts[c]
    if dark:
        for c in range(deck_counts.shape[0]):
            if deck_counts[c]:
                out[FLIP_PARTNER[c]] += deck_counts[c]


@njit
def seen_counts(g, p, deck_counts):
    """What a searching seat p may take as known: in a flip game, every other hand (:func:`reveal`) and
    the deck counted by the faces in play; otherwise the deck as it is."""
    if g["ir"][L.IR_FAMILY] != L.FAMILY_FLIP:
        return deck_counts
    reveal(g, p)
    counts = np.empty_like(deck_counts)
    face_counts(g, deck_counts, counts)
    return counts


@njit
def reveal(g, p):
    """What seat p sees of the others (§2.6.6): each hand is held with its other faces towards the
    table, so p knows every card whose back names it (§6 F1: under shared backs, every other hand
    exactly); the others :func:`deal_by_backs` deals by their backs."""
    known = g["known"]
    hands = g["hands"]
    for t in range(g["st"][ST_N]):
        if t != p:
            for c in range(known.shape[2]):
                known[p, t, c] = 0
            for i in range(g["hlen"][t]):
                if NAMED_BY_BACK[hands[t, i]]:
                    known[p, t, hands[t, i]] += 1


@njit
def deal_by_backs(g, t, whands, h, pool, j, m):
    """Deal a searching seat's world (engine/lookahead.py ``deal_world``): each card of t's hand whose
    back does not name it (:func:`reveal`) gets the first card of the shuffled pool[j:m] showing the same
    face on its back, so every world shows the backs the seat sees and, among the cards behind a back,
    each is as likely as any other. Returns (h, j) past the cards dealt; a back with no card behind it in
    the pool (beliefs contradicting the table) is an audited violation, and the rest of the hand is left
    to the ordinary deal."""
    if g["ir"][L.IR_FAMILY] != L.FAMILY_FLIP:
        return h, j
    hands = g["hands"]
    for i in range(g["hlen"][t]):
        c = hands[t, i]
        if NAMED_BY_BACK[c]:
            continue
        back = BASE_FACE[FLIP_PARTNER[c]]
        k = j
        while k < m and BASE_FACE[FLIP_PARTNER[pool[k]]] != back:
            k += 1
        if k == m:
            g["st"][ST_VIOLATIONS] += 1
            return h, j
        pool[j], pool[k] = pool[k], pool[j]
        whands[t, h] = pool[j]
        h += 1
        j += 1
    return h, j


@njit
def sides_agree(g):
    """Every card in hands and piles shows the side in play (an audited invariant)."""
    side = g["st"][L.ST_SIDE]
    for s in range(g["st"][ST_N]):
        for i in range(g["hlen"][s]):
            if DARK_FACE[g["hands"][s, i]] != side:
                return False
    for row in (DRAW, DISC, ASIDE):
        for i in range(g["plen"][row]):
            if DARK_FACE[g["pile"][row, i]] != side:
                return False
    return True


@njit
def write(g, row):
    row[L.RC_FLIPS] = g["st"][L.ST_FLIPS]
