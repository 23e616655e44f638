"""The ``lookahead`` policy: determinized flat Monte Carlo search (the expert player).

At each of its play decisions (which legal card, or a voluntary draw) and stack decisions (which card
to stack, or accept), a lookahead seat ``p``:

1. lists its options (one per distinct legal card id: identical cards are one option; plus *draw*
   with ``voluntary_draw``, or *accept* facing a penalty). It never bluffs a Wild Draw Four: the
   rollouts could not price the risk of a challenge. Fewer than two options: no search;
2. takes ONE 64-bit number from the game's play stream: the seed of the whole search;
3. for each of ``R = rollouts`` worlds: samples the cards it cannot see (:func:`.worlds.deal_world`) —
   the unseen cards, i.e. the deck minus its own hand, the discard pile and the cards it knows to be
   in other hands (:mod:`..record.belief`), shuffled into the other hands (around their known cards, and
   keeping out of a hand the cards its seat was seen to lack when it drew: its *void*), the draw pile
   and the set-aside pile, every count as observed — then, in that same world and with the
   same random streams for every option (common random numbers), applies each option and lets the
   rollout preset play every seat for ``horizon`` turns (0: to the end of the round). The world is
   dealt once and copied for each option (:func:`.worlds.copy_world`). **Pruning** (``prune`` > 0, 3+ players):
   after PRUNE_FIRST worlds, and every PRUNE_EVERY after, an option whose mean gain over the anchor's
   option lies ``prune`` standard errors or more below 0 is no longer played out
   (:func:`prune_below_anchor`; the anchor's option always is, the base of every gain), and the search
   stops when only the anchor's option is left;
4. scores each outcome from its own point of view (:func:`outcome_value`: the share of the other seats
   it finishes ahead of as tournaments rank them — a win is ahead of all, otherwise fewer points held;
   at the horizon an estimate from the hand sizes and the points held — minus a little per point it
   holds; at 2 players simply its chance of winning);
5. plays what its *anchor* preset (``anchor``, default ``keep_wilds``) would play here, unless an option
   still searched beats the anchor's option by more than ``z`` standard errors of the mean gain over the
   worlds it was played in, the gain being paired world by world (:func:`significant_option`): then the
   option with the largest mean gain among those
   (ties uniformly by the search's own generator). The max over noisy option means of a plain search
   (z = 0, the anchor winning only ties) suffers the winner's curse: it leaves a sound preset on noise.
   At 2 players it takes the option with the best mean (ties uniformly), as before the rule: there
   the search beats every preset and the rule lost (figures below).

The rollout preset is ``greedy_points``, ``keep_wilds``, ``random`` or a ``weighted`` preset
(``protocol.ROLLOUT_PRESETS``; every seat of a rollout plays it with the lookahead seat's vector, which
carries the preset's weights and zero probabilities).

The defaults (``unosim.game.policies``: 128 worlds, horizon 16, rollouts by ``greedy_points``) were tuned
against the presets and random in classic and no_mercy: short rollouts scored by hand sizes beat
rollouts played to the end at equal cost (the end of a round is far away and mostly noise); with the
voids of :mod:`..record.belief`, 16 turns beat 8 against ``colour_counter`` on the 108-card classic deck at 2
players (2,000 deals, seed 1: 0.525 [0.511, 0.539]; horizon 8 with voids 0.509 [0.490, 0.529] on
1,000 deals, seed 23, without them 0.487); and
``greedy_points`` rollouts beat ``keep_wilds`` ones and every ``weighted`` preset (its weighted twin
``high_card_out`` plays alike but slower; docs/results/strength.json has the figures).
At 4 players, where half the head-to-head comparisons are settled by the points the losers
hold, scoring by the chance of winning alone lost to a field of three ``colour_counter`` (classic,
108-card deck, 20,000 deals under rotations, seed 1: 0.482 [0.480, 0.485]); scoring by the share of
seats finished ahead of (:func:`outcome_value`) beats it, 0.505 [0.502, 0.508]. Screened on 1,000
deals (seed 1, mean share against the three copies, ±1.5 points): 0.484 before, 0.508 after; the
points comparison at the horizon as a logistic of scale 10 points 0.508, 30 points 0.508, a hard one
0.503; with it, horizon 8 0.505, 12 0.506, 32 0.493; ``colour_counter`` rollouts 0.502, ``keep_wilds``
0.497; a points weight of 0 0.506, 0.3 0.509. Against three ``keep_wilds`` (same deck and seating,
20,000 deals: 0.497 [0.494, 0.500]) nothing screened on 4,000 deals (seed 1, the smallest share against
the copies, ±0.7 points) beat these defaults, 0.497 [0.490, 0.504]: naming a wild's colour by search
0.490 (one option per colour, or the wild chosen first and its colour then), 0.497 with a wild also
counted 10 points at the horizon; a wild counted 10 or 0 points in the horizon's points comparison
0.498 and 0.498; WILD_SIZE 0.25 0.496; POINTS_SCALE 30 0.493; 256 worlds with horizon 8 0.489;
``keep_wilds`` rollouts 0.494; the seat's own rollout moves by ``keep_wilds`` (the others' by
``greedy_points``) 0.493. The smallest share was the one against the copy seated opposite in every
screen that printed all three. Those searches took the best mean (z = 0, ties uniform). The anchor rule
(step 5: play ``keep_wilds``'s card unless an option beats it by z standard errors) screened, same
setting (4,000 deals, seed 1, smallest of the three shares, ±0.7 points): z = 1 0.499 [0.494, 0.505]
(the three shares 0.499, 0.506, 0.506), z = 1.5 0.505 [0.500, 0.510] (0.505, 0.510, 0.510), z = 2
0.505 [0.500, 0.509] (0.505, 0.511, 0.511): the default is z = 1.5, which 20,000 deals confirm
(seed 1): against three ``keep_wilds`` 0.507 [0.505, 0.509] (0.507, 0.508, 0.508), against three
``save_wilds`` 0.505 [0.503, 0.508] (0.505, 0.508, 0.508), against three ``colour_counter`` 0.512
[0.509, 0.515] (0.512, 0.516, 0.516). At 2 players (classic, 108 cards, against ``colour_counter``,
4,000 deals under rotations, seed 1) z = 1.5 lost: 0.518 [0.508, 0.527]
against 0.534 [0.524, 0.544] for the best mean, which 2-player games keep (200 games checked identical
to those before the rule).

Pruning (default 1 standard error) was added to make the expert fast enough to measure with (issue
43 item 7): ``prune=0`` plays as before, game for game, and docs/results/expert_speed.json has its
speed and its head-to-head against ``prune=0`` at 4 players. The tuning figures above were measured
without it. At 2 players a pruning of the options trailing the best mean so far by 1 standard error
(paired, same looks) lost to the full search (classic, 108 cards, 2,000 deals under rotations, seed 11:
0.478 [0.466, 0.490]): the best of close means is what a 2-player search chooses, so 2-player searches
do not prune.

The search reads nothing hidden: the sampled world is a function of what ``p`` has observed and the
seed only (tests/engine/policies/test_lookahead_infoset.py checks that two states differing only in hidden cards give
the same decision). Every other decision of a lookahead seat (colour, challenge, target, wheel …) and
every decision it is asked without a search is its rollout preset's.

Structure (no recursion for numba): the turn loop never calls the search. When the seat to move is a
lookahead seat whose search has not run, ``turn.turn_loop`` pauses and returns that seat;
``round.play_round`` calls :func:`search`, which stores the chosen hand index in
``st[ST_LA_CHOICE]`` (``st[ST_LA_READY] = 1``) and runs its rollouts through the ordinary turn loop on
a copy with ``st[ST_LA_SEARCH] = 0`` (no pause, no search, no belief tracking there); the real turn
loop then resumes and ``policy.choose_play`` / ``choose_stack`` return the stored choice. Call graph:
play_round → search → turn_loop → … → choose_play (which only reads the stored choice).
"""

