"""The compiled game loop (numba). Private: call it through :mod:`unosim.simulate`.

The rules are RULES.md; the order of random numbers, cards and trace events is the protocol in
:mod:`unosim.engine`. The code is a small vocabulary of verbs (``draw_one``, ``play_card``,
``skip_seat``, ``checkpoint`` …) over one state layout:

* ``st``    int64[ST_SIZE]: scalar game state, indexed by the ``ST_*`` names below;
* ``hands`` int64[MAX_PLAYERS, MAX_CARDS], ``hlen`` int64[MAX_PLAYERS]: ordered hands;
* ``pile``  int64[2, MAX_CARDS]: row ``DRAW`` (last = top) and row ``DISC`` (last = ``T``);
* ``seat``  int64[MAX_PLAYERS, SEAT_SIZE]: per-seat counters and flags (``SE_*``);
* ``rng``   uint64[8]: the ``deck`` and ``play`` xoshiro256** streams;
* ``ir``/``fr``: compiled rules (``layout.IR_*``/``FR_*``); ``pol``/``pp``: policy id and parameters
  per seat; ``ev`` int32[cap, 4]: trace events when ``st[ST_TRACE]`` is set.

Everything lives in this one module on purpose: numba's disk cache does not notice edits to jitted
helpers imported from other files, so splitting the kernel would let stale machine code survive an
edit. Item syntax (``st[ST_DIR]``) keeps the code runnable under ``NUMBA_DISABLE_JIT=1``.
"""

import numpy as np
from numba import njit

from .. import cards as C
from . import layout as L

# ---- card tables (constants, frozen into the compiled code) -----------------------------------------
COLOUR = np.asarray(C.COLOUR)
KIND = np.asarray(C.KIND)
NUMBER_OF = np.asarray(C.NUMBER_OF)
POINTS = np.asarray(C.POINTS)
HAND_CLASS = np.asarray(C.HAND_CLASS)
NO_COLOUR = C.NO_COLOUR
K_NUMBER, K_SKIP, K_REVERSE, K_DRAW_TWO = C.NUMBER, C.SKIP, C.REVERSE, C.DRAW_TWO
K_WILD, K_WD4, K_BLANK, K_DUMB_FU = C.WILD, C.WD4, C.BLANK, C.DUMB_FU
K_DISCARD_ALL, K_SKIP_EVERYONE, K_WRD4, K_ROULETTE = C.DISCARD_ALL, C.SKIP_EVERYONE, C.WRD4, C.ROULETTE
DRAW_VALUE = np.asarray(C.DRAW_VALUE)
SPIN = np.asarray(C.SPIN)
ALMOST_UNO, DISCARD_NUMBER, DISCARD_COLOUR, DRAW_RED, DRAW_BLUE = 0, 1, 2, 3, 4
TRADE_HANDS, SHOW_HAND, WAR, UNO_SPIN = 5, 6, 7, 8
KO_POINTS = 250     # points for each knocked-out seat (RULES §2.4.8)
BLANK_ID0 = C.ID_BLANK[0]


def _match_table():
    """MATCHES_TOP[c, t]: card c matches top card t whatever the colour in play (§1.4 items 1, 3, 4);
    item 2 (c's colour is the colour in play) is checked separately."""
    n = len(KIND)
    table = np.zeros((n, n), np.bool_)
    for c in range(n):
        for t in range(n):
            if COLOUR[c] == NO_COLOUR:
                table[c, t] = True
            elif KIND[c] == K_NUMBER:
                table[c, t] = KIND[t] == K_NUMBER and NUMBER_OF[c] == NUMBER_OF[t]
            else:
                table[c, t] = COLOUR[t] != NO_COLOUR and KIND[c] == KIND[t]
    return table


MATCHES_TOP = _match_table()
MAXP = L.MAX_PLAYERS
MAXC = L.MAX_CARDS

# ---- state layout -----------------------------------------------------------------------------------
ST_N = 0            # players
ST_DEALER = 1
ST_DIR = 2          # +1 / -1
ST_TOP = 3          # card id of T
ST_COLOUR = 4       # colour in play A
ST_TURNS = 5
ST_PLAYS = 6
ST_DRAWS = 7
ST_RESHUFFLES = 8
ST_MOVES = 9        # cards moved or hands exchanged so far (progress detector, §1.6)
ST_ENDED = 10
ST_WINNER = 11
ST_END = 12
ST_DUMBFU = 13      # dumbfu_penalties
ST_N_ACTIVE = 14
ST_TRACE = 15
ST_EV_LEN = 16
ST_FIRST_SEAT = 17
ST_VIOLATIONS = 18  # audit mode: failed invariant checks (see `audit`)
ST_P = 19           # pending penalty P (stacking)
ST_V = 20           # draw value of the last draw card in the stack
ST_K = 21           # kind of the last draw card in the stack (same_kind stacking)
ST_RESPONDER = 22   # seat that must respond to P
ST_LARGEST = 23     # largest_stack
ST_SWAPS7 = 24
ST_PASSES0 = 25
ST_KNOCKOUTS = 26
ST_KO_SEAT = 27     # last seat knocked out during the current turn, -1 if none
ST_PLAYED = 28      # 1 if the current turn (or jump-in) played a card
ST_LAST_PLAYER = 29
ST_UNO_CHECKS = 30  # 0 when checkpoints cannot change anything: no trace and nobody forgets UNO
ST_SPINNER = 31     # seat designated to spin at its next turn, -1 if none
ST_SPINS = 32
ST_FINAL_SPINS = 33
ST_EV_CAP = 34      # rows of the trace buffer `ev` (kept as data: see new_game)
ST_SIZE = 35
TRACE_CAPACITY = 1 << 20   # events one traced call can hold; larger runs are split by the caller

DRAW, DISC, ASIDE = 0, 1, 2   # rows of `pile` (ASIDE: knocked-out hands); lengths in plen
SE_DRAWN = 0
SE_PLAYED = 1
SE_UNO_DONE = 2
SE_WINDOW = 3       # Dumb Fu pose window: -1 closed, else events counted so far
SE_ACTIVE = 4
SE_KO_TURN = 5      # 1-based turn of the knock-out, 0 if none
SE_WHEEL_GAINED = 6
SE_WHEEL_LOST = 7
SEAT_SIZE = 8

DECK_STREAM, PLAY_STREAM = 0, 1
RANDOM, GREEDY_POINTS, KEEP_WILDS = 0, 1, 2
PP_DRAW, PP_BLUFF, PP_CHALLENGE = 0, 1, 2

