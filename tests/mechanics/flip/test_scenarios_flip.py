"""UNO Flip (docs/rules.md §2.6): the deck and its pairing, scripted scenarios per card effect (reference
engine, Python scripts), the same stacked decks played by both engines event for event, card
conservation across both faces, and a known answer.

Dealer 0, so F = seat 1 takes turn 1 unless stated otherwise. Dark-side scenarios start with F playing
a light Flip; the dark faces a seat needs are dealt as the light faces on their backs (:func:`light`).
"""

import numpy as np
import pytest
from scenario_tools import C, E, Scripted, run, stacked_deck

from unosim import reference
from unosim.game import cards
from unosim.game import protocol as L
from unosim.game.rules import get_variant
from unosim.play.simulate import resolve, run_compiled

FLIP = {"variant": "flip"}
PARTNER = cards.FLIP_PARTNER


def light(dark_name: str) -> str:
    """The light face on the back of a dark face (docs/rules.md §6 F1)."""
    return cards.card_name(int(PARTNER[C(dark_name)]))


def dark(light_name: str) -> str:
    return cards.card_name(int(PARTNER[C(light_name)]))


def colour_of(name: str) -> int:
    return int(cards.COLOUR[C(name)])


# ---- the deck (docs/rules.md §2.6.1) and its pairing (§6 F1) -------------------------------------------
def test_the_deck_has_both_published_sides():
    counts = get_variant("flip").deck_counts()
    assert counts.sum() == 112
    ids = cards.deck_ids(counts)
    for side in (ids, PARTNER[ids]):
        kinds = [cards.KIND_NAMES[k] for k in cards.KIND[side]]
        tally = {k: kinds.count(k) for k in set(kinds)}
        numbers = cards.NUMBER_OF[side][cards.KIND[side] == cards.NUMBER]
        assert tally["NUMBER"] == 72 and sorted(set(numbers.tolist())) == list(range(1, 10))
        assert all((numbers == n).sum() == 8 for n in range(1, 10))
        assert tally["WILD"] == 4
        coloured = cards.COLOUR[side] != cards.NO_COLOUR
        assert np.bincount(cards.COLOUR[side][coloured], minlength=4).tolist() == [26] * 4
    light_kinds = {cards.KIND_NAMES[k] for k in cards.KIND[ids]}
    dark_kinds = {cards.KIND_NAMES[k] for k in cards.KIND[PARTNER[ids]]}
    assert light_kinds == {"NUMBER", "DRAW_ONE", "REVERSE", "SKIP", "FLIP", "WILD", "WILD_DRAW_TWO"}
    assert dark_kinds == {"NUMBER", "DRAW_FIVE", "REVERSE", "SKIP_EVERYONE", "FLIP", "WILD", "WILD_DRAW_COLOUR"}
    # every action kind 8 times, each wild draw card 4 times, on both sides
    for side in (ids, PARTNER[ids]):
        kinds = cards.KIND[side]
        for k in set(kinds.tolist()) - {cards.NUMBER, cards.WILD}:
            assert (kinds == k).sum() == (4 if cards.COLOUR[side][kinds == k][0] == cards.NO_COLOUR else 8)


def test_points_follow_the_published_table():
    points = {"R7": 7, "R+1": 10, "RREV": 20, "RSKIP": 20, "RFLIP": 20, "LWILD": 40, "WD2": 50,
              "P7": 7, "P+5": 20, "PREV": 20, "PSKALL": 30, "PFLIP": 20, "DWILD": 40, "WDC": 60}
    assert {name: int(cards.POINTS[C(name)]) for name in points} == points


def test_the_pairing_is_one_to_one_between_the_sides():
    ids = np.unique(cards.deck_ids(get_variant("flip").deck_counts()))
    backs = PARTNER[ids]
    assert (backs >= 0).all() and (PARTNER[backs] == ids).all()
    assert len(set(backs.tolist())) == len(ids) and not set(backs.tolist()) & set(ids.tolist())
    assert (cards.DARK_FACE[ids] == 0).all() and (cards.DARK_FACE[backs] == 1).all()
    # a documented scramble (§6 F1): it mixes kinds and colours
    same_kind = (cards.KIND[ids] == cards.KIND[backs]).mean()
    assert same_kind < 0.8


