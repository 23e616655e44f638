"""The 7-0 house rule's wing (docs/rules.md §4 ``seven_o``, §2.4.4; No Mercy plays it always): a 7 swaps
hands with a seat of the player's choice, a 0 passes every active hand on in the direction of play.

The swap itself (``piles.swap_hands``) and the choice of partner (``policy.choose_target``) are shared
with the blank cards' swap_hands; the wing owns the 0-pass, its round counters (``ST_SWAPS7``,
``ST_PASSES0`` → ``RC_SWAPS_7``, ``RC_PASSES_0``) and when the rule applies.
"""

from unosim.engine.compiler.jit import njit
from unosim.game import protocol as L

from ..policies.dispatch import choose_target
from ..record.piles import rotate_hands, swap_hands
from ..record.state import NUMBER_OF, SE_ACTIVE, ST_DIR, ST_N, emit, step


@njit
def reset(g):
    st = g["st"]
    st[L.ST_SWAPS7] = 0
    st[L.ST_PASSES0] = 0


@njit(inline='always')
def on_number(g, p, c):
    """A NUMBER c played by p with cards left: with seven_o, a 7 swaps hands with the seat p chooses and
    a 0 passes the hands on."""
    if g["ir"][L.IR_SEVEN_O]:
        if NUMBER_OF[c] == 7:
            swap_hands(g, p, choose_target(g, p))
            g["st"][L.ST_SWAPS7] += 1
        elif NUMBER_OF[c] == 0:
            pass_hands(g, p)


@njit
def pass_hands(g, p):
    """A 0 (§2.4.4, §4): every active hand moves to next(seat) in direction d at once; knocked-out seats
    take no part (§6 N13)."""
    order = g["cand"]
    st = g["st"]
    n = st[ST_N]
    k = 0
    s = p
    for _ in range(n):   # the active seats from p (active: it just played) in direction d
        if g["seat"][s, SE_ACTIVE]:
            order[k] = s
            k += 1
        s = step(s, st[ST_DIR], n)
    rotate_hands(g, order, k)
    st[L.ST_PASSES0] += 1
    emit(g, L.EV_PASS, p, 0, 0)


@njit
def write(g, row):
    st = g["st"]
    row[L.RC_SWAPS_7] = st[L.ST_SWAPS7]
    row[L.RC_PASSES_0] = st[L.ST_PASSES0]
