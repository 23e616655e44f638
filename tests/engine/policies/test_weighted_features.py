"""The kernel's fast card score (engine/policies/weighted_features.py): it skips every term whose weight is 0 and
reads the 0/1 features and the first four terms from per-card tables, and must still equal the full Σ weight × feature of the
module docstring, added in its order, for every card id (the differential tests then check whole games
against the reference twin); the discard pile's colour counts it reads for ``seen`` are audited."""

import numpy as np
from scenario_tools import C

from unosim.engine.core import audit as kernel_audit
from unosim.engine.core.round import new_game
from unosim.engine.policies import dispatch as policy
from unosim.engine.policies.card_terms import NUMBER_KEY, card_early, card_floor, game_tables
from unosim.engine.policies.weighted_features import card_score
from unosim.engine.record import state as S
from unosim.game import cards
from unosim.game import protocol as L
from unosim.game.policies import PRESET_BASE, PRESETS, parse_policy
from unosim.play.simulate import resolve

N_TERMS = 13   # points … order, as the docstring's table lists them
N_IDS = len(cards.COLOUR)


def full_sum(w, c, i, held, seen, colour_in_play, top, next_close, prev_close, own_hand):
    """The docstring's definition, every term added (zero weights included)."""
    colour, kind = int(cards.COLOUR[c]), int(cards.KIND[c])
    coloured = colour != cards.NO_COLOUR
    draws = cards.DRAW_VALUE[c] > 0
    attack = draws or kind in (cards.SKIP, cards.SKIP_EVERYONE)
    features = (
        float(cards.POINTS[c]),
        1.0 if coloured and kind != cards.NUMBER else 0.0,
        0.0 if coloured else 1.0,
        1.0 if draws else 0.0,
        held[colour] - 1 if coloured else 0,
        1.0 if colour == colour_in_play else 0.0,
        1.0 if kind == cards.NUMBER and cards.KIND[top] == cards.NUMBER
        and cards.NUMBER_OF[c] == cards.NUMBER_OF[top] else 0.0,
        1.0 if attack else 0.0,
        1.0 if attack and next_close else 0.0,
        1.0 if kind in (cards.REVERSE, cards.WRD4) and prev_close else 0.0,
        own_hand,
        seen[colour] if coloured else 0,
        -i,
    )
    score = w[0] * features[0]
    for weight, feature in zip(w[1:], features[1:], strict=True):
        score += weight * feature
    return score


def _context(w, late, colour_in_play, top):
    """card_context's tuple for the 13 card weights ``w``: the seat's ``card_early`` row (built by the
    kernel's own function, so a wrong row shows as a wrong score), the nine later terms' weights."""
    points, draw, attack, reverse, _, _ = game_tables(np.zeros(L.IR_SIZE, np.int64))   # built-in cards only
    early = np.empty(N_IDS)
    card_early(_vector(w), points, draw, early)
    return (early, any(x != 0.0 for x in late), *late, colour_in_play, int(NUMBER_KEY[top]), attack, reverse)


def test_card_score_equals_the_full_sum_for_every_card_and_sparse_weights():
    rng = np.random.default_rng(9)
    mismatches = []
    for trial in range(300):
        # about half the weights 0, the others non-representable decimals of either sign; one trial in
        # four weighs the first four terms only (the score skips the other nine tests, ``late``)
        w = np.where(rng.random(N_TERMS) < 0.5, 0.0, np.round(rng.normal(0, 5, N_TERMS), 2))
        if trial % 4 == 0:
            w[4:] = 0.0
        held = rng.integers(0, 12, 5)
        seen = rng.integers(0, 30, 5)
        # seen[NO_COLOUR] (the wilds in the discard pile, engine/record/state.py discards) is never a feature
        colour_in_play = int(rng.integers(0, 5))
        top = int(rng.integers(0, N_IDS))
        next_close, prev_close = bool(rng.random() < 0.5), bool(rng.random() < 0.5)
        hand_size = int(rng.integers(1, 20))
        late = [w[4], w[5], w[6], w[7], w[8] if next_close else 0.0, w[9] if prev_close else 0.0,
                w[10] * hand_size, w[11], w[12]]
        context = _context(w, late, colour_in_play, top)
        for c in range(N_IDS):
            i = int(rng.integers(0, hand_size))
            got = card_score(context, c, i, held, seen)
            want = full_sum(w, c, i, held, seen, colour_in_play, top, next_close, prev_close, hand_size)
            if got != want:
                mismatches.append((trial, c, got, want))
    assert not mismatches, mismatches[:5]


