"""One dispatch for every decision a seat's built-in policy makes (protocol §4-§6; docs/rules.md §5).

Each function below is one decision, asked of the policy id of the seat (``g["pol"]``); it branches
once on the id into :mod:`.random`, :mod:`.heuristic` or :mod:`.weighted` and RAISES ``ValueError`` for any
other id (``unosim.game.policies`` validates lineups, so only a direct kernel call can get there).
``check_lineup`` rejects such a lineup before the first game. Whatever a decision reads it computes
itself or receives as an argument (the candidate list, the legal cards, the discard order).

Adding a built-in policy: its name in ``unosim.game.protocol.POLICY_NAMES`` (which gives its id), its
registry entry in ``unosim.game.policies``, its module (like :mod:`.random`), one branch per decision
here, and its Python twin in ``unosim.reference.policies`` (the differential tests compare the two);
``CONTRIBUTING.md`` lists every file.

A ``lookahead`` seat (:mod:`..core.lookahead`) answers a play or stack decision with the choice its search
stored before the turn (``st[ST_LA_READY]``), and every other decision as its rollout preset
(:func:`acting_policy`); each of its play and stack answers is a ``LOOKAHEAD`` trace event.
"""

import numpy as np

from unosim.engine.compiler.jit import njit
from unosim.game import protocol as L

from ..features import HAS_LOOKAHEAD, HAS_WEIGHTED
from ..record.rng import PLAY_STREAM, bernoulli
from ..record.state import (
    GREEDY_POINTS,
    KEEP_WILDS,
    LOOKAHEAD,
    PP_KEEP_DRAWN,
    RANDOM,
    SE_ACTIVE,
    ST_DIR,
    ST_LA_CHOICE,
    ST_LA_READY,
    ST_N,
    WEIGHTED,
    emit,
    step,
)
from . import heuristic, random, weighted

UNKNOWN_POLICY = ("unknown policy id: the built-in ids are 0 (random), 1 (greedy_points), 2 (keep_wilds), "
                  "3 (weighted), 4 (lookahead)")
# lookahead's rollout presets as policy ids (its ``rollout`` parameter indexes this): a name that is no
# built-in policy is a ``weighted`` preset, whose weights the lookahead seat's vector carries
ROLLOUT_POLICY = np.asarray([L.POLICY_NAMES.index(name) if name in L.POLICY_NAMES else L.WEIGHTED
                             for name in L.ROLLOUT_PRESETS], np.int64)
NO_CHOICE = -2   # st[ST_LA_CHOICE] when no search ran (engine/core/lookahead.py)


@njit
def check_lineup(g):
    """Raise ValueError unless every seat's policy id is a built-in one this build compiles (called
    before any game; ``unosim.engine`` picks a build that holds the lineup's policies)."""
    pol = g["pol"]
    for s in range(g["st"][ST_N]):
        if not built_in(pol[s]):
            raise ValueError(UNKNOWN_POLICY)


@njit(inline='always')
def built_in(pid):
    """Whether policy id ``pid`` is compiled into this build."""
    return (pid == RANDOM or pid == GREEDY_POINTS or pid == KEEP_WILDS or (HAS_WEIGHTED and pid == WEIGHTED)
            or (HAS_LOOKAHEAD and pid == LOOKAHEAD))


@njit(inline='always')
def acting_policy(g, p):
    """The policy id that takes p's decisions: a lookahead seat's rollout preset, else p's own."""
    pid = g["pol"][p]
    if HAS_LOOKAHEAD and pid == LOOKAHEAD:
        return ROLLOUT_POLICY[np.int64(g["pp"][p, L.PP_ROLLOUT])]
    return pid


@njit
def searched(g, p, choice):
    """Lookahead seat p's answer ``choice`` (a hand index, -1 draw/accept): the LOOKAHEAD event says
    whether a search chose it (b = 1) or the rollout preset did (b = 0)."""
    st = g["st"]
    emit(g, L.EV_LOOKAHEAD, p, choice, 1 if st[ST_LA_READY] and st[ST_LA_CHOICE] != NO_CHOICE else 0)
    return choice