# ---- random numbers (protocol §1) -------------------------------------------------------------------
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
SEED_SALT = np.uint64(0x243F6A8885A308D3)
STREAM_SALT = np.uint64(0xD1B54A32D192ED03)
U11, U53 = np.uint64(11), np.uint64(53)
INV53 = 1.0 / 9007199254740992.0


@njit(cache=True)
def mix64(z):
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def seed_streams(g, seed, game):
    rng = g["rng"]
    k0 = mix64(np.uint64(seed) ^ SEED_SALT)
    k1 = mix64(k0 + np.uint64(game + 1) * GOLDEN)
    for s in range(2):
        x = k1 + np.uint64(s + 1) * STREAM_SALT
        for i in range(4):
            x = x + GOLDEN
            rng[4 * s + i] = mix64(x)


@njit(cache=True)
def rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True)
def next64(g, stream):
    rng = g["rng"]
    o = 4 * stream
    s0, s1, s2, s3 = rng[o], rng[o + 1], rng[o + 2], rng[o + 3]
    result = rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = rotl(s3, 45)
    rng[o], rng[o + 1], rng[o + 2], rng[o + 3] = s0, s1, s2, s3
    return result


@njit(cache=True)
def below(g, stream, n):
    return np.int64(((next64(g, stream) >> U11) * np.uint64(n)) >> U53)


@njit(cache=True)
def uniform(g, stream):
    return np.float64(next64(g, stream) >> U11) * INV53


@njit(cache=True)
def bernoulli(g, stream, p):
    if p <= 0.0:
        return False
    if p >= 1.0:
        return True
    return uniform(g, stream) < p


@njit(cache=True)
def shuffle(g, a, m, stream):
    for i in range(m - 1, 0, -1):
        j = below(g, stream, i + 1)
        a[i], a[j] = a[j], a[i]


# ---- tracing ----------------------------------------------------------------------------------------
@njit(cache=True)
def emit(g, code, s, a, b):
    st = g["st"]
    ev = g["ev"]
    if st[ST_TRACE]:
        k = st[ST_EV_LEN]
        if k < st[ST_EV_CAP]:
            ev[k, 0] = code
            ev[k, 1] = s
            ev[k, 2] = a
            ev[k, 3] = b
        st[ST_EV_LEN] = k + 1


# ---- seats and matching -----------------------------------------------------------------------------
@njit(cache=True)
def step(s, d, n):
    """The seat one place from s in direction d (no division: this runs several times a turn)."""
    t = s + d
    if t >= n:
        return t - n
    if t < 0:
        return t + n
    return t


@njit(cache=True)
def next_seat(g, s):
    """next(s): the first active seat after s in direction d (s itself need not be active)."""
    st = g["st"]
    seat = g["seat"]
    n = st[ST_N]
    d = st[ST_DIR]
    t = s
    for _ in range(n):
        t = step(t, d, n)
        if seat[t, SE_ACTIVE]:
            return t
    return s


@njit(cache=True)
def matches(c, top, colour):
    """RULES §1.4 items 1-4."""
    return COLOUR[c] == colour or MATCHES_TOP[c, top]


@njit(cache=True)
def holds_colour(g, p, colour, skip_index):
    hands = g["hands"]
    hlen = g["hlen"]
    for i in range(hlen[p]):
        if i != skip_index and COLOUR[hands[p, i]] == colour:
            return True
    return False


@njit(cache=True)
def playable(g, p, i):
    """Legal play of hand index i (§1.4 with the WD4 restriction of §1.8)."""
    st = g["st"]
    hands = g["hands"]
    c = hands[p, i]
    if not matches(c, st[ST_TOP], st[ST_COLOUR]):
        return False
    if KIND[c] == K_WD4:
        return not holds_colour(g, p, st[ST_COLOUR], i)
    return True


# ---- moving cards -----------------------------------------------------------------------------------
@njit(cache=True)
def remove_card(g, p, i):
    hands = g["hands"]
    hlen = g["hlen"]
    c = hands[p, i]
    for j in range(i, hlen[p] - 1):
        hands[p, j] = hands[p, j + 1]
    hlen[p] -= 1
    return c


@njit(cache=True)
def reshuffle(g):
    """§1.6: every discard but T, then the set-aside hands, become the new draw pile, shuffled."""
    st = g["st"]
    pile = g["pile"]
    plen = g["plen"]
    m = plen[DISC] - 1 + plen[ASIDE]
    if m <= 0:
        return
    k = plen[DISC] - 1
    for i in range(k):
        pile[DRAW, i] = pile[DISC, i]
    for i in range(plen[ASIDE]):
        pile[DRAW, k + i] = pile[ASIDE, i]
    pile[DISC, 0] = pile[DISC, k]
    plen[DISC] = 1
    plen[ASIDE] = 0
    plen[DRAW] = m
    shuffle(g, pile[DRAW], m, DECK_STREAM)
    st[ST_RESHUFFLES] += 1
    emit(g, L.EV_RESHUFFLE, -1, m, 0)


@njit(cache=True)
def draw_one(g, s):
    """One draw for seat s; False when both piles are exhausted (the obligation ends)."""
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    pile = g["pile"]
    plen = g["plen"]
    seat = g["seat"]
    if plen[DRAW] == 0:
        reshuffle(g)
        if plen[DRAW] == 0:
            emit(g, L.EV_DRAW_FAIL, s, 0, 0)
            return False
    plen[DRAW] -= 1
    c = pile[DRAW, plen[DRAW]]
    hands[s, hlen[s]] = c
    hlen[s] += 1
    st[ST_DRAWS] += 1
    st[ST_MOVES] += 1
    seat[s, SE_DRAWN] += 1
    seat[s, SE_UNO_DONE] = 0
    emit(g, L.EV_DRAW, s, c, 0)
    limit = g["ir"][L.IR_MERCY_LIMIT]
    if limit > 0 and hlen[s] >= limit:
        knock_out(g, s)
        return False
    return True


@njit(cache=True)
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
    seat[s, SE_ACTIVE] = 0
    seat[s, SE_UNO_DONE] = 0
    seat[s, SE_KO_TURN] = st[ST_TURNS]
    seat[s, SE_WINDOW] = -1
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


@njit(cache=True)
def clear_stack(st):
    st[ST_P] = 0
    st[ST_V] = 0
    st[ST_K] = -1
    st[ST_RESPONDER] = -1


@njit(cache=True)
def draw_n(g, s, k):
    """Up to k draws; ends early when the piles run dry or s is knocked out."""
    for _ in range(k):
        if not draw_one(g, s):
            return


