"""The lookahead search is information-set consistent (issue 9 item 2): it never reads a hidden card.

Two states that differ only in what the deciding seat cannot see — the other hands' unknown cards and
their order, the draw and set-aside piles, the deck stream that orders future reshuffles, stale slots
and scratch buffers — with the same play stream, give the same decision and leave the play stream in
the same state, at every decision of many games of all four variants. A determinization keeps every
count the seat has observed, and its beliefs are always true.
"""

from __future__ import annotations

import numpy as np
import pytest
from lookahead_states import CASES, decisions, forget_others, hidden_variant, known_split, lean_copy
from scenario_tools import C

from unosim.engine.core import lookahead as LA
from unosim.engine.core.round import new_game
from unosim.engine.record import belief as B
from unosim.engine.record import legality as LG
from unosim.game import cards, custom_cards
from unosim.game import protocol as L
from unosim.game.policies import lineup_arrays
from unosim.play.simulate import resolve

GAMES = 12


@pytest.mark.parametrize("case", list(CASES))
def test_decisions_ignore_hidden_information(case):
    rng = np.random.default_rng(7)
    checked = changed = searched = 0
    for block, p, deck_counts in decisions(case, seed=5, games=GAMES):
        original = lean_copy(block)
        forget_others(original, p)
        variant = hidden_variant(block, p, rng)
        changed += not np.array_equal(original[0]["hands"], variant[0]["hands"])
        LA.search(original[0], p, deck_counts, np.zeros(LA.WORK_RECORDS, LA.WORLD))
        LA.search(variant[0], p, deck_counts, np.zeros(LA.WORK_RECORDS, LA.WORLD))
        a, b = original[0]["st"], variant[0]["st"]
        assert a[L.ST_LA_CHOICE] == b[L.ST_LA_CHOICE], f"seat {p} decided differently on hidden cards"
        assert np.array_equal(original[0]["rng"][4:], variant[0]["rng"][4:]), "play stream diverged"
        assert a[L.ST_VIOLATIONS] == b[L.ST_VIOLATIONS] == 0
        checked += 1
        searched += a[L.ST_LA_CHOICE] != LA.NO_CHOICE
    assert checked >= 100 and searched >= 50, (checked, searched)
    assert changed >= 0.9 * checked, "the variants hardly changed the hidden cards: the test proves little"


@pytest.mark.parametrize("case", list(CASES))
def test_a_determinization_keeps_every_observed_count(case):
    learned = 0
    for block, p, deck_counts in decisions(case, seed=9, games=GAMES):
        g = block[0]
        n = g["st"][L.ST_N]
        unseen = np.empty(L.MAX_CARDS, np.int64)
        ids = LA.deck_ids(deck_counts)
        m = LA.unseen_cards(g, p, deck_counts, ids, unseen)
        assert m >= 0, "the seat's beliefs contradict the counts it observed"
        work_block = np.zeros(LA.WORK_RECORDS, LA.WORLD)
        work = work_block[0]
        LA.deal_world(g, p, work, unseen, m, ids, np.uint64(12345), 3)
        everything = [work["hands"][t, :work["hlen"][t]] for t in range(n)]
        everything += [work["pile"][r, :work["plen"][r]] for r in range(3)]
        assert np.array_equal(np.bincount(np.concatenate(everything), minlength=len(deck_counts)), deck_counts)
        assert np.array_equal(work["hlen"][:n], g["hlen"][:n])
        assert np.array_equal(work["plen"], g["plen"])
        disc = g["plen"][1]
        assert np.array_equal(work["pile"][1, :disc], g["pile"][1, :disc])
        assert np.array_equal(work["hands"][p, :g["hlen"][p]], g["hands"][p, :g["hlen"][p]])
        for t in range(n):
            if t != p:
                known_split(work, p, t)   # asserts: every known card is in the sampled hand
                known_split(g, p, t)      # and in the real one (beliefs are true)
                learned += g["known"][p, t].sum()
        assert work["st"][L.ST_LA_SEARCH] == 0 and work["st"][L.ST_TRACE] == 0
    if case != "minions":   # minions has no move that shows a hand
        assert learned > 0, "no seat ever learned a card: the belief tracking was not exercised"



@pytest.mark.parametrize("variant, rules", [("classic", {}), ("flip", {}),
                                            ("classic", {"cards": ["draw_three:coloured,effects=draw:3,points=20"]})])
