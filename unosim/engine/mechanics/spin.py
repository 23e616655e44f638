"""The spin family's wing: spin cards, the designated spinner and the wheel with its nine outcomes
(docs/rules.md §2.3, protocol §6).

A spin card (a NUMBER 1-5 with the spin flag) designates next(p), who spins instead of its next turn
(a jump-in cancels the designation, §4); a last spin card makes next(p) spin once more, for scoring
(§2.3.6). What a seat chooses on the wheel (what to discard, which card to reveal) is asked of its
policy through :mod:`..policies.dispatch`. Scratch: ``ST_SPINNER``, the round's ``ST_SPINS`` / ``ST_FINAL_SPINS``,
``g["outcomes"]``, each seat's last shown hand ``g["shown"]`` (read by the policies) and its
``SE_WHEEL_GAINED`` / ``SE_WHEEL_LOST``; round columns ``RC_SPINS``, ``RC_FINAL_SPINS``, ``RC_OUTCOME``
and seat columns ``SC_WHEEL_GAINED`` / ``SC_WHEEL_LOST``.
"""

import numpy as np

from unosim.engine.compiler.jit import njit
from unosim.game import cards as C
from unosim.game import custom_cards as CC
from unosim.game import protocol as L
from unosim.game.protocol import (
    ALMOST_UNO,
    DISCARD_COLOUR,
    DISCARD_NUMBER,
    DRAW_BLUE,
    DRAW_RED,
    SE_WHEEL_GAINED,
    SE_WHEEL_LOST,
    SHOW_HAND,
    ST_FINAL_SPINS,
    ST_SPINNER,
    ST_SPINS,
    TRADE_HANDS,
    WAR,
)
from unosim.game.rule_table import N_SPIN_OUTCOMES

from ..policies.dispatch import (
    almost_uno_discards,
    choose_colour,
    choose_group,
    order_discards,
    uno_spin_discard,
    war_reveal,
)
from ..record.piles import draw_one, rotate_hands, win
from ..record.rng import weighted
from ..record.state import (
    COLOUR,
    DISC,
    K_NUMBER,
    KIND,
    N_COLOURS,
    N_NUMBERS,
    NO_COLOUR,
    NOT_MINE,
    NUMBER_OF,
    POINTS,
    SE_ACTIVE,
    SE_UNO_DONE,
    ST_COLOUR,
    ST_DIR,
    ST_DRAWS,
    ST_ENDED,
    ST_MOVES,
    ST_N,
    ST_TOP,
    ST_WINNER,
    discarded,
    emit,
    next_seat,
    step,
)

SPIN = np.asarray(CC.over_all_ids(C.SPIN))   # 1 for a card id with the spin flag (docs/rules.md §2.3)

@njit
def wheel_discard(g, s, order, m, final):
    """§2.3.4: s discards the hand indices order[:m] in that order; the last one becomes T."""
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    pile = g["pile"]
    plen = g["plen"]
    seat = g["seat"]
    mark = g["mark"]
    buf = g["buf"]
    if m == 0:
        return
    for j in range(m):
        buf[j] = hands[s, order[j]]
        mark[order[j]] = 1
        g["held"][s, COLOUR[buf[j]]] -= 1
    kept = 0
    for i in range(hlen[s]):
        if mark[i]:
            mark[i] = 0
        else:
            hands[s, kept] = hands[s, i]
            kept += 1
    hlen[s] = kept
    for j in range(m):
        pile[DISC, plen[DISC]] = buf[j]
        plen[DISC] += 1
        discarded(g, buf[j])
        emit(g, L.EV_DISCARD, s, buf[j], 0)
    top = buf[m - 1]
    st[ST_TOP] = top
    if COLOUR[top] == NO_COLOUR:
        st[ST_COLOUR] = choose_colour(g, s)
        emit(g, L.EV_COLOUR, s, st[ST_COLOUR], 0)
    else:
        st[ST_COLOUR] = COLOUR[top]
    st[ST_MOVES] += 1
    seat[s, SE_WHEEL_LOST] += m
    seat[s, SE_UNO_DONE] = 0
    if hlen[s] == 0 and not final:
        win(g, s)


