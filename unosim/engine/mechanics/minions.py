"""The Minions family's wing: Dumb Fu pose windows (docs/rules.md §2.2.2, §6 M1-M6).

A Dumb Fu played by p opens a window on t = next(p) (t is not skipped); the window counts the events
that pass the turn to t — its turns and its skips — and at the second one t holds the pose or breaks
it (with ``p_dumbfu_fail``), breaking it costs ``dumbfu_penalty`` cards. Scratch: ``SE_WINDOW`` per
seat (-1 closed, else events counted), the round's ``ST_DUMBFU`` → ``RC_DUMBFU_PENALTIES``.
"""

from unosim.engine.compiler.jit import njit
from unosim.game import cards as C
from unosim.game import protocol as L

from ..record.piles import draw_n
from ..record.rng import PLAY_STREAM, bernoulli
from ..record.state import KIND, NOT_MINE, emit, next_seat

K_DUMB_FU = C.DUMB_FU


@njit
def reset(g):
    g["st"][L.ST_DUMBFU] = 0
    for s in range(g["st"][L.ST_N]):
        g["seat"][s, L.SE_WINDOW] = -1


# inline='always': asked at every turn and skip, and outside minions it only reads the family (with the
# register-held shuffle, more classic throughput: docs/results/code_choices.json)
@njit(inline='always')
def turn_passes_to(g, s):
    """The turn passes to s (its turn or its skip): a pose event when s has a window open."""
    if g["ir"][L.IR_FAMILY] == L.FAMILY_MINIONS and g["seat"][s, L.SE_WINDOW] >= 0:
        advance_window(g, s)


@njit
def advance_window(g, s):
    """s's open Dumb Fu window counts one more event; at its 2nd, s poses, and fails with
    p_dumbfu_fail (then draws the penalty; §6 M6: the failure counts even when the piles run dry)."""
    seat = g["seat"]
    seat[s, L.SE_WINDOW] += 1
    if seat[s, L.SE_WINDOW] < 2:
        return
    seat[s, L.SE_WINDOW] = -1
    fail = bernoulli(g, PLAY_STREAM, g["fr"][L.FR_P_DUMBFU_FAIL])
    emit(g, L.EV_POSE, s, 1 if fail else 0, 0)
    if fail:
        g["st"][L.ST_DUMBFU] += 1
        draw_n(g, s, g["ir"][L.IR_DUMBFU_PENALTY])


@njit(inline='always')
def on_play(g, p, c):
    """A Dumb Fu played by p with cards left opens a window on next(p), who is not skipped (§6 M1)."""
    if KIND[c] != K_DUMB_FU:
        return NOT_MINE
    t = next_seat(g, p)
    g["seat"][t, L.SE_WINDOW] = 0
    emit(g, L.EV_DUMBFU, t, 0, 0)
    return t


@njit(inline='always')
def poses_now(g, p):
    """p's turn starts by closing its window (a draw from the play stream before any decision)."""
    return g["seat"][p, L.SE_WINDOW] == 1


@njit
def write(g, row):
    row[L.RC_DUMBFU_PENALTIES] = g["st"][L.ST_DUMBFU]
