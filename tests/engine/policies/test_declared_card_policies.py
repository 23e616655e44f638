"""Policies value a card declared as data by what it does (docs/rules.md §2.7, §5): its declared points,
its draw size, its attack, its reversal, its wildness (``custom_cards.policy_features``).

The scripted positions are asked of the reference twin; the compiled engine plays the same choices, which
``tests/engine/test_declared_cards_engines.py`` checks event for event with non-random lineups. The
lookahead (expert) values a declared card through its rollouts: its decisions are replayed by the
reference engine here."""

import numpy as np
import pytest

from unosim import reference
from unosim.game import cards, custom_cards
from unosim.game import protocol as L
from unosim.game.rules import get_variant
from unosim.play.simulate import resolve, run_compiled
from unosim.reference.lookahead import replayed_lineup
from unosim.reference.policies import resolve_lineup
from unosim.reference.policy import PolicyView
from unosim.reference.rng import Xoshiro

RED = 0
DRAW_THREE = "draw_three:coloured,effects=draw:3,points=20,count=2"
RED_DRAW_TWO = 17
assert cards.card_name(RED_DRAW_TWO) == "R+2"


def _declared(slot: int, colour: int) -> int:
    return custom_cards.ID_CUSTOM0 + 5 * slot + colour


def view(hand, top, declared, *, next_hand=7):
    """Seat 0's position over card ids with the cards ``declared``; every card of ``hand`` is legal
    (red on a red top, or wild); next(0) is seat 1, holding ``next_hand`` cards."""
    rules = get_variant("classic", {"cards": declared})
    return PolicyView(seat=0, hand=tuple(hand), top=top, colour=RED, direction=1,
                      hand_sizes=(len(hand), next_hand, 7), pending=0, legal=tuple(range(len(hand))),
                      bluffs=(), rules=rules, rng=Xoshiro(5, 0, 1), active=(True,) * 3, discard=(top,))


def played(spec, v):
    return v.hand[resolve_lineup(spec, 1)[0].policy.play(v)]


def test_features_follow_the_effects():
    f = custom_cards.policy_features
    e = lambda *w: tuple(custom_cards.E.parse(x) for x in w)   # noqa: E731
    assert f(20, e("draw:2")) == custom_cards.PolicyFeatures(20.0, 1.0, 1.0, 0.0)   # a Draw Two
    assert f(20, e("draw:3")).draw == 1.5 and f(20, e("draw:3")).attack == 1.5
    assert f(50, e("wild", "others_draw:1")).draw == 0.5
    assert f(20, e("skip:2")) == custom_cards.PolicyFeatures(20.0, 0.0, 1.0, 0.0)
    assert f(30, e("reverse", "draw:2")).reverse == 1.0
    assert f(50, e("wild", "draw_until_colour")).attack == 1.0
    assert f(20, e("discard_colour")) == custom_cards.PolicyFeatures(20.0, 0.0, 0.0, 0.0)


@pytest.mark.parametrize("spec", ["punisher", "weighted(w_draw=1)", "weighted(w_attack=1)",
                                  "weighted(w_attack_close=1)"])
@pytest.mark.parametrize("three_first", [True, False])
def test_a_policy_that_wants_draw_cards_plays_the_draw_three_over_the_draw_two(spec, three_first):
    """The issue's known answer: nothing differs but the draw size (same colour, same points); the next
    seat is close to UNO, where punisher attacks. Deterministic: the Draw Three in either hand order."""
    three = _declared(0, RED)
    hand = [three, RED_DRAW_TWO] if three_first else [RED_DRAW_TWO, three]
    assert played(spec, view(hand, 5, [DRAW_THREE], next_hand=2)) == three


def test_punisher_holds_the_bigger_attack_longer():
    """Far from UNO punisher holds attacks: of two, it gives up the Draw Two and keeps the Draw Three."""
    three = _declared(0, RED)
    for hand in ([three, RED_DRAW_TWO], [RED_DRAW_TWO, three]):
        assert played("punisher", view(hand, 5, [DRAW_THREE], next_hand=7)) == RED_DRAW_TWO