def _vector(card_weights):
    """A full policy vector with the 13 card weights (points … order) and nothing else."""
    w = np.zeros(L.N_POLICY_PARAMS)
    w[L.PP_W_POINTS:L.PP_W_POINTS + N_TERMS] = card_weights
    return w


def test_card_floor_lies_below_every_card_score_the_weights_can_give():
    """``card_floor`` lets a decision between one card and an option scoring below it skip the card's
    score; that is exact only if no card, in any state, scores below it. Every card id is scored with
    random weights (of every size and sign) in random states whose counts reach the features' extremes
    (a 167-card hand, a 167-card colour, hand index 167)."""
    rng = np.random.default_rng(11)
    below = []
    for trial in range(400):
        scale = 10.0 ** rng.integers(-2, 4)
        w = np.where(rng.random(N_TERMS) < 0.4, 0.0, rng.normal(0, scale, N_TERMS))
        floor = card_floor(_vector(w))
        big = trial % 2 == 0
        top = S.MAXC if big else 20
        held = rng.integers(1, top, 5)
        seen = rng.integers(0, top, 5)
        colour_in_play, top_card = int(rng.integers(0, 5)), int(rng.integers(0, N_IDS))
        next_close, prev_close = bool(rng.random() < 0.5), bool(rng.random() < 0.5)
        hand_size = int(rng.integers(1, top))
        late = [w[4], w[5], w[6], w[7], w[8] if next_close else 0.0, w[9] if prev_close else 0.0,
                w[10] * hand_size, w[11], w[12]]
        context = _context(w, late, colour_in_play, top_card)
        for c in range(N_IDS):
            i = hand_size - 1 if big else int(rng.integers(0, hand_size))
            score = card_score(context, c, i, held, seen)
            if score < floor:
                below.append((trial, c, score, floor))
    assert not below, below[:5]


def test_every_preset_s_floor_is_above_the_options_that_lose_to_any_card():
    """The shortcut only pays if it fires: in every preset the voluntary draw, accepting a penalty and
    keeping a drawn card (all -100, policies.PRESET_BASE) score below the floor, as policies.py says."""
    for name in PRESETS:
        floor = card_floor(parse_policy(name).vector())
        assert all(PRESET_BASE[key] < floor for key in ("w_voluntary_draw", "w_accept", "w_keep")), name


def _one_card_record(spec, card):
    """A classic 4p record where seat 0 (``spec``) holds ``card`` and a second card, only ``card``
    legal on a red 7 (the voluntary draw offered)."""
    rs, _ = resolve("classic", 4, "random", {"match_mode": "single_round"})
    ir, fr, deck = rs.compile(4)
    pp = np.zeros((4, L.N_POLICY_PARAMS))
    pp[0] = parse_policy(spec).vector()
    block = new_game(ir, fr, np.asarray([S.WEIGHTED, S.RANDOM, S.RANDOM, S.RANDOM]), pp)
    g = block[0]
    for s in range(4):
        g["hlen"][s] = 2
        g["seat"][s, S.SE_ACTIVE] = 1
    g["hands"][0, :2] = [C(card), C("B3")]
    S.recount_held(g, 0)
    g["st"][S.ST_N_ACTIVE] = 4
    g["st"][S.ST_DIR] = 1
    g["st"][S.ST_TOP] = C("R7")
    g["st"][S.ST_COLOUR] = cards.R
    g["rng"][:] = np.arange(1, 9, dtype=np.uint64)
    g["legal"][0] = 0
    return block


