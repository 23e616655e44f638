"""The audit mode's invariants (``ir[IR_AUDIT]``, tests only; it never changes a game): checked after
every turn and jump-in, a failed check adds 1 to ``st[ST_VIOLATIONS]``."""

import numpy as np

from unosim.engine.compiler.jit import njit
from unosim.game import protocol as L

from ..record.state import (
    ASIDE,
    DISC,
    DRAW,
    MAXC,
    SE_ACTIVE,
    ST_END,
    ST_N,
    ST_N_ACTIVE,
    ST_TOP,
    ST_VIOLATIONS,
    ST_WINNER,
    discards_agree,
    held_agree,
)
from . import hooks


@njit
def audit(g, deck_counts, round_over):
    """Invariants checked after every turn in audit mode (tests): card identities are conserved across
    hands and piles (set-aside hands included), every hand size is possible, no active hand is at the
    mercy limit, knocked-out seats hold nothing, a won round leaves the winner empty-handed, and the
    discard pile's colour counts (``discards``) are the pile's.

    Parameters
    ----------
    g : numpy.void
        The game record (``round.new_game(...)[0]``); a failed check adds 1 to ``g["st"][ST_VIOLATIONS]``.
    deck_counts : int64[cards.N_CARD_IDS]
        How many copies of each card id the variant's deck holds.
    round_over : bool
        The round has just ended (a won round must leave the winner without cards).
    """
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    pile = g["pile"]
    plen = g["plen"]
    count = np.zeros(deck_counts.shape[0], np.int64)
    total = plen[DRAW] + plen[DISC] + plen[ASIDE]
    for r in range(3):
        for i in range(plen[r]):
            count[hooks.physical(pile[r, i])] += 1
    for s in range(st[ST_N]):
        if hlen[s] < 0 or hlen[s] > MAXC:
            st[ST_VIOLATIONS] += 1
            return
        total += hlen[s]
        for i in range(hlen[s]):
            count[hooks.physical(hands[s, i])] += 1
    bad = total != deck_counts.sum()
    for c in range(deck_counts.shape[0]):
        if count[c] != deck_counts[c]:
            bad = True
    if plen[DISC] > 0 and pile[DISC, plen[DISC] - 1] != st[ST_TOP]:
        bad = True
    if not discards_agree(g) or not held_agree(g):
        bad = True
    if not hooks.consistent(g):
        bad = True
    if round_over and st[ST_END] == L.END_WON and hlen[st[ST_WINNER]] != 0:
        bad = True
    limit = g["ir"][L.IR_MERCY_LIMIT]
    active = 0
    for s in range(st[ST_N]):
        if g["seat"][s, SE_ACTIVE]:
            active += 1
            if limit > 0 and hlen[s] >= limit:
                bad = True   # a hand at the mercy limit never survives a check
        elif hlen[s] != 0:
            bad = True       # a knocked-out seat holds nothing
    if active != st[ST_N_ACTIVE] or (active == 1 and not round_over):
        bad = True
    if bad:
        st[ST_VIOLATIONS] += 1