@njit(cache=True)
def swap_hands(g, p, t):
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    seat = g["seat"]
    m = max(hlen[p], hlen[t])
    for i in range(m):
        hands[p, i], hands[t, i] = hands[t, i], hands[p, i]
    hlen[p], hlen[t] = hlen[t], hlen[p]
    seat[p, SE_UNO_DONE] = 0
    seat[t, SE_UNO_DONE] = 0
    st[ST_MOVES] += 1
    emit(g, L.EV_SWAP, p, t, 0)


@njit(cache=True)
def redeal(g, p):
    """Blank shuffle_hands (§2.1.3): collect every active hand, shuffle, deal from p+1 clockwise."""
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    seat = g["seat"]
    buf = g["buf"]
    n = st[ST_N]
    m = 0
    for s in range(n):
        if seat[s, SE_ACTIVE]:
            for i in range(hlen[s]):
                buf[m] = hands[s, i]
                m += 1
            hlen[s] = 0
            seat[s, SE_UNO_DONE] = 0
    shuffle(g, buf, m, DECK_STREAM)
    s = p
    while m > 0:
        s = (s + 1) % n
        if seat[s, SE_ACTIVE]:
            m -= 1
            hands[s, hlen[s]] = buf[m]
            hlen[s] += 1
    st[ST_MOVES] += 1
    emit(g, L.EV_REDEAL, p, 0, 0)


@njit(cache=True)
def discard_colour(g, p, colour):
    """Blank discard_colour: every card of `colour` goes under T, in hand order (no effects)."""
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    pile = g["pile"]
    plen = g["plen"]
    seat = g["seat"]
    i = 0
    while i < hlen[p]:
        c = hands[p, i]
        if COLOUR[c] == colour:
            remove_card(g, p, i)
            top = pile[DISC, plen[DISC] - 1]
            pile[DISC, plen[DISC] - 1] = c
            pile[DISC, plen[DISC]] = top
            plen[DISC] += 1
            st[ST_MOVES] += 1
            seat[p, SE_UNO_DONE] = 0
            emit(g, L.EV_DISCARD, p, c, 0)
        else:
            i += 1


# ---- built-in policies (protocol §4) ----------------------------------------------------------------
@njit(cache=True)
def policy_play(g, p, nleg, bluff_index):
    """Index of the card p plays, or -1 to draw."""
    hands = g["hands"]
    hlen = g["hlen"]
    ir = g["ir"]
    pol = g["pol"]
    pp = g["pp"]
    legal = g["legal"]
    if nleg == 0:
        return -1
    pid = pol[p]
    if pid == RANDOM:
        if ir[L.IR_VOLUNTARY_DRAW] and bernoulli(g, PLAY_STREAM, pp[p, PP_DRAW]):
            return -1
        if bluff_index >= 0 and not ir[L.IR_NO_BLUFFING] and bernoulli(g, PLAY_STREAM, pp[p, PP_BLUFF]):
            return bluff_index
        return legal[below(g, PLAY_STREAM, nleg)]
    if pid == GREEDY_POINTS:
        best = legal[0]
        for k in range(1, nleg):
            if POINTS[hands[p, legal[k]]] > POINTS[hands[p, best]]:
                best = legal[k]
        return best
    # KEEP_WILDS: the coloured card of the longest colour (then points); wilds last
    count = g["count"]
    count[:] = 0
    for i in range(hlen[p]):
        count[COLOUR[hands[p, i]]] += 1
    best = -1
    best_score = -1
    for k in range(nleg):
        c = hands[p, legal[k]]
        if COLOUR[c] != NO_COLOUR:
            score = 100 * count[COLOUR[c]] + POINTS[c]
            if score > best_score:
                best, best_score = legal[k], score
    return best if best >= 0 else legal[0]


@njit(cache=True)
def policy_colour(g, p):
    hands = g["hands"]
    hlen = g["hlen"]
    pol = g["pol"]
    if pol[p] == RANDOM:
        return below(g, PLAY_STREAM, 4)
    count = g["count"]
    count[:] = 0
    for i in range(hlen[p]):
        c = COLOUR[hands[p, i]]
        if c != NO_COLOUR:
            count[c] += 1
    best = 0
    for c in range(1, 4):
        if count[c] > count[best]:
            best = c
    if count[best] == 0:
        return below(g, PLAY_STREAM, 4)
    if pol[p] == KEEP_WILDS:   # spin SHOW_HAND: among ties, the colour the next seat showed fewest of
        seen = g["shown"][next_seat(g, p)]
        for c in range(best + 1, 4):
            if count[c] == count[best] and seen[c] < seen[best]:
                best = c
    return best


@njit(cache=True)
def policy_target(g, p):
    """Seat p swaps hands with: candidates are the other active seats from next(p) in direction d."""
    hlen = g["hlen"]
    pol = g["pol"]
    cand = g["cand"]
    k = 0
    s = next_seat(g, p)
    while s != p:
        cand[k] = s
        k += 1
        s = next_seat(g, s)
    if pol[p] == RANDOM:
        return cand[below(g, PLAY_STREAM, k)]
    best = cand[0]
    for j in range(1, k):
        if hlen[cand[j]] < hlen[best]:
            best = cand[j]
    return best


# ---- verbs of the classic family --------------------------------------------------------------------
@njit(cache=True)
def pose_event(g, s):
    """Minions §2.2.2: the turn passes to s (its turn or its skip); a window closes at its 2nd event."""
    st = g["st"]
    seat = g["seat"]
    ir = g["ir"]
    fr = g["fr"]
    if ir[L.IR_FAMILY] != L.FAMILY_MINIONS or seat[s, SE_WINDOW] < 0:
        return
    seat[s, SE_WINDOW] += 1
    if seat[s, SE_WINDOW] < 2:
        return
    seat[s, SE_WINDOW] = -1
    fail = bernoulli(g, PLAY_STREAM, fr[L.FR_P_DUMBFU_FAIL])
    emit(g, L.EV_POSE, s, 1 if fail else 0, 0)
    if fail:
        st[ST_DUMBFU] += 1
        draw_n(g, s, ir[L.IR_DUMBFU_PENALTY])


@njit(cache=True)
def skip_seat(g, v):
    """v loses its turn (a pose event in minions); a seat knocked out by the penalty is not skipped."""
    if not g["seat"][v, SE_ACTIVE]:
        return
    emit(g, L.EV_SKIP, v, 0, 0)
    pose_event(g, v)


@njit(cache=True)
def others_draw_one(g, p):
    s = next_seat(g, p)
    while s != p:   # p is active, so a knock-out that ends the round also ends this loop
        draw_one(g, s)
        s = next_seat(g, s)


@njit(cache=True)
def win(g, p):
    st = g["st"]
    st[ST_ENDED] = 1
    st[ST_WINNER] = p
    st[ST_END] = L.END_WON
    clear_stack(st)   # a pending P is discarded (its draws, if any, are final-card effects)