# inline='always' (numba-IR inlining) on the small per-turn helpers: left as calls, splitting the turn
# into them cost throughput (docs/results/code_choices.json)
@njit(inline='always')
def choose_play(g, p, legal, nleg, bluff_index):
    """Hand index p plays (from legal[:nleg] or the bluff ``bluff_index``), or -1 to draw; a hand
    without a legal card draws without asking (protocol §3)."""
    if nleg == 0:
        return -1
    pid = g["pol"][p]
    if HAS_LOOKAHEAD and pid == LOOKAHEAD:
        return searched(g, p, lookahead_play(g, p, legal, nleg, bluff_index))
    return play_as(g, p, pid, legal, nleg, bluff_index)


@njit
def lookahead_play(g, p, legal, nleg, bluff_index):
    """The stored choice of p's search, else its rollout preset's play."""
    st = g["st"]
    if st[ST_LA_READY] and st[ST_LA_CHOICE] != NO_CHOICE:
        return st[ST_LA_CHOICE]
    return play_as(g, p, acting_policy(g, p), legal, nleg, bluff_index)


@njit(inline='always')
def play_as(g, p, pid, legal, nleg, bluff_index):
    if pid == RANDOM:
        return random.play(g, p, legal, nleg, bluff_index)
    if pid == GREEDY_POINTS or pid == KEEP_WILDS:
        return heuristic.play(g, p, legal, nleg, pid == KEEP_WILDS)
    if HAS_WEIGHTED and pid == WEIGHTED:
        return weighted.play(g, p, legal, nleg, bluff_index)
    raise ValueError(UNKNOWN_POLICY)


@njit
def choose_stack(g, p, legal, ns):
    """Hand index (from legal[:ns]) p stacks on the pending penalty, or -1 to accept (protocol §5);
    the heuristics stack whenever they can, choosing as for a normal play."""
    if ns == 0:
        return -1
    pid = g["pol"][p]
    if HAS_LOOKAHEAD and pid == LOOKAHEAD:
        st = g["st"]
        if st[ST_LA_READY] and st[ST_LA_CHOICE] != NO_CHOICE:
            return searched(g, p, st[ST_LA_CHOICE])
        return searched(g, p, stack_as(g, p, acting_policy(g, p), legal, ns))
    return stack_as(g, p, pid, legal, ns)


@njit
def stack_as(g, p, pid, legal, ns):
    if pid == RANDOM:
        return random.stack(g, legal, ns)
    if pid == GREEDY_POINTS or pid == KEEP_WILDS:
        return heuristic.play(g, p, legal, ns, pid == KEEP_WILDS)
    if HAS_WEIGHTED and pid == WEIGHTED:
        return weighted.stack(g, p, legal, ns)
    raise ValueError(UNKNOWN_POLICY)


@njit
def plays_drawn(g, p, i):
    """Whether p plays the legal card it just drew (hand index i; not asked under force_play_drawn):
    every built-in keeps it with probability p_keep_drawn (a draw only when 0 < p < 1: at the default 0
    nothing is drawn), else random and the heuristics play it and weighted asks its scores."""
    pid = acting_policy(g, p)
    if not built_in(pid):
        raise ValueError(UNKNOWN_POLICY)
    if bernoulli(g, PLAY_STREAM, g["pp"][p, PP_KEEP_DRAWN]):
        return False
    if HAS_WEIGHTED and pid == WEIGHTED:
        return weighted.plays(g, p, i)
    return True


@njit
def jumps_in(g, s, i):
    """Whether s jumps in with hand index i, a card identical to T: random and the heuristics always
    do, weighted when its scores say so."""
    pid = acting_policy(g, s)
    if pid == RANDOM or pid == GREEDY_POINTS or pid == KEEP_WILDS:
        return True
    if HAS_WEIGHTED and pid == WEIGHTED:
        return weighted.plays(g, s, i)
    raise ValueError(UNKNOWN_POLICY)


@njit
def choose_colour(g, p):
    """The colour (0-3) p names for a wild, or as the victim of a Wild Color Roulette (a call: a wild is
    one play in twelve, and each of its four call sites inlined a copy of every policy's choice)."""
    pid = acting_policy(g, p)
    if pid == RANDOM:
        return random.colour(g)
    if pid == GREEDY_POINTS or pid == KEEP_WILDS:
        return heuristic.colour(g, p, pid == KEEP_WILDS)
    if HAS_WEIGHTED and pid == WEIGHTED:
        return weighted.colour(g, p)
    raise ValueError(UNKNOWN_POLICY)


