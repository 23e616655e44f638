"""The two heuristic built-in policies, ``greedy_points`` and ``keep_wilds`` (protocol §4-§6).

They share the colour, target, challenge and stacking rules and differ only where a function takes the
flag ``wilds_last`` (True for ``keep_wilds``). A card's points are its declared points for a card
declared as data (``state.points_of``; docs/rules.md §2.7). Called only through :mod:`.dispatch`; the scratch arrays a
decision reads (``legal``, ``cand``, ``order``, a colour count) are its arguments or filled by itself.
"""

from unosim.engine.compiler.jit import njit

from ..record.rng import PLAY_STREAM, below
from ..record.state import COLOUR, N_COLOURS, NO_COLOUR, next_seat, points_of

COLOUR_WEIGHT = 100      # keep_wilds: one more card of a colour outweighs any difference in points
WILD_KEEP_SCORE = 1000   # keep_wilds keeps a wild before any coloured card (ALMOST_UNO)


@njit
def most_points(g, p, legal, nleg):
    """greedy_points: the legal card with the most points (first in hand order on ties)."""
    hands = g["hands"]
    best = legal[0]
    for k in range(1, nleg):
        if points_of(g, hands[p, legal[k]]) > points_of(g, hands[p, best]):
            best = legal[k]
    return best


@njit
def longest_colour(g, p, legal, nleg):
    """keep_wilds: the coloured legal card maximising COLOUR_WEIGHT × (cards of its colour held) +
    points (first on ties); the first legal wild when no coloured card is legal."""
    hands = g["hands"]
    count = g["held"][p]
    best = -1
    best_score = -1
    for k in range(nleg):
        c = hands[p, legal[k]]
        if COLOUR[c] != NO_COLOUR:
            score = COLOUR_WEIGHT * count[COLOUR[c]] + points_of(g, c)
            if score > best_score:
                best, best_score = legal[k], score
    return best if best >= 0 else legal[0]


@njit
def play(g, p, legal, nleg, wilds_last):
    """The card to play (or stack) from legal[:nleg], nleg > 0; never a voluntary draw or a bluff."""
    if wilds_last:
        return longest_colour(g, p, legal, nleg)
    return most_points(g, p, legal, nleg)


@njit
def colour(g, p, wilds_last):
    """The colour p holds most (lowest index on ties; play.below(4) when it holds no coloured card).
    keep_wilds breaks ties by the colour the next seat last showed fewest of (spin SHOW_HAND)."""
    count = g["held"][p]
    best = 0
    for c in range(1, N_COLOURS):
        if count[c] > count[best]:
            best = c
    if count[best] == 0:
        return below(g, PLAY_STREAM, N_COLOURS)
    if wilds_last:
        seen = g["shown"][next_seat(g, p)]
        for c in range(best + 1, N_COLOURS):
            if count[c] == count[best] and seen[c] < seen[best]:
                best = c
    return best


@njit
def target(g, cand, k):
    """The candidate with the fewest cards (first on ties)."""
    hlen = g["hlen"]
    best = cand[0]
    for j in range(1, k):
        if hlen[cand[j]] < hlen[best]:
            best = cand[j]
    return best


@njit
def keep_score(g, count, c, wilds_last):
    """How much the heuristic wants to keep card c (ALMOST_UNO); ``count`` holds its colour counts."""
    if not wilds_last:
        return -points_of(g, c)
    if COLOUR[c] == NO_COLOUR:
        return WILD_KEEP_SCORE
    return COLOUR_WEIGHT * count[COLOUR[c]] + points_of(g, c)


@njit
def almost_uno(g, s, order, wilds_last):
    """ALMOST_UNO: keep the two cards with the highest keep score (ties: earlier in hand); order[:m]
    = the others in hand order; returns m."""
    hands = g["hands"]
    h = g["hlen"][s]
    count = g["held"][s]
    first = 0
    for i in range(1, h):
        if keep_score(g, count, hands[s, i], wilds_last) > keep_score(g, count, hands[s, first], wilds_last):
            first = i
    second = 1 if first == 0 else 0
    for i in range(h):
        if i != first and keep_score(g, count, hands[s, i], wilds_last) > keep_score(
                g, count, hands[s, second], wilds_last):
            second = i
    m = 0
    for i in range(h):
        if i != first and i != second:
            order[m] = i
            m += 1
    return m


@njit
def group(tally, points, groups, wilds_last):
    """DISCARD_NUMBER / DISCARD_COLOUR: greedy_points the group with the most points, keep_wilds the
    one with the most cards (first on ties), among the groups held (tally > 0)."""
    chosen = -1
    best = -1
    for x in range(groups):
        if tally[x] > 0:
            score = tally[x] if wilds_last else points[x]
            if score > best:
                best, chosen = score, x
    return chosen


@njit
def uno_spin_discard(g, w, wilds_last):
    """UNO_SPIN: the card with the most points (first on ties); keep_wilds gives up a wild only when it
    holds nothing else."""
    hands = g["hands"]
    index = 0
    for i in range(1, g["hlen"][w]):
        c, best = hands[w, i], hands[w, index]
        if wilds_last and (COLOUR[c] == NO_COLOUR) != (COLOUR[best] == NO_COLOUR):
            if COLOUR[best] == NO_COLOUR:
                index = i   # a coloured card beats a wild
        elif points_of(g, c) > points_of(g, best):
            index = i
    return index
