"""The turn and the turn loop: legal plays, a turn, the first card, jump-ins, the deal, and the loop
with its stalemate and turn cap (docs/rules.md §1.2-§1.6, §1.9, §2.4.2-§2.4.3, §4 jump_in).

:mod:`.round` plays rounds and matches through :func:`turn_loop`; :mod:`.lookahead`'s rollouts run
the same loop, which is why it lives apart from the round (the search sits between the two).
"""


import numpy as np

from unosim.engine.compiler.jit import njit
from unosim.game import custom_cards as CC
from unosim.game import protocol as L

from ..features import HAS_CARDS, HAS_JUMP_IN, HAS_LOOKAHEAD, HAS_MERCY
from ..policies.dispatch import choose_colour, choose_play, jumps_in, plays_drawn
from ..record.belief import drew_at_turn
from ..record.legality import LEGAL, LEGAL_WD4, SAME_COLOUR, play_flags, playable, restricted
from ..record.piles import draw_n, draw_one
from ..record.quality import check_standings, check_standings_out_of_loop
from ..record.rng import DECK_STREAM, below, shuffle
from ..record.state import (
    ASIDE,
    COLOUR,
    DISC,
    DRAW,
    DRAW_VALUE,
    HAND_CLASS,
    ID_CUSTOM0,
    K_REVERSE,
    K_SKIP,
    KIND,
    LOOKAHEAD,
    NO_COLOUR,
    SE_ACTIVE,
    SE_DRAWN,
    SE_KO_TURN,
    SE_PLAYED,
    SE_UNO_DONE,
    ST_COLOUR,
    ST_DEALER,
    ST_DIR,
    ST_DRAWS,
    ST_END,
    ST_ENDED,
    ST_IDLE,
    ST_KNOCKOUTS,
    ST_KO_SEAT,
    ST_LA_READY,
    ST_LA_SEARCH,
    ST_LARGEST,
    ST_LAST_PLAYER,
    ST_LEAD_CHANGES,
    ST_LEADER,
    ST_LOOP_BOUND_HITS,
    ST_MAX_HAND,
    ST_MOVES,
    ST_N,
    ST_N_ACTIVE,
    ST_P,
    ST_PLAYED,
    ST_PLAYS,
    ST_RESHUFFLES,
    ST_TOP,
    ST_TURNS,
    ST_WINNER,
    clear_stack,
    emit,
    next_seat,
    recount_discards,
    recount_held,
    step,
)
from . import hooks
from .audit import audit
from .effects import after_wing, checkpoint, declared_first_card, play_card, skip_seat

# the face a card id shows: a jump-in needs the face of T, whatever its back (an UNO Flip pairing's copies)
BASE_FACE = np.asarray(CC.ALL_BASE_FACE)



# inline='always' (numba-IR inlining) on the small per-turn helpers: left as calls, splitting the turn
# into them cost throughput (docs/results/code_choices.json)
@njit(inline='always')
def legal_plays(g, p, legal):
    """legal[:nleg] = p's legal plays in hand order (§1.4 and the WD4 restriction of §1.8); returns
    (nleg, hand index of the first illegal WD4 that could be bluffed, or -1)."""
    hands = g["hands"]
    # one pass in hand order, one table byte per card (legality.PLAY_FLAGS); WD4s are dropped afterwards
    # if the hand holds the colour in play (§1.8). Branch-free: whether a card is legal is a coin flip to
    # the branch predictor, so every hand index is written and only the legal ones are kept.
    flags = play_flags(g)
    nleg = 0
    seen = 0
    for i in range(g["hlen"][p]):
        f = int(flags[hands[p, i]])
        legal[nleg] = i
        nleg += f & LEGAL
        seen |= f
    has_wd4 = (seen & LEGAL_WD4) != 0
    has_colour = (seen & SAME_COLOUR) != 0
    bluff_index = -1
    if has_wd4 and has_colour:
        kept = 0
        for j in range(nleg):
            i = legal[j]
            if restricted(g, hands[p, i]):
                if bluff_index < 0:
                    bluff_index = i
            else:
                legal[kept] = i
                kept += 1
        nleg = kept
    return nleg, bluff_index