@njit
def almost_uno(g, s, final):
    """ALMOST_UNO: a seat with more than two cards discards all but two (its policy chooses)."""
    if g["hlen"][s] <= 2:
        return
    order = g["order"]
    wheel_discard(g, s, order, almost_uno_discards(g, s, order), final)


@njit
def tally_groups(g, s, by_colour, tally, points):
    """tally[x] / points[x]: cards / points of s in group x (a colour when by_colour, else a number);
    returns the number of groups held."""
    hands = g["hands"]
    groups = N_COLOURS if by_colour else N_NUMBERS
    tally[:groups] = 0
    points[:groups] = 0
    for i in range(g["hlen"][s]):
        c = hands[s, i]
        if by_colour and COLOUR[c] != NO_COLOUR:
            tally[COLOUR[c]] += 1
            points[COLOUR[c]] += POINTS[c]
        elif not by_colour and KIND[c] == K_NUMBER:
            tally[NUMBER_OF[c]] += 1
            points[NUMBER_OF[c]] += POINTS[c]
    k = 0
    for x in range(groups):
        if tally[x] > 0:
            k += 1
    return k


@njit
def discard_group(g, s, by_colour, final):
    """DISCARD_NUMBER (by_colour False) / DISCARD_COLOUR (True): s's policy picks a group present in
    the hand, and every card of it goes down (§2.3.3; docs/rules.md §5 item 8; protocol §6)."""
    hands = g["hands"]
    order = g["order"]
    tally = g["tally"]
    points = g["group_points"]
    k = tally_groups(g, s, by_colour, tally, points)
    if k == 0:
        return
    chosen = choose_group(g, s, tally, points, N_COLOURS if by_colour else N_NUMBERS, k)
    m = 0
    for i in range(g["hlen"][s]):
        c = hands[s, i]
        if (by_colour and COLOUR[c] == chosen) or (not by_colour and KIND[c] == K_NUMBER
                                                    and NUMBER_OF[c] == chosen):
            order[m] = i
            m += 1
    order_discards(g, s, order, m)
    wheel_discard(g, s, order, m, final)


@njit
def draw_until_colour(g, s, colour):
    """DRAW_RED / DRAW_BLUE: draw until that colour or a wild (docs/rules.md §6 S7)."""
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    seat = g["seat"]
    while True:   # terminates: each pass moves a card from the piles to s (none come back) or returns
        before = st[ST_DRAWS]
        drawn = draw_one(g, s)
        seat[s, SE_WHEEL_GAINED] += st[ST_DRAWS] - before   # a knock-out card was drawn too
        if not drawn:
            return
        c = hands[s, hlen[s] - 1]
        if COLOUR[c] == colour or COLOUR[c] == NO_COLOUR:
            return


@njit
def takes_part(g, t, final):
    """Seats a wheel outcome involves: the active ones, except the round winner after a final spin."""
    return g["seat"][t, SE_ACTIVE] == 1 and not (final and t == g["st"][ST_WINNER])


@njit
def trade_hands(g, s, final):
    """TRADE_HANDS: every taking-part hand moves to the next taking-part seat clockwise (i → i+1)."""
    st = g["st"]
    hlen = g["hlen"]
    seat = g["seat"]
    seats = g["cand"]
    k = 0
    for t in range(st[ST_N]):
        if takes_part(g, t, final):
            seats[k] = t
            k += 1
    emit(g, L.EV_TRADE, s, 0, 0)
    if k < 2:
        return
    for j in range(k):
        seat[seats[j], SE_WHEEL_LOST] += hlen[seats[j]]
    rotate_hands(g, seats, k)
    for j in range(k):
        seat[seats[j], SE_WHEEL_GAINED] += hlen[seats[j]]


@njit
def show_hand(g, s):
    shown = g["shown"]
    shown[s, :] = 0
    for i in range(g["hlen"][s]):
        c = COLOUR[g["hands"][s, i]]
        if c != NO_COLOUR:
            shown[s, c] += 1
    emit(g, L.EV_SHOW, s, 0, 0)


@njit
def war_participants(g, s, final, alive):
    """alive[:k] = the seats taking part that hold a NUMBER card, from s in direction d; returns k.
    Every seat's reveal list starts empty."""
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    n_revealed = g["n_revealed"]
    n = st[ST_N]
    k = 0
    t = s
    for _ in range(n):
        n_revealed[t] = 0
        if takes_part(g, t, final):
            for i in range(hlen[t]):
                if KIND[hands[t, i]] == K_NUMBER:
                    alive[k] = t
                    k += 1
                    break
        t = step(t, st[ST_DIR], n)
    return k