# ---- light side (docs/rules.md §2.6.2) -----------------------------------------------------------------
def test_draw_one_makes_the_next_player_draw_one_and_lose_the_turn():
    s = run([["R1", "R2", "R3"], ["R+1", "Y8", "Y9"], ["G1", "G2", "G3"]], "R5", ["B1"],
            **FLIP, scripts=[Scripted(), Scripted(plays=["R+1"]), Scripted()])
    assert s.turn(1) == [E("play", 1, "R+1"), E("draw", 2, "B1"), E("skip", 2)]
    assert s.turn_seat(2) == (0, 2)


@pytest.mark.parametrize("challenge, holds_colour", [(False, False), (True, False), (True, True)])
def test_wild_draw_two_is_a_wild_draw_four_that_draws_two(challenge, holds_colour):
    hand = ["WD2", "R9" if holds_colour else "Y8", "Y9"]
    s = run([["R1", "R2", "R3"], hand, ["G1", "G2", "G3"]], "R5", ["B1", "B2", "B3", "B4"],
            **FLIP, scripts=[Scripted(), Scripted(plays=["WD2"], colours=[2]), Scripted(challenges=[challenge])])
    head = [E("play", 1, "WD2"), E("colour", 1, 2)]
    if not challenge:
        assert s.turn(1) == head + [E("draw", 2, "B1"), E("draw", 2, "B2"), E("skip", 2)]
    elif holds_colour:   # guilty: its player draws 2, the victim plays
        assert s.turn(1) == head + [E("challenge", 2, 1), E("draw", 1, "B1"), E("draw", 1, "B2")]
        assert s.turn_seat(2) == (2, 2)
    else:                # innocent: the challenger draws 2 + 2 and loses its turn
        assert s.turn(1) == head + [E("challenge", 2, 0)] + [E("draw", 2, c) for c in ("B1", "B2", "B3", "B4")] \
            + [E("skip", 2)]


def test_first_cards_draw_one_wild_draw_two_and_flip():
    hands = [["R1", "R2"], ["Y8", "Y9"], ["G1", "G2"]]
    s = run(hands, "R+1", ["B1"], **FLIP)   # F draws 1 and loses its turn
    assert s.setup()[-3:] == [E("draw", 1, "B1"), E("skip", 1), E("first_seat", 2, 1)]
    s = run(hands, ["WD2", "R5"], **FLIP, seed=3)   # a Wild Draw Two goes back (like a WD4)
    assert [e[0] for e in s.setup()][:5] == ["round_start", "first_card", "return", "first_card", "first_seat"]
    s = run(hands, "RFLIP", **FLIP)   # no effect (§6 F5): F plays first, nothing turns over
    assert s.setup()[1:] == [E("first_card", 1, "RFLIP"), E("first_seat", 1, 1)]
    assert s.turn_players()[0] == 1


# ---- the Flip (docs/rules.md §2.6.3, §6 F2, F3) -----------------------------------------------------------
def test_a_flip_turns_every_hand_and_pile_over():
    s = run([["R1", "R2", "R3"], ["RFLIP", "Y8", "Y9"], ["G1", "G2", "G3"]], "R5", ["B1", "B2"],
            **FLIP, scripts=[Scripted(), Scripted(plays=["RFLIP"]), Scripted()])
    before = s.after(E("play", 1, "RFLIP"))
    after = s.after(E("flip", 1, 1))
    assert s.turn(1)[:2] == [E("play", 1, "RFLIP"), E("flip", 1, 1)]
    assert after.hands == tuple(tuple(int(PARTNER[c]) for c in hand) for hand in before.hands)
    for pile in ("draw_pile", "discard_pile"):
        assert getattr(after, pile) == tuple(int(PARTNER[c]) for c in reversed(getattr(before, pile)))
    # the Flip card just played lies at the bottom; the first card, on its dark face, is T
    assert after.discard_pile == (PARTNER[C("RFLIP")], PARTNER[C("R5")])
    assert after.colour == colour_of(dark("R5"))
    assert s.turn_seat(2) == (2, 2) and s.round["flips"] == 1