@njit(cache=True)
def pass_hands(g, p):
    """seven_o 0 (RULES §2.4.4, §4): every active hand moves to next(seat) in direction d at once."""
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    seat = g["seat"]
    buf = g["buf"]
    order = g["cand"]
    k = 0
    s = p
    while True:
        order[k] = s
        k += 1
        s = next_seat(g, s)
        if s == p:
            break
    last = order[k - 1]
    m = hlen[last]
    buf[:m] = hands[last, :m]
    for j in range(k - 1, 0, -1):
        dst, src = order[j], order[j - 1]
        hands[dst, :hlen[src]] = hands[src, :hlen[src]]
        hlen[dst] = hlen[src]
    hands[p, :m] = buf[:m]
    hlen[p] = m
    for j in range(k):
        seat[order[j], SE_UNO_DONE] = 0
    st[ST_MOVES] += 1
    st[ST_PASSES0] += 1
    emit(g, L.EV_PASS, p, 0, 0)


@njit(cache=True)
def can_stack(st, stacking, c):
    """A stack response allowed by the stacking mode (§1.7, §2.4.5, §4); no colour match needed."""
    value = DRAW_VALUE[c]
    if value == 0:
        return False
    if stacking == L.STACKING_SAME_KIND:
        return KIND[c] == st[ST_K]
    if stacking == L.STACKING_ESCALATING:
        return value >= st[ST_V]
    return True


@njit(cache=True)
def policy_stack(g, p, ns):
    """Index (from legal[:ns]) of the card p stacks, or -1 to accept (protocol §5)."""
    if ns == 0:
        return -1
    if g["pol"][p] == RANDOM:
        return g["legal"][below(g, PLAY_STREAM, ns)]
    return policy_play(g, p, ns, -1)


@njit(cache=True)
def checkpoint(g, a):
    """§1.10: UNO calls, forgets and catches, in order from the acting seat a in direction d."""
    st = g["st"]
    hlen = g["hlen"]
    seat = g["seat"]
    ir = g["ir"]
    fr = g["fr"]
    if not st[ST_UNO_CHECKS]:
        return
    n = st[ST_N]
    s = a
    for _ in range(n):
        if seat[s, SE_ACTIVE] and hlen[s] == 1 and not seat[s, SE_UNO_DONE]:
            if not bernoulli(g, PLAY_STREAM, fr[L.FR_P_FORGET_UNO + s]):
                emit(g, L.EV_UNO, s, 1, 0)
            elif bernoulli(g, PLAY_STREAM, fr[L.FR_P_CATCH]):
                emit(g, L.EV_UNO, s, 2, 0)
                draw_n(g, s, ir[L.IR_UNO_PENALTY])
            else:
                emit(g, L.EV_UNO, s, 3, 0)
            seat[s, SE_UNO_DONE] = 1
        s = step(s, st[ST_DIR], n)


@njit(cache=True)
def blank_effect(g, p, c):
    """§2.1.3 for a blank played by p with cards left; returns the next seat (-1 if p won)."""
    st = g["st"]
    hlen = g["hlen"]
    ir = g["ir"]
    effect = ir[L.IR_BLANK_EFFECT + c - BLANK_ID0]
    if effect == L.BLANK_SWAP_HANDS:
        t = policy_target(g, p)
        swap_hands(g, p, t)
    elif effect == L.BLANK_SHUFFLE_HANDS:
        redeal(g, p)
    elif effect == L.BLANK_OTHERS_DRAW_1:
        others_draw_one(g, p)
    elif effect == L.BLANK_DISCARD_COLOUR:
        discard_colour(g, p, st[ST_COLOUR])
        if hlen[p] == 0:
            win(g, p)
            return -1
    elif effect == L.BLANK_DRAW_TWO_NEXT:
        v = next_seat(g, p)
        draw_n(g, v, 2)
        skip_seat(g, v)
        return next_seat(g, v)
    return next_seat(g, p)


@njit(cache=True)
def final_card_effects(g, p, c, pending):
    """§1.11 / §4 final_card_effects: the card that emptied p's hand still acts on the others.

    A final draw card makes next(p) draw the pending total including itself (after a WRD4's reversal);
    a final blank acts per §2.1.3 (shuffle_hands is handled by the caller: the round goes on).
    """
    st = g["st"]
    ir = g["ir"]
    k = KIND[c]
    if DRAW_VALUE[c] > 0:
        if k == K_WRD4:
            st[ST_DIR] = -st[ST_DIR]
        draw_n(g, next_seat(g, p), pending + DRAW_VALUE[c])
    elif k == K_BLANK:
        effect = ir[L.IR_BLANK_EFFECT + c - BLANK_ID0]
        if effect == L.BLANK_OTHERS_DRAW_1:
            others_draw_one(g, p)
        elif effect == L.BLANK_DRAW_TWO_NEXT:
            draw_n(g, next_seat(g, p), 2)
    elif SPIN[c]:   # §2.3.6: next(p) still spins, for scoring only
        spin(g, next_seat(g, p), True)


@njit(cache=True)
def draw_card_effect(g, p, c, responding, guilty):
    """A draw card played with cards left: resolved at once (stacking none) or stacked (§1.7, §2.4.4)."""
    st = g["st"]
    ir = g["ir"]
    pp = g["pp"]
    k = KIND[c]
    value = DRAW_VALUE[c]
    if k == K_WRD4:
        st[ST_DIR] = -st[ST_DIR]
    if k == K_WD4 and not responding:
        v = next_seat(g, p)
        if ir[L.IR_WD4_CHALLENGE] and bernoulli(g, PLAY_STREAM, pp[v, PP_CHALLENGE]):
            # §1.8: a challenger cannot also stack; the named colour stands
            emit(g, L.EV_CHALLENGE, v, 1 if guilty else 0, 0)
            st[ST_LARGEST] = max(st[ST_LARGEST], value)
            if guilty:
                draw_n(g, p, 4)
                return v
            draw_n(g, v, 6)
            skip_seat(g, v)
            return next_seat(g, v)
    if ir[L.IR_STACKING] == L.STACKING_NONE:
        st[ST_LARGEST] = max(st[ST_LARGEST], value)
        v = next_seat(g, p)
        draw_n(g, v, value)
        skip_seat(g, v)
        return next_seat(g, v)
    st[ST_P] += value
    st[ST_V] = value
    st[ST_K] = k
    st[ST_LARGEST] = max(st[ST_LARGEST], st[ST_P])
    # two active players: a WRD4 comes back to its own player (§2.4.4, N4)
    r = p if (k == K_WRD4 and st[ST_N_ACTIVE] == 2) else next_seat(g, p)
    st[ST_RESPONDER] = r
    return r


