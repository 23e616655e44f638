"""The stacking house rule's wing (docs/rules.md §1.7, §2.4.3-§2.4.5, §4 ``stacking``, protocol §5; No Mercy
plays it always): a draw card does not resolve at once but joins the pending penalty P, and the
responder's next turn is a response turn — stack a draw card the mode allows (``any_draw``,
``same_kind``: the kind of the last one, ``escalating``: a draw value at least the last one's) or
accept and draw P.

The pending penalty itself (``ST_P``, ``ST_V``, ``ST_K``, ``ST_RESPONDER``) is the core's: a final draw
card adds it (§1.11), a win or a knock-out of the responder clears it (``state.clear_stack``).
"""

from unosim.engine.compiler.jit import njit
from unosim.game import protocol as L

from ..policies.dispatch import choose_stack
from ..record.piles import draw_n
from ..record.state import (
    ACCEPTED,
    K_WRD4,
    KIND,
    NOT_MINE,
    ST_K,
    ST_LARGEST,
    ST_N_ACTIVE,
    ST_P,
    ST_RESPONDER,
    ST_V,
    clear_stack,
    draw_value_of,
    emit,
    next_seat,
)


# inline='always' (numba-IR inlining) on the small per-turn helpers: left as calls, splitting the turn
# into them cost throughput (docs/results/code_choices.json)
@njit(inline='always')
def can_stack(g, st, stacking, c):
    """A stack response allowed by the stacking mode (§1.7, §2.4.5, §4); no colour match needed."""
    value = draw_value_of(g, c)
    if value == 0:
        return False
    if stacking == L.STACKING_SAME_KIND:
        return KIND[c] == st[ST_K]
    if stacking == L.STACKING_ESCALATING:
        return value >= st[ST_V]
    return True


@njit(inline='always')
def stack_options(g, p, legal):
    """legal[:ns] = the hand indices p may stack on the pending penalty (hand order); returns ns."""
    st = g["st"]
    hands = g["hands"]
    stacking = g["ir"][L.IR_STACKING]
    ns = 0
    for i in range(g["hlen"][p]):
        if can_stack(g, st, stacking, hands[p, i]):
            legal[ns] = i
            ns += 1
    return ns


@njit(inline='always')
def response_options(g, p, legal):
    """As :func:`stack_options` when p's turn is a response turn (a penalty is pending), else NOT_MINE."""
    if g["st"][ST_P] == 0:
        return NOT_MINE
    return stack_options(g, p, legal)


@njit(inline='always')
def respond(g, p):
    """A response turn (§1.7, §2.4.3 step 1) when a penalty is pending: the hand index p stacks (the
    core plays it), or ACCEPTED after p accepted and drew the pending total; NOT_MINE otherwise."""
    st = g["st"]
    if st[ST_P] == 0:
        return NOT_MINE
    legal = g["legal"]
    ns = stack_options(g, p, legal)
    choice = choose_stack(g, p, legal, ns)
    if choice >= 0:
        return choice
    total = st[ST_P]
    emit(g, L.EV_ACCEPT, p, total, 0)
    clear_stack(st)
    draw_n(g, p, total)
    return ACCEPTED


@njit(inline='always')
def on_draw_card(g, p, c):
    """A draw card c played by p with cards left (not challenged): with stacking it joins the pending
    penalty and the responder moves next — next(p), or p itself for a Wild Reverse Draw Four with two
    active players (§2.4.4, N4); NOT_MINE without stacking (the core resolves it at once)."""
    if g["ir"][L.IR_STACKING] == L.STACKING_NONE:
        return NOT_MINE
    st = g["st"]
    value = draw_value_of(g, c)
    k = KIND[c]
    st[ST_P] += value
    st[ST_V] = value
    st[ST_K] = k
    st[ST_LARGEST] = max(st[ST_LARGEST], st[ST_P])
    r = p if (k == K_WRD4 and st[ST_N_ACTIVE] == 2) else next_seat(g, p)
    st[ST_RESPONDER] = r
    return r
