"""The reference engine's public API: lineups, Python policies, strict answers, chunking, outputs."""

import numpy as np
import pytest
from scenario_tools import E, Scripted, run

from unosim.game import cards
from unosim.game import protocol as L
from unosim.game.rules import RuleSet, get_variant
from unosim.reference import GreedyPointsPolicy, KeepWildsPolicy, PolicyView, PythonPolicy, RandomPolicy, play
from unosim.reference.rng import Xoshiro

CLASSIC = get_variant("classic")
MINIONS = get_variant("minions", {"p_dumbfu_fail": 0.3, "p_forget_uno": 0.2})


def same_results(a, b):
    return all(np.array_equal(getattr(a, f), getattr(b, f)) for f in ("rounds", "seats", "opening", "matches",
                                                                       "events"))


def test_output_tables_have_the_documented_shapes_and_types():
    r = play(CLASSIC, 4, "random", seed=1, n_games=2, trace=True)
    n_rounds = len(r.rounds)
    assert r.rounds.shape == (n_rounds, L.RC_SIZE) and r.rounds.dtype == np.int64
    assert r.seats.shape == (n_rounds * 4, L.SC_SIZE) and r.seats.dtype == np.int32
    assert r.opening.shape == (n_rounds * 4, L.N_OPENING) and r.opening.dtype == np.int8
    assert r.matches.shape == (2, L.MC_SIZE) and r.matches.dtype == np.int64
    assert r.events.shape[1] == 4 and r.events.dtype == np.int64 and len(r.events) > 0
    assert (r.opening.sum(axis=1) == 7).all()
    assert list(r.rounds[:, L.RC_GAME]) == sorted(r.rounds[:, L.RC_GAME])
    assert len(play(CLASSIC, 4, "random", seed=1).events) == 0          # no trace unless asked


@pytest.mark.parametrize("rules", [CLASSIC, MINIONS], ids=["classic", "minions"])
def test_results_do_not_depend_on_chunking(rules):
    whole = play(rules, 3, "random(p_draw=0.1,p_bluff=0.2,p_challenge=0.5)", seed=11, n_games=4, trace=True)
    parts = [play(rules, 3, "random(p_draw=0.1,p_bluff=0.2,p_challenge=0.5)", seed=11, first_game=g, trace=True)
             for g in range(4)]
    for field in ("rounds", "seats", "opening", "matches", "events"):
        assert np.array_equal(getattr(whole, field), np.concatenate([getattr(p, field) for p in parts]))


@pytest.mark.parametrize("rules", [CLASSIC, MINIONS], ids=["classic", "minions"])
def test_python_policy_without_overrides_plays_exactly_like_random(rules):
    class Plain(PythonPolicy):
        pass

    builtin = play(rules, 4, "random", seed=5, n_games=3, trace=True)
    assert same_results(builtin, play(rules, 4, Plain(), seed=5, n_games=3, trace=True))
    assert same_results(builtin, play(rules, 4, [Plain(), "random", Plain(), "random"], seed=5, n_games=3,
                                      trace=True))


def test_plain_callable_answers_play_and_the_rest_defaults_to_random():
    def uniform_legal(view):
        return view.legal[view.rng.below(len(view.legal))]

    builtin = play(CLASSIC, 3, "random", seed=8, n_games=2, trace=True)
    assert same_results(builtin, play(CLASSIC, 3, uniform_legal, seed=8, n_games=2, trace=True))


def test_object_with_only_some_methods_gets_the_defaults_for_the_rest():
    class OnlyPlay:
        def play(self, view):
            return view.legal[view.rng.below(len(view.legal))]

    builtin = play(CLASSIC, 3, "random", seed=8, n_games=2, trace=True)
    assert same_results(builtin, play(CLASSIC, 3, OnlyPlay(), seed=8, n_games=2, trace=True))