@njit
def target_candidates(g, p, cand):
    """cand[:k] = the other active seats from next(p) in direction d; returns k."""
    seat = g["seat"]
    n = g["st"][ST_N]
    k = 0
    s = p
    for _ in range(n - 1):   # each other seat once, from next(p)
        s = step(s, g["st"][ST_DIR], n)
        if seat[s, SE_ACTIVE]:
            cand[k] = s
            k += 1
    return k


@njit
def choose_target(g, p):
    """The seat p swaps hands with (blank swap_hands, a 7 with seven_o)."""
    cand = g["cand"]
    k = target_candidates(g, p, cand)
    pid = acting_policy(g, p)
    if pid == RANDOM:
        return random.target(g, cand, k)
    if pid == GREEDY_POINTS or pid == KEEP_WILDS:
        return heuristic.target(g, cand, k)
    if HAS_WEIGHTED and pid == WEIGHTED:
        return weighted.target(g, p, cand, k)
    raise ValueError(UNKNOWN_POLICY)


@njit
def challenges(g, v):
    """Whether v challenges the Wild Draw Four just played on it: random and the heuristics with
    probability p_challenge, weighted by its scores."""
    pid = acting_policy(g, v)
    if pid == RANDOM or pid == GREEDY_POINTS or pid == KEEP_WILDS:
        return random.challenges(g, v)
    if HAS_WEIGHTED and pid == WEIGHTED:
        return weighted.challenges(g, v)
    raise ValueError(UNKNOWN_POLICY)


@njit
def almost_uno_discards(g, s, order):
    """ALMOST_UNO (s holds more than 2 cards): order[:m] = the hand indices s discards, in that order;
    returns m."""
    pid = acting_policy(g, s)
    if pid == RANDOM:
        return random.almost_uno(g, g["hlen"][s], order)
    if pid == GREEDY_POINTS or pid == KEEP_WILDS:
        return heuristic.almost_uno(g, s, order, pid == KEEP_WILDS)
    if HAS_WEIGHTED and pid == WEIGHTED:
        return weighted.almost_uno(g, s, order)
    raise ValueError(UNKNOWN_POLICY)


@njit
def choose_group(g, s, tally, points, groups, k):
    """DISCARD_NUMBER / DISCARD_COLOUR: the group (a number or a colour) s discards, among the k > 0
    groups it holds: tally[x] cards worth points[x] points in group x < groups."""
    pid = acting_policy(g, s)
    if pid == RANDOM:
        return random.group(g, tally, groups, k)
    if pid == GREEDY_POINTS or pid == KEEP_WILDS:
        return heuristic.group(tally, points, groups, pid == KEEP_WILDS)
    if HAS_WEIGHTED and pid == WEIGHTED:
        return weighted.group(g, s, tally, groups)
    raise ValueError(UNKNOWN_POLICY)


@njit
def order_discards(g, s, order, m):
    """The order in which s's wheel discards order[:m] (a group, or War's reveals) go down: random
    shuffles them, the heuristics and weighted keep the given order."""
    pid = acting_policy(g, s)
    if pid == RANDOM:
        random.discard_order(g, order, m)
    elif not built_in(pid):
        raise ValueError(UNKNOWN_POLICY)


@njit
def war_reveal(g, t, ties):
    """War: which (0-based, hand order) of its ``ties`` cards of its highest unrevealed number t
    reveals: random uniformly, the heuristics and weighted the first."""
    pid = acting_policy(g, t)
    if pid == RANDOM:
        return random.war_reveal(g, ties)
    if pid == GREEDY_POINTS or pid == KEEP_WILDS or (HAS_WEIGHTED and pid == WEIGHTED):
        return 0
    raise ValueError(UNKNOWN_POLICY)


@njit
def uno_spin_discard(g, w):
    """UNO_SPIN won by w (holding a card): the hand index it discards."""
    pid = acting_policy(g, w)
    if pid == RANDOM:
        return random.uno_spin_discard(g, g["hlen"][w])
    if pid == GREEDY_POINTS or pid == KEEP_WILDS:
        return heuristic.uno_spin_discard(g, w, pid == KEEP_WILDS)
    if HAS_WEIGHTED and pid == WEIGHTED:
        return weighted.uno_spin_discard(g, w)
    raise ValueError(UNKNOWN_POLICY)