def test_a_python_policy_sees_the_other_hands_and_the_next_draw_on_both_sides():
    """§2.6.6: the faces turned away from their owners name the cards, so a seat's view holds every other
    hand (sorted, in the faces in play) and the draw pile's top card; before and after a Flip."""
    scripts = [Scripted(), Scripted(plays=["RFLIP"]), Scripted()]
    s = run([["R1", "R2", "R3"], ["RFLIP", "Y8", "Y9"], ["G1", "G2", "G3"]], "R5", ["B1", "B2"],
            **FLIP, scripts=scripts)
    first = scripts[1].views[0]             # seat 1, light side, before its Flip
    assert first.others == (tuple(sorted(C(n) for n in ("R1", "R2", "R3"))), None,
                            tuple(sorted(C(n) for n in ("G1", "G2", "G3"))))
    assert first.next_draw == C("B1")       # the pile is dealt from its end: B1 is drawn first
    turned = scripts[2].views[0]            # seat 2, dark side, after it
    after = s.after(E("flip", 1, 1))
    assert turned.others == (tuple(sorted(after.hands[0])), tuple(sorted(after.hands[1])), None)
    assert turned.others[1] == tuple(sorted(int(PARTNER[C(n)]) for n in ("Y8", "Y9")))
    before = s.after(E("play", 1, "RFLIP"))   # the turned pile's top was the bottom card, on its other face
    assert turned.next_draw == after.draw_pile[-1] == PARTNER[before.draw_pile[0]]
    # outside flip nothing of the others' hands is seen
    classic = [Scripted(), Scripted(), Scripted()]
    run([["R1", "R2", "R3"], ["R7", "Y8", "Y9"], ["G1", "G2", "G3"]], "R5", ["B1", "B2"], scripts=classic)
    assert classic[1].views[0].others == () and classic[1].views[0].next_draw == -1


def test_a_flip_onto_a_wild_has_its_player_name_the_colour():
    assert dark("LWILD") == "WDC"   # the light Wild, turned up first (F names red), backs a wild
    s = run([["R1", "R2", "R3"], ["RFLIP", "Y8", "Y9"], ["G1", "G2", "G3"]], "LWILD", **FLIP,
            scripts=[Scripted(), Scripted(plays=["RFLIP"], colours=[0, 3]), Scripted()])
    assert E("colour", 1, 3) in s.turn(1)
    assert s.after(E("colour", 1, 3)).colour == 3


def test_flipping_back_restores_the_light_faces():
    # R4 backs a dark Flip, which becomes T; seat 1's Y4 backs another, played onto it
    assert cards.KIND[C(dark("R4"))] == cards.KIND[C(dark("Y4"))] == cards.FLIP
    s = run([["R1", "R2", "R3", "R5"], ["RFLIP", "Y4", "Y8", "Y9"], ["G1", "G2", "G3", "G4"]], "R4",
            **FLIP, scripts=[Scripted(plays=["draw"], drawn=[False]), Scripted(plays=["RFLIP", dark("Y4")]),
                             Scripted(plays=["draw"], drawn=[False])])
    flips = s.of("flip")
    assert flips[:2] == [E("flip", 1, 1), E("flip", 1, 0)]
    again = s.after(E("flip", 1, 0))
    assert all(cards.DARK_FACE[c] == 0 for hand in again.hands for c in hand)


# ---- dark side (docs/rules.md §2.6.4) --------------------------------------------------------------------
def _dark_turn(card: str, hand2: list[str], *, draws=(), **script2):
    """F plays a light Flip on R5; seat 2 then plays ``card`` (a dark face) from ``hand2`` (dark faces)."""
    on_top = dark("R5")
    scripts = [Scripted(challenges=script2.pop("challenges0", [])), Scripted(plays=["RFLIP"]),
               Scripted(plays=[card], **script2)]
    hands = [["R1", "R2", "R3"], ["RFLIP", "Y8", "Y9"], [light(c) for c in hand2]]
    return run(hands, "R5", list(draws), **FLIP, scripts=scripts), on_top


def _numbers_not_of(n: int, colour: int) -> list[str]:
    """n dark number faces of another colour than ``colour`` whose light faces are free to deal."""
    taken = {"R1", "R2", "R3", "R5", "RFLIP", "Y8", "Y9"}
    out = []
    for c in range(cards.ID_DARK0, cards.ID_DARK_WILD):
        name = cards.card_name(c)
        if cards.KIND[c] == cards.NUMBER and cards.COLOUR[c] != colour and light(name) not in taken:
            out.append(name)
            taken.add(light(name))
        if len(out) == n:
            return out
    raise AssertionError("not enough cards")


