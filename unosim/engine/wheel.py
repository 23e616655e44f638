"""spin: the wheel and its nine outcomes (RULES §2.3.3-§2.3.6, protocol §6)."""

from numba import njit

from .. import cards as C
from .. import protocol as L
from ..protocol import (
    ALMOST_UNO,
    DISCARD_COLOUR,
    DISCARD_NUMBER,
    DRAW_BLUE,
    DRAW_RED,
    SHOW_HAND,
    TRADE_HANDS,
    WAR,
)
from .decisions import keep_score, policy_colour
from .piles import draw_one, rotate_hands, win
from .rng import PLAY_STREAM, below, shuffle, weighted
from .state import (
    COLOUR,
    DISC,
    GREEDY_POINTS,
    K_NUMBER,
    KEEP_WILDS,
    KIND,
    NO_COLOUR,
    NUMBER_OF,
    POINTS,
    RANDOM,
    SE_ACTIVE,
    SE_UNO_DONE,
    SE_WHEEL_GAINED,
    SE_WHEEL_LOST,
    ST_COLOUR,
    ST_DIR,
    ST_DRAWS,
    ST_ENDED,
    ST_FINAL_SPINS,
    ST_MOVES,
    ST_N,
    ST_SPINS,
    ST_TOP,
    ST_WINNER,
    emit,
    next_seat,
    step,
)



@njit(cache=True)
def wheel_discard(g, s, m, final):
    """§2.3.4: s discards the hand indices order[:m] in that order; the last one becomes T."""
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    pile = g["pile"]
    plen = g["plen"]
    seat = g["seat"]
    order = g["order"]
    mark = g["mark"]
    buf = g["buf"]
    if m == 0:
        return
    for j in range(m):
        buf[j] = hands[s, order[j]]
        mark[order[j]] = 1
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
        emit(g, L.EV_DISCARD, s, buf[j], 0)
    top = buf[m - 1]
    st[ST_TOP] = top
    if COLOUR[top] == NO_COLOUR:
        st[ST_COLOUR] = policy_colour(g, s)
        emit(g, L.EV_COLOUR, s, st[ST_COLOUR], 0)
    else:
        st[ST_COLOUR] = COLOUR[top]
    st[ST_MOVES] += 1
    seat[s, SE_WHEEL_LOST] += m
    seat[s, SE_UNO_DONE] = 0
    if hlen[s] == 0 and not final:
        win(g, s)


@njit(cache=True)
def almost_uno(g, s, final):
    hands = g["hands"]
    hlen = g["hlen"]
    order = g["order"]
    h = hlen[s]
    if h <= 2:
        return
    if g["pol"][s] == RANDOM:
        for i in range(h):
            order[i] = i
        shuffle(g, order, h, PLAY_STREAM)
        wheel_discard(g, s, h - 2, final)
        return
    count = g["count"]
    count[:] = 0
    for i in range(h):
        count[COLOUR[hands[s, i]]] += 1
    first = 0
    for i in range(1, h):
        if keep_score(g, s, hands[s, i]) > keep_score(g, s, hands[s, first]):
            first = i
    second = 1 if first == 0 else 0
    for i in range(h):
        if i != first and keep_score(g, s, hands[s, i]) > keep_score(g, s, hands[s, second]):
            second = i
    m = 0
    for i in range(h):
        if i != first and i != second:
            order[m] = i
            m += 1
    wheel_discard(g, s, m, final)


@njit(cache=True)
def discard_group(g, s, by_colour, final):
    """DISCARD_NUMBER (by_colour False) / DISCARD_COLOUR (True): pick a group present in the hand and
    discard all of it (§2.3.3; RULES §5 item 8; protocol §6)."""
    hands = g["hands"]
    hlen = g["hlen"]
    order = g["order"]
    tally = g["tally"]
    points = g["count"]
    tally[:] = 0
    points[:] = 0
    groups = 4 if by_colour else 10
    for i in range(hlen[s]):
        c = hands[s, i]
        if by_colour and COLOUR[c] != NO_COLOUR:
            tally[COLOUR[c]] += 1
            points[COLOUR[c]] += POINTS[c]
        elif not by_colour and KIND[c] == K_NUMBER:
            tally[NUMBER_OF[c]] += 1
    k = 0
    for x in range(groups):
        if tally[x] > 0:
            k += 1
    if k == 0:
        return
    chosen = -1
    pid = g["pol"][s]
    if pid == RANDOM:
        r = below(g, PLAY_STREAM, k)
        for x in range(groups):
            if tally[x] > 0:
                if r == 0:
                    chosen = x
                    break
                r -= 1
    else:
        best = -1
        for x in range(groups):
            if tally[x] > 0:
                if pid == GREEDY_POINTS:
                    score = points[x] if by_colour else x * tally[x]
                else:
                    score = tally[x]
                if score > best:
                    best, chosen = score, x
    m = 0
    for i in range(hlen[s]):
        c = hands[s, i]
        if (by_colour and COLOUR[c] == chosen) or (not by_colour and KIND[c] == K_NUMBER
                                                    and NUMBER_OF[c] == chosen):
            order[m] = i
            m += 1
    if pid == RANDOM:
        shuffle(g, order, m, PLAY_STREAM)
    wheel_discard(g, s, m, final)


