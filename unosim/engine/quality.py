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

from numba import njit

from .. import protocol as L
from .state import MAXC, ST_LEAD_CHANGES, ST_LEADER, ST_N

OUT = MAXC + 1   # g["out_pad"] of a knocked-out seat: more cards than any hand, so never the fewest


@njit(cache=True, inline='always')
def scan_standings(g, n, knockouts):
    """The standings check over seats 0..n-1 (n <= 7, :func:`scan_by_size`): update the lead and every
    seat's running maximum deficit (``g["deficit"]``).

    A turn costs about 100 ns, so this runs without data-dependent branches (mispredictions would cost
    a fifth of a turn) over contiguous arrays: one pass of selects finds the smallest padded hand, how
    many seats hold it and the first of them; a second updates the deficits. (A first pass for the
    smallest hand and a second for the deficits and the seats holding it cost about one point of
    throughput more: classic 6p 10.4 % against 9.4 % of a no-op check. Also measured and dropped, classic
    6p against 10.3-11.3 % for this scan: updating only the deficits that can have grown, noted by the
    draws, 13.1 % (the branch on whether the smallest hand fell mispredicts; 4p 12.0 % against 8.6 %);
    eight padded lanes the compiler vectorises, 15 % at every table size; the smallest of size × 16 +
    seat, one chain instead of three, no gain.) A knocked-out seat carries
    ``g["out_pad"]`` = OUT (0 while active), so its padded size is never the smallest and the 2-D
    ``seat`` table is never read; it holds no cards, so its deficit is never positive and its maximum
    stays as it was. ``knockouts`` (a constant at every call): whether seats can be knocked out, else
    the padding is not read."""
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


@njit(cache=True, inline='always')
def set_leader(st, tied, holder):
    """The lead after a check where ``tied`` seats hold the smallest hand (``holder``: that seat when
    ``tied`` is 1): branch-free too, since whether the lead is unique and changed hands is data, not a
    pattern."""
    leader = st[ST_LEADER]
    unique = tied == 1
    st[ST_LEAD_CHANGES] += unique & (holder != leader) & (leader >= 0)
    st[ST_LEADER] = leader + unique * (holder - leader)


# inlined into its callers (numba IR): as a call it cost ~5% of classic 4p throughput
@njit(cache=True, inline='always')
def check_standings(g):
    """One standings check (:func:`scan_standings`). Only the mercy rule knocks seats out
    (``mercy_limit`` > 0, docs/rules.md §2.4.6); without it every ``out_pad`` is 0 and the scan does not
    read them (measured: classic 6p 10.4 % -> 9.6 % of throughput, 5p 8.8 % -> 7.8 %)."""
    if g["ir"][L.IR_MERCY_LIMIT] > 0:
        scan_by_size(g, True)
    else:
        scan_by_size(g, False)


@njit(cache=True, inline='always')
def scan_by_size(g, knockouts):
    """Tables of 2-7 seats get a copy of :func:`scan_standings` whose seat count is a constant, which the
    compiler turns into straight-line code (no loop control, no vector-width dispatch): the branch on
    the table size always goes the same way in a run, and the copies cost less than the loops
    (measured: classic 6p 13.8% -> 11.8% of throughput, no_mercy 6p 10.7% -> 7.3%). Larger tables take
    :func:`scan_wide`: over 8-10 seats the serial chain of selects cost 19-21 % of classic throughput,
    its vectorised passes 10-12 %."""
    n = g["st"][ST_N]
    if n == 4:
        scan_standings(g, 4, knockouts)
    elif n == 2:
        scan_standings(g, 2, knockouts)
    elif n == 3:
        scan_standings(g, 3, knockouts)
    elif n == 6:
        scan_standings(g, 6, knockouts)
    elif n == 5:
        scan_standings(g, 5, knockouts)
    elif n == 7:
        scan_standings(g, 7, knockouts)
    else:
        scan_wide(g, n, knockouts)


@njit(cache=True, inline='always')
def scan_wide(g, n, knockouts):
    """:func:`scan_standings` for 8-10 seats, the same results: one pass for the smallest padded hand,
    then one for the deficits and the seats holding it. Neither pass carries a select chain from seat
    to seat, so the compiler vectorises both."""
    st = g["st"]
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