def test_draw_five_and_skip_everyone():
    colour = colour_of(dark("R5"))
    five = cards.card_name(cards.dark_id(colour, 9))
    s, _ = _dark_turn(five, [five, *_numbers_not_of(2, colour)])
    turn2 = s.turn(2)
    assert turn2[0] == E("play", 2, five)
    assert [e[:2] for e in turn2[1:6]] == [("draw", 0)] * 5 and turn2[6] == E("skip", 0)
    assert s.turn_seat(3) == (1, 3)
    everyone = cards.card_name(cards.dark_id(colour, 11))
    s, _ = _dark_turn(everyone, [everyone, *_numbers_not_of(2, colour)])
    assert s.turn(2) == [E("play", 2, everyone)] and s.turn_seat(3) == (2, 3)


@pytest.mark.parametrize("challenge, guilty", [(False, False), (True, False), (True, True)])
def test_wild_draw_colour_draws_until_the_named_colour(challenge, guilty):
    in_play = colour_of(dark("R5"))
    others = _numbers_not_of(2, in_play)
    if guilty:   # seat 2 holds a card of the colour in play
        others[0] = cards.card_name(cards.dark_id(in_play, 8))
    named = (in_play + 1) % 4
    s, _ = _dark_turn("WDC", ["WDC", *others], colours=[named], challenges0=[challenge])
    turn2 = s.turn(2)
    assert turn2[:2] == [E("play", 2, "WDC"), E("colour", 2, named)]
    drawer = 2 if (challenge and guilty) else 0
    draws = [e for e in turn2 if e[0] == "draw"]
    assert draws and all(e[1] == drawer for e in draws)
    colours = [int(cards.COLOUR[e[2]]) for e in draws]
    extra = 2 if (challenge and not guilty) else 0
    stop = len(draws) - extra
    # every card before the last of the draw-until part is of another colour (wilds count as none)
    assert colours[stop - 1] == named and named not in colours[:stop - 1]
    assert (E("skip", 0) in turn2) == (drawer == 0)
    assert s.turn_seat(3) == ((1, 3) if drawer == 0 else (0, 3))


def test_the_round_is_scored_by_the_side_in_play():
    # F flips, and with its last card wins at once on the dark side
    s = run([["R1", "R2"], ["RFLIP", light(cards.card_name(cards.dark_id(colour_of(dark("R5")), 0)))],
             ["G1", "G2"]], "R5", **FLIP,
            scripts=[Scripted(plays=["draw"], drawn=[False]), Scripted(), Scripted(plays=["draw"], drawn=[False])],
            voluntary_draw=True)
    end = s.of("round_end")[0]
    table = s.snapshots[s.events.index(end)]
    expected = sum(int(cards.POINTS[c]) for seat, hand in enumerate(table.hands) if seat != end[1] for c in hand)
    assert s.round["flips"] >= 1 and end[3] == expected
    assert all(cards.DARK_FACE[c] == s.round["flips"] % 2 for hand in table.hands for c in hand)


# ---- both engines on stacked decks and on random games ----------------------------------------------------
def _both(rules, players, lineup, seed, games, order=None):
    rs, specs = resolve("flip", players, lineup, rules)
    compiled = run_compiled(rs, players, specs, seed, 0, games, deck_order=order, trace=True, audit=True)
    slow = reference.play(rs, players, specs, seed, 0, games, deck_order=order, trace=True)
    assert np.array_equal(compiled.events, np.asarray(slow.events))
    for table in ("rounds", "seats", "opening", "matches"):
        assert np.array_equal(getattr(compiled, table), np.asarray(getattr(slow, table))), table
    return compiled


@pytest.mark.parametrize("lineup", ["greedy_points", "keep_wilds", "random(p_bluff=0.5,p_challenge=0.5)"])
def test_both_engines_play_a_stacked_flip_round_alike(lineup):
    rules = {"match_mode": "single_round", "hand_size": 4, "first_dealer": 0}
    deck = get_variant("flip").deck_counts()
    hands = [["R1", "R2", "RFLIP", "LWILD"], ["R+1", "YFLIP", "Y8", "WD2"], ["G1", "GFLIP", "G3", "BFLIP"]]
    order = stacked_deck(deck, 3, 0, hands, "R5")
    raw = _both(rules, 3, lineup, 4, 1, order)
    assert (raw.events[:, 0] == L.EV_FLIP).any()


