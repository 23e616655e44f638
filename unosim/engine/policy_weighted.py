"""The ``weighted`` built-in policy: strategies as data (the presets of ``unosim.policies`` are weight
vectors of it).

At every decision it scores each option by Σ weight × feature (:mod:`.policy_features` names and
defines every feature) and takes the best. Tie rules, the same in ``unosim.reference.weighted``:

* choosing among options (a card or a draw, a stack or accepting, a colour, a target): the best score
  wins; when k > 1 options share it, ``below(k)`` on the play stream picks one of them, counted in
  option order (cards in hand order, then the voluntary draw, then the bluff; colours 0-3; targets in
  candidate order). Nothing is drawn without a tie.
* yes/no (play a legal drawn card, jump in): play when the card's score ≥ ``w_keep`` (so a tie plays, as
  every built-in does). Challenge: score > 0 challenges, < 0 does not, 0 falls back to
  ``bernoulli(p_challenge)`` (which draws only for 0 < p_challenge < 1).
* the spin wheel (never random): Almost UNO keeps the two cards with the LOWEST card score (the ones it
  least wants to shed; earlier in hand on ties) and discards the others in hand order; Discard Number /
  Colour sheds the group whose cards' scores sum highest (the first group on ties), in hand order; UNO
  Spin discards the highest-scoring card (the first on ties); War reveals the first of its tied cards
  and discards its reveals in reveal order.

Called only through :mod:`.policy`. Scratch: ``count`` (colours held), ``seen`` (colours in the
discard pile) and ``scores`` (the options' scores).
"""

from numba import njit

from .. import protocol as L
from .policy_features import card_context, card_score, count_held, count_seen, prev_seat
from .rng import PLAY_STREAM, below, bernoulli
from .state import COLOUR, KIND, K_NUMBER, N_COLOURS, NUMBER_OF, next_seat


@njit(cache=True)
def choose_card(g, p, legal, nleg, draw_offered, draw_score, bluff_index, bluff_bias):
    """The best of legal[:nleg], the draw (-1; offered when ``draw_offered``, scoring ``draw_score``)
    and the bluff ``bluff_index`` (offered when ≥ 0, scoring its card score + ``bluff_bias``)."""
    held = g["count"]
    seen = g["seen"]
    scores = g["scores"]
    next_close, prev_close = card_context(g, p, held, seen)
    k_options = nleg
    for k in range(nleg):
        scores[k] = card_score(g, p, legal[k], held, seen, next_close, prev_close)
    if draw_offered:
        scores[k_options] = draw_score
        k_options += 1
    if bluff_index >= 0:
        scores[k_options] = card_score(g, p, bluff_index, held, seen, next_close, prev_close) + bluff_bias
        k_options += 1
    k = pick_best(g, scores, k_options)
    if k < nleg:
        return legal[k]
    if draw_offered and k == nleg:
        return -1
    return bluff_index


@njit(cache=True)
def pick_best(g, scores, k_options):
    """The index of the best of scores[:k_options] (k_options > 0); k > 1 tied: the below(k)-th of
    them (play stream), drawn only then."""
    best = scores[0]
    best_k = 0
    ties = 1
    for k in range(1, k_options):
        s = scores[k]
        if s > best:
            best, best_k, ties = s, k, 1
        elif s == best:
            ties += 1
    if ties == 1:
        return best_k
    r = below(g, PLAY_STREAM, ties)
    for k in range(best_k, k_options):
        if scores[k] == best:
            if r == 0:
                return k
            r -= 1
    return best_k


@njit(cache=True)
def play(g, p, legal, nleg, bluff_index):
    """Hand index to play from legal[:nleg] (nleg > 0), the bluff ``bluff_index`` or -1 to draw."""
    ir = g["ir"]
    w = g["pp"][p]
    bluff = bluff_index if not ir[L.IR_NO_BLUFFING] else -1
    return choose_card(g, p, legal, nleg, ir[L.IR_VOLUNTARY_DRAW] != 0, w[L.PP_W_VOLUNTARY_DRAW], bluff,
                       w[L.PP_W_BLUFF])


@njit(cache=True)
def stack(g, p, legal, ns):
    """The card of legal[:ns] (ns > 0) to stack on the pending penalty, or -1 to accept."""
    return choose_card(g, p, legal, ns, True, g["pp"][p, L.PP_W_ACCEPT], -1, 0.0)