import numpy as np

from unosim.engine.compiler.jit import njit
from unosim.game import protocol as L

from ..policies.dispatch import NO_CHOICE, ROLLOUT_POLICY, play_as, stack_as
from ..record.rng import PLAY_STREAM, below, next64, seed_streams
from ..record.state import (
    COLOUR,
    KO_POINTS,
    MAXC,
    NO_COLOUR,
    SE_ACTIVE,
    ST_LA_CHOICE,
    ST_LA_READY,
    ST_N,
    ST_TURNS,
    ST_VIOLATIONS,
    ST_WINNER,
    game_dtype,
    points_of,
)
from . import hooks, turn
from .worlds import copy_world, deal_world, deck_ids, seat_rollout_policies, unseen_cards

DRAW_OR_ACCEPT = -1            # the option "draw" (normal turn) / "accept the penalty" (stack turn)
WORLD = game_dtype()           # the record a rollout plays in (the game's layout: one compiled turn loop)
WORK_RECORDS = 2               # a search's records: the one a rollout plays in, the world it starts from
# outcome_value's two constants, tuned in classic at 4 players with 128 worlds and horizon 8 (±0.017):
# a wild counting half a card won 0.343 of the rounds against random, a whole card 0.327; a points
# weight of 0.1 (per 100 points held) won 0.314 against greedy_points and finished ahead of it 0.525
# of the time, 0.01 won 0.319 but finished ahead only 0.507, 0.3 and 1 won 0.302 and 0.276.
WILD_SIZE = 0.5
POINTS_WEIGHT = 0.1
# the points difference over which outcome_value's comparison of two seats' points held at the horizon
# turns from "ahead" to "behind" (a logistic's scale), screened at 4 players (classic, 108 cards)
POINTS_SCALE = 10.0
# pruning (step 4): first after PRUNE_FIRST worlds (fewer give no standard error to trust), then every
# PRUNE_EVERY worlds (each look is a chance to drop the best option by bad luck)
PRUNE_FIRST = 16
PRUNE_EVERY = 8