@njit
def was_revealed(revealed, n_revealed, t, i):
    for j in range(n_revealed[t]):
        if revealed[t, j] == i:
            return True
    return False


@njit
def reveal_highest(g, t):
    """t reveals its highest unrevealed NUMBER card (its policy picks among equal ones, hand order):
    REVEAL(t, c); returns that number, or -1 when t has nothing left to reveal."""
    hands = g["hands"]
    hlen = g["hlen"]
    revealed = g["revealed"]
    n_revealed = g["n_revealed"]
    best = -1
    ties = 0
    for i in range(hlen[t]):
        c = hands[t, i]
        if KIND[c] != K_NUMBER or was_revealed(revealed, n_revealed, t, i):
            continue
        if NUMBER_OF[c] > best:
            best, ties = NUMBER_OF[c], 1
        elif NUMBER_OF[c] == best:
            ties += 1
    if best < 0:
        return -1
    r = war_reveal(g, t, ties)
    for i in range(hlen[t]):
        c = hands[t, i]
        if KIND[c] == K_NUMBER and NUMBER_OF[c] == best and not was_revealed(revealed, n_revealed, t, i):
            if r == 0:
                revealed[t, n_revealed[t]] = i
                n_revealed[t] += 1
                emit(g, L.EV_REVEAL, t, c, 0)
                break
            r -= 1
    return best


@njit
def war_reveals(g, alive, k):
    """Each of alive[:k] in turn reveals (``war_value``: the number); a seat with nothing left drops
    out. Returns the number of seats left in alive[:m]."""
    value = g["war_value"]
    m = 0
    for j in range(k):
        t = alive[j]
        best = reveal_highest(g, t)
        if best >= 0:
            value[t] = best
            alive[m] = t
            m += 1
    return m


@njit
def keep_highest(alive, value, k):
    """Only the seats of alive[:k] with the highest value stay (in order); returns how many."""
    top = -1
    for j in range(k):
        top = max(top, value[alive[j]])
    m = 0
    for j in range(k):
        if value[alive[j]] == top:
            alive[m] = alive[j]
            m += 1
    return m


@njit
def war(g, s, final):
    """WAR (§2.3.3, S5, S6, S14); returns the winner or -1. No one left → no winner; one left → it
    wins (at level 0 too); else the unique highest reveal of a level wins, or the tied seats go on."""
    alive = g["cand"]
    k = war_participants(g, s, final, alive)
    winner = -1
    # terminates: a level that does not end the war leaves >= 2 seats that each revealed one more of
    # their finitely many NUMBER cards
    while True:
        k = war_reveals(g, alive, k)
        if k <= 1:
            winner = alive[0] if k == 1 else -1
            break
        k = keep_highest(alive, g["war_value"], k)
        if k == 1:
            winner = alive[0]
            break
    emit(g, L.EV_WAR, winner, 0, 0)
    if winner >= 0:   # it discards everything it revealed
        order = g["order"]
        m = g["n_revealed"][winner]
        for j in range(m):
            order[j] = g["revealed"][winner, j]
        order_discards(g, winner, order, m)
        wheel_discard(g, winner, order, m, final)
    return winner


@njit
def uno_spin(g, final):
    """UNO_SPIN: the first to shout (∝ shout_weight) discards one card; returns the shouter or -1."""
    st = g["st"]
    hlen = g["hlen"]
    fr = g["fr"]
    seats = g["cand"]
    weights = g["fbuf"]
    k = 0
    for t in range(st[ST_N]):
        if takes_part(g, t, final) and hlen[t] > 0:
            seats[k] = t
            weights[k] = fr[L.FR_SHOUT_WEIGHT + t]
            k += 1
    if k == 0:
        return -1
    w = seats[weighted(g, weights, k)]
    emit(g, L.EV_SHOUT, w, 0, 0)
    order = g["order"]
    order[0] = uno_spin_discard(g, w)
    wheel_discard(g, w, order, 1, final)
    return w


