"""The named features the ``weighted`` policy scores its options by (the weights: ``w_<feature>``,
``unosim.game.protocol.WEIGHT_PARAMS``; the policy: :mod:`.weighted`).

Every feature reads public information or the deciding seat's own hand only. An option's score is the
sum of weight × feature over its features, added in the order listed here (``unosim.reference.weighted``
adds them in the same order, so both engines compute the same float64 score bit for bit).

Card option: card ``c`` at hand index ``i`` of seat ``p`` (a play, a stack, a drawn card, a jump-in,
or a card the spin wheel lets ``p`` discard), with ``A`` the colour in play and ``T`` the top card:

================ ===================================================================== ===========
feature          formula                                                               range
================ ===================================================================== ===========
points           card points of ``c`` (docs/rules.md §1.10 and the variant's tables;   0 .. 50; declared
                 a declared card's own, §2.7)                                          0 .. 1000
action           1 if ``c`` is coloured and not a NUMBER card                          0, 1
wild             1 if ``c`` has no colour (wild, Wild Draw Four, every wild action)    0, 1
draw             1 if ``c`` makes someone draw (its draw value > 0); a declared card:   0, 1; a declared
                 its draw size over a Draw Two's (``custom_cards.policy_features``)    card 0 .. 10
colour_left      cards of ``c``'s colour ``p`` holds besides ``c``; 0 for a wild       0 .. 167
keeps_colour     1 if ``c``'s colour is ``A`` (the play keeps the colour in play)      0, 1
number_match     1 if ``c`` and ``T`` are NUMBER cards with the same number            0, 1
attack           1 if ``c`` is a draw card, a Skip or a Skip Everyone; a declared card: 0, 1; a declared
                 its draw feature, else 1 if it skips                                  card 0 .. 10
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

from unosim.engine.compiler.jit import njit
from unosim.game.protocol import (
    PP_W_ATTACK,
    PP_W_ATTACK_CLOSE,
    PP_W_COLOUR_LEFT,
    PP_W_KEEPS_COLOUR,
    PP_W_NUMBER_MATCH,
    PP_W_ORDER,
    PP_W_OWN_HAND,
    PP_W_REVERSE_CLOSE,
    PP_W_SEEN,
)

from ..record.state import (
    COLOUR,
    NO_COLOUR,
    SE_ACTIVE,
    ST_COLOUR,
    ST_DIR,
    ST_N,
    ST_TOP,
    step,
)
from .card_terms import NUMBER_KEY

CLOSE_TO_UNO = 2   # attack_close / reverse_close: the seat holds at most this many cards


@njit
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


@njit(inline='always')
def next_close_to_uno(g, p):
    """Whether next(p) holds ≤ CLOSE_TO_UNO cards."""
    seat = g["seat"]
    n = g["st"][ST_N]
    d = g["st"][ST_DIR]
    nxt = p
    for _ in range(n):
        nxt = step(nxt, d, n)
        if seat[nxt, SE_ACTIVE]:
            break
    return g["hlen"][nxt] <= CLOSE_TO_UNO


# inlined into every decision that scores cards (a call costs more than the context itself)
@njit(inline='always')
def card_context(g, p):
    """The decision's constants for ``card_score``: p's row of ``card_early`` (every card's first four
    terms), p's later card weights, with attack_close's and reverse_close's set to 0 unless their seat
    is close to UNO, own_hand's term, the colour in play and the top card's NUMBER_KEY, and ``late``:
    whether any term after ``draw`` has a weight (without one, as in high_card_out, a card's score is
    its row entry and the other nine tests are skipped), and the game's attack and reverse features per
    card (``card_late``). Nothing is counted: the game record keeps p's
    colour counts (``held``) and the discard pile's (``discards``, engine/record/state.py)."""
    w = g["pp"][p]
    w_attack_close = w[PP_W_ATTACK_CLOSE]
    if w_attack_close != 0.0 and not next_close_to_uno(g, p):
        w_attack_close = 0.0
    w_reverse_close = w[PP_W_REVERSE_CLOSE]
    if w_reverse_close != 0.0 and g["hlen"][prev_seat(g, p)] > CLOSE_TO_UNO:
        w_reverse_close = 0.0
    st = g["st"]
    own_hand = w[PP_W_OWN_HAND] * g["hlen"][p]
    late = (w[PP_W_COLOUR_LEFT] != 0.0 or w[PP_W_KEEPS_COLOUR] != 0.0 or w[PP_W_NUMBER_MATCH] != 0.0
            or w[PP_W_ATTACK] != 0.0 or w_attack_close != 0.0 or w_reverse_close != 0.0 or own_hand != 0.0
            or w[PP_W_SEEN] != 0.0 or w[PP_W_ORDER] != 0.0)
    return (g["card_early"][p], late, w[PP_W_COLOUR_LEFT], w[PP_W_KEEPS_COLOUR], w[PP_W_NUMBER_MATCH],
            w[PP_W_ATTACK], w_attack_close, w_reverse_close, own_hand, w[PP_W_SEEN], w[PP_W_ORDER],
            st[ST_COLOUR], NUMBER_KEY[st[ST_TOP]], g["card_late"][0], g["card_late"][1])


# inlined (numba IR): it runs for every legal card of every weighted decision
@njit(inline='always')
def card_score(context, c, i, held, seen):
    """The score of card c at hand index i: Σ weight × feature in the order of the module docstring;
    ``held`` = p's colour counts (``g["held"][p]``), ``seen`` = the discard pile's (``g["discards"]``).

    A term whose weight is 0 is skipped: adding weight × feature = ±0.0 leaves the sum unchanged (up to
    the sign of a zero sum, which no comparison sees), so the score equals the full sum's, and every
    weight test is the same for all cards of a decision (a predictable branch). The first four terms
    depend on the card alone: they are read from the seat's ``card_early`` row, summed there by the
    same operations in the same order (:func:`.card_terms.early_terms`), so the score is the same float."""
    (early, late, w_colour_left, w_keeps_colour, w_number_match, w_attack, w_attack_close, w_reverse_close,
     own_hand, w_seen, w_order, colour_in_play, top_number, attack, reverse) = context
    score = early[c]
    if not late:
        return score
    colour = COLOUR[c]
    if w_colour_left != 0.0:
        score += w_colour_left * (held[colour] - 1 if colour != NO_COLOUR else 0)
    if w_keeps_colour != 0.0:
        score += w_keeps_colour * (1.0 if colour == colour_in_play else 0.0)
    if w_number_match != 0.0:
        score += w_number_match * (1.0 if NUMBER_KEY[c] == top_number and top_number >= 0 else 0.0)
    if w_attack != 0.0:
        score += w_attack * attack[c]
    if w_attack_close != 0.0:
        score += w_attack_close * attack[c]
    if w_reverse_close != 0.0:
        score += w_reverse_close * reverse[c]
    if own_hand != 0.0:
        score += own_hand
    if w_seen != 0.0:
        score += w_seen * (seen[colour] if colour != NO_COLOUR else 0)
    if w_order != 0.0:
        score += w_order * (-i)
    return score