def test_the_search_reads_ids_up_to_the_highest_its_deck_holds(variant, rules):
    """The search's loops over card ids stop at ``deck_ids`` (worlds.py): past every card of the deck,
    declared cards' and Flip's ids (above the 158 built-in ones) included, and no further."""
    rs, _ = resolve(variant, 4, "random", rules)
    deck = rs.compile(4)[2]
    counts = np.bincount(deck, minlength=custom_cards.N_ALL_IDS)
    assert LA.deck_ids(counts) == deck.max() + 1
    assert LA.deck_ids(np.zeros_like(counts)) == 0


def outside_void(g, t: int, cards) -> int:
    """How many of ``cards`` lie outside seat t's void (the cards it was seen to lack)."""
    return int(sum(not g["void"][t, c] for c in cards))


@pytest.mark.parametrize("case", list(CASES))
def test_voids_are_true_and_every_world_keeps_them(case):
    """A seat seen drawing at its turn lacks the cards that were legal (engine/record/belief.py): its real hand
    keeps at least ``void_kept`` cards outside the void (every seat: a void is recorded only where the
    draw proves it, the lookahead seats' own draws included), and every sampled world
    deals it at least that many such cards among those the searching seat does not know."""
    constrained = 0
    for block, p, deck_counts in decisions(case, seed=11, games=GAMES):
        g = block[0]
        unseen = np.empty(L.MAX_CARDS, np.int64)
        ids = LA.deck_ids(deck_counts)
        m = LA.unseen_cards(g, p, deck_counts, ids, unseen)
        work_block = np.zeros(LA.WORK_RECORDS, LA.WORLD)
        work = work_block[0]
        for t in range(g["st"][L.ST_N]):
            promised = int(min(g["void_kept"][t], g["hlen"][t]))
            assert outside_void(g, t, g["hands"][t, :g["hlen"][t]]) >= promised, \
                f"seat {t} holds cards it was seen to lack"
            if t != p:
                promised -= len(known_split(g, p, t)[0])
                constrained += promised > 0
        for world in range(3):
            LA.deal_world(g, p, work, unseen, m, ids, np.uint64(99), world)
            for t in range(g["st"][L.ST_N]):
                if t != p:
                    promised = int(min(g["void_kept"][t], g["hlen"][t])) - len(known_split(g, p, t)[0])
                    assert outside_void(g, t, known_split(work, p, t)[1]) >= promised, \
                        f"a world dealt seat {t} cards it was seen to lack"
    assert constrained > 20, "no seat was ever seen to lack a card: the voids were not exercised"


def _table(lineup: str, rules: dict, hands: list[list[str]]):
    """A fresh 4-seat classic game of ``lineup`` with the belief hook on and these hands, and the
    play-flags row of the top card R2 with red in play."""
    rs, specs = resolve("classic", len(hands), lineup, {**rules, "match_mode": "single_round", "n_blank": 0})
    ir, fr, _ = rs.compile(len(hands))
    pol, pp = lineup_arrays(specs)
    block = new_game(ir, fr, pol, pp)
    g = block[0]
    g["st"][L.ST_LA_SEARCH] = 1
    for t, hand in enumerate(hands):
        g["hands"][t, :len(hand)] = [C(name) for name in hand]
        g["hlen"][t] = len(hand)
    return block, LG.PLAY_FLAGS[LG.TOP_ROW[C("R2")], cards.COLOUR[C("R2")]]


def test_a_draw_records_a_void_only_where_it_proves_one():
    """Scripted (issue 26): with voluntary_draw on, every seat draws at its turn on R2 — the lookahead
    seat and random(p_draw=0.5) holding the legal R5 (their policies may draw anyway), the two that never
    draw voluntarily holding no legal card. Only those two get a void: the expert's draws used to record
    false voids that piled up until no world could keep them (what the minions grid hit). Without
    voluntary_draw every draw proves a void."""
    lineup = "lookahead,greedy_points,random(p_draw=0.5),colour_counter"
    hands = [["R5", "G7"], ["G7", "B3"], ["R5", "G7"], ["Y1", "B3", "G9"]]
    block, flags = _table(lineup, {}, hands)
    g = block[0]
    for t in range(4):
        B.drew_at_turn(g, t, flags, LG.LEGAL)
    assert [int(g["void_kept"][t]) for t in range(4)] == [0, 2, 0, 3]
    assert g["void"][1, C("R9")] and g["void"][3, C("WILD")] and g["void"][3, C("Y2")]
    assert not g["void"][1, C("G9")] and not g["void"][3, C("Y1")]
    assert not g["void"][0].any() and not g["void"][2].any()
    block, flags = _table(lineup, {"voluntary_draw": False}, [["G7", "B3"]] * 4)
    g = block[0]
    B.drew_at_turn(g, 0, flags, LG.LEGAL)
    assert g["void_kept"][0] == 2 and g["void"][0, C("R9")] and not g["void"][0, C("G7")]