@njit(cache=True)
def roulette(g, p):
    """WILD_COLOR_ROULETTE (§2.4.4, N5): the victim names C, then reveals until a card of colour C."""
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    v = next_seat(g, p)
    colour = policy_colour(g, v)
    emit(g, L.EV_ROULETTE, v, colour, 0)
    st[ST_COLOUR] = colour
    while draw_one(g, v):
        if COLOUR[hands[v, hlen[v] - 1]] == colour:
            break
    return next_seat(g, v)


@njit(cache=True)
def play_card(g, p, i):
    """§1.5 step 6 / §2.4.3 step 3 and the card's effect; returns the next seat (-1: round over)."""
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    pile = g["pile"]
    plen = g["plen"]
    seat = g["seat"]
    ir = g["ir"]
    responding = st[ST_P] > 0
    guilty = False
    if KIND[hands[p, i]] == K_WD4 and not responding:
        guilty = holds_colour(g, p, st[ST_COLOUR], i)
    c = remove_card(g, p, i)
    pile[DISC, plen[DISC]] = c
    plen[DISC] += 1
    st[ST_TOP] = c
    st[ST_PLAYS] += 1
    st[ST_MOVES] += 1
    st[ST_PLAYED] = 1
    st[ST_LAST_PLAYER] = p
    seat[p, SE_PLAYED] += 1
    seat[p, SE_UNO_DONE] = 0
    emit(g, L.EV_PLAY, p, c, 0)
    k = KIND[c]
    if COLOUR[c] == NO_COLOUR:
        if k != K_ROULETTE:   # the Roulette's victim names the colour (N5)
            st[ST_COLOUR] = policy_colour(g, p)
            emit(g, L.EV_COLOUR, p, st[ST_COLOUR], 0)
    else:
        st[ST_COLOUR] = COLOUR[c]
    if hlen[p] == 0:
        pending = st[ST_P]
        if ir[L.IR_FINAL_CARD_EFFECTS]:
            if k == K_BLANK and ir[L.IR_BLANK_EFFECT + c - BLANK_ID0] == L.BLANK_SHUFFLE_HANDS:
                redeal(g, p)   # §2.1.3: the round goes on
                return next_seat(g, p)
            win(g, p)
            final_card_effects(g, p, c, pending)
        else:
            win(g, p)
        return -1
    if DRAW_VALUE[c] > 0:
        return draw_card_effect(g, p, c, responding, guilty)
    if k == K_NUMBER:
        if SPIN[c]:   # §2.3.2: the next player spins at its turn
            t = next_seat(g, p)
            st[ST_SPINNER] = t
            emit(g, L.EV_SPINNER, t, 0, 0)
        if ir[L.IR_SEVEN_O]:
            if NUMBER_OF[c] == 7:
                swap_hands(g, p, policy_target(g, p))
                st[ST_SWAPS7] += 1
            elif NUMBER_OF[c] == 0:
                pass_hands(g, p)
        return next_seat(g, p)
    if k == K_SKIP:
        v = next_seat(g, p)
        skip_seat(g, v)
        return next_seat(g, v)
    if k == K_REVERSE:
        st[ST_DIR] = -st[ST_DIR]
        if st[ST_N_ACTIVE] == 2 and ir[L.IR_TWO_PLAYER_REVERSE_SKIP]:
            skip_seat(g, next_seat(g, p))
            return p
        return next_seat(g, p)
    if k == K_SKIP_EVERYONE:
        return p
    if k == K_DISCARD_ALL:
        discard_colour(g, p, COLOUR[c])
        if hlen[p] == 0:
            win(g, p)
            return -1
        return next_seat(g, p)
    if k == K_ROULETTE:
        return roulette(g, p)
    if k == K_DUMB_FU:
        t = next_seat(g, p)
        seat[t, SE_WINDOW] = 0
        emit(g, L.EV_DUMBFU, t, 0, 0)
        return t
    if k == K_BLANK:
        return blank_effect(g, p, c)
    return next_seat(g, p)


@njit(cache=True)
def weighted(g, weights, k):
    """Index i < k drawn with probability ∝ weights[i] (play stream, protocol §6)."""
    total = 0.0
    for i in range(k):
        total += weights[i]
    u = uniform(g, PLAY_STREAM) * total
    acc = 0.0
    for i in range(k):
        acc += weights[i]
        if u < acc:
            return i
    for i in range(k - 1, -1, -1):   # only reachable through rounding: the last positive weight
        if weights[i] > 0:
            return i
    return k - 1


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
def keep_score(g, p, c):
    """How much a heuristic wants to keep card c (ALMOST_UNO, protocol §6)."""
    if g["pol"][p] == GREEDY_POINTS:
        return -POINTS[c]
    if COLOUR[c] == NO_COLOUR:
        return 1000
    return 100 * g["count"][COLOUR[c]] + POINTS[c]


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
    while True:
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
    hands = g["hands"]
    hlen = g["hlen"]
    seat = g["seat"]
    buf = g["buf"]
    seats = g["cand"]
    k = 0
    for t in range(st[ST_N]):
        if takes_part(g, t, final):
            seats[k] = t
            k += 1
    emit(g, L.EV_TRADE, s, 0, 0)
    if k < 2:
        return
    last = seats[k - 1]
    m = hlen[last]
    buf[:m] = hands[last, :m]
    for j in range(k - 1, 0, -1):
        dst, src = seats[j], seats[j - 1]
        seat[dst, SE_WHEEL_LOST] += hlen[dst]
        hands[dst, :hlen[src]] = hands[src, :hlen[src]]
        hlen[dst] = hlen[src]
        seat[dst, SE_WHEEL_GAINED] += hlen[dst]
    first = seats[0]
    seat[first, SE_WHEEL_LOST] += hlen[first]
    hands[first, :m] = buf[:m]
    hlen[first] = m
    seat[first, SE_WHEEL_GAINED] += m
    for j in range(k):
        seat[seats[j], SE_UNO_DONE] = 0
    st[ST_MOVES] += 1


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
    outcome = weighted(g, fr[L.FR_SPIN_WEIGHT:L.FR_SPIN_WEIGHT + 9], 9)
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