@njit
def add_distinct(g, p, legal, nleg, options):
    """options[:k] = the first hand index of each distinct card id among legal[:nleg]; returns k."""
    hands = g["hands"]
    k = 0
    for j in range(nleg):
        c = hands[p, legal[j]]
        fresh = True
        for q in range(k):
            if hands[p, options[q]] == c:
                fresh = False
                break
        if fresh:
            options[k] = legal[j]
            k += 1
    return k


@njit
def candidates(g, p, options):
    """options[:k] = what seat p, about to take its turn, may choose between (hand indices, or
    DRAW_OR_ACCEPT); returns k (0: the turn asks no play or stack decision that a search could
    prepare — a spin turn, or a Dumb Fu pose about to close, which draws from the play stream before
    the decision and may change the hand)."""
    if hooks.acts_first(g, p):
        return 0
    legal = g["legal"]
    ns = hooks.response_options(g, p, legal)   # a response turn to a pending penalty (stacking)
    if ns != hooks.NOT_MINE:
        k = add_distinct(g, p, legal, ns, options)
        if k == 0:
            return 0   # nothing to stack: the penalty is accepted without a decision
        options[k] = DRAW_OR_ACCEPT
        return k + 1
    nleg, _ = turn.legal_plays(g, p, legal)
    if nleg == 0:
        return 0
    k = add_distinct(g, p, legal, nleg, options)
    if g["ir"][L.IR_VOLUNTARY_DRAW]:
        options[k] = DRAW_OR_ACCEPT
        k += 1
    return k


@njit
def held_points(work, t):
    """The points of the cards seat t holds (docs/rules.md §4: what ranks the seats that did not win)."""
    points = 0
    for i in range(work["hlen"][t]):
        points += points_of(work, work["hands"][t, i])
    return points


@njit
def win_chances(work, chances):
    """chances[t] = seat t's chance of winning the round: 1 for the winner (0 for the others), and at
    the horizon t's share of 1 / effective hand size among the active seats (a wild counts WILD_SIZE of
    a card: it fits everywhere; a knocked-out seat 0)."""
    st = work["st"]
    hlen = work["hlen"]
    chances[:] = 0.0
    if st[ST_WINNER] >= 0:
        chances[st[ST_WINNER]] = 1.0
        return
    total = 0.0
    for t in range(st[ST_N]):
        if work["seat"][t, SE_ACTIVE]:
            wilds = 0
            for i in range(hlen[t]):
                wilds += COLOUR[work["hands"][t, i]] == NO_COLOUR
            chances[t] = 1.0 / max(hlen[t] - (1.0 - WILD_SIZE) * wilds, WILD_SIZE)
            total += chances[t]
    for t in range(st[ST_N]):
        chances[t] /= total