@njit
def spin(g, s, final):
    """s spins the wheel (§2.3.3-§2.3.6); returns the seat of the next turn (-1 if the round ended)."""
    st = g["st"]
    fr = g["fr"]
    st[ST_SPINS] += 1
    if final:
        st[ST_FINAL_SPINS] += 1
    outcome = weighted(g, fr[L.FR_SPIN_WEIGHT:L.FR_SPIN_WEIGHT + N_SPIN_OUTCOMES], N_SPIN_OUTCOMES)
    g["outcomes"][outcome] += 1
    emit(g, L.EV_SPIN, s, outcome, 1 if final else 0)
    after = s
    if outcome == ALMOST_UNO:
        almost_uno(g, s, final)
    elif outcome == DISCARD_NUMBER:
        discard_group(g, s, False, final)
    elif outcome == DISCARD_COLOUR:
        discard_group(g, s, True, final)
    elif outcome == DRAW_RED:
        draw_until_colour(g, s, C.R)
    elif outcome == DRAW_BLUE:
        draw_until_colour(g, s, C.B)
    elif outcome == TRADE_HANDS:
        trade_hands(g, s, final)
    elif outcome == SHOW_HAND:
        show_hand(g, s)
    elif outcome == WAR:
        w = war(g, s, final)
        if w >= 0 and g["ir"][L.IR_SPIN_CONTINUE_AFTER_WINNER]:
            after = w
    else:
        w = uno_spin(g, final)
        if w >= 0 and g["ir"][L.IR_SPIN_CONTINUE_AFTER_WINNER]:
            after = w
    if st[ST_ENDED] and not final:
        return -1
    return next_seat(g, after)


# ---- hooks (engine/core/hooks.py) ------------------------------------------------------------------------
@njit
def reset(g):
    st = g["st"]
    st[ST_SPINNER] = -1
    st[ST_SPINS] = 0
    st[ST_FINAL_SPINS] = 0
    g["outcomes"][:] = 0
    g["shown"][:] = 0
    seat = g["seat"]
    for s in range(st[ST_N]):
        seat[s, SE_WHEEL_GAINED] = 0
        seat[s, SE_WHEEL_LOST] = 0


@njit(inline='always')
def designate(g, t):
    """§2.3.2: t spins at its next turn (a new spin card replaces an older designation)."""
    g["st"][ST_SPINNER] = t
    emit(g, L.EV_SPINNER, t, 0, 0)


@njit(inline='always')
def on_first_card(g, f, c):
    """§2.3.6 (spin_first_card_spins, off by default): a first spin card has F spin instead of its first
    turn."""
    if SPIN[c] and g["ir"][L.IR_SPIN_FIRST_CARD_SPINS]:
        designate(g, f)


@njit(inline='always')
def replaces_turn(g, p):
    """§1.5 step 2: the designated spinner spins instead of its turn (the next seat, -1 if the round
    ended); NOT_MINE for any other seat."""
    st = g["st"]
    if st[ST_SPINNER] != p:
        return NOT_MINE
    st[ST_SPINNER] = -1
    return spin(g, p, False)


@njit(inline='always')
def on_number(g, p, c):
    """§2.3.2: a spin card designates next(p) (nobody is skipped)."""
    if SPIN[c]:
        designate(g, next_seat(g, p))


@njit(inline='always')
def on_final(g, p, c):
    """§2.3.6: after a last spin card next(p) still spins, for scoring only."""
    if SPIN[c]:
        spin(g, next_seat(g, p), True)


@njit(inline='always')
def on_jump_in(g):
    """§4 jump_in: a jump-in cancels a pending spin."""
    g["st"][ST_SPINNER] = -1


@njit(inline='always')
def spins_now(g, p):
    """p's turn is a spin (no play decision)."""
    return g["st"][ST_SPINNER] == p


@njit
def write(g, row):
    st = g["st"]
    row[L.RC_SPINS] = st[ST_SPINS]
    row[L.RC_FINAL_SPINS] = st[ST_FINAL_SPINS]
    for o in range(N_SPIN_OUTCOMES):
        row[L.RC_OUTCOME + o] = g["outcomes"][o]


@njit
def write_seat(g, srow, s):
    srow[L.SC_WHEEL_GAINED] = g["seat"][s, SE_WHEEL_GAINED]
    srow[L.SC_WHEEL_LOST] = g["seat"][s, SE_WHEEL_LOST]