@njit(inline='always')
def draw_turn(g, p):
    """p draws one card (draw_until_playable: until a legal card is drawn or the draw fails); a legal
    last drawn card is played if p's policy wants it (force_play_drawn: it must). Returns the next seat
    (-1 when the round ended)."""
    ir = g["ir"]
    while draw_one(g, p):   # terminates: each pass moves a card from the piles to p (none come back)
        last = g["hlen"][p] - 1
        if playable(g, p, last):
            if ir[L.IR_FORCE_PLAY_DRAWN] or plays_drawn(g, p, last):
                return play_card(g, p, last)
            break
        if not ir[L.IR_DRAW_UNTIL_PLAYABLE]:
            break
    return next_seat(g, p)


# take_turn, play_round and play_match are inlined into their one caller each (turn_loop, play_match,
# run_games): numba compiles every function on its own with the code of all it calls linked in, so a
# chain of single-call functions made LLVM optimise and emit the whole engine once per link (inlined,
# the classic build compiled faster: docs/results/code_choices.json; the turn loop left a call for the
# search)
@njit(inline='always')
def take_turn(g, p):
    """TURN(p) of §1.5 / §2.4.3; returns the next seat (-1 when the round ended)."""
    st = g["st"]
    hooks.turn_passes_to(g, p)   # a Dumb Fu pose (minions)
    if st[ST_ENDED] or not g["seat"][p, SE_ACTIVE]:   # the pose penalty knocked p out (mercy rule)
        return next_seat(g, p)
    r = hooks.replaces_turn(g, p)   # §1.5 step 2: the designated spinner spins instead of its turn
    if r != hooks.NOT_MINE:
        return r
    i = hooks.respond(g, p)   # a response turn to a pending penalty (stacking)
    if i >= 0:
        return play_card(g, p, i)
    if i == hooks.ACCEPTED:
        return next_seat(g, p)
    legal = g["legal"]
    nleg, bluff_index = legal_plays(g, p, legal)
    choice = choose_play(g, p, legal, nleg, bluff_index)
    if choice >= 0:
        return play_card(g, p, choice)
    if HAS_LOOKAHEAD and st[ST_LA_SEARCH]:   # what every seat saw: p drew at its turn (belief.py)
        drew_at_turn(g, p, play_flags(g), LEGAL)
    return draw_turn(g, p)


@njit
def turn_up(g, f):
    """§1.9: turn up T (``FIRST_CARD``); a WD4 goes back at index ``deck.below(m + 1)`` of the m-card
    draw pile (``RETURN``) and the next card is turned up. After FIRST_CARD_MAX_RETURNS returns (never
    seen in practice) the WD4 stays as T and the round ends truncated before its first turn. Returns T."""
    st = g["st"]
    pile = g["pile"]
    plen = g["plen"]
    returns = 0
    while True:   # bounded: at most FIRST_CARD_MAX_RETURNS WD4s go back
        plen[DRAW] -= 1
        c = pile[DRAW, plen[DRAW]]
        emit(g, L.EV_FIRST_CARD, f, c, 0)
        if not restricted(g, c):
            break
        if returns == L.FIRST_CARD_MAX_RETURNS:
            st[ST_LOOP_BOUND_HITS] += 1
            st[ST_ENDED] = 1
            st[ST_END] = L.END_TRUNCATED
            break
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
    recount_discards(g)
    st[ST_TOP] = c
    st[ST_COLOUR] = COLOUR[c]
    return c


