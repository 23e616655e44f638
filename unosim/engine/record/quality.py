"""Game-quality measures, tracked online while a round is played (protocol §3 "Quality measures").

* ``lead_changes``: at every standings check the *leader* is the unique active seat with strictly the
  fewest cards; while two or more active seats share the fewest cards there is no leader. A change is
  counted each time a unique leader differs from the previous unique leader of the round; the first
  unique leader is not a change, and ties in between neither count nor reset the previous leader.
* ``winner_max_deficit``: the largest (winner's hand − smallest active hand) over the standings checks
  of the round; 0 when the winner was never behind. The winner is known only at the end, so each seat
  keeps its own running maximum (``g["deficit"]``) and the winner's is reported (none: null).
* ``max_hand``: the largest hand any seat held at any moment of the round, the opening deal included.
  Only the deal and single draws (``piles.draw_one``) make a hand grow; swaps, passes, Trade Hands and
  ``shuffle_hands`` redeals (sizes differ by at most one) never exceed the largest hand before them. A
  hand that reaches the mercy limit counts with the card that knocked it out.

A *standings check* happens once before the first turn (after the deal, the first card's effect and
its checkpoint, or at the moment the setup ended the round), and after every counted turn — a jump-in
is a turn — once its checkpoint is done, or at the moment the turn ended the round. A round ended by
the turn cap gets no extra check (no turn was played). Knocked-out seats are not active.
"""

from unosim.engine.compiler.jit import njit
from unosim.game import protocol as L

from ..features import HAS_MERCY
from .state import MAXC, ST_LEAD_CHANGES, ST_LEADER, ST_N

OUT = MAXC + 1   # g["out_pad"] of a knocked-out seat: more cards than any hand, so never the fewest


def narrow_scan(n, knockouts):
    """The standings check over exactly the seats 0..n-1 (n <= 7, :func:`check_standings`): update the
    lead and every seat's running maximum deficit (``g["deficit"]``). ``n`` and ``knockouts`` are
    constants of the returned function, so the compiler turns its loops into straight-line code (no
    loop control, no vector-width dispatch) and drops the padding when seats cannot be knocked out.

    A turn is short, so this runs without data-dependent branches (a misprediction costs a good part of
    a turn) over contiguous arrays: one pass of selects finds the smallest padded hand, how many seats
    hold it and the first of them; a second updates the deficits. (Measured and dropped, none faster,
    docs/results/code_choices.json: a first pass for the smallest hand and a second for the deficits and
    the seats holding it; updating only the deficits that can have grown, noted by the draws (the branch
    on whether the smallest hand fell mispredicts); eight padded lanes the compiler vectorises; the
    smallest of size × 16 + seat, one chain instead of three.) A knocked-out seat carries
    ``g["out_pad"]`` = OUT (0 while active), so its padded size is never the smallest and the 2-D
    ``seat`` table is never read; it holds no cards, so its deficit is never positive and its maximum
    stays as it was."""
    @njit
    def scan(g):
        st = g["st"]
        hlen = g["hlen"]
        deficit = g["deficit"]
        out_pad = g["out_pad"]
        low = OUT
        tied = 0
        holder = 0
        for s in range(n):
            size = hlen[s] + out_pad[s] if knockouts else hlen[s]
            smaller = size < low
            tied = 1 if smaller else tied + (size == low)
            holder = s if smaller else holder
            low = size if smaller else low
        for s in range(n):
            deficit[s] = max(deficit[s], hlen[s] - low)
        set_leader(st, tied, holder)
    return scan


def wide_scan(knockouts):
    """The standings check for 8-10 seats, the same results as :func:`narrow_scan`: one pass for the
    smallest padded hand, then one for the deficits and the seats holding it. Neither pass carries a
    select chain from seat to seat, so the compiler vectorises both (over 8-10 seats the serial chain
    of selects cost about twice the throughput of these passes: docs/results/code_choices.json)."""
    @njit
    def scan(g):
        st = g["st"]
        n = st[ST_N]
        hlen = g["hlen"]
        deficit = g["deficit"]
        out_pad = g["out_pad"]
        low = OUT
        for s in range(n):
            low = min(low, hlen[s] + out_pad[s] if knockouts else hlen[s])
        tied = 0
        holder = 0
        for s in range(n):
            size = hlen[s]
            deficit[s] = max(deficit[s], size - low)
            lowest = (size + out_pad[s] if knockouts else size) == low
            tied += lowest
            holder += s * lowest
        set_leader(st, tied, holder)
    return scan


@njit(inline='always')
def set_leader(st, tied, holder):
    """The lead after a check where ``tied`` seats hold the smallest hand (``holder``: that seat when
    ``tied`` is 1): branch-free too, since whether the lead is unique and changed hands is data, not a
    pattern."""
    leader = st[ST_LEADER]
    unique = tied == 1
    st[ST_LEAD_CHANGES] += unique & (holder != leader) & (leader >= 0)
    st[ST_LEADER] = leader + unique * (holder - leader)


# One function per table size (and padding): the branch on the size always goes the same way in a
# run, and the straight-line copies cost less throughput than the loops. They are separate compiled
# functions, not numba-inlined copies: seven inlined copies per call site slowed every build's compile;
# LLVM still inlines the one a table uses into the turn loop (figures: docs/results/code_choices.json).
SCAN_2, SCAN_3, SCAN_4, SCAN_5, SCAN_6, SCAN_7 = (narrow_scan(n, False) for n in range(2, 8))
SCAN_KO_2, SCAN_KO_3, SCAN_KO_4, SCAN_KO_5, SCAN_KO_6, SCAN_KO_7 = (narrow_scan(n, True) for n in range(2, 8))
SCAN_WIDE, SCAN_KO_WIDE = wide_scan(False), wide_scan(True)


# inlined into its callers (numba IR): as a call it cost throughput (docs/results/code_choices.json)
@njit(inline='always')
def check_standings(g):
    """One standings check (:func:`narrow_scan`). Only the mercy rule knocks seats out
    (``mercy_limit`` > 0, docs/rules.md §2.4.6); without it every ``out_pad`` is 0 and the scan does not
    read them (which costs less throughput: docs/results/code_choices.json)."""
    if HAS_MERCY and g["ir"][L.IR_MERCY_LIMIT] > 0:
        scan_knockouts(g)
    else:
        scan_plain(g)


@njit(inline='always')
def scan_plain(g):
    n = g["st"][ST_N]
    if n == 4:
        SCAN_4(g)
    elif n == 2:
        SCAN_2(g)
    elif n == 3:
        SCAN_3(g)
    elif n == 6:
        SCAN_6(g)
    elif n == 5:
        SCAN_5(g)
    elif n == 7:
        SCAN_7(g)
    else:
        SCAN_WIDE(g)


@njit(inline='always')
def scan_knockouts(g):
    n = g["st"][ST_N]
    if n == 4:
        SCAN_KO_4(g)
    elif n == 2:
        SCAN_KO_2(g)
    elif n == 3:
        SCAN_KO_3(g)
    elif n == 6:
        SCAN_KO_6(g)
    elif n == 5:
        SCAN_KO_5(g)
    elif n == 7:
        SCAN_KO_7(g)
    else:
        SCAN_KO_WIDE(g)


@njit
def check_standings_out_of_loop(g):
    """:func:`check_standings` as a call, for the checks outside the turn loop (after the setup, after a
    jump-in): only the turn loop's copy is hot."""
    check_standings(g)
