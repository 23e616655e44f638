"""The round and the match: a round from the shuffle to its end, scoring and the compiled entry point
(docs/rules.md §1.2, §1.9, §1.12, §2.4.8); the output rows are :mod:`.output`'s.

``run_games`` is the compiled entry point, playing on a game record made by :func:`new_game`;
``unosim.play.simulate.run_compiled`` validates and calls them.
The turns themselves are :mod:`.turn`'s; a lookahead seat's search (:mod:`.lookahead`) runs between them.
"""


import numpy as np

from unosim.engine.compiler.jit import njit
from unosim.game import protocol as L

from ..features import HAS_LOOKAHEAD
from ..policies.card_terms import score_tables
from ..policies.dispatch import check_lineup
from ..record.quality import check_standings_out_of_loop
from ..record.rng import DECK_STREAM, below, seed_streams
from ..record.state import (
    GAME,
    KIND,
    KO_POINTS,
    LOOKAHEAD,
    SE_ACTIVE,
    ST_DEALER,
    ST_DIR,
    ST_END,
    ST_ENDED,
    ST_EV_CAP,
    ST_EV_LEN,
    ST_FIRST_SEAT,
    ST_KNOCKOUTS,
    ST_LA_SEARCH,
    ST_N,
    ST_TRACE,
    ST_TURNS,
    ST_UNO_CHECKS,
    ST_WINNER,
    TRACE_CAPACITY,
    emit,
    points_of,
)
from . import lookahead
from .effects import checkpoint
from .output import hand_points, write_match, write_round, write_seats
from .turn import deal, first_card, reset_round, turn_loop


@njit(inline='always')
def play_round(g, deck, order, opening, orow, deck_counts, work_block):
    """One round from the shuffle to the end (protocol §3); the outcome is left in st and seat."""
    st = g["st"]
    reset_round(g)
    deal(g, deck, order, opening, orow)
    f = (st[ST_DEALER] + 1) % st[ST_N]
    cur = first_card(g)
    if st[ST_ENDED]:
        st[ST_FIRST_SEAT] = f
        check_standings_out_of_loop(g)
        return
    st[ST_FIRST_SEAT] = cur
    emit(g, L.EV_FIRST_SEAT, cur, st[ST_DIR], 0)
    checkpoint(g, f)
    check_standings_out_of_loop(g)
    if st[ST_ENDED]:
        return   # UNO penalties at the first checkpoint knocked out all but one seat (tiny mercy_limit)
    while True:
        cur = turn_loop(g, cur, deck_counts)
        if not HAS_LOOKAHEAD or cur < 0:
            return
        lookahead.search(g, cur, deck_counts, work_block)   # paused before a lookahead seat's turn: its search


@njit
def round_points(g):
    """§1.12 / §2.4.8: the winner scores the active opponents' hands plus KO_POINTS per knocked-out
    seat; 0 without a winner."""
    st = g["st"]
    hands = g["hands"]
    hlen = g["hlen"]
    w = st[ST_WINNER]
    if w < 0:
        return 0
    points = KO_POINTS * st[ST_KNOCKOUTS]
    for s in range(st[ST_N]):
        if s != w:
            for i in range(hlen[s]):
                points += points_of(g, hands[s, i])
    return points


@njit
def lowest_winners(g):
    """``lowest`` mode after a won round: every loser adds its hand's points (KO_POINTS when knocked
    out); once a total reaches the target, the mask of the seats with the lowest total, else 0."""
    st = g["st"]
    totals = g["totals"]
    n = st[ST_N]
    for s in range(n):
        if s != st[ST_WINNER]:
            totals[s] += hand_points(g, s) if g["seat"][s, SE_ACTIVE] else KO_POINTS
    reached = False
    for s in range(n):
        if totals[s] >= g["ir"][L.IR_TARGET]:
            reached = True
    if not reached:
        return 0
    low = totals[0]
    for s in range(1, n):
        low = min(low, totals[s])
    mask = 0
    for s in range(n):
        if totals[s] == low:
            mask |= 1 << s
    return mask