@njit
def outcome_value(work, p, chances):
    """A rollout scored for p: the share of the other seats p finishes ahead of, as tournaments rank
    them (`analysis/standings.py`: the winner is ahead of everyone, then the seats still in by fewer
    points held, a knocked-out seat behind them) — its expectation at the horizon — minus POINTS_WEIGHT
    × the points p holds / 100 (a knock-out: KO_POINTS).

    p is ahead of an active seat j when p wins, or when a third seat k wins and p holds fewer points
    than j (equal points: half). With ``chances`` from :func:`win_chances` (exact once the round is
    won), that is chances[p] + Σ_k chances[k] × [p holds fewer points than j], the comparison of the
    points held at the horizon softened by a logistic of scale POINTS_SCALE (points still change
    before the round ends). At 2 players there is no third seat: the value is p's chance of winning, as
    it was before the ranking of the losers entered it (and 2-player games are unchanged)."""
    st = work["st"]
    n = st[ST_N]
    if not work["seat"][p, SE_ACTIVE]:
        return -POINTS_WEIGHT * KO_POINTS / 100.0
    points = held_points(work, p)
    win_chances(work, chances)
    won = st[ST_WINNER] >= 0
    value = 0.0
    for j in range(n):
        if j == p:
            continue
        if not work["seat"][j, SE_ACTIVE]:
            value += 1.0
            continue
        value += chances[p]
        third = 0.0
        for k in range(n):
            if k != p and k != j:
                third += chances[k]
        if third > 0.0:
            theirs = held_points(work, j)
            if won:
                fewer = 1.0 if points < theirs else (0.5 if points == theirs else 0.0)
            else:
                fewer = 1.0 / (1.0 + np.exp((points - theirs) / POINTS_SCALE))
            value += third * fewer
    return value / (n - 1) - POINTS_WEIGHT * points / 100.0


@njit
def anchor_option(g, p, options, k, work, unseen, m, ids, seed, worlds):
    """The index in options[:k] of the card p's anchor preset would play (or stack) here. The preset
    decides in world ``worlds`` of the search (dealt like the others: p's hand and every public field
    are g's, so its choice is the one it would make in the real game, and a tie it breaks with the play
    stream draws from that world's stream, never from the game's). Options are one per distinct card
    id (DRAW_OR_ACCEPT last): the preset sees them as its legal cards and picks a card id, or the draw.
    A stack decision asks the preset's stack function (the draw option is then "accept")."""
    cards = k - 1 if options[k - 1] == DRAW_OR_ACCEPT else k
    deal_world(g, p, work, unseen, m, ids, seed, worlds)
    anchor = ROLLOUT_POLICY[np.int64(g["pp"][p, L.PP_ANCHOR])]
    if hooks.response_options(work, p, work["legal"]) != hooks.NOT_MINE:
        pick = stack_as(work, p, anchor, options, cards)
    else:
        pick = play_as(work, p, anchor, options, cards, -1)
    for j in range(k):
        if options[j] == pick:
            return j
    return k - 1   # a voluntary draw or accepting the penalty (weighted presets only: the heuristics
                   # always play or stack a card)


@njit
def significant_option(gain, gain_sq, k, anchor, z, work, seed, worlds, done):
    """The option whose mean gain over the anchor's option (paired over the worlds: common random
    numbers, over the ``done`` worlds searched) is largest among those whose mean gain exceeds z standard
    errors of it, else the anchor's. A max over k noisy means picks noise (the winner's curse); the anchor
    is a sound preset, overruled only on evidence. Ties uniformly by a generator seeded from
    (seed, worlds + 1), ``worlds`` the budget."""
    value = np.full(k, -np.inf)
    value[anchor] = 0.0
    top = 0.0
    for j in range(k):
        if j == anchor:
            continue
        mean = gain[j] / done
        var = max(gain_sq[j] - gain[j] * mean, 0.0) / max(done - 1, 1)
        if mean > 0.0 and mean > z * np.sqrt(var / done):
            value[j] = mean
            top = max(top, mean)
    if top == 0.0:
        return anchor
    return best_option(value, k, work, seed, worlds + 1)


@njit
def best_option(scores, k, work, seed, worlds):
    """The index of the highest score; ties uniformly by a generator seeded from (seed, worlds)."""
    top = scores[0]
    for j in range(1, k):
        top = max(top, scores[j])
    ties = 0
    for j in range(k):
        ties += scores[j] == top
    pick = 0
    if ties > 1:
        seed_streams(work, seed, worlds)
        pick = below(work, PLAY_STREAM, ties)
    for j in range(k):
        if scores[j] == top:
            if pick == 0:
                return j
            pick -= 1
    return k - 1