@njit(cache=True)
def take_turn(g, p):
    """TURN(p) of §1.5 / §2.4.3; returns the next seat (-1 when the round ended)."""
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    ir = g["ir"]
    legal = g["legal"]
    pose_event(g, p)
    if st[ST_ENDED] or not g["seat"][p, SE_ACTIVE]:   # the pose penalty knocked p out (mercy rule)
        return next_seat(g, p)
    if st[ST_SPINNER] == p:   # §1.5 step 2: the designated spinner spins instead of its turn
        st[ST_SPINNER] = -1
        return spin(g, p, False)
    if st[ST_P] > 0:   # response turn (§1.7 stacking, §2.4.3 step 1)
        ns = 0
        for i in range(hlen[p]):
            if can_stack(st, ir[L.IR_STACKING], hands[p, i]):
                legal[ns] = i
                ns += 1
        choice = policy_stack(g, p, ns)
        if choice >= 0:
            return play_card(g, p, choice)
        total = st[ST_P]
        emit(g, L.EV_ACCEPT, p, total, 0)
        clear_stack(st)
        draw_n(g, p, total)
        return next_seat(g, p)
    top, colour = st[ST_TOP], st[ST_COLOUR]
    # one pass in hand order; WD4s are dropped afterwards if the hand holds the colour in play (§1.8)
    nleg = 0
    has_colour = False
    has_wd4 = False
    for i in range(hlen[p]):
        c = hands[p, i]
        if COLOUR[c] == colour:
            has_colour = True
            legal[nleg] = i
            nleg += 1
        elif MATCHES_TOP[c, top]:
            has_wd4 |= KIND[c] == K_WD4
            legal[nleg] = i
            nleg += 1
    bluff_index = -1
    if has_wd4 and has_colour:
        kept = 0
        for j in range(nleg):
            i = legal[j]
            if KIND[hands[p, i]] == K_WD4:
                if bluff_index < 0:
                    bluff_index = i
            else:
                legal[kept] = i
                kept += 1
        nleg = kept
    choice = policy_play(g, p, nleg, bluff_index)
    if choice >= 0:
        return play_card(g, p, choice)
    while draw_one(g, p):
        last = hlen[p] - 1
        if playable(g, p, last):
            # the built-in policies always play a legal drawn card (force_play_drawn makes it a rule)
            return play_card(g, p, last)
        if not ir[L.IR_DRAW_UNTIL_PLAYABLE]:
            break
    return next_seat(g, p)


@njit(cache=True)
def first_card(g):
    """§1.9: turn up T and apply its first-card effect; returns the seat of the first turn."""
    st = g["st"]
    pile = g["pile"]
    plen = g["plen"]
    ir = g["ir"]
    n = st[ST_N]
    f = (st[ST_DEALER] + 1) % n
    if ir[L.IR_FAMILY] == L.FAMILY_NO_MERCY:
        # §2.4.2: turn up until a NUMBER; the others stay under it, without effect
        while True:
            plen[DRAW] -= 1
            c = pile[DRAW, plen[DRAW]]
            emit(g, L.EV_FIRST_CARD, f, c, 0)
            pile[DISC, plen[DISC]] = c
            plen[DISC] += 1
            if KIND[c] == K_NUMBER:
                st[ST_TOP] = c
                st[ST_COLOUR] = COLOUR[c]
                return f
    while True:
        plen[DRAW] -= 1
        c = pile[DRAW, plen[DRAW]]
        emit(g, L.EV_FIRST_CARD, f, c, 0)
        if KIND[c] != K_WD4:
            break
        m = plen[DRAW]
        j = below(g, DECK_STREAM, m + 1)
        for i in range(m, j, -1):
            pile[DRAW, i] = pile[DRAW, i - 1]
        pile[DRAW, j] = c
        plen[DRAW] = m + 1
        emit(g, L.EV_RETURN, -1, c, j)
    pile[DISC, 0] = c
    plen[DISC] = 1
    st[ST_TOP] = c
    st[ST_COLOUR] = COLOUR[c]
    k = KIND[c]
    if k == K_SKIP:
        skip_seat(g, f)
        return next_seat(g, f)
    if k == K_REVERSE:
        st[ST_DIR] = -1
        return st[ST_DEALER]
    if k == K_DRAW_TWO:
        draw_n(g, f, 2)
        skip_seat(g, f)
        return next_seat(g, f)
    if SPIN[c] and ir[L.IR_SPIN_FIRST_CARD_SPINS]:   # §2.3.6 (off by default: no effect)
        st[ST_SPINNER] = f
        emit(g, L.EV_SPINNER, f, 0, 0)
    if COLOUR[c] == NO_COLOUR:
        st[ST_COLOUR] = policy_colour(g, f)
        emit(g, L.EV_COLOUR, f, st[ST_COLOUR], 0)
        if k == K_BLANK:
            effect = ir[L.IR_BLANK_EFFECT + c - BLANK_ID0]
            if effect == L.BLANK_DRAW_TWO_NEXT:   # "F draws 2 and is skipped"
                draw_n(g, f, 2)
                skip_seat(g, f)
                return next_seat(g, f)
            # the other effects act exactly as when F plays the blank; then F takes the first turn
            blank_effect(g, f, c)
    return f


@njit(cache=True)
def audit(g, deck_counts, round_over):
    """Invariants checked after every turn in audit mode (tests): card identities are conserved across
    hands and piles (set-aside hands included), every hand size is possible, no active hand is at the
    mercy limit, knocked-out seats hold nothing, and a won round leaves the winner empty-handed."""
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    pile = g["pile"]
    plen = g["plen"]
    count = np.zeros(deck_counts.shape[0], np.int64)
    total = plen[DRAW] + plen[DISC] + plen[ASIDE]
    for r in range(3):
        for i in range(plen[r]):
            count[pile[r, i]] += 1
    for s in range(st[ST_N]):
        if hlen[s] < 0 or hlen[s] > MAXC:
            st[ST_VIOLATIONS] += 1
            return
        total += hlen[s]
        for i in range(hlen[s]):
            count[hands[s, i]] += 1
    bad = total != deck_counts.sum()
    for c in range(deck_counts.shape[0]):
        if count[c] != deck_counts[c]:
            bad = True
    if plen[DISC] > 0 and pile[DISC, plen[DISC] - 1] != st[ST_TOP]:
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


@njit(cache=True)
def jump_ins(g, cur):
    """§4 jump_in: after a play, the first seat from next(last player) holding a card identical to T
    plays it out of turn (built-in policies always do); chains. Returns the seat of the next turn."""
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    ir = g["ir"]
    while st[ST_PLAYED] and st[ST_P] == 0 and COLOUR[st[ST_TOP]] != NO_COLOUR:
        last = st[ST_LAST_PLAYER]
        jumper = -1
        index = -1
        s = next_seat(g, last)
        while s != last and jumper < 0:
            for i in range(hlen[s]):
                if hands[s, i] == st[ST_TOP]:
                    jumper, index = s, i
                    break
            s = next_seat(g, s)
        if jumper < 0:
            return cur
        if st[ST_TURNS] >= ir[L.IR_MAX_TURNS]:
            st[ST_ENDED] = 1
            st[ST_END] = L.END_TRUNCATED
            return cur
        st[ST_TURNS] += 1
        emit(g, L.EV_TURN, jumper, st[ST_TURNS], 1)
        st[ST_SPINNER] = -1   # a jump-in cancels a pending spin (§4)
        st[ST_PLAYED] = 0
        st[ST_KO_SEAT] = -1
        cur = play_card(g, jumper, index)
        if st[ST_ENDED]:
            return cur
        checkpoint(g, jumper)
        if st[ST_ENDED]:
            return cur
        if st[ST_KO_SEAT] >= 0:
            cur = next_seat(g, st[ST_KO_SEAT])
    return cur


