"""The card-only terms of the ``weighted`` policy's score: card features per card id (0/1 for the
built-in cards; a declared card's derived from its effects, ``custom_cards.policy_features``), the bound
below every card score (:func:`card_floor`) and each card's first four terms (:func:`card_early`).

They depend on the card tables and a seat's weights alone, so the game record is given them when it is
made (:func:`score_tables`, called by ``round.new_game``) and :mod:`.weighted_features` reads them per
decision.
"""

import numpy as np

from unosim.engine.compiler.jit import njit
from unosim.game import cards as C
from unosim.game import custom_cards as CC
from unosim.game import protocol as L
from unosim.game.card_effects import CARD_ROW, N_CARD_SLOTS
from unosim.game.protocol import MAX_CARDS as MAXC
from unosim.game.protocol import PP_W_ACTION, PP_W_DRAW, PP_W_ORDER, PP_W_POINTS, PP_W_WILD

COLOUR = np.asarray(CC.ALL_COLOUR)   # every id, declared cards' defaults included (custom_cards)
KIND = np.asarray(CC.ALL_KIND)
NUMBER_OF = np.asarray(CC.ALL_NUMBER_OF)
POINTS = np.asarray(CC.ALL_POINTS)
DRAW_VALUE = np.asarray(CC.ALL_DRAW_VALUE)
NO_COLOUR = C.NO_COLOUR
K_NUMBER, K_SKIP, K_REVERSE = C.NUMBER, C.SKIP, C.REVERSE
K_SKIP_EVERYONE, K_WRD4 = C.SKIP_EVERYONE, C.WRD4


def _indicator(flags) -> np.ndarray:
    return np.asarray(flags, dtype=np.float64)


# The 0/1 card features per card id, as floats: a table read instead of a branch per card (the same
# products: weight × 1.0 or weight × 0.0)
IS_ACTION = _indicator([(COLOUR[c] != NO_COLOUR and KIND[c] != K_NUMBER) for c in range(len(COLOUR))])
IS_WILD = _indicator([COLOUR[c] == NO_COLOUR for c in range(len(COLOUR))])
IS_DRAW = _indicator([DRAW_VALUE[c] > 0 for c in range(len(COLOUR))])
IS_ATTACK = _indicator([DRAW_VALUE[c] > 0 or KIND[c] == K_SKIP or KIND[c] == K_SKIP_EVERYONE
                        for c in range(len(COLOUR))])
IS_REVERSE = _indicator([KIND[c] == K_REVERSE or KIND[c] == K_WRD4 for c in range(len(COLOUR))])
# a NUMBER card's number, -1 for any other card (number_match: equal and ≥ 0)
NUMBER_KEY = np.asarray([NUMBER_OF[c] if KIND[c] == K_NUMBER else -1 for c in range(len(COLOUR))],
                        dtype=np.int64)


# Each card feature's smallest and largest value (the table above, in its order, which is the order of
# the weights PP_W_POINTS .. PP_W_ORDER): a hand, a colour and the discard pile hold fewer than MAXC cards
FEATURE_LOW = np.asarray([POINTS.min(), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -MAXC], dtype=np.float64)
FEATURE_HIGH = np.asarray([POINTS.max(), 1, 1, 1, MAXC, 1, 1, 1, 1, 1, MAXC, MAXC, 0], dtype=np.float64)
F_POINTS, F_DRAW, F_ATTACK, F_ATTACK_CLOSE = 0, 3, 7, 8   # their places in FEATURE_LOW / FEATURE_HIGH
assert PP_W_ORDER - PP_W_POINTS == len(FEATURE_LOW) - 1   # the card weights are contiguous, in this order
# the computed score differs from the exact sum by at most 26 roundings (13 products, 13 sums), each
# within 2**-53 of the largest possible |term| sum: 1e-12 of it covers them with room to spare
ROUNDING_ROOM = 1e-12