@njit
def search(g, p, deck_counts, work_block):
    """Prepare lookahead seat p's decision for the turn it is about to take (module docstring):
    st[ST_LA_CHOICE] = the chosen hand index, DRAW_OR_ACCEPT, or NO_CHOICE when there was nothing to
    search; st[ST_LA_READY] = 1. Draws one number from the play stream only when it searches.

    ``work_block``: :data:`WORK_RECORDS` records of :data:`WORLD`, the one rollouts play in and the world
    they start from (``round.run_games`` allocates them once per call: a record holds the trace buffer,
    so fresh zeroed ones per search would cost a 32 MB fill each); every field a rollout reads is dealt
    afresh (:func:`.worlds.deal_world`), once per world and copied for each option (:func:`.worlds.copy_world`). It is
    required: an omitted optional record array, allocated inside, crashed numba's compiled code."""
    st = g["st"]
    st[ST_LA_READY] = 1
    st[ST_LA_CHOICE] = NO_CHOICE
    options = np.empty(MAXC + 1, np.int64)
    k = candidates(g, p, options)
    if k < 2:
        return
    seed = next64(g, PLAY_STREAM)
    unseen = np.empty(MAXC, np.int64)
    counts = hooks.seen_counts(g, p, deck_counts)   # e.g. UNO Flip's turned-away faces (§2.6.6)
    ids = deck_ids(counts)
    m = unseen_cards(g, p, counts, ids, unseen)
    if m < 0:
        st[ST_VIOLATIONS] += 1   # the belief contradicts the counts (audited in tests): no search
        return
    work = work_block[0]
    world = work_block[1]   # the world dealt for the options still to play in it
    seat_rollout_policies(g, p, work)
    worlds = np.int64(g["pp"][p, L.PP_ROLLOUTS])
    horizon = np.int64(g["pp"][p, L.PP_HORIZON])
    cap = g["ir"][L.IR_MAX_TURNS]
    if horizon > 0:
        cap = min(cap, st[ST_TURNS] + horizon)
    anchor = anchor_option(g, p, options, k, work, unseen, m, ids, seed, worlds)
    prune = g["pp"][p, L.PP_PRUNE]
    row = np.empty(k)
    gain = np.zeros(k)      # Σ over the worlds of (option j's score − the anchor option's score)
    gain_sq = np.zeros(k)   # and of its square
    alive = np.ones(k, np.bool_)    # still searched (the anchor's option always: the base of every gain)
    chances = np.empty(st[ST_N])
    violations = 0
    done = 0
    dealt = False
    while done < worlds:
        r = done
        for j in range(k):
            if not alive[j]:
                continue
            if dealt:
                copy_world(world, work, st[ST_N])   # the world as dealt, not dealt again
            else:
                deal_world(g, p, work, unseen, m, ids, seed, r)
                copy_world(work, world, st[ST_N])
                dealt = True
            work["st"][ST_LA_CHOICE] = options[j]
            work["ir"][L.IR_MAX_TURNS] = cap
            turn.turn_loop(work, p, deck_counts)
            row[j] = outcome_value(work, p, chances)
            violations += work["st"][ST_VIOLATIONS] - st[ST_VIOLATIONS]
        for j in range(k):
            if alive[j]:
                gain[j] += row[j] - row[anchor]
                gain_sq[j] += (row[j] - row[anchor]) ** 2
        done += 1
        dealt = False
        if prune > 0.0 and st[ST_N] > 2 and done >= PRUNE_FIRST and done % PRUNE_EVERY == 0 and done < worlds:
            if prune_below_anchor(gain, gain_sq, done, k, alive, anchor, prune) == 1:
                break
    st[ST_VIOLATIONS] += violations   # audit mode: a sampled world broke an invariant
    for j in range(k):
        if not alive[j]:
            gain[j] = -np.inf   # a dropped option is never chosen
    if st[ST_N] == 2:   # the best mean: the anchor rule lost at 2 players (module docstring)
        best = best_option(gain, k, work, seed, worlds)
    else:
        best = significant_option(gain, gain_sq, k, anchor, g["pp"][p, L.PP_Z], work, seed, worlds, done)
    st[ST_LA_CHOICE] = options[best]


@njit
def prune_below_anchor(gain, gain_sq, done, k, alive, anchor, prune):
    """At 3+ players: drop every option whose mean gain over the anchor's option, after ``done`` worlds,
    lies ``prune`` standard errors of it or more below 0 (it could hardly end ``z`` standard errors
    above 0: step 5); an option that played out like the anchor's in every world so far goes too.
    Returns how many options are still to choose from (the anchor's included). Never at 2 players,
    where the search takes the best mean (step 5): pruning there lost (module docstring)."""
    left = 0
    for j in range(k):
        if alive[j] and j != anchor:
            mean = gain[j] / done
            var = max(gain_sq[j] - gain[j] * mean, 0.0) / (done - 1)
            if mean + prune * np.sqrt(var / done) <= 0.0:
                alive[j] = False
        left += alive[j]
    return left