@njit(cache=True)
def plays(g, p, i):
    """Play hand index i (a legal drawn card, or a jump-in) rather than keep it: score ≥ w_keep."""
    held = g["count"]
    seen = g["seen"]
    next_close, prev_close = card_context(g, p, held, seen)
    return card_score(g, p, i, held, seen, next_close, prev_close) >= g["pp"][p, L.PP_W_KEEP]


@njit(cache=True)
def colour_score(g, p, k, held, seen, shown):
    w = g["pp"][p]
    score = w[L.PP_W_COLOUR_HELD] * held[k]
    score += w[L.PP_W_COLOUR_SEEN] * seen[k]
    score += w[L.PP_W_COLOUR_SHOWN] * shown[k]
    score += w[L.PP_W_COLOUR_ORDER] * (-k if held[k] > 0 else -N_COLOURS)
    return score


@njit(cache=True)
def colour(g, p):
    """The colour p names: the best colour score (ties: below(k) among the k tied, in colour order)."""
    held = g["count"]
    seen = g["seen"]
    scores = g["scores"]
    count_held(g, p, held)
    if g["pp"][p, L.PP_W_COLOUR_SEEN] != 0.0:
        count_seen(g, seen)
    shown = g["shown"][next_seat(g, p)]
    for k in range(N_COLOURS):
        scores[k] = colour_score(g, p, k, held, seen, shown)
    return pick_best(g, scores, N_COLOURS)


@njit(cache=True)
def target_score(g, p, t, j):
    w = g["pp"][p]
    return w[L.PP_W_TARGET_HAND] * g["hlen"][t] + w[L.PP_W_TARGET_ORDER] * (-j)


@njit(cache=True)
def target(g, p, cand, k):
    """The seat of cand[:k] p swaps hands with: the best target score (ties: below among them)."""
    scores = g["scores"]
    for j in range(k):
        scores[j] = target_score(g, p, cand[j], j)
    return cand[pick_best(g, scores, k)]


@njit(cache=True)
def challenges(g, v):
    """Whether v challenges the Wild Draw Four just played on it by the seat before it."""
    w = g["pp"][v]
    score = w[L.PP_W_CHALLENGE] + w[L.PP_W_CHALLENGE_HAND] * g["hlen"][prev_seat(g, v)]
    if score > 0.0:
        return True
    if score < 0.0:
        return False
    return bernoulli(g, PLAY_STREAM, w[L.PP_CHALLENGE])


@njit(cache=True)
def almost_uno(g, s, order):
    """ALMOST_UNO: keep the two lowest-scoring cards (earlier on ties); order[:m] = the others in hand
    order; returns m."""
    held = g["count"]
    seen = g["seen"]
    next_close, prev_close = card_context(g, s, held, seen)
    h = g["hlen"][s]
    first = 0
    first_score = card_score(g, s, 0, held, seen, next_close, prev_close)
    for i in range(1, h):
        x = card_score(g, s, i, held, seen, next_close, prev_close)
        if x < first_score:
            first, first_score = i, x
    second = -1
    second_score = 0.0
    for i in range(h):
        if i != first:
            x = card_score(g, s, i, held, seen, next_close, prev_close)
            if second < 0 or x < second_score:
                second, second_score = i, x
    m = 0
    for i in range(h):
        if i != first and i != second:
            order[m] = i
            m += 1
    return m


@njit(cache=True)
def group(g, s, tally, groups):
    """DISCARD_NUMBER (groups = 10 numbers) / DISCARD_COLOUR (4 colours): the held group whose cards'
    scores sum highest (the first on ties)."""
    held = g["count"]
    seen = g["seen"]
    next_close, prev_close = card_context(g, s, held, seen)
    hands = g["hands"]
    by_colour = groups == N_COLOURS
    chosen = -1
    best = 0.0
    for x in range(groups):
        if tally[x] == 0:
            continue
        total = 0.0
        for i in range(g["hlen"][s]):
            c = hands[s, i]
            if (by_colour and COLOUR[c] == x) or (not by_colour and KIND[c] == K_NUMBER and NUMBER_OF[c] == x):
                total += card_score(g, s, i, held, seen, next_close, prev_close)
        if chosen < 0 or total > best:
            chosen, best = x, total
    return chosen


@njit(cache=True)
def uno_spin_discard(g, w):
    """UNO_SPIN: the highest-scoring card (the first on ties)."""
    held = g["count"]
    seen = g["seen"]
    next_close, prev_close = card_context(g, w, held, seen)
    index = 0
    best = card_score(g, w, 0, held, seen, next_close, prev_close)
    for i in range(1, g["hlen"][w]):
        x = card_score(g, w, i, held, seen, next_close, prev_close)
        if x > best:
            index, best = i, x
    return index
