"""The game record: its layout, creation, and the small read-only verbs every rule needs.

One numpy structured record ``g`` per game holds every array the verbs share (no per-call
refcounting in numba); fields are read with item syntax (``g["st"]``), which also runs under
``NUMBA_DISABLE_JIT=1``:

* ``st`` int64[ST_SIZE]: scalar state, indexed by the ``ST_*`` names (``protocol.STATE``);
* ``hands`` int64[MAX_PLAYERS, MAX_CARDS], ``hlen``: ordered hands;
* ``pile`` int64[3, MAX_CARDS], ``plen``: rows ``DRAW`` (last = top), ``DISC`` (last = ``T``) and
  ``ASIDE`` (knocked-out hands);
* ``seat`` int64[MAX_PLAYERS, SE_SIZE]: per-seat counters and flags (``SE_*``);
* ``rng`` uint64[8]: the ``deck`` and ``play`` streams; ``ir``/``fr``: compiled rules
  (``protocol.IR_*``/``FR_*``); ``pol``/``pp``: policy id and parameters per seat; ``card_floor``
  float64[MAX_PLAYERS]: per seat, a bound below every card score of its weights
  (``card_terms.card_floor``, set with ``pp``); ``card_early`` float64[MAX_PLAYERS, N_IDS]:
  per seat, each card's first four score terms (``card_terms.card_early``, set with ``pp``);
  ``card_late`` float64[2, N_IDS]: each card's attack and reverse features (``card_terms.score_tables``:
  a declared card's derived from its effects);
* ``deficit`` int64[MAX_PLAYERS]: per seat, the largest (own hand - smallest active hand) seen at a
  standings check of the round (:mod:`.quality`; contiguous so that the check stays cheap);
* ``known`` int16[MAX_PLAYERS, MAX_PLAYERS, N_IDS]: per lookahead seat, the cards it knows to
  be in each other hand (:mod:`.belief`, fed by :func:`emit` while ``st[ST_LA_SEARCH]`` is set);
  ``void`` int8[MAX_PLAYERS, N_IDS] and ``void_kept`` int64[MAX_PLAYERS]: per seat, the cards it
  was seen to lack when it drew without a legal card, and how many of its cards are known to lie
  outside them (:mod:`.belief`, same feed);
* ``discards`` int64[N_COLOURS + 1]: the discard pile's cards per colour (its wilds at ``NO_COLOUR``),
  kept up to date where a card reaches the pile (:func:`discarded`) or the pile is rebuilt
  (:func:`recount_discards`), so that the ``weighted`` policy's ``seen`` feature needs no recount;
* ``held`` int64[MAX_PLAYERS, N_COLOURS + 1]: per seat, its hand's cards per colour (wilds at
  ``NO_COLOUR``), kept up to date wherever a hand changes (the verbs of :mod:`.piles` and
  :mod:`..mechanics.spin`, the deal; :func:`recount_held` where hands are rebuilt) and audited, so that the
  ``weighted`` policy's colour features need no recount per decision;
* ``out_pad`` int64[MAX_PLAYERS]: 0 for an active seat, ``quality.OUT`` for a knocked-out one, so
  the standings check finds the smallest active hand without reading ``seat``;
* scratch buffers (``legal``, ``buf``, ``cand``, ``order``, ``mark`` …) and ``ev``, the
  trace buffer used when ``st[ST_TRACE]`` is set.

Card tables are constants frozen into the compiled code; rule switches are data in ``ir``/``fr``.
"""

import numpy as np

from unosim.engine.compiler.jit import njit
from unosim.game import cards as C
from unosim.game import custom_cards as CC
from unosim.game import protocol as L
from unosim.game.card_effects import CARD_ROW
from unosim.game.protocol import (  # noqa: F401 (the game record's layout, re-exported for the kernel modules)
    GREEDY_POINTS,
    KEEP_WILDS,
    LOOKAHEAD,
    N_POLICY_PARAMS,
    PP_BLUFF,
    PP_CHALLENGE,
    PP_DRAW,
    PP_KEEP_DRAWN,
    RANDOM,
    SE_ACTIVE,
    SE_DRAWN,
    SE_KO_TURN,
    SE_PLAYED,
    SE_SIZE,
    SE_UNO_DONE,
    ST_COLOUR,
    ST_DEALER,
    ST_DIR,
    ST_DRAWS,
    ST_END,
    ST_ENDED,
    ST_EV_CAP,
    ST_EV_LEN,
    ST_FIRST_SEAT,
    ST_IDLE,
    ST_K,
    ST_KNOCKOUTS,
    ST_KO_SEAT,
    ST_LA_CHOICE,
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
    ST_RESPONDER,
    ST_SIZE,
    ST_TOP,
    ST_TRACE,
    ST_TURNS,
    ST_UNO_CHECKS,
    ST_V,
    ST_VIOLATIONS,
    ST_WINNER,
    WEIGHTED,
)