@njit
def first_card_effect(g, f, c):
    """§1.9: the effect of the first card c for the first player f; returns the seat of the first turn."""
    st = g["st"]
    k = KIND[c]
    if k == K_SKIP:
        skip_seat(g, f)
        return next_seat(g, f)
    if k == K_REVERSE:
        st[ST_DIR] = -1
        return st[ST_DEALER]
    if DRAW_VALUE[c] > 0 and COLOUR[c] != NO_COLOUR:   # a coloured draw card (Draw Two, UNO Flip's Draw One)
        draw_n(g, f, DRAW_VALUE[c])
        skip_seat(g, f)
        return next_seat(g, f)
    if COLOUR[c] == NO_COLOUR:
        st[ST_COLOUR] = choose_colour(g, f)
        emit(g, L.EV_COLOUR, f, st[ST_COLOUR], 0)
    if HAS_CARDS and c >= ID_CUSTOM0:   # a declared card (docs/rules.md §2.7)
        return declared_first_card(g, f, c)
    # a wing's first card: spin_first_card_spins (§2.3.6), a blank's effect (§2.1.3)
    r = after_wing(g, hooks.on_first_card(g, f, c))
    if r != hooks.NOT_MINE:
        return r
    return f


@njit
def first_card(g):
    """§1.9 / §2.4.2: turn up T and apply its first-card effect; returns the seat of the first turn."""
    st = g["st"]
    f = (st[ST_DEALER] + 1) % st[ST_N]
    r = hooks.turn_up_first(g, f)   # No Mercy turns up a NUMBER, without effect (§2.4.2)
    if r != hooks.NOT_MINE:
        return r
    c = turn_up(g, f)
    if st[ST_ENDED]:
        return f
    return first_card_effect(g, f, c)


@njit
def find_jumper(g, last):
    """The first active seat other than ``last``, from next(last) in direction d, holding a card
    identical to T whose policy wants to jump in with it: (seat, first such hand index), or (-1, -1).

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
                if BASE_FACE[hands[s, i]] == BASE_FACE[st[ST_TOP]]:
                    if jumps_in(g, s, i):
                        return s, i
                    break
    return -1, -1


@njit
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
        hooks.on_jump_in(g)   # it cancels a pending spin (§4)
        st[ST_PLAYED] = 0
        st[ST_KO_SEAT] = -1
        cur = play_card(g, jumper, index)
        if not st[ST_ENDED]:
            checkpoint(g, jumper)
        check_standings_out_of_loop(g)
        if st[ST_ENDED]:
            return cur
        if HAS_MERCY and st[ST_KO_SEAT] >= 0:
            cur = next_seat(g, st[ST_KO_SEAT])
    return cur


@njit
def reset_round(g):
    """Zero the round's counters and seats (every seat active, no Dumb Fu window, no stack)."""
    st = g["st"]
    seat = g["seat"]
    for key in (ST_TURNS, ST_PLAYS, ST_DRAWS, ST_RESHUFFLES, ST_MOVES, ST_ENDED, ST_LARGEST,
                ST_KNOCKOUTS, ST_PLAYED, ST_LOOP_BOUND_HITS,
                ST_LEAD_CHANGES, ST_IDLE, ST_LA_READY):
        st[key] = 0
    st[ST_LEADER] = -1
    st[ST_MAX_HAND] = g["ir"][L.IR_HAND_SIZE]   # the opening deal: every hand gets hand_size cards
    clear_stack(st)
    g["deficit"][:] = 0
    g["out_pad"][:] = 0
    hooks.reset(g)
    st[ST_WINNER] = -1
    st[ST_END] = -1
    st[ST_DIR] = 1
    st[ST_N_ACTIVE] = st[ST_N]
    for s in range(st[ST_N]):
        g["hlen"][s] = 0
        seat[s, SE_DRAWN] = 0
        seat[s, SE_PLAYED] = 0
        seat[s, SE_UNO_DONE] = 0
        seat[s, SE_ACTIVE] = 1
        seat[s, SE_KO_TURN] = 0


