"""The ``weighted`` built-in policy: strategies as data (the presets of ``unosim.game.policies`` are weight
vectors of it).

At every decision it scores each option by Σ weight × feature (:mod:`.weighted_features` names and
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

Called only through :mod:`.dispatch`. Scratch: ``scores`` (the options' scores); the colour counts of
the seat's hand and of the discard pile are the game record's ``held`` and ``discards``.
"""

from unosim.engine.compiler.jit import njit
from unosim.game import protocol as L

from ..record.rng import PLAY_STREAM, below, bernoulli
from ..record.state import COLOUR, K_NUMBER, KIND, N_COLOURS, NUMBER_OF, next_seat
from .weighted_features import card_context, card_score, prev_seat


# inline='always' (numba-IR inlining) on the card context, card_score, running_best and pick_best: left
# as calls they cost a preset a large share of its games per CPU-second (docs/results/code_choices.json).
# choose_card itself is a call: numba deep-copies an inlined function's IR, its own inlined callees
# included, block by block at every site it is inlined into, and inlining choose_card's three card_score
# copies into play cost more compile than the whole weighted policy now does
# (docs/results/code_choices.json).
@njit
def choose_card(g, p, legal, nleg, draw_offered, draw_score, bluff_index, bluff_bias):
    """The best of legal[:nleg], the draw (-1; offered when ``draw_offered``, scoring ``draw_score``)
    and the bluff ``bluff_index`` (offered when ≥ 0, scoring its card score + ``bluff_bias``). A single
    card is taken unscored when it is the only option or the draw scores below p's ``card_floor``, so
    that the card wins whatever it scores (no tie, so nothing is drawn either way). In the presets the
    draw scores -100, and a single legal card is about 40 % of the play decisions of classic 4p."""
    if nleg == 1 and bluff_index < 0 and (not draw_offered or draw_score < g["card_floor"][p]):
        return legal[0]
    held = g["held"][p]
    seen = g["discards"]
    scores = g["scores"]
    context = card_context(g, p)
    hand = g["hands"][p]
    # the best option is kept while scoring (no second pass over the scores; pick_best's rule)
    best = card_score(context, hand[legal[0]], legal[0], held, seen)
    scores[0] = best
    best_k = 0
    ties = 1
    for k in range(1, nleg):
        i = legal[k]
        score = card_score(context, hand[i], i, held, seen)
        scores[k] = score
        best, best_k, ties = running_best(score, k, best, best_k, ties)
    k_options = nleg
    if draw_offered:
        scores[k_options] = draw_score
        best, best_k, ties = running_best(draw_score, k_options, best, best_k, ties)
        k_options += 1
    if bluff_index >= 0:
        score = card_score(context, hand[bluff_index], bluff_index, held, seen) + bluff_bias
        scores[k_options] = score
        best, best_k, ties = running_best(score, k_options, best, best_k, ties)
        k_options += 1
    k = best_k if ties == 1 else tied(g, scores, k_options, best, best_k, ties)
    if k < nleg:
        return legal[k]
    if draw_offered and k == nleg:
        return -1
    return bluff_index


@njit(inline='always')
def running_best(score, k, best, best_k, ties):
    """Option k scoring ``score`` joins the best so far (``best``, first reached at option ``best_k``,
    by ``ties`` options): the new (best, best_k, ties). Selects, not branches: whether an option beats
    the best so far is a coin flip to the branch predictor."""
    beats = score > best
    ties = 1 if beats else ties + (1 if score == best else 0)
    best_k = k if beats else best_k
    best = score if beats else best
    return best, best_k, ties


@njit
def tied(g, scores, k_options, best, best_k, ties):
    """The below(ties)-th (play stream) of the ``ties`` > 1 options of scores[:k_options] that score
    ``best``, the first of them being best_k."""
    r = below(g, PLAY_STREAM, ties)
    for k in range(best_k, k_options):
        if scores[k] == best:
            if r == 0:
                return k
            r -= 1
    return best_k


@njit(inline='always')
def pick_best(g, scores, k_options):
    """The index of the best of scores[:k_options] (k_options > 0); k > 1 tied: the below(k)-th of
    them (play stream), drawn only then."""
    best = scores[0]
    best_k = 0
    ties = 1
    for k in range(1, k_options):
        best, best_k, ties = running_best(scores[k], k, best, best_k, ties)
    return best_k if ties == 1 else tied(g, scores, k_options, best, best_k, ties)


@njit
def play(g, p, legal, nleg, bluff_index):
    """Hand index to play from legal[:nleg] (nleg > 0), the bluff ``bluff_index`` or -1 to draw."""
    ir = g["ir"]
    w = g["pp"][p]
    bluff = bluff_index if not ir[L.IR_NO_BLUFFING] else -1
    return choose_card(g, p, legal, nleg, ir[L.IR_VOLUNTARY_DRAW] != 0, w[L.PP_W_VOLUNTARY_DRAW], bluff,
                       w[L.PP_W_BLUFF])


