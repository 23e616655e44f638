"""The built-in ``random`` policy: docs/rules.md §5 with the optional parameters ``p_draw``,
``p_bluff`` and ``p_challenge`` (protocol §4-§6). Every choice draws from the game's play stream.

Called only through :mod:`.dispatch`, which asks each decision of the seat's policy; the scratch arrays
a decision reads or fills (``legal``, ``cand``, ``order`` …) are its arguments.
"""

from unosim.engine.compiler.jit import njit
from unosim.game import protocol as L

from ..record.rng import PLAY_STREAM, below, bernoulli, shuffle
from ..record.state import N_COLOURS, PP_BLUFF, PP_CHALLENGE, PP_DRAW


@njit
def play(g, p, legal, nleg, bluff_index):
    """Hand index to play from ``legal[:nleg]`` (nleg > 0), ``bluff_index`` (an illegal WD4, -1: none)
    or -1 to draw (protocol §4: voluntary draw, then bluff, then a uniform legal card)."""
    ir = g["ir"]
    pp = g["pp"]
    if ir[L.IR_VOLUNTARY_DRAW] and bernoulli(g, PLAY_STREAM, pp[p, PP_DRAW]):
        return -1
    if bluff_index >= 0 and not ir[L.IR_NO_BLUFFING] and bernoulli(g, PLAY_STREAM, pp[p, PP_BLUFF]):
        return bluff_index
    return legal[below(g, PLAY_STREAM, nleg)]


@njit
def stack(g, legal, ns):
    """docs/rules.md §5 item 3: a uniform choice among the ``ns > 0`` cards that may be stacked."""
    return legal[below(g, PLAY_STREAM, ns)]


@njit
def colour(g):
    return below(g, PLAY_STREAM, N_COLOURS)


@njit
def target(g, cand, k):
    return cand[below(g, PLAY_STREAM, k)]


@njit
def challenges(g, v):
    return bernoulli(g, PLAY_STREAM, g["pp"][v, PP_CHALLENGE])


@njit
def almost_uno(g, h, order):
    """ALMOST_UNO: a uniform order of the h hand indices; the first h - 2 go down (protocol §6)."""
    for i in range(h):
        order[i] = i
    shuffle(g, order, h, PLAY_STREAM)
    return h - 2


@njit
def group(g, tally, groups, k):
    """DISCARD_NUMBER / DISCARD_COLOUR: a uniform choice among the k > 0 groups held (tally > 0)."""
    r = below(g, PLAY_STREAM, k)
    for x in range(groups):
        if tally[x] > 0:
            if r == 0:
                return x
            r -= 1
    return -1


@njit
def discard_order(g, order, m):
    """The wheel's discards order[:m] go down in a uniform order (DISCARD_*, War)."""
    shuffle(g, order, m, PLAY_STREAM)


@njit
def war_reveal(g, ties):
    """War: which of the ``ties`` highest unrevealed numbers (hand order) to reveal."""
    return below(g, PLAY_STREAM, ties)


@njit
def uno_spin_discard(g, h):
    return below(g, PLAY_STREAM, h)