@njit
def match_result(g, points):
    """After a round worth ``points``: (MATCH_END_*, winners mask) when the match is decided, else
    (MATCH_END_TRUNCATED, 0) and it goes on (§1.12 match modes)."""
    ir = g["ir"]
    mode = ir[L.IR_MATCH_MODE]
    w = g["st"][ST_WINNER]
    if mode == L.MODE_SINGLE_ROUND:
        if w >= 0:
            return L.MATCH_END_WON, 1 << w
        return L.MATCH_END_NO_WINNER, 0
    if w < 0:
        return L.MATCH_END_TRUNCATED, 0
    if mode == L.MODE_POINTS:
        g["totals"][w] += points
        if g["totals"][w] >= ir[L.IR_TARGET]:
            return L.MATCH_END_WON, 1 << w
        return L.MATCH_END_TRUNCATED, 0
    mask = lowest_winners(g)
    return (L.MATCH_END_WON if mask else L.MATCH_END_TRUNCATED), mask


@njit
def rounds_per_match(ir):
    """The most rounds a match can have (a match_mode other than single_round stops at max_rounds)."""
    return 1 if ir[L.IR_MATCH_MODE] == L.MODE_SINGLE_ROUND else ir[L.IR_MAX_ROUNDS]


@njit(inline='always')
def play_match(g, deck, seed, game, order, rounds, seats, opening, r, mrow, deck_counts, work_block):
    """Match ``game`` (its rounds written from row r on; its row into mrow); returns (next free round
    row, turns played)."""
    st = g["st"]
    ir = g["ir"]
    n = ir[L.IR_PLAYERS]
    seed_streams(g, seed, game)
    g["totals"][:] = 0
    first_dealer = ir[L.IR_FIRST_DEALER]
    if first_dealer < 0:
        first_dealer = below(g, DECK_STREAM, n)
    match_end, winners_mask = L.MATCH_END_TRUNCATED, 0
    turns = 0
    n_rounds = 0
    for rnd in range(rounds_per_match(ir)):
        st[ST_DEALER] = (first_dealer + rnd) % n
        emit(g, L.EV_ROUND_START, st[ST_DEALER], rnd, game)
        play_round(g, deck, order if rnd == 0 else order[:0], opening, (r + rnd) * n, deck_counts, work_block)
        points = round_points(g)
        emit(g, L.EV_ROUND_END, st[ST_WINNER], st[ST_END], points)
        write_round(g, rounds[r + rnd], game, rnd, points)
        write_seats(g, seats, (r + rnd) * n)
        turns += st[ST_TURNS]
        n_rounds += 1
        match_end, winners_mask = match_result(g, points)
        if match_end != L.MATCH_END_TRUNCATED:
            break
    write_match(g, mrow, game, n_rounds, first_dealer, winners_mask, match_end)
    return r + n_rounds, turns