@njit(cache=True)
def play_round(g, deck, order, opening, orow, deck_counts):
    """One round from the shuffle to the end; the outcome is left in st and seat."""
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    pile = g["pile"]
    plen = g["plen"]
    seat = g["seat"]
    ir = g["ir"]
    n = st[ST_N]
    for key in (ST_TURNS, ST_PLAYS, ST_DRAWS, ST_RESHUFFLES, ST_MOVES, ST_ENDED, ST_DUMBFU, ST_LARGEST,
                ST_SWAPS7, ST_PASSES0, ST_KNOCKOUTS, ST_PLAYED, ST_SPINS, ST_FINAL_SPINS):
        st[key] = 0
    st[ST_SPINNER] = -1
    clear_stack(st)
    g["outcomes"][:] = 0
    g["shown"][:] = 0
    st[ST_WINNER] = -1
    st[ST_END] = -1
    st[ST_DIR] = 1
    st[ST_N_ACTIVE] = n
    for s in range(n):
        hlen[s] = 0
        seat[s, SE_DRAWN] = 0
        seat[s, SE_PLAYED] = 0
        seat[s, SE_UNO_DONE] = 0
        seat[s, SE_WINDOW] = -1
        seat[s, SE_ACTIVE] = 1
        seat[s, SE_KO_TURN] = 0
        seat[s, SE_WHEEL_GAINED] = 0
        seat[s, SE_WHEEL_LOST] = 0
    m = deck.shape[0]
    if order.shape[0] == m:
        pile[DRAW, :m] = order
    else:
        pile[DRAW, :m] = deck
        shuffle(g, pile[DRAW], m, DECK_STREAM)
    plen[DRAW] = m
    plen[DISC] = 0
    plen[ASIDE] = 0
    dealer = st[ST_DEALER]
    for _ in range(ir[L.IR_HAND_SIZE]):
        s = dealer
        for _ in range(n):
            s = step(s, 1, n)
            plen[DRAW] -= 1
            hands[s, hlen[s]] = pile[DRAW, plen[DRAW]]
            hlen[s] += 1
    for s in range(n):
        for i in range(hlen[s]):
            opening[orow + s, HAND_CLASS[hands[s, i]]] += 1
    f = (dealer + 1) % n
    cur = first_card(g)
    if st[ST_ENDED]:
        st[ST_FIRST_SEAT] = f
        return
    st[ST_FIRST_SEAT] = cur
    emit(g, L.EV_FIRST_SEAT, cur, st[ST_DIR], 0)
    checkpoint(g, f)
    idle = 0
    while True:
        if st[ST_TURNS] >= ir[L.IR_MAX_TURNS]:
            st[ST_ENDED] = 1
            st[ST_END] = L.END_TRUNCATED
            return
        st[ST_TURNS] += 1
        p = cur
        emit(g, L.EV_TURN, p, st[ST_TURNS], 0)
        moves_before = st[ST_MOVES]
        st[ST_PLAYED] = 0
        st[ST_KO_SEAT] = -1
        cur = take_turn(g, p)
        if ir[L.IR_AUDIT]:
            audit(g, deck_counts, st[ST_ENDED] != 0)
        if st[ST_ENDED]:
            return
        checkpoint(g, p)
        if st[ST_ENDED]:
            return
        if st[ST_KO_SEAT] >= 0:   # §2.4.6: play goes on from the knocked-out seat
            cur = next_seat(g, st[ST_KO_SEAT])
        if ir[L.IR_JUMP_IN]:
            cur = jump_ins(g, cur)
            if ir[L.IR_AUDIT]:
                audit(g, deck_counts, st[ST_ENDED] != 0)
            if st[ST_ENDED]:
                return
        if st[ST_MOVES] == moves_before:
            idle += 1
            if idle >= st[ST_N_ACTIVE]:
                st[ST_ENDED] = 1
                st[ST_END] = L.END_STALEMATE
                return
        else:
            idle = 0


def game_dtype(trace_capacity: int) -> np.dtype:
    """The game record: every array the verbs share, in one block (no per-call refcounting)."""
    return np.dtype([
        ("st", np.int64, (ST_SIZE,)), ("hands", np.int64, (MAXP, MAXC)), ("hlen", np.int64, (MAXP,)),
        ("pile", np.int64, (3, MAXC)), ("plen", np.int64, (3,)), ("seat", np.int64, (MAXP, SEAT_SIZE)),
        ("rng", np.uint64, (8,)), ("ir", np.int64, (L.IR_SIZE,)), ("fr", np.float64, (L.FR_SIZE,)),
        ("pol", np.int64, (MAXP,)), ("pp", np.float64, (MAXP, 3)), ("legal", np.int64, (MAXC,)),
        ("buf", np.int64, (MAXC,)), ("count", np.int64, (5,)), ("cand", np.int64, (MAXP,)),
        ("totals", np.int64, (MAXP,)), ("outcomes", np.int64, (9,)), ("shown", np.int64, (MAXP, 4)),
        ("mark", np.int64, (MAXC,)), ("order", np.int64, (MAXC,)), ("war_value", np.int64, (MAXP,)),
        ("revealed", np.int64, (MAXP, MAXC)), ("n_revealed", np.int64, (MAXP,)),
        ("tally", np.int64, (10,)), ("fbuf", np.float64, (MAXP,)),
        ("ev", np.int32, (trace_capacity, 4)),
    ])


def new_game(ir, fr, pol, pp, trace: bool = False):
    """A one-element array holding a zeroed game record with the compiled rules and the lineup.

    Keep the array alive while its record ``[0]`` is used: a record (and views of its fields) does not
    own its memory. Only two record layouts exist (trace buffer of 1 or TRACE_CAPACITY rows), and the
    capacity travels as data in ``st``: numba's disk cache must never have to tell apart records that
    differ only in a nested array's shape.
    """
    capacity = TRACE_CAPACITY if trace else 1
    block = np.zeros(1, game_dtype(capacity))
    g = block[0]
    g["st"][ST_EV_CAP] = capacity
    g["ir"][:] = ir
    g["fr"][:] = fr
    g["pol"][:len(pol)] = pol
    g["pp"][:len(pol)] = pp
    g["st"][ST_N] = ir[L.IR_PLAYERS]
    g["st"][ST_TRACE] = 1 if trace else 0
    n = ir[L.IR_PLAYERS]
    forgetful = (fr[L.FR_P_FORGET_UNO:L.FR_P_FORGET_UNO + n] > 0).any()
    g["st"][ST_UNO_CHECKS] = 1 if trace or forgetful else 0
    return block


