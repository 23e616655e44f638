"""The worlds of a lookahead seat's search (:mod:`.lookahead`, step 3): the card ids its deck can hold
(:func:`deck_ids`), the cards it cannot locate (:func:`unseen_cards`), one world dealt consistent with
what it has observed (:func:`deal_world`), copied for each option (:func:`copy_world`), and the policies
every seat plays in them (:func:`seat_rollout_policies`).
"""

from unosim.engine.compiler.jit import njit

from ..policies.dispatch import acting_policy
from ..record.rng import DECK_STREAM, seed_streams, shuffle
from ..record.state import (
    ASIDE,
    DISC,
    DRAW,
    LOOKAHEAD,
    ST_LA_READY,
    ST_LA_SEARCH,
    ST_N,
    ST_TRACE,
    recount_held,
)
from . import hooks


@njit
def deck_ids(deck_counts):
    """1 + the highest card id the deck holds: every id a search meets lies below it (the id tables hold
    every id any deck may, 440 with declared cards and Flip's faces, a classic deck's highest is 93), so
    the search's loops over ids stop there. Computed once per search."""
    for c in range(deck_counts.shape[0] - 1, -1, -1):
        if deck_counts[c] > 0:
            return c + 1
    return 0


@njit
def unseen_cards(g, p, deck_counts, ids, out):
    """out[:m] = the cards p cannot locate (ascending ids): the deck minus p's hand, the discard pile
    and the cards p knows to be in the other hands. Returns m, or -1 when that count disagrees with
    the hidden places (other hands' unknown cards, draw pile, set-aside pile): a corrupt belief.
    ``ids``: :func:`deck_ids` of deck_counts (p's hand or the discard pile holding a card at or above it is
    a corrupt state too; p's knowledge is read below it only, as it counts cards that were in hands)."""
    st = g["st"]
    known = g["known"]
    hands = g["hands"]
    hlen = g["hlen"]
    pile = g["pile"]
    plen = g["plen"]
    count = deck_counts[:ids].copy()
    for i in range(hlen[p]):
        if hands[p, i] >= ids:
            return -1
        count[hands[p, i]] -= 1
    for i in range(plen[DISC]):
        if pile[DISC, i] >= ids:
            return -1
        count[pile[DISC, i]] -= 1
    hidden = plen[DRAW] + plen[ASIDE]
    for t in range(st[ST_N]):
        if t != p:
            hidden += hlen[t]
            for c in range(ids):
                count[c] -= known[p, t, c]
                hidden -= known[p, t, c]
    m = 0
    for c in range(ids):
        if count[c] < 0:
            return -1
        for _ in range(count[c]):
            out[m] = c
            m += 1
    return m if m == hidden else -1