@njit
def card_floor_over(w, low, high):
    """A number no card score under the weights ``w`` (one seat's PP vector) falls below, rounding
    included: Σ over the card features of the smaller of weight × its smallest and largest value, less
    the rounding room. An option scoring below it (a voluntary draw, accepting a penalty, keeping a
    drawn card, at -100 in every preset) loses to any card, so a decision between one card and such an
    option is taken without scoring the card (``policies.weighted``; the same choice, no draw either
    way). Not finite for weights so large that a score may overflow: then nothing is skipped."""
    floor = 0.0
    scale = 1.0
    for f in range(len(FEATURE_LOW)):
        weight = w[PP_W_POINTS + f]
        floor += min(weight * low[f], weight * high[f])
        scale += abs(weight) * max(abs(low[f]), abs(high[f]))
    return floor - ROUNDING_ROOM * scale


@njit
def card_floor(w):
    """:func:`card_floor_over` the built-in cards' feature ranges."""
    return card_floor_over(w, FEATURE_LOW, FEATURE_HIGH)


@njit
def early_terms(w, points, draw, c):
    """Card c's first four terms under the weights ``w`` (points, action, wild, draw: they depend on the
    card alone; ``points`` and ``draw`` are the game's tables, :func:`game_tables`), summed in order from
    0.0, a zero weight's term skipped as in :func:`~unosim.engine.policies.weighted_features.card_score`."""
    score = 0.0
    if w[PP_W_POINTS] != 0.0:
        score += w[PP_W_POINTS] * points[c]
    if w[PP_W_ACTION] != 0.0:
        score += w[PP_W_ACTION] * IS_ACTION[c]
    if w[PP_W_WILD] != 0.0:
        score += w[PP_W_WILD] * IS_WILD[c]
    if w[PP_W_DRAW] != 0.0:
        score += w[PP_W_DRAW] * draw[c]
    return score


@njit
def card_early(w, points, draw, out):
    """out[c] = :func:`early_terms` of every card id c: one seat's ``card_early`` row of the game record
    (set with ``pp``), which ``card_score`` reads instead of four products and tests per card."""
    for c in range(len(out)):
        out[c] = early_terms(w, points, draw, c)


def game_tables(ir) -> tuple[np.ndarray, ...]:
    """(points, draw, attack, reverse) per card id as the policies see them in a game of compiled rules
    ``ir``, with the feature ranges (low, high): the built-in tables, and each declared card's features
    derived from its effect row (``custom_cards.policy_features``; docs/rules.md §2.7). An unused slot's
    row is zeros: its ids never appear in the game."""
    points = POINTS.astype(np.float64)
    draw, attack, reverse = IS_DRAW.copy(), IS_ATTACK.copy(), IS_REVERSE.copy()
    block = np.asarray(ir[L.IR_CARDS:L.IR_CARDS + N_CARD_SLOTS * CARD_ROW])
    low, high = FEATURE_LOW.copy(), FEATURE_HIGH.copy()
    if block.any():
        for slot in range(N_CARD_SLOTS):
            f = CC.row_policy_features(block[slot * CARD_ROW:(slot + 1) * CARD_ROW])
            ids = slice(CC.ID_CUSTOM0 + 5 * slot, CC.ID_CUSTOM0 + 5 * slot + 5)
            points[ids], draw[ids], attack[ids], reverse[ids] = f.points, f.draw, f.attack, f.reverse
        for f, table in ((F_POINTS, points), (F_DRAW, draw), (F_ATTACK, attack), (F_ATTACK_CLOSE, attack)):
            low[f], high[f] = min(low[f], table.min()), max(high[f], table.max())
    return points, draw, attack, reverse, low, high


def score_tables(g, players: int) -> None:
    """Fill the game record's ``card_floor`` and ``card_early`` rows of the first ``players`` seats from
    their weights (``g["pp"]``), and ``card_late`` (attack, reverse per card id), once per lineup."""
    points, draw, attack, reverse, low, high = game_tables(g["ir"])
    g["card_late"][0] = attack
    g["card_late"][1] = reverse
    for s, vector in enumerate(g["pp"][:players]):
        g["card_floor"][s] = card_floor_over(vector, low, high)
        card_early(vector, points, draw, g["card_early"][s])