from ..features import HAS_CARDS, HAS_LOOKAHEAD
from .belief import observe

# ---- card tables (constants, frozen into the compiled code) -----------------------------------------
# over every id, the declared cards' (docs/rules.md §2.7, custom_cards) included: their colour and kind
# are constants of their id; what a rule set declares for them is data (``ir[IR_CARDS]``, points_of …)
N_IDS = CC.N_ALL_IDS
ID_CUSTOM0 = CC.ID_CUSTOM0
COLOUR = np.asarray(CC.ALL_COLOUR)
KIND = np.asarray(CC.ALL_KIND)
NUMBER_OF = np.asarray(CC.ALL_NUMBER_OF)
POINTS = np.asarray(CC.ALL_POINTS)
HAND_CLASS = np.asarray(CC.ALL_HAND_CLASS)
NO_COLOUR = C.NO_COLOUR
N_COLOURS = C.NO_COLOUR   # the colours are 0 .. N_COLOURS-1; NO_COLOUR (a wild) comes right after
N_NUMBERS = 10            # NUMBER cards show 0 .. 9
K_NUMBER, K_SKIP, K_REVERSE, K_DRAW_TWO = C.NUMBER, C.SKIP, C.REVERSE, C.DRAW_TWO
K_SKIP_EVERYONE, K_WRD4 = C.SKIP_EVERYONE, C.WRD4
DRAW_VALUE = np.asarray(CC.ALL_DRAW_VALUE)
KO_POINTS = 250     # points for each knocked-out seat (docs/rules.md §2.4.8)
CHALLENGE_PENALTY = 2   # a lost Wild Draw Four challenge: the challenger draws 4 + 2 (docs/rules.md §1.8)
# what a wing's play hook answers besides a seat (engine/core/hooks.py): NOT_MINE, no wing owns
# the card (the core's own effect applies); SKIPS - v, seat v loses its turn (the core skips it: a pose
# event in minions, nothing if v was knocked out meanwhile) and the turn goes to next(v)
NOT_MINE = -2
SKIPS = -3
ACCEPTED = -1     # a response turn's answer: the seat accepted the pending penalty and drew it


MAXP = L.MAX_PLAYERS
MAXC = L.MAX_CARDS


# ---- state layout (declared in unosim.game.protocol: STATE, SEAT_STATE; re-exported for the kernels) ----
TRACE_CAPACITY = 1 << 20   # events one traced call can hold; larger runs are split by the caller

DRAW, DISC, ASIDE = 0, 1, 2   # rows of `pile` (ASIDE: knocked-out hands); lengths in plen


# ---- tracing ----------------------------------------------------------------------------------------
@njit
def emit(g, code, s, a, b):
    """Event (code, s, a, b) happened: recorded when the game is traced (not in a lookahead rollout),
    and observed by the lookahead seats."""
    st = g["st"]
    if st[ST_TRACE]:
        ev = g["ev"]
        k = st[ST_EV_LEN]
        if k < st[ST_EV_CAP]:
            ev[k, 0] = code
            ev[k, 1] = s
            ev[k, 2] = a
            ev[k, 3] = b
        st[ST_EV_LEN] = k + 1
    if HAS_LOOKAHEAD and st[ST_LA_SEARCH]:   # a lookahead seat observes the game (never in its own rollouts)
        observe(g, code, s, a, b)


@njit
def clear_stack(st):
    st[ST_P] = 0
    st[ST_V] = 0
    st[ST_K] = -1
    st[ST_RESPONDER] = -1



