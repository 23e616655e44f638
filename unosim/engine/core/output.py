"""The output rows of a round, its seats and a match (``protocol.RC_*``, ``SC_*``, ``MC_*`` columns): every
column is written (the tables are allocated empty): the wings' columns, after the core's, are zeroed and a
wing compiled in writes its own counters (:mod:`.hooks`)."""

from unosim.engine.compiler.jit import njit
from unosim.game import protocol as L

from ..record.state import (
    SE_ACTIVE,
    SE_DRAWN,
    SE_KO_TURN,
    SE_PLAYED,
    ST_DEALER,
    ST_DRAWS,
    ST_END,
    ST_FIRST_SEAT,
    ST_KNOCKOUTS,
    ST_LARGEST,
    ST_LEAD_CHANGES,
    ST_LOOP_BOUND_HITS,
    ST_MAX_HAND,
    ST_N,
    ST_PLAYS,
    ST_RESHUFFLES,
    ST_TURNS,
    ST_WINNER,
    emit,
    points_of,
)
from . import hooks


@njit
def write_round(g, row, game, rnd, points):
    """The round's row of the round table (``protocol.RC_*`` columns)."""
    st = g["st"]
    w = st[ST_WINNER]
    row[L.RC_GAME] = game
    row[L.RC_ROUND] = rnd
    row[L.RC_DEALER] = st[ST_DEALER]
    row[L.RC_FIRST_SEAT] = st[ST_FIRST_SEAT]
    row[L.RC_WINNER] = w
    row[L.RC_END] = st[ST_END]
    row[L.RC_TURNS] = st[ST_TURNS]
    row[L.RC_PLAYS] = st[ST_PLAYS]
    row[L.RC_DRAWS] = st[ST_DRAWS]
    row[L.RC_RESHUFFLES] = st[ST_RESHUFFLES]
    row[L.RC_POINTS] = points
    row[L.RC_KNOCKOUTS] = st[ST_KNOCKOUTS]
    row[L.RC_LARGEST_STACK] = st[ST_LARGEST]
    row[L.RC_LOOP_BOUND_HITS] = st[ST_LOOP_BOUND_HITS]
    row[L.RC_LEAD_CHANGES] = st[ST_LEAD_CHANGES]
    row[L.RC_WINNER_MAX_DEFICIT] = g["deficit"][w] if w >= 0 else -1
    row[L.RC_MAX_HAND] = st[ST_MAX_HAND]
    for k in range(L.RC_WINGS, L.RC_SIZE):
        row[k] = 0
    hooks.write(g, row)


@njit
def hand_points(g, s):
    hands = g["hands"]
    total = 0
    for i in range(g["hlen"][s]):
        total += points_of(g, hands[s, i])
    return total


@njit
def write_seats(g, seats, first):
    """The round's rows of the seat table (``protocol.SC_*`` columns), seats[first + seat]."""
    st = g["st"]
    seat = g["seat"]
    for s in range(st[ST_N]):
        srow = seats[first + s]
        srow[L.SC_WON] = 1 if s == st[ST_WINNER] else 0
        srow[L.SC_CARDS_LEFT] = g["hlen"][s]
        srow[L.SC_POINTS_LEFT] = hand_points(g, s)
        srow[L.SC_DRAWN] = seat[s, SE_DRAWN]
        srow[L.SC_PLAYED] = seat[s, SE_PLAYED]
        srow[L.SC_KNOCKED_OUT] = 1 - seat[s, SE_ACTIVE]
        srow[L.SC_KNOCKOUT_TURN] = seat[s, SE_KO_TURN]
        for k in range(L.SC_WINGS, L.SC_SIZE):
            srow[k] = 0
        hooks.write_seat(g, srow, s)


@njit
def write_match(g, mrow, game, n_rounds, first_dealer, winners_mask, match_end):
    """The match's row of the match table (``protocol.MC_*``) and its MATCH_END event."""
    n_winners = 0
    winner = -1
    for s in range(g["st"][ST_N] - 1, -1, -1):
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