@njit
def run_games(g, deck, seed, first_game, n_games, order, rounds, seats, opening, matches_out, first_row, turn_budget):
    """Play matches ``first_game .. first_game + n_games - 1`` into the output buffers.

    Stops early, before a match, when the round buffer could not hold another full match, or when the
    matches played so far took more than ``turn_budget`` turns (so the caller regains control, and
    Ctrl-C is seen, at short intervals); the caller then continues with fresh buffers. Match g depends
    only on (seed, g), so where the calls are split never changes a result.

    Parameters
    ----------
    g : numpy.void
        The game record (``state.new_game(...)[0]``): compiled rules, lineup, scratch space and the
        trace buffer; its ``st[ST_VIOLATIONS]`` counts failed audits (audit mode).
    deck : int64[m]
        The variant's card ids, ascending (``RuleSet.compile``).
    seed : int
        The study seed; match g's streams depend only on (seed, g) (protocol §1).
    first_game, n_games : int
        The matches to play.
    order : int64[m] or int64[0]
        A fixed draw pile for the first round of every match (last element = top), or empty to shuffle.
    rounds : int64[R, protocol.RC_SIZE]
        Round table rows, written from row ``first_row``.
    seats : int32[R * players, protocol.SC_SIZE]
        Seat table rows, row ``round_row * players + seat``.
    opening : int8[R * players, protocol.N_OPENING]
        Opening-hand class counts, added to (the caller zeroes it).
    matches_out : int64[M, protocol.MC_SIZE]
        Match table rows, row ``first_row + game - first_game``.
    first_row : int
        The first row written, of the round and the match table alike: 0 for fresh tables, or the
        games done so far when single-round games fill one set of tables in several calls (the tables
        are column-major, ``protocol.output_buffers``, so a slice of their rows would be another array
        type, compiled again).
    turn_budget : int
        Turns after which no further match is started.

    Returns
    -------
    (int, int, int)
        Matches completed, round rows written, trace events emitted (events beyond the trace buffer's
        capacity are counted but not stored).

    Raises
    ------
    ValueError
        When a seat's policy id is not a built-in one (``policy.check_lineup``).
    """
    st = g["st"]
    ir = g["ir"]
    check_lineup(g)
    max_rounds = rounds_per_match(ir)
    st[ST_EV_LEN] = 0
    deck_counts = np.zeros(KIND.shape[0], np.int64)
    for c in deck:
        deck_counts[c] += 1
    # the lookahead searches' worlds, allocated once per call (a record holds the 32 MB trace buffer):
    # the one rollouts play in and the one they start from
    work_block = np.zeros(lookahead.WORK_RECORDS if HAS_LOOKAHEAD and st[ST_LA_SEARCH] else 0, lookahead.WORLD)
    r = first_row
    turns = 0
    for gi in range(n_games):
        if rounds.shape[0] - r < max_rounds or turns > turn_budget:
            return gi, r - first_row, st[ST_EV_LEN]
        r, match_turns = play_match(g, deck, seed, first_game + gi, order, rounds, seats, opening, r,
                                    matches_out[first_row + gi], deck_counts, work_block)
        turns += match_turns
    return n_games, r - first_row, st[ST_EV_LEN]


def new_game(ir, fr, pol, pp, trace: bool = False):
    """A one-element array holding a zeroed game record with the compiled rules and the lineup.

    Keep the array alive while its record ``[0]`` is used: a record (and views of its fields) does not
    own its memory. Traced or not, a game has the one record layout (numba compiles per layout, so a
    replay needs no second compile): its trace buffer of TRACE_CAPACITY events (32 MB) is allocated
    zeroed by the system, and memory an untraced game never writes is never backed by pages.

    Parameters
    ----------
    ir : int64[protocol.IR_SIZE]
        Compiled integer rules (``RuleSet.compile``); ``ir[IR_PLAYERS]`` is the number of seats n.
    fr : float64[protocol.FR_SIZE]
        Compiled float rules.
    pol : int64[n]
        Policy id per seat (``RANDOM``, ``GREEDY_POINTS``, ``KEEP_WILDS``, ``WEIGHTED``, ``LOOKAHEAD``);
        the kernel raises on others.
    pp : float64[n, N_POLICY_PARAMS]
        Policy parameters per seat (``PP_*`` columns).
    trace : bool
        Record the game's events into the record's trace buffer.

    Returns
    -------
    numpy.ndarray
        Shape (1,), dtype ``state.game_dtype()``.
    """
    block = np.zeros(1, GAME)
    g = block[0]
    g["st"][ST_EV_CAP] = TRACE_CAPACITY
    g["ir"][:] = ir
    g["fr"][:] = fr
    g["pol"][:len(pol)] = pol
    g["pp"][:len(pol)] = pp
    score_tables(g, len(pol))
    g["st"][ST_N] = ir[L.IR_PLAYERS]
    g["st"][ST_TRACE] = 1 if trace else 0
    n = ir[L.IR_PLAYERS]
    forgetful = (fr[L.FR_P_FORGET_UNO:L.FR_P_FORGET_UNO + n] > 0).any()
    g["st"][ST_UNO_CHECKS] = 1 if trace or forgetful else 0
    g["st"][ST_LA_SEARCH] = 1 if (np.asarray(pol) == LOOKAHEAD).any() else 0
    return block