@njit
def stack(g, p, legal, ns):
    """The card of legal[:ns] (ns > 0) to stack on the pending penalty, or -1 to accept."""
    return choose_card(g, p, legal, ns, True, g["pp"][p, L.PP_W_ACCEPT], -1, 0.0)


@njit
def plays(g, p, i):
    """Play hand index i (a legal drawn card, or a jump-in) rather than keep it: score ≥ w_keep."""
    if g["pp"][p, L.PP_W_KEEP] <= g["card_floor"][p]:   # every card scores ≥ w_keep: no need to score it
        return True
    score = card_score(card_context(g, p), g["hands"][p, i], i, g["held"][p], g["discards"])
    return score >= g["pp"][p, L.PP_W_KEEP]


@njit
def colour(g, p):
    """The colour p names: the best colour score (ties: below(k) among the k tied, in colour order).
    A term whose weight is 0 is skipped, unread (exact, as in ``card_score``)."""
    w = g["pp"][p]
    w_held = w[L.PP_W_COLOUR_HELD]
    w_seen = w[L.PP_W_COLOUR_SEEN]
    w_shown = w[L.PP_W_COLOUR_SHOWN]
    w_order = w[L.PP_W_COLOUR_ORDER]
    held = g["held"][p]
    seen = g["discards"]
    scores = g["scores"]
    # next(p)'s Show Hand counts; with w_colour_shown = 0 no row is read, p's own stands in
    shown = g["shown"][next_seat(g, p) if w_shown != 0.0 else p]
    for k in range(N_COLOURS):
        score = 0.0
        if w_held != 0.0:
            score += w_held * held[k]
        if w_seen != 0.0:
            score += w_seen * seen[k]
        if w_shown != 0.0:
            score += w_shown * shown[k]
        if w_order != 0.0:
            score += w_order * (-k if held[k] > 0 else -N_COLOURS)
        scores[k] = score
    return pick_best(g, scores, N_COLOURS)


@njit
def target_score(g, p, t, j):
    w = g["pp"][p]
    return w[L.PP_W_TARGET_HAND] * g["hlen"][t] + w[L.PP_W_TARGET_ORDER] * (-j)


@njit
def target(g, p, cand, k):
    """The seat of cand[:k] p swaps hands with: the best target score (ties: below among them)."""
    scores = g["scores"]
    for j in range(k):
        scores[j] = target_score(g, p, cand[j], j)
    return cand[pick_best(g, scores, k)]


@njit
def challenges(g, v):
    """Whether v challenges the Wild Draw Four just played on it by the seat before it."""
    w = g["pp"][v]
    score = w[L.PP_W_CHALLENGE] + w[L.PP_W_CHALLENGE_HAND] * g["hlen"][prev_seat(g, v)]
    if score > 0.0:
        return True
    if score < 0.0:
        return False
    return bernoulli(g, PLAY_STREAM, w[L.PP_CHALLENGE])


@njit
def almost_uno(g, s, order):
    """ALMOST_UNO: keep the two lowest-scoring cards (earlier on ties); order[:m] = the others in hand
    order; returns m."""
    held = g["held"][s]
    seen = g["discards"]
    context = card_context(g, s)
    hand = g["hands"][s]
    h = g["hlen"][s]
    first = 0
    first_score = card_score(context, hand[0], 0, held, seen)
    for i in range(1, h):
        x = card_score(context, hand[i], i, held, seen)
        if x < first_score:
            first, first_score = i, x
    second = -1
    second_score = 0.0
    for i in range(h):
        if i != first:
            x = card_score(context, hand[i], i, held, seen)
            if second < 0 or x < second_score:
                second, second_score = i, x
    m = 0
    for i in range(h):
        if i != first and i != second:
            order[m] = i
            m += 1
    return m


@njit
def group(g, s, tally, groups):
    """DISCARD_NUMBER (groups = 10 numbers) / DISCARD_COLOUR (4 colours): the held group whose cards'
    scores sum highest (the first on ties)."""
    held = g["held"][s]
    seen = g["discards"]
    context = card_context(g, s)
    hand = g["hands"][s]
    by_colour = groups == N_COLOURS
    chosen = -1
    best = 0.0
    for x in range(groups):
        if tally[x] == 0:
            continue
        total = 0.0
        for i in range(g["hlen"][s]):
            c = hand[i]
            if (by_colour and COLOUR[c] == x) or (not by_colour and KIND[c] == K_NUMBER and NUMBER_OF[c] == x):
                total += card_score(context, hand[i], i, held, seen)
        if chosen < 0 or total > best:
            chosen, best = x, total
    return chosen


@njit
def uno_spin_discard(g, w):
    """UNO_SPIN: the highest-scoring card (the first on ties)."""
    held = g["held"][w]
    seen = g["discards"]
    context = card_context(g, w)
    hand = g["hands"][w]
    index = 0
    best = card_score(context, hand[0], 0, held, seen)
    for i in range(1, g["hlen"][w]):
        x = card_score(context, hand[i], i, held, seen)
        if x > best:
            index, best = i, x
    return index