@njit(cache=True)
def draw_until_colour(g, s, colour):
    """DRAW_RED / DRAW_BLUE: draw until that colour or a wild (RULES §6 S7)."""
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


@njit(cache=True)
def takes_part(g, t, final):
    """Seats a wheel outcome involves: the active ones, except the round winner after a final spin."""
    return g["seat"][t, SE_ACTIVE] == 1 and not (final and t == g["st"][ST_WINNER])


@njit(cache=True)
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


@njit(cache=True)
def show_hand(g, s):
    shown = g["shown"]
    shown[s, :] = 0
    for i in range(g["hlen"][s]):
        c = COLOUR[g["hands"][s, i]]
        if c != NO_COLOUR:
            shown[s, c] += 1
    emit(g, L.EV_SHOW, s, 0, 0)


@njit(cache=True)
def war(g, s, final):
    """WAR (§2.3.3, S5, S6, S14); returns the winner or -1."""
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    alive = g["cand"]
    value = g["war_value"]
    revealed = g["revealed"]
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
    winner = -1
    # terminates: a level that does not end the war leaves >= 2 seats that each revealed one more of
    # their finitely many NUMBER cards
    while True:
        m = 0
        for j in range(k):
            t = alive[j]
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
                continue   # nothing left to reveal: drops out
            r = below(g, PLAY_STREAM, ties) if g["pol"][t] == RANDOM else 0
            for i in range(hlen[t]):
                c = hands[t, i]
                if KIND[c] == K_NUMBER and NUMBER_OF[c] == best and not was_revealed(revealed, n_revealed, t, i):
                    if r == 0:
                        revealed[t, n_revealed[t]] = i
                        n_revealed[t] += 1
                        emit(g, L.EV_REVEAL, t, c, 0)
                        break
                    r -= 1
            value[t] = best
            alive[m] = t
            m += 1
        k = m
        if k <= 1:
            winner = alive[0] if k == 1 else -1
            break
        top = -1
        for j in range(k):
            top = max(top, value[alive[j]])
        m = 0
        for j in range(k):
            if value[alive[j]] == top:
                alive[m] = alive[j]
                m += 1
        if m == 1:
            winner = alive[0]
            break
        k = m
    emit(g, L.EV_WAR, winner, 0, 0)
    if winner >= 0:
        order = g["order"]
        m = n_revealed[winner]
        order[:m] = revealed[winner, :m]
        if g["pol"][winner] == RANDOM:
            shuffle(g, order, m, PLAY_STREAM)
        wheel_discard(g, winner, m, final)
    return winner


@njit(cache=True)
def was_revealed(revealed, n_revealed, t, i):
    for j in range(n_revealed[t]):
        if revealed[t, j] == i:
            return True
    return False


@njit(cache=True)
def uno_spin(g, final):
    """UNO_SPIN: the first to shout (∝ shout_weight) discards one card; returns the shouter or -1."""
    st = g["st"]
    hands = g["hands"]
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
    pid = g["pol"][w]
    if pid == RANDOM:
        index = below(g, PLAY_STREAM, hlen[w])
    else:
        index = 0
        for i in range(1, hlen[w]):
            c, best = hands[w, i], hands[w, index]
            if pid == KEEP_WILDS and (COLOUR[c] == NO_COLOUR) != (COLOUR[best] == NO_COLOUR):
                if COLOUR[best] == NO_COLOUR:
                    index = i   # a coloured card beats a wild
            elif POINTS[c] > POINTS[best]:
                index = i
    g["order"][0] = index
    wheel_discard(g, w, 1, final)
    return w


@njit(cache=True)
def spin(g, s, final):
    """s spins the wheel (§2.3.3-§2.3.6); returns the seat of the next turn (-1 if the round ended)."""
    st = g["st"]
    fr = g["fr"]
    st[ST_SPINS] += 1
    if final:
        st[ST_FINAL_SPINS] += 1
    outcome = weighted(g, fr[L.FR_SPIN_WEIGHT:L.FR_SPIN_WEIGHT + L.N_SPIN_OUTCOMES], L.N_SPIN_OUTCOMES)
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