def test_audited_random_games_conserve_the_cards_of_both_faces():
    """Audit mode recounts every physical card (by its light face) and checks that every card shows the
    side in play after every turn, in both engines' agreement, with every house rule that applies."""
    rules = {"match_mode": "single_round", "jump_in": True, "seven_o": True, "mercy_limit": 20,
             "draw_until_playable": True, "p_forget_uno": 0.3}
    raw = _both(rules, 5, "random(p_bluff=0.3,p_challenge=0.5,p_draw=0.2)", 12, 150)
    assert raw.rounds[:, L.RC_FLIPS].sum() > 0 and (raw.rounds[:, L.RC_KNOCKOUTS] > 0).any()


@pytest.mark.parametrize("rule, value", [("stacking", "any_draw"), ("n_blank", 2), ("deck", {"n5": 3}),
                                         ("p_dumbfu_fail", 0.5)])
def test_rules_that_do_not_apply_are_refused_naming_the_family(rule, value):
    with pytest.raises(ValueError, match="flip"):
        get_variant("flip", {rule: value})


# ---- a known answer ------------------------------------------------------------------------------------
@pytest.mark.slow
def test_the_first_card_is_a_flip_as_often_as_the_deck_says():
    """After the Wild Draw Twos went back, the first card is uniform over the 108 other cards: a light
    Flip with probability 8/108 (docs/rules.md §2.6.2). Tolerance: 4 standard errors."""
    games = 20_000
    rs, specs = resolve("flip", 4, "random", {"match_mode": "single_round", "max_turns_per_round": 1})
    raw = run_compiled(rs, 4, specs, 31, 0, games, trace=True)
    ev = raw.events
    starts = np.flatnonzero(ev[:, 0] == L.EV_FIRST_SEAT)
    firsts = ev[ev[:, 0] == L.EV_FIRST_CARD]
    # the last FIRST_CARD before each FIRST_SEAT is the card that stayed
    last_first = np.searchsorted(np.flatnonzero(ev[:, 0] == L.EV_FIRST_CARD), starts) - 1
    stayed = firsts[last_first, 2]
    share = (cards.KIND[stayed] == cards.FLIP).mean()
    p = 8 / 108
    assert abs(share - p) < 4 * np.sqrt(p * (1 - p) / len(stayed)), share
    assert len(stayed) == games


# ---- what the expert sees (docs/rules.md §2.6.6) ----------------------------------------------------------
def test_the_expert_decides_on_what_flip_shows_only(monkeypatch):
    """In flip every other hand is visible (its turned-away faces name its cards); only the order of the
    draw and set-aside piles (and the deck stream that orders future reshuffles) is hidden: changing it
    never changes a lookahead decision, and its beliefs stay true across flips."""
    import lookahead_states as states

    from unosim.engine.core import lookahead as LA
    from unosim.engine.record import state as S

    monkeypatch.setitem(states.CASES, "flip", ("flip", 4, {"jump_in": True, "p_forget_uno": 0.2}))
    rng = np.random.default_rng(11)
    checked = searched = dark_side = 0
    for block, p, deck_counts in states.decisions("flip", seed=5, games=10):
        g0 = block[0]
        for t in range(g0["st"][L.ST_N]):
            if t != p:
                states.known_split(g0, p, t)   # asserts that p's beliefs are true, across flips too
        original, variant = block.copy(), block.copy()
        g = variant[0]
        pile, plen = g["pile"], g["plen"]
        pool = [int(c) for row in (S.DRAW, S.ASIDE) for c in pile[row, :plen[row]]]
        rng.shuffle(pool)
        for row in (S.DRAW, S.ASIDE):
            pile[row, :plen[row]], pool = pool[:plen[row]], pool[plen[row]:]
        g["rng"][:4] = rng.integers(0, 2**63, 4, dtype=np.uint64)
        LA.search(original[0], p, deck_counts, np.zeros(LA.WORK_RECORDS, LA.WORLD))
        LA.search(variant[0], p, deck_counts, np.zeros(LA.WORK_RECORDS, LA.WORLD))
        a, b = original[0]["st"], variant[0]["st"]
        assert a[L.ST_LA_CHOICE] == b[L.ST_LA_CHOICE]
        assert a[L.ST_VIOLATIONS] == b[L.ST_VIOLATIONS] == 0
        checked += 1
        searched += a[L.ST_LA_CHOICE] != LA.NO_CHOICE
        dark_side += a[L.ST_SIDE]
    assert checked >= 50 and searched >= 20 and dark_side >= 5, (checked, searched, dark_side)