@njit
def deal(g, deck, order, opening, orow):
    """Shuffle (or lay out ``order``, when it holds a whole deck), then deal hand_size rounds of one
    card from the dealer's left; count the opening hands' card classes into opening[orow + seat]."""
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    pile = g["pile"]
    plen = g["plen"]
    n = st[ST_N]
    m = deck.shape[0]
    # element by element: a slice assignment compiles numba's shape-mismatch error message, a dozen
    # string functions (seconds of every build's compile: docs/results/code_choices.json)
    if order.shape[0] == m:
        for i in range(m):
            pile[DRAW, i] = order[i]
    else:
        for i in range(m):
            pile[DRAW, i] = deck[i]
        shuffle(g, pile[DRAW], m, DECK_STREAM)
    plen[DRAW] = m
    plen[DISC] = 0
    plen[ASIDE] = 0
    recount_discards(g)
    for _ in range(g["ir"][L.IR_HAND_SIZE]):
        s = st[ST_DEALER]
        for _ in range(n):
            s = step(s, 1, n)
            plen[DRAW] -= 1
            hands[s, hlen[s]] = pile[DRAW, plen[DRAW]]
            hlen[s] += 1
    for s in range(n):
        recount_held(g, s)
        for i in range(hlen[s]):
            opening[orow + s, HAND_CLASS[hands[s, i]]] += 1   # a declared card: its slot's class (§2.7)


@njit
def turn_loop(g, cur, deck_counts):
    """Turns from seat ``cur`` until the round ends: won, knock-out, stalemate or turn cap (§1.5, §1.6,
    §4 jump_in); each turn is followed by its checkpoint and a standings check (docs/rules.md §1.10).

    Returns -1 when the round ended, or pauses before the turn of a lookahead seat whose search has
    not run yet and returns that seat (``play_round`` runs the search and calls again; the idle-turn
    count survives in ``st[ST_IDLE]``, engine/core/lookahead.py)."""
    st = g["st"]
    ir = g["ir"]
    idle = st[ST_IDLE]
    while True:   # terminates: every pass counts a turn, and the turn cap is checked first
        if st[ST_TURNS] >= ir[L.IR_MAX_TURNS]:
            st[ST_ENDED] = 1
            st[ST_END] = L.END_TRUNCATED
            return -1
        if HAS_LOOKAHEAD and st[ST_LA_SEARCH] and not st[ST_LA_READY] and g["pol"][cur] == LOOKAHEAD:
            st[ST_IDLE] = idle
            return cur
        st[ST_TURNS] += 1
        p = cur
        emit(g, L.EV_TURN, p, st[ST_TURNS], 0)
        moves_before = st[ST_MOVES]
        st[ST_PLAYED] = 0
        st[ST_KO_SEAT] = -1
        cur = take_turn(g, p)
        st[ST_LA_READY] = 0   # a search prepares one turn only
        if ir[L.IR_AUDIT]:
            audit(g, deck_counts, st[ST_ENDED] != 0)
        if not st[ST_ENDED]:
            checkpoint(g, p)
        check_standings(g)   # one inlined copy in the hot loop: after the checkpoint or at the end
        if st[ST_ENDED]:
            return -1
        if HAS_MERCY and st[ST_KO_SEAT] >= 0:   # §2.4.6: play goes on from the knocked-out seat
            cur = next_seat(g, st[ST_KO_SEAT])
        if HAS_JUMP_IN and ir[L.IR_JUMP_IN]:
            cur = jump_ins(g, cur)
            if ir[L.IR_AUDIT]:
                audit(g, deck_counts, st[ST_ENDED] != 0)
            if st[ST_ENDED]:
                return -1
        if st[ST_MOVES] == moves_before:
            idle += 1
            if idle >= st[ST_N_ACTIVE]:   # §1.6: a full lap in which nothing moved
                st[ST_ENDED] = 1
                st[ST_END] = L.END_STALEMATE
                return -1
        else:
            idle = 0