def test_random_policy_object_equals_the_built_in_spec():
    spec = "random(p_draw=0.2,p_bluff=0.3,p_challenge=0.4)"
    obj = RandomPolicy(p_draw=0.2, p_bluff=0.3, p_challenge=0.4)
    assert same_results(play(CLASSIC, 3, spec, seed=4, n_games=2, trace=True),
                        play(CLASSIC, 3, obj, seed=4, n_games=2, trace=True))


def test_lineup_strings_with_fill():
    r = play(CLASSIC, 4, "greedy_points,random*", seed=2, trace=True)
    assert len(r.matches) == 1
    with pytest.raises(ValueError, match="players=4"):
        play(CLASSIC, 4, [PythonPolicy(), PythonPolicy()], seed=2)


class Cheater(PythonPolicy):
    def play(self, view):
        return next(i for i in range(len(view.hand)) if i not in view.legal)


class PlaysFirst(PythonPolicy):
    def play(self, view):
        return view.legal[0]


class BadColour(PlaysFirst):
    def colour(self, view):
        return 4


class BadTarget(PlaysFirst):
    def target(self, view, candidates):
        return view.seat


class VagueDrawn(PythonPolicy):
    def play_drawn(self, view, card):
        return 1


def says_yes(view):
    return True


@pytest.mark.parametrize("policy,hand,message", [
    (Cheater(), ["R5", "R6", "Y8"],
     (r"policy 'Cheater' at seat 1 answered 2 to play\(\) with hand \['R5', 'R6', 'Y8'\]; "
      r"valid answers: legal indices \[0, 1\], None \(draw\)")),
    (says_yes, ["R5", "R6", "Y8"], r"'says_yes' at seat 1 answered True to play"),
    (BadColour(), ["WILD", "R6", "Y8"], r"'BadColour' at seat 1 answered 4 to colour\(\); valid answers: 0, 1"),
    (BadTarget(), ["BLANK0", "R6", "Y8"], r"'BadTarget' at seat 1 answered 1 to target\(\).*\[2, 0\]"),
    (VagueDrawn(), ["G7", "Y8", "B5"], r"'VagueDrawn' at seat 1 answered 1 to play_drawn\(\).*True or False"),
])
def test_invalid_answers_raise_naming_policy_answer_and_options(policy, hand, message):
    hands = [["B1", "B2", "B3"], hand, ["G1", "G2", "B4"]]
    with pytest.raises(ValueError, match=message):
        run(hands, "R9", ["R3"], scripts=[Scripted(), policy, Scripted()], max_turns_per_round=3)


def test_deck_order_must_be_the_variant_deck():
    deck = list(cards.deck_ids(CLASSIC.deck_counts()))
    with pytest.raises(ValueError, match="permutation of the 111-card classic deck"):
        play(CLASSIC, 3, "random", seed=1, deck_order=deck[:-1] + [cards.ID_DUMB_FU])


def test_deck_order_replaces_only_the_first_shuffle_of_every_game():
    deck = list(cards.deck_ids(CLASSIC.deck_counts()))
    rules = CLASSIC.replace(first_dealer=0)
    r = play(rules, 3, "random", seed=1, n_games=2, deck_order=deck, trace=True)
    first_cards = [int(e[2]) for e in r.events if e[0] == L.EV_FIRST_CARD and e[1] == 1]
    round_starts = [k for k, e in enumerate(r.events) if e[0] == L.EV_ROUND_START]
    game_starts = [k for k in round_starts if r.events[k][2] == 0]
    assert len(game_starts) == 2
    # the top of the given order (the last element) is dealt first; 21 cards dealt, then the first card
    for k in game_starts:
        assert r.events[k + 1][0] == L.EV_FIRST_CARD and r.events[k + 1][2] == deck[-22]
    assert len(first_cards) >= 2


