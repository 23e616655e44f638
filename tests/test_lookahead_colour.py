"""The expert searches the colour it names with a wild (issue 26): each wild that names a colour is one
option per colour, and the seat names the colour of the option its search chose. A scripted position
where the colour its rollout preset would name loses at once."""

from __future__ import annotations

import numpy as np
from scenario_tools import C, stacked_deck

from unosim.game import cards
from unosim.game import protocol as L
from unosim.game.policies import lineup_arrays
from unosim.engine import lookahead as LA
from unosim.engine import policy_heuristic as H
from unosim.engine import turn as T
from unosim.engine import state as S
from unosim.engine.rng import seed_streams
from unosim.play.simulate import resolve

RED = cards.COLOUR_NAMES.index("R")


def test_the_expert_names_the_colour_its_search_chose():
    """Two players, two cards each: seat 1 opens with Y7 and keeps R2, which the expert (seat 0) is
    told; the expert holds WILD and R3, so its only play is the wild, and its preset would name red
    (the colour it holds), letting R2 win at once. The search names another colour, the seat names
    that one, and seat 1 has to draw (R0: no play on it either)."""
    rules = {"match_mode": "single_round", "n_blank": 0, "hand_size": 2, "voluntary_draw": False}
    rs, specs = resolve("classic", 2, "lookahead(rollouts=8),greedy_points", rules)
    ir, fr, deck = rs.compile(2)
    pol, pp = lineup_arrays(specs)
    deck_counts = np.bincount(deck, minlength=cards.N_CARD_IDS).astype(np.int64)
    order = np.asarray(stacked_deck(rs.deck_counts(), 2, 0, [["WILD", "R3"], ["Y7", "R2"]], "Y5", ["R0"]))
    block = S.new_game(ir, fr, pol, pp)
    g = block[0]
    seed_streams(g, 3, 0)
    T.reset_round(g)
    T.deal(g, deck, order, np.zeros((2, cards.N_HAND_CLASSES), np.int8), 0)
    cur = T.turn_loop(g, T.first_card(g), deck_counts)
    assert cur == 0 and list(g["hands"][1, :g["hlen"][1]]) == [C("R2")], "seat 1 should have played Y7"
    g["known"][0, 1, C("R2")] = 1   # the expert knows seat 1's last card (as after a swap or a challenge)
    assert H.colour(g, 0, False) == RED, "the preset must name red here, or the test proves nothing"

    LA.search(g, 0, deck_counts, np.zeros(1, LA.WORLD))

    assert g["hands"][0, g["st"][L.ST_LA_CHOICE]] == C("WILD")
    named = g["st"][L.ST_LA_COLOUR]
    assert named in (0, 1, 2, 3) and named != RED
    cur = T.turn_loop(g, cur, deck_counts)
    assert cur == 0 and not g["st"][L.ST_ENDED], "seat 1 went out: the expert named red after all"
    assert g["st"][L.ST_COLOUR] == named and g["hlen"][1] == 2
