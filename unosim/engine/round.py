"""The round and the match: the turn, the first card, jump-ins, the turn loop with stalemate and turn
cap, scoring and the output rows (RULES §1.2-§1.6, §1.9, §1.12, §2.4.2-§2.4.3, §4 jump_in).

``run_games`` is the compiled entry point; ``unosim.simulate.run_compiled`` validates and calls it.
"""

import numpy as np
from numba import njit

from .. import protocol as L
from .decisions import can_stack, policy_colour, policy_play, policy_stack
from .effects import blank_effect, checkpoint, play_card, pose_event, skip_seat
from .piles import clear_stack, draw_n, draw_one
from .quality import check_standings
from .rng import DECK_STREAM, below, seed_streams, shuffle
from .state import (
    ASIDE,
    BLANK_ID0,
    COLOUR,
    DISC,
    DRAW,
    HAND_CLASS,
    K_BLANK,
    K_DRAW_TWO,
    K_NUMBER,
    K_REVERSE,
    K_SKIP,
    K_WD4,
    KIND,
    KO_POINTS,
    MATCHES_TOP,
    MAXC,
    NO_COLOUR,
    POINTS,
    SE_ACTIVE,
    SE_DRAWN,
    SE_KO_TURN,
    SE_PLAYED,
    SE_UNO_DONE,
    SE_WHEEL_GAINED,
    SE_WHEEL_LOST,
    SE_WINDOW,
    SPIN,
    ST_COLOUR,
    ST_DEALER,
    ST_DIR,
    ST_DRAWS,
    ST_DUMBFU,
    ST_END,
    ST_ENDED,
    ST_EV_LEN,
    ST_FINAL_SPINS,
    ST_FIRST_SEAT,
    ST_KNOCKOUTS,
    ST_KO_SEAT,
    ST_LARGEST,
    ST_LAST_PLAYER,
    ST_LOOP_BOUND_HITS,
    ST_LEAD_CHANGES,
    ST_LEADER,
    ST_MAX_HAND,
    ST_MOVES,
    ST_N,
    ST_N_ACTIVE,
    ST_P,
    ST_PASSES0,
    ST_PLAYED,
    ST_PLAYS,
    ST_RESHUFFLES,
    ST_SPINNER,
    ST_SPINS,
    ST_SWAPS7,
    ST_TOP,
    ST_TURNS,
    ST_VIOLATIONS,
    ST_WINNER,
    emit,
    next_seat,
    playable,
    step,
)
from .wheel import spin


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
    while draw_one(g, p):   # terminates: each pass moves a card from the piles to p (none come back)
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
        # §2.4.2: turn up until a NUMBER; the others stay under it, without effect. Terminates: the deal
        # leaves more than 88 cards (rules: hand_size × n ≤ deck − 88 − 1) and only 88 are not NUMBERs
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
    returns = 0
    while True:   # bounded: at most FIRST_CARD_MAX_RETURNS WD4s go back
        plen[DRAW] -= 1
        c = pile[DRAW, plen[DRAW]]
        emit(g, L.EV_FIRST_CARD, f, c, 0)
        if KIND[c] != K_WD4:
            break
        if returns == L.FIRST_CARD_MAX_RETURNS:
            # never seen in practice; the WD4 stays as T and the round ends before its first turn
            pile[DISC, 0] = c
            plen[DISC] = 1
            st[ST_TOP] = c
            st[ST_COLOUR] = COLOUR[c]
            st[ST_LOOP_BOUND_HITS] += 1
            st[ST_ENDED] = 1
            st[ST_END] = L.END_TRUNCATED
            return f
        returns += 1
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
def find_jumper(g, last):
    """The first active seat other than ``last``, from next(last) in direction d, holding a card
    identical to T: (seat, first such hand index), or (-1, -1).

    Each seat is visited at most once (``n - 1`` steps from ``last``), whether or not ``last`` is still
    active. The last player can have been knocked out after its play (an UNO penalty reaching the mercy
    limit at the checkpoint): the play still happened and T is on the pile, so the remaining active seats
    may jump in on it as on any play (docs/rules.md §4 jump_in, §2.4.6) — a knocked-out seat is never
    asked, and the next turn is next(knocked-out seat) unless someone jumps in.
    """
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    seat = g["seat"]
    n = st[ST_N]
    d = st[ST_DIR]
    s = last
    for _ in range(n - 1):
        s = step(s, d, n)
        if seat[s, SE_ACTIVE]:
            for i in range(hlen[s]):
                if hands[s, i] == st[ST_TOP]:
                    return s, i
    return -1, -1