# ---- a card's declared values (docs/rules.md §2.7): data for a declared card ----------------------------
@njit(inline='always')
def draw_value_of(g, c):
    """c's draw value: the table's, or a declared card's row (pruned in a build without declared cards)."""
    if HAS_CARDS and c >= ID_CUSTOM0:
        return g["ir"][L.IR_CARDS + (c - ID_CUSTOM0) // 5 * CARD_ROW + 1]
    return DRAW_VALUE[c]


@njit(inline='always')
def points_of(g, c):
    """c's points when a round is scored: the table's, or a declared card's row."""
    if HAS_CARDS and c >= ID_CUSTOM0:
        return g["ir"][L.IR_CARDS + (c - ID_CUSTOM0) // 5 * CARD_ROW]
    return POINTS[c]


# ---- seats -----------------------------------------------------------------------------------------
@njit
def step(s, d, n):
    """The seat one place from s in direction d (no division: this runs several times a turn)."""
    t = s + d
    if t >= n:
        return t - n
    if t < 0:
        return t + n
    return t


@njit
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


# ---- the discard pile's colour counts (``discards``) -----------------------------------------------
@njit(inline='always')
def discarded(g, c):
    """Card c has just gone onto the discard pile."""
    g["discards"][COLOUR[c]] += 1


@njit
def count_colours(cards, m, out):
    """out[k] = the cards of colour k among cards[:m] (out[NO_COLOUR]: the wilds)."""
    out[:] = 0
    for i in range(m):
        out[COLOUR[cards[i]]] += 1


@njit
def recount_discards(g):
    """Count the discard pile afresh, after it was rebuilt (a deal empties it, the first card starts
    it, a reshuffle leaves T alone)."""
    count_colours(g["pile"][DISC], g["plen"][DISC], g["discards"])


@njit
def discards_agree(g):
    """Whether ``discards`` holds the discard pile's colour counts (an audited invariant)."""
    count = np.zeros(N_COLOURS + 1, np.int64)
    count_colours(g["pile"][DISC], g["plen"][DISC], count)
    return (count == g["discards"]).all()


# ---- each hand's colour counts (``held``) ------------------------------------------------------------
@njit
def recount_held(g, s):
    """Count seat s's hand afresh, after it was rebuilt (a deal, a redeal, hands passed on)."""
    count_colours(g["hands"][s], g["hlen"][s], g["held"][s])


@njit
def held_agree(g):
    """Whether ``held`` holds every seat's colour counts (an audited invariant)."""
    count = np.zeros(N_COLOURS + 1, np.int64)
    for s in range(g["st"][ST_N]):
        count_colours(g["hands"][s], g["hlen"][s], count)
        if not (count == g["held"][s]).all():
            return False
    return True


@njit
def holds_colour(g, p, colour, skip_index):
    hands = g["hands"]
    hlen = g["hlen"]
    for i in range(hlen[p]):
        if i != skip_index and COLOUR[hands[p, i]] == colour:
            return True
    return False


def game_dtype() -> np.dtype:
    """The game record: every array the verbs share, in one block (no per-call refcounting)."""
    return np.dtype([
        ("st", np.int64, (ST_SIZE,)), ("hands", np.int64, (MAXP, MAXC)), ("hlen", np.int64, (MAXP,)),
        ("pile", np.int64, (3, MAXC)), ("plen", np.int64, (3,)), ("seat", np.int64, (MAXP, SE_SIZE)),
        ("rng", np.uint64, (8,)), ("ir", np.int64, (L.IR_SIZE,)), ("fr", np.float64, (L.FR_SIZE,)),
        ("pol", np.int64, (MAXP,)), ("pp", np.float64, (MAXP, N_POLICY_PARAMS)), ("legal", np.int64, (MAXC,)),
        ("buf", np.int64, (MAXC,)), ("cand", np.int64, (MAXP,)),
        ("totals", np.int64, (MAXP,)),
        ("shown", np.int64, (MAXP, N_COLOURS)), ("scores", np.float64, (MAXC,)),
        # the wings' scratch arrays (protocol.MECHANISMS), where spin's sat before they were its own: every
        # field after them keeps the offset it had, so moving them to the wing changed no hot field's place
        *((name, np.dtype(dtype), shape) for name, dtype, shape in L.wing_arrays()),
        ("revealed", np.int64, (MAXP, MAXC)), ("n_revealed", np.int64, (MAXP,)),
        ("deficit", np.int64, (MAXP,)),
        ("out_pad", np.int64, (MAXP,)), ("discards", np.int64, (N_COLOURS + 1,)),
        ("held", np.int64, (MAXP, N_COLOURS + 1)), ("known", np.int16, (MAXP, MAXP, N_IDS)),
        ("belief_order", np.int64, (MAXP,)), ("void", np.int8, (MAXP, N_IDS)),
        ("void_kept", np.int64, (MAXP,)),
        # the per-seat score tables come after every other field but the trace: placed before them,
        # card_floor moved the fields the turn loop reads and cost colour_counter its gain (measured)
        ("card_floor", np.float64, (MAXP,)), ("card_early", np.float64, (MAXP, N_IDS)),
        ("card_late", np.float64, (2, N_IDS)),
        ("ev", np.int64, (TRACE_CAPACITY, 4)),
    ])


GAME = game_dtype()
