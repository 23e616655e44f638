"""Which cards may be played (docs/rules.md §1.4, §1.8, §2.7): the legality table and the verbs that read it.

``PLAY_FLAGS[r, colour, c]`` holds, for card id ``c`` on a top card of legality row ``r`` with ``colour``
in play, the bits ``LEGAL``, ``SAME_COLOUR`` and ``LEGAL_WD4``, so that the scan of a hand
(``core.turn.legal_plays``) reads one byte per card. A top card matters to legality only through what
matches it (a number, a kind of coloured card, or nothing but its colour: a wild), so the rows are
indexed by the top's **legality row** ``TOP_ROW[t]`` (a few dozen), not by its id (hundreds: UNO Flip's
pairings and the declared cards' slots each add ids); the table is a few tens of kilobytes.

A declared card's two legality fields are data of its rule set (the last number of its ``IR_CARDS``
row, ``custom_cards.legality_bits``), never compiled in, so a new card compiles nothing:

* ``same_effect = false``: with such a card on top, nothing matches it but its colour, which is the
  row of a wild top (:func:`top_row`);
* ``challengeable``: the table marks every declared wild ``LEGAL_WD4`` (it *may* be restricted) and
  :func:`restricted` reads the row, as the WD4 rule of §1.8 needs it.
"""

import numpy as np

from unosim.engine.compiler.jit import njit
from unosim.game import cards as C
from unosim.game import custom_cards as CC
from unosim.game import protocol as L
from unosim.game.card_effects import CARD_ROW, ROW_LEGALITY

from ..features import HAS_CARDS
from .state import (
    COLOUR,
    ID_CUSTOM0,
    K_NUMBER,
    KIND,
    N_COLOURS,
    NO_COLOUR,
    NUMBER_OF,
    ST_COLOUR,
    ST_TOP,
    holds_colour,
)

# 1: a wild draw card playable only without the colour in play, and challengeable (WD4, UNO Flip's
# Wild Draw Two and Wild Draw Colour; docs/rules.md §1.8, §2.6.4); a declared card's is data (restricted)
RESTRICTED = np.asarray(CC.ALL_RESTRICTED)
LEGAL, SAME_COLOUR, LEGAL_WD4 = 1, 2, 4
# a declared wild may be challengeable (its rule set says): the table marks it, restricted() decides
MAY_BE_RESTRICTED = RESTRICTED.astype(bool) | ((np.arange(len(COLOUR)) >= ID_CUSTOM0) & (COLOUR == NO_COLOUR))


def _matches_top():
    """[c, t]: card c matches top card t whatever the colour in play (§1.4 items 1, 3, 4); item 2 (c's
    colour is the colour in play) is the table's ``SAME_COLOUR``."""
    c_kind, t_kind = KIND[:, None], KIND[None, :]
    numbers = (c_kind == K_NUMBER) & (t_kind == K_NUMBER) & (NUMBER_OF[:, None] == NUMBER_OF[None, :])
    actions = (COLOUR[None, :] != NO_COLOUR) & (c_kind == t_kind)
    return np.where((COLOUR == NO_COLOUR)[:, None], True, np.where(c_kind == K_NUMBER, numbers, actions))


def _top_rows():
    """(TOP_ROW, one column of the match table per row): top cards matched by the same cards share a row."""
    columns, top_row = np.unique(_matches_top().T, axis=0, return_inverse=True)
    return np.asarray(top_row, np.int64).ravel(), columns


TOP_ROW, _COLUMNS = _top_rows()
#: the row of a top card that nothing matches but its colour and the wilds: a wild's
COLOUR_ONLY_ROW = int(TOP_ROW[C.ID_WILD])


def _play_flags():
    """Built with whole-array operations: element by element it took a third of a second of every
    process that loads the engine."""
    same = COLOUR[None, None, :] == np.arange(N_COLOURS + 1)[None, :, None]   # [row, colour, c]
    legal = same | _COLUMNS[:, None, :]
    flags = LEGAL * legal + SAME_COLOUR * same + LEGAL_WD4 * (legal & MAY_BE_RESTRICTED[None, None, :])
    return np.ascontiguousarray(flags, dtype=np.uint8)   # C order: numba freezes it into the code


PLAY_FLAGS = _play_flags()


@njit(inline='always')
def _legality_bits(g, c):
    """Declared card c's legality bits (``custom_cards.legality_bits``), read from its row of the rules."""
    return g["ir"][L.IR_CARDS + (c - ID_CUSTOM0) // 5 * CARD_ROW + ROW_LEGALITY]


@njit(inline='always')
def restricted(g, c):
    """Whether c is legal only without the colour in play and challengeable (§1.8): a WD4's kind, or a
    declared card's ``challengeable``."""
    if HAS_CARDS and c >= ID_CUSTOM0:
        return (_legality_bits(g, c) & CC.CHALLENGEABLE) != 0
    return RESTRICTED[c] != 0


@njit(inline='always')
def top_row(g, t):
    """The legality row of top card t: a declared card with ``same_effect = false`` is matched by its
    colour alone (§2.7), as a wild top is."""
    if HAS_CARDS and t >= ID_CUSTOM0 and (_legality_bits(g, t) & CC.OWN_COLOUR_ONLY) != 0:
        return COLOUR_ONLY_ROW
    return TOP_ROW[t]


@njit(inline='always')
def play_flags(g):
    """The table's row for the top card and the colour in play: one byte per card id."""
    st = g["st"]
    return PLAY_FLAGS[top_row(g, st[ST_TOP]), st[ST_COLOUR]]


@njit
def playable(g, p, i):
    """Legal play of hand index i (§1.4 with the WD4 restriction of §1.8)."""
    c = g["hands"][p, i]
    if not play_flags(g)[c] & LEGAL:
        return False
    if restricted(g, c):
        return not holds_colour(g, p, g["st"][ST_COLOUR], i)
    return True
