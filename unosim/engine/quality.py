"""Game-quality measures, tracked online while a round is played (protocol §3 "Quality measures").

* ``lead_changes``: at every standings check the *leader* is the unique active seat with strictly the
  fewest cards; while two or more active seats share the fewest cards there is no leader. A change is
  counted each time a unique leader differs from the previous unique leader of the round; the first
  unique leader is not a change, and ties in between neither count nor reset the previous leader.
* ``winner_max_deficit``: the largest (winner's hand − smallest active hand) over the standings checks
  of the round; 0 when the winner was never behind. The winner is known only at the end, so each seat
  keeps its own running maximum (``SE_MAX_DEFICIT``) and the winner's is reported (none: null).
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

from .state import MAXC, SE_ACTIVE, SE_MAX_DEFICIT, ST_LEAD_CHANGES, ST_LEADER, ST_N


@njit(cache=True)
def check_standings(g):
    """One standings check: update the lead and every active seat's running maximum deficit.

    Two passes over the seats, no allocation: the smallest active hand and its unique holder (if any),
    then the deficits against it."""
    st = g["st"]
    hlen = g["hlen"]
    seat = g["seat"]
    n = st[ST_N]
    low = MAXC + 1
    leader = -1
    for s in range(n):
        if seat[s, SE_ACTIVE]:
            h = hlen[s]
            if h < low:
                low = h
                leader = s
            elif h == low:
                leader = -1   # a tie at the current minimum: no leader unless a smaller hand follows
    if leader >= 0:
        if st[ST_LEADER] >= 0 and leader != st[ST_LEADER]:
            st[ST_LEAD_CHANGES] += 1
        st[ST_LEADER] = leader
    for s in range(n):
        if seat[s, SE_ACTIVE] and hlen[s] - low > seat[s, SE_MAX_DEFICIT]:
            seat[s, SE_MAX_DEFICIT] = hlen[s] - low