def test_greedy_points_and_high_card_out_read_the_declared_points():
    cheap = _declared(0, RED)   # a coloured card worth 5, below the class default of 20
    hand = [cheap, 9]            # R9: 9 points
    declared = ["jab:coloured,effects=skip+self_draw:1,points=5,count=1"]
    assert played("greedy_points", view(hand, 5, declared)) == 9
    assert played("high_card_out", view(hand, 5, declared)) == 9
    dear = ["jab:coloured,effects=skip+self_draw:1,points=40,count=1"]
    assert played("greedy_points", view([9, cheap], 5, dear)) == cheap


@pytest.mark.parametrize("spec", ["keep_wilds", "save_wilds"])
def test_a_declared_wild_is_kept_as_a_wild(spec):
    storm = _declared(0, cards.NO_COLOUR)
    declared = ["storm:wild,effects=wild+others_draw:2,points=40,count=2"]
    assert played(spec, view([storm, 3], 5, declared)) == 3


def test_the_expert_plays_declared_cards_and_the_reference_replays_it():
    """lookahead seats value declared cards through rollouts; the reference replays their choices and
    plays every other decision itself, event for event, audited."""
    lineup = "lookahead(rollouts=2,horizon=8,rollout=punisher),greedy_points,lookahead(rollouts=2),save_wilds"
    rules = {"match_mode": "single_round", "n_blank": 0, "stacking": "any_draw",
             "cards": [DRAW_THREE, "storm:wild,effects=wild+others_draw:1,points=40,count=4",
                       "leap:coloured,effects=skip:2,points=30,count=2"]}
    rs, specs = resolve("classic", 4, lineup, rules)
    declared_plays = 0
    for game in range(4):
        compiled = run_compiled(rs, 4, specs, 13, game, 1, trace=True, audit=True)
        events = compiled.events
        slow = reference.play(rs, 4, replayed_lineup(lineup, 4, events), 13, game, 1, trace=True)
        assert np.array_equal(events[events[:, 0] != L.EV_LOOKAHEAD], np.asarray(slow.events)), game
        plays = events[events[:, 0] == L.EV_PLAY]
        declared_plays += int((plays[:, 2] >= custom_cards.ID_CUSTOM0).sum())
    assert declared_plays >= 4


def test_card_floor_lies_below_every_declared_card_score():
    """The weighted policy's ``card_floor`` shortcut stays exact with declared cards far outside the
    built-in features' ranges (1000 points, a draw size of 10 = five Draw Twos)."""
    from unosim.engine.policies.card_terms import card_early, card_floor_over, game_tables
    from unosim.engine.policies.weighted_features import card_score

    rs, _ = resolve("classic", 4, "random", {"cards": ["huge:coloured,effects=draw:10,points=1000,count=1",
                                                       "nil:wild,effects=wild+others_draw:10,points=0"]})
    points, draw, attack, reverse, low, high = game_tables(rs.compile(4)[0])
    rng = np.random.default_rng(3)
    ids = [_declared(0, c) for c in range(4)] + [_declared(1, cards.NO_COLOUR)]
    for _ in range(200):
        w = np.zeros(L.N_POLICY_PARAMS)
        w[L.PP_W_POINTS:L.PP_W_ORDER + 1] = np.where(rng.random(13) < 0.4, 0.0, rng.normal(0, 10, 13))
        floor = card_floor_over(w, low, high)
        early = np.empty(len(points))
        card_early(w, points, draw, early)
        late = [w[L.PP_W_POINTS + k] for k in range(4, 13)]
        context = (early, True, *late, 0, -1, attack, reverse)
        for c in ids:
            assert card_score(context, c, 0, np.ones(5, np.int64), np.zeros(5, np.int64)) >= floor
