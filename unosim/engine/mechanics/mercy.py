"""The mercy house rule's wing (docs/rules.md §2.4.6-§2.4.8; No Mercy plays it always): a seat whose hand
reaches ``mercy_limit`` cards is knocked out at once — its hand is set aside, it leaves the round, a
pending penalty it had to answer lapses, and the last active seat wins by knock-out.

Whether a seat is active (``SE_ACTIVE``, ``ST_N_ACTIVE``) is the core's: turn order, the standings
scan, scoring (``KO_POINTS`` per knocked-out seat, §2.4.8) and the lookahead's values read it. Play goes
on from the knocked-out seat (``ST_KO_SEAT``, read by the turn loop).
"""

from unosim.engine._jit import njit

from unosim.game import protocol as L
from ..quality import OUT
from ..state import (
    ASIDE,
    SE_ACTIVE,
    SE_KO_TURN,
    SE_UNO_DONE,
    SE_WINDOW,
    ST_END,
    ST_ENDED,
    ST_KNOCKOUTS,
    ST_KO_SEAT,
    ST_MOVES,
    ST_N,
    ST_N_ACTIVE,
    ST_P,
    ST_RESPONDER,
    ST_TURNS,
    ST_WINNER,
    clear_stack,
    emit,
)


@njit(inline='always')
def on_draw(g, s):
    """s has just drawn: at the mercy limit it is knocked out (the draws stop: False)."""
    limit = g["ir"][L.IR_MERCY_LIMIT]
    if limit > 0 and g["hlen"][s] >= limit:
        knock_out(g, s)
        return False
    return True


@njit
def knock_out(g, s):
    """§2.4.6: s's hand is set aside, s leaves the round; the last active seat wins by knock-out."""
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    pile = g["pile"]
    plen = g["plen"]
    seat = g["seat"]
    emit(g, L.EV_KNOCKOUT, s, st[ST_TURNS], 0)
    for i in range(hlen[s]):
        pile[ASIDE, plen[ASIDE]] = hands[s, i]
        plen[ASIDE] += 1
    hlen[s] = 0
    g["held"][s, :] = 0
    seat[s, SE_ACTIVE] = 0
    g["out_pad"][s] = OUT
    seat[s, SE_UNO_DONE] = 0
    seat[s, SE_KO_TURN] = st[ST_TURNS]
    seat[s, SE_WINDOW] = -1   # its Dumb Fu window closes (minions)
    st[ST_N_ACTIVE] -= 1
    st[ST_KNOCKOUTS] += 1
    st[ST_KO_SEAT] = s
    st[ST_MOVES] += 1
    if st[ST_P] > 0 and st[ST_RESPONDER] == s:
        clear_stack(st)
    if st[ST_N_ACTIVE] == 1 and not st[ST_ENDED]:
        for t in range(st[ST_N]):
            if seat[t, SE_ACTIVE]:
                st[ST_ENDED] = 1
                st[ST_WINNER] = t
                st[ST_END] = L.END_KNOCKOUT