@njit(cache=True)
def jump_ins(g, cur):
    """§4 jump_in: after a play, the first seat from next(last player) holding a card identical to T
    plays it out of turn (built-in policies always do); chains. Returns the seat of the next turn.

    Terminates: every pass of the loop either returns or counts one more turn, and the turn cap
    (max_turns_per_round) is checked before each jump-in.
    """
    st = g["st"]
    ir = g["ir"]
    while st[ST_PLAYED] and st[ST_P] == 0 and COLOUR[st[ST_TOP]] != NO_COLOUR:
        jumper, index = find_jumper(g, st[ST_LAST_PLAYER])
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
            check_standings(g)
            return cur
        checkpoint(g, jumper)
        check_standings(g)
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
                ST_SWAPS7, ST_PASSES0, ST_KNOCKOUTS, ST_PLAYED, ST_SPINS, ST_FINAL_SPINS, ST_LOOP_BOUND_HITS,
                ST_LEAD_CHANGES):
        st[key] = 0
    st[ST_LEADER] = -1
    st[ST_MAX_HAND] = ir[L.IR_HAND_SIZE]   # the opening deal: every hand gets hand_size cards
    st[ST_SPINNER] = -1
    clear_stack(st)
    g["outcomes"][:] = 0
    g["shown"][:] = 0
    g["deficit"][:] = 0
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
        check_standings(g)
        return
    st[ST_FIRST_SEAT] = cur
    emit(g, L.EV_FIRST_SEAT, cur, st[ST_DIR], 0)
    checkpoint(g, f)
    check_standings(g)
    if st[ST_ENDED]:
        return   # UNO penalties at the first checkpoint knocked out all but one seat (tiny mercy_limit)
    idle = 0
    while True:   # terminates: every pass counts a turn, and the turn cap is checked first
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
            check_standings(g)
            return
        checkpoint(g, p)
        check_standings(g)
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


@njit(cache=True)
def run_games(g, deck, seed, first_game, n_games, order, rounds, seats, opening, matches_out, turn_budget):
    """Play matches first_game .. first_game+n_games-1 into the output buffers.

    Returns (matches completed, rounds written, events emitted). Stops early, before a match, when the
    round buffer could not hold another full match, or when the matches played so far took more than
    ``turn_budget`` turns (so the caller regains control, and Ctrl-C is seen, at short intervals); the
    caller then continues with fresh buffers. Match g depends only on (seed, g), so where the calls are
    split never changes a result.
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
    turns = 0
    for gi in range(n_games):
        if rounds.shape[0] - r < max_rounds or turns > turn_budget:
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
            row[L.RC_LOOP_BOUND_HITS] = st[ST_LOOP_BOUND_HITS]
            turns += st[ST_TURNS]
            for o in range(L.N_SPIN_OUTCOMES):
                row[L.RC_OUTCOME + o] = g["outcomes"][o]
            row[L.RC_LEAD_CHANGES] = st[ST_LEAD_CHANGES]
            row[L.RC_WINNER_MAX_DEFICIT] = g["deficit"][w] if w >= 0 else -1
            row[L.RC_MAX_HAND] = st[ST_MAX_HAND]
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