def test_a_single_legal_card_is_taken_unscored_only_when_the_draw_loses_to_every_card():
    """The kernel's shortcut (policy_weighted.choose_card) never takes a card that the draw outscores:
    a wild weighed at -500 loses to a draw at -100, and the kernel draws, as the full comparison does;
    at -50 the card is played, and so is a red card, whose floor is above the draw."""
    for spec, card, expected in (("weighted(w_wild=-500,w_voluntary_draw=-100)", "WILD", -1),
                                 ("weighted(w_wild=-50,w_voluntary_draw=-100)", "WILD", 0),
                                 ("colour_counter", "R5", 0),
                                 ("weighted(w_order=1,w_voluntary_draw=-100)", "R5", 0)):
        block = _one_card_record(spec, card)
        g = block[0]
        assert policy.choose_play(g, 0, g["legal"], 1, -1) == expected, spec


def test_the_discard_pile_colour_counts_are_audited():
    """``seen`` reads the game record's running colour counts of the discard pile (engine/record/state.py
    ``discards``); the audit (on in the invariant tests' games, rollouts included) compares them with
    the pile after every turn, and catches a count that drifted from it."""
    rs, _ = resolve("classic", 4, "random", {"match_mode": "single_round"})
    ir, fr, deck = rs.compile(4)
    block = new_game(ir, fr, np.zeros(4, np.int64), np.zeros((4, L.N_POLICY_PARAMS)))
    g = block[0]
    counts = np.bincount(deck, minlength=N_IDS)
    pile = np.random.default_rng(1).permutation(deck)   # the discard pile: its first 9 cards
    g["pile"][S.DISC, :9] = pile[:9]
    g["plen"][S.DISC] = 9
    g["pile"][S.DRAW, :len(deck) - 9] = pile[9:]
    g["plen"][S.DRAW] = len(deck) - 9
    g["st"][S.ST_TOP] = pile[8]
    S.recount_discards(g)
    assert g["discards"].tolist() == np.bincount(cards.COLOUR[pile[:9]], minlength=5).tolist()
    kernel_audit.audit(g, counts, False)
    assert g["st"][S.ST_VIOLATIONS] == 0
    S.discarded(g, pile[0])   # counted, but never put on the pile
    kernel_audit.audit(g, counts, False)
    assert g["st"][S.ST_VIOLATIONS] == 1


def test_the_hand_colour_counts_are_audited():
    """``colour_left`` and the colour choice read each hand's running colour counts (engine/record/state.py
    ``held``, kept by every verb that moves a card into or out of a hand); the audit compares them with
    the hands after every turn, and catches a count that drifted from its hand."""
    rs, _ = resolve("classic", 4, "random", {"match_mode": "single_round"})
    ir, fr, deck = rs.compile(4)
    block = new_game(ir, fr, np.zeros(4, np.int64), np.zeros((4, L.N_POLICY_PARAMS)))
    g = block[0]
    counts = np.bincount(deck, minlength=N_IDS)
    order = np.random.default_rng(2).permutation(deck)
    for s in range(4):
        g["hands"][s, :7] = order[7 * s:7 * s + 7]
        g["hlen"][s] = 7
        g["seat"][s, S.SE_ACTIVE] = 1
        S.recount_held(g, s)
        assert g["held"][s].tolist() == np.bincount(cards.COLOUR[order[7 * s:7 * s + 7]], minlength=5).tolist()
    g["st"][S.ST_N_ACTIVE] = 4
    g["pile"][S.DISC, 0] = order[28]
    g["plen"][S.DISC] = 1
    g["pile"][S.DRAW, :len(deck) - 29] = order[29:]
    g["plen"][S.DRAW] = len(deck) - 29
    g["st"][S.ST_TOP] = order[28]
    S.recount_discards(g)
    kernel_audit.audit(g, counts, False)
    assert g["st"][S.ST_VIOLATIONS] == 0
    g["held"][2, cards.COLOUR[order[14]]] -= 1   # a card left seat 2's count but not its hand
    kernel_audit.audit(g, counts, False)
    assert g["st"][S.ST_VIOLATIONS] == 1