def test_random_first_dealer_is_drawn_from_the_deck_stream_for_every_match():
    rules = CLASSIC.replace(match_mode="single_round")
    r = play(rules, 5, "random", seed=21, n_games=12)
    dealers = [Xoshiro(21, g, 0).below(5) for g in range(12)]
    assert list(r.rounds[:, L.RC_DEALER]) == dealers == list(r.matches[:, L.MC_FIRST_DEALER])
    assert len(set(dealers)) > 1


def test_unknown_families_cannot_even_be_described():
    with pytest.raises(ValueError, match="unknown variant family 'future_family'"):
        RuleSet(family="future_family")


@pytest.mark.parametrize("players", [1, 11])
def test_player_count_is_checked(players):
    with pytest.raises(ValueError, match="players"):
        play(CLASSIC, players, "random", seed=1)


def test_fixed_first_dealer_must_be_a_seat():
    with pytest.raises(ValueError, match="first_dealer=5"):
        play(CLASSIC.replace(first_dealer=5), 3, "random", seed=1)


# ---- built-in policies in Python (protocol §4) -------------------------------------------------------
@pytest.mark.parametrize("policy,played,colour", [
    ("greedy_points", "WILD", 0),      # most points; then its most-held colour, R and G tie: lowest index
    ("keep_wilds", "RSKIP", 2),        # coloured card of its longest colour, then most points
])
def test_deterministic_built_in_policies(policy, played, colour):
    hands = [["B1", "B2", "B3", "B4", "B5"], ["R1", "RSKIP", "WILD", "G2", "G3"], ["G1", "G2", "Y4", "Y5", "Y6"]]
    s = run(hands, "R9", scripts=["random", policy, "random"], max_turns_per_round=1)
    assert s.turn(1)[0] == E("play", 1, played)
    if played == "WILD":
        assert s.turn(1)[1] == E("colour", 1, colour)


def test_keep_wilds_prefers_its_longest_colour():
    hands = [["B1", "B2", "B3", "B4"], ["R1", "RSKIP", "G9", "G2"], ["G1", "G3", "Y4", "Y5"]]
    hands[1] = ["RSKIP", "G9", "G2", "G3"]
    hands[2] = ["G1", "G4", "Y4", "Y5"]
    s = run(hands, "R9", scripts=["random", "keep_wilds", "random"], max_turns_per_round=1)
    assert s.turn(1)[0] == E("play", 1, "G9")


@pytest.mark.parametrize("policy", [GreedyPointsPolicy(), KeepWildsPolicy()])
def test_deterministic_policies_target_the_smallest_hand_first_on_ties(policy):
    def view(sizes):
        return PolicyView(seat=1, hand=(1, 2), top=9, colour=0, direction=1, hand_sizes=sizes, pending=0,
                          legal=(0, 1), bluffs=(), rules=CLASSIC, rng=Xoshiro(1, 0, 1))

    assert policy.target(view((3, 2, 5, 3)), (2, 3, 0)) == 3
    assert policy.target(view((1, 2, 3, 3)), (2, 3, 0)) == 0
    assert policy.target(view((1, 2, 1, 3)), (2, 3, 0)) == 2      # tie: first in candidate order


def test_deterministic_policies_name_a_random_colour_without_coloured_cards():
    view = PolicyView(seat=1, hand=(cards.ID_WILD,), top=9, colour=0, direction=1, hand_sizes=(1, 1), pending=0,
                      legal=(0,), bluffs=(), rules=CLASSIC, rng=Xoshiro(4, 0, 1))
    assert GreedyPointsPolicy().colour(view) == Xoshiro(4, 0, 1).below(4)


@pytest.mark.parametrize("spec", ["greedy_points(p_draw=0.5)", "keep_wilds(p_bluff=0.1)"])
def test_deterministic_policies_refuse_parameters_they_cannot_honour(spec):
    with pytest.raises(ValueError, match="unknown parameter .* valid are \\['p_challenge', 'p_keep_drawn'\\]"):
        play(CLASSIC, 3, spec, seed=1)