@njit
def deal_world(g, p, work, unseen, m, ids, seed, world):
    """Fill ``work`` with one world consistent with what p has observed: every public field of g, p's
    own hand, the other hands' known cards (ascending ids, first), the cards p sees the backs of (behind
    each, an unseen card with that back: ``hooks.deal_by_backs``) and the unseen cards shuffled by the
    world's deck stream into the remaining places of the other hands, the draw pile and the set-aside
    pile; at least ``void_kept[t]`` of t's unknown cards come from outside t's void (:mod:`..record.belief`).
    ``ids``: :func:`deck_ids` of the counts :func:`unseen_cards` found ``unseen`` from (no card p knows of
    lies at or above it).
    The world's two streams are seeded from (seed, world) only. The seats' policies are set once
    per search (:func:`seat_rollout_policies`): p's rollout preset, p itself through the lookahead
    dispatch (st[ST_LA_CHOICE] first, then the preset)."""
    st = g["st"]
    n = st[ST_N]
    hlen = g["hlen"]
    plen = g["plen"]
    known = g["known"]
    seed_streams(work, seed, world)
    wst = work["st"]
    wst[:] = st
    wst[ST_TRACE] = 0
    wst[ST_LA_SEARCH] = 0
    wst[ST_LA_READY] = 1
    work["ir"][:] = g["ir"]
    work["fr"][:] = g["fr"]
    work["plen"][:] = plen
    work["outcomes"][:] = g["outcomes"]
    for t in range(n):
        work["hlen"][t] = hlen[t]
        work["seat"][t] = g["seat"][t]
        work["shown"][t] = g["shown"][t]
        work["deficit"][t] = g["deficit"][t]
        work["totals"][t] = g["totals"][t]
    wpile = work["pile"]
    wpile[DISC, :plen[DISC]] = g["pile"][DISC, :plen[DISC]]
    work["discards"][:] = g["discards"]
    whands = work["hands"]
    whands[p, :hlen[p]] = g["hands"][p, :hlen[p]]
    pool = work["buf"]
    pool[:m] = unseen[:m]
    shuffle(work, pool, m, DECK_STREAM)
    j = 0
    for t in range(n):
        if t == p:
            continue
        h = 0
        for c in range(ids):
            for _ in range(known[p, t, c]):
                whands[t, h] = c
                h += 1
        h, j = hooks.deal_by_backs(g, t, whands, h, pool, j, m)   # e.g. UNO Flip's backs (§2.6.6)
        kept = min(g["void_kept"][t], hlen[t]) - h   # unknown cards t is known to hold outside its void
        while h < hlen[t]:
            if kept > 0:
                kept -= 1
                outside_void(g["void"], t, pool, j, m)
            whands[t, h] = pool[j]
            h += 1
            j += 1
    for t in range(n):
        recount_held(work, t)
    for row in (DRAW, ASIDE):
        for i in range(plen[row]):
            wpile[row, i] = pool[j]
            j += 1


@njit
def copy_world(source, dest, n):
    """dest = source in every field :func:`deal_world` deals (the others are the rollout's scratch, or
    set once per search): each option of a world starts from the same world and random streams."""
    dest["rng"][:] = source["rng"]
    dest["st"][:] = source["st"]
    dest["ir"][:] = source["ir"]
    dest["fr"][:] = source["fr"]
    dest["plen"][:] = source["plen"]
    dest["outcomes"][:] = source["outcomes"]
    dest["discards"][:] = source["discards"]
    for t in range(n):
        dest["hlen"][t] = source["hlen"][t]
        dest["seat"][t] = source["seat"][t]
        dest["shown"][t] = source["shown"][t]
        dest["deficit"][t] = source["deficit"][t]
        dest["totals"][t] = source["totals"][t]
        dest["held"][t] = source["held"][t]
        for i in range(source["hlen"][t]):
            dest["hands"][t, i] = source["hands"][t, i]
    for row in range(3):
        for i in range(source["plen"][row]):
            dest["pile"][row, i] = source["pile"][row, i]


@njit
def outside_void(void, t, pool, j, m):
    """Move the first card of pool[j:m] that lies outside seat t's void to pool[j] (a uniform choice
    among them: the pool is shuffled). None left (a belief the unseen cards cannot meet): as it is."""
    for i in range(j, m):
        if not void[t, pool[i]]:
            pool[i], pool[j] = pool[j], pool[i]
            return


@njit
def seat_rollout_policies(g, p, work):
    """Every seat of the worlds of p's search plays p's rollout preset, p itself through the lookahead
    dispatch: set once per search (no world's rollout changes them), not per world."""
    preset = acting_policy(g, p)
    for t in range(g["st"][ST_N]):
        work["pol"][t] = preset
        work["pp"][t, :] = g["pp"][p]   # a weighted preset's weights ride in p's vector (policies.py)
        work["card_floor"][t] = g["card_floor"][p]
        work["card_early"][t, :] = g["card_early"][p]
    work["card_late"][:] = g["card_late"]   # the game's attack and reverse features (declared cards')
    work["pol"][p] = LOOKAHEAD