@njit(cache=True)
def run_games(g, deck, seed, first_game, n_games, order, rounds, seats, opening, matches_out):
    """Play matches first_game .. first_game+n_games-1 into the output buffers.

    Returns (matches completed, rounds written, events emitted). Stops early, before a match, when the
    round buffer could not hold another full match; the caller then continues with fresh buffers.
    """
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    seat = g["seat"]
    ir = g["ir"]
    totals = g["totals"]
    n = ir[L.IR_PLAYERS]
    mode = ir[L.IR_MATCH_MODE]
    max_rounds = 1 if mode == L.MODE_SINGLE_ROUND else ir[L.IR_MAX_ROUNDS]
    st[ST_EV_LEN] = 0
    deck_counts = np.zeros(KIND.shape[0], np.int64)
    for c in deck:
        deck_counts[c] += 1
    r = 0
    for gi in range(n_games):
        if rounds.shape[0] - r < max_rounds:
            return gi, r, st[ST_EV_LEN]
        game = first_game + gi
        seed_streams(g, seed, game)
        totals[:] = 0
        first_dealer = ir[L.IR_FIRST_DEALER]
        if first_dealer < 0:
            first_dealer = below(g, DECK_STREAM, n)
        dealer = first_dealer
        match_end = L.MATCH_END_TRUNCATED
        winners_mask = 0
        n_rounds = 0
        for rnd in range(max_rounds):
            if rnd > 0:
                dealer = (dealer + 1) % n
            st[ST_DEALER] = dealer
            emit(g, L.EV_ROUND_START, dealer, rnd, game)
            play_round(g, deck, order if rnd == 0 else order[:0], opening, r * n, deck_counts)
            w = st[ST_WINNER]
            points = 0
            if w >= 0:   # §1.12 / §2.4.8: active opponents' hands plus 250 per knocked-out seat
                points = KO_POINTS * st[ST_KNOCKOUTS]
                for s in range(n):
                    if s != w:
                        for i in range(hlen[s]):
                            points += POINTS[hands[s, i]]
            emit(g, L.EV_ROUND_END, w, st[ST_END], points)
            row = rounds[r]
            row[L.RC_GAME] = game
            row[L.RC_ROUND] = rnd
            row[L.RC_DEALER] = dealer
            row[L.RC_FIRST_SEAT] = st[ST_FIRST_SEAT]
            row[L.RC_WINNER] = w
            row[L.RC_END] = st[ST_END]
            row[L.RC_TURNS] = st[ST_TURNS]
            row[L.RC_PLAYS] = st[ST_PLAYS]
            row[L.RC_DRAWS] = st[ST_DRAWS]
            row[L.RC_RESHUFFLES] = st[ST_RESHUFFLES]
            row[L.RC_POINTS] = points
            row[L.RC_DUMBFU_PENALTIES] = st[ST_DUMBFU]
            row[L.RC_KNOCKOUTS] = st[ST_KNOCKOUTS]
            row[L.RC_LARGEST_STACK] = st[ST_LARGEST]
            row[L.RC_SWAPS_7] = st[ST_SWAPS7]
            row[L.RC_PASSES_0] = st[ST_PASSES0]
            row[L.RC_SPINS] = st[ST_SPINS]
            row[L.RC_FINAL_SPINS] = st[ST_FINAL_SPINS]
            for o in range(9):
                row[L.RC_OUTCOME + o] = g["outcomes"][o]
            for s in range(n):
                srow = seats[r * n + s]
                left = 0
                for i in range(hlen[s]):
                    left += POINTS[hands[s, i]]
                srow[L.SC_WON] = 1 if s == w else 0
                srow[L.SC_CARDS_LEFT] = hlen[s]
                srow[L.SC_POINTS_LEFT] = left
                srow[L.SC_DRAWN] = seat[s, SE_DRAWN]
                srow[L.SC_PLAYED] = seat[s, SE_PLAYED]
                knocked_out = seat[s, SE_ACTIVE] == 0
                srow[L.SC_KNOCKED_OUT] = 1 if knocked_out else 0
                srow[L.SC_KNOCKOUT_TURN] = seat[s, SE_KO_TURN]
                srow[L.SC_WHEEL_GAINED] = seat[s, SE_WHEEL_GAINED]
                srow[L.SC_WHEEL_LOST] = seat[s, SE_WHEEL_LOST]
                if mode == L.MODE_LOWEST and w >= 0 and s != w:
                    totals[s] += KO_POINTS if knocked_out else left
            r += 1
            n_rounds += 1
            if mode == L.MODE_SINGLE_ROUND:
                if w >= 0:
                    match_end = L.MATCH_END_WON
                    winners_mask = 1 << w
                else:
                    match_end = L.MATCH_END_NO_WINNER
                break
            if mode == L.MODE_POINTS and w >= 0:
                totals[w] += points
                if totals[w] >= ir[L.IR_TARGET]:
                    match_end = L.MATCH_END_WON
                    winners_mask = 1 << w
                    break
            if mode == L.MODE_LOWEST and w >= 0:
                reached = False
                for s in range(n):
                    if totals[s] >= ir[L.IR_TARGET]:
                        reached = True
                if reached:
                    low = totals[0]
                    for s in range(1, n):
                        low = min(low, totals[s])
                    for s in range(n):
                        if totals[s] == low:
                            winners_mask |= 1 << s
                    match_end = L.MATCH_END_WON
                    break
        mrow = matches_out[gi]
        n_winners = 0
        winner = -1
        for s in range(n - 1, -1, -1):
            if winners_mask >> s & 1:
                n_winners += 1
                winner = s
        mrow[L.MC_GAME] = game
        mrow[L.MC_ROUNDS] = n_rounds
        mrow[L.MC_FIRST_DEALER] = first_dealer
        mrow[L.MC_WINNER] = winner
        mrow[L.MC_N_WINNERS] = n_winners
        mrow[L.MC_WINNERS_MASK] = winners_mask
        mrow[L.MC_END] = match_end
        emit(g, L.EV_MATCH_END, winner, winners_mask, match_end)
    return n_games, r, st[ST_EV_LEN]
