"""The ``weighted`` policy and its presets: each preset's defining choice in a scripted position, the
features it reads, parameters and bad input, ``p_keep_drawn`` and ``force_play_drawn``.

The positions are asked of the reference twin (unosim/reference/weighted.py), which the differential
tests (test_weighted_differential.py) prove plays exactly as the kernel; the p_keep_drawn tests run the
kernel."""

import numpy as np
import polars as pl
import pytest
from scenario_tools import C, Scripted, run

import unosim
from unosim.game import protocol as L
from unosim.game.policies import PRESETS, lineup_arrays, make_lineup, parse_policy
from unosim.game.protocol import N_POLICY_PARAMS, POLICY_PARAMS
from unosim.game.rules import get_variant
from unosim.play.simulate import resolve, run_compiled
from unosim.reference.policies import resolve_lineup
from unosim.reference.policy import PolicyView
from unosim.reference.rng import Xoshiro

RED, YELLOW, GREEN, BLUE = range(4)


def policy(spec: str):
    return resolve_lineup(spec, 1)[0].policy


def view(hand, top, *, colour=None, hand_sizes=(7, 7, 7), seat=0, discard=(), shown=(), legal=None,
         bluffs=(), variant="classic", **rules):
    """A position for seat ``seat``: ``hand`` and ``top`` as card names, the legal cards computed
    (docs/rules.md §1.4) unless given; next(seat) is seat + 1."""
    ids = tuple(C(c) for c in hand)
    top_id = C(top)
    from unosim.game import cards
    a = cards.COLOUR[top_id] if colour is None else colour
    if legal is None:
        legal = tuple(i for i, c in enumerate(ids)
                      if cards.COLOUR[c] in (a, cards.NO_COLOUR)
                      or (cards.KIND[c] == cards.KIND[top_id] and cards.KIND[c] != cards.NUMBER)
                      or (cards.KIND[c] == cards.NUMBER == cards.KIND[top_id]
                          and cards.NUMBER_OF[c] == cards.NUMBER_OF[top_id]))
    sizes = list(hand_sizes)
    sizes[seat] = len(ids)
    return PolicyView(seat=seat, hand=ids, top=top_id, colour=int(a), direction=1, hand_sizes=tuple(sizes),
                      pending=0, legal=tuple(legal), bluffs=tuple(bluffs), rules=get_variant(variant, rules),
                      rng=Xoshiro(5, 0, 1), active=(True,) * len(sizes), shown=tuple(shown),
                      discard=tuple(C(c) for c in discard) + (top_id,))


def played(spec, v):
    choice = policy(spec).play(v)
    return None if choice is None else _name(v.hand[choice])


def _name(card):
    from unosim.game import cards
    return cards.card_name(int(card))


# ---- each preset's defining behaviour ---------------------------------------------------------------
def test_by_colour_plays_the_colour_in_play_when_it_can():
    v = view(["B7", "G7", "R3", "WILD"], "R7")
    assert played("by_colour", v) == "R3"


def test_by_number_changes_colour_by_matching_the_number():
    v = view(["R3", "B7", "B2", "G7", "WILD"], "R7")
    assert played("by_number", v) == "B7"   # a 7; blue, the colour it holds more of


def test_high_card_out_sheds_the_most_points():
    assert played("high_card_out", view(["R3", "RSKIP", "R9"], "R7")) == "RSKIP"
    assert played("high_card_out", view(["R3", "WD4", "R9"], "B7", colour=RED, legal=(0, 2),
                                        bluffs=(1,))) == "R9"   # no bluffing: the WD4 is not legal here


@pytest.mark.parametrize("hand", [["WILD", "R3"], ["WD4", "B7", "Y1"], ["WILD", "WD4", "RSKIP", "G1"]])
def test_save_wilds_never_plays_a_wild_while_a_coloured_card_fits(hand):
    v = view(hand, "R7")
    assert played("save_wilds", v) not in ("WILD", "WD4")


def test_save_wilds_plays_a_wild_when_nothing_else_fits():
    assert played("save_wilds", view(["WILD", "B3"], "R7")) == "WILD"


def test_punisher_holds_a_draw_two_until_the_next_seat_is_close_to_uno():
    hand = ["R+2", "R3", "Y5"]
    assert played("punisher", view(hand, "R7", hand_sizes=(0, 5, 7))) == "R3"
    assert played("punisher", view(hand, "R7", hand_sizes=(0, 2, 7))) == "R+2"
    # it holds the +2 only while another card fits: never a voluntary draw instead
    assert played("punisher", view(["R+2", "Y5"], "R7", hand_sizes=(0, 5, 7))) == "R+2"
    # a Skip is held the same way; a lower draw weight makes it draw rather than play the attack card
    assert played("punisher", view(["RSKIP", "R3"], "R7", hand_sizes=(0, 5, 7))) == "R3"
    assert played("punisher(w_voluntary_draw=-5)", view(["R+2", "Y5"], "R7", hand_sizes=(0, 5, 7))) is None


def test_colour_counter_names_the_colour_most_seen_in_the_discard_pile():
    # holds one red and one blue; the blues are mostly gone (seen), so the others likely lack blue
    v = view(["R1", "B1"], "WILD", colour=RED, discard=["B2", "B3", "B4", "R5", "Y6"])
    assert policy("colour_counter").colour(v) == BLUE
    assert policy("by_colour").colour(view(["R1", "R2", "B1"], "WILD", colour=RED,
                                           discard=["B2", "B3", "B4", "B5"])) == RED


def test_colour_counter_prefers_the_play_that_keeps_a_counted_colour():
    v = view(["R3", "B7"], "R7", discard=["B2", "B3", "B4", "B5", "B6"])
    assert played("colour_counter", v) == "B7"


def test_colour_counter_plays_the_colour_with_the_fewest_unseen_cards_even_against_its_longest():
    # red: 2 held + 1 seen (the top); blue: 1 held + 4 seen, so fewer blues are unseen; the old weights
    # (seen at a fifth of held) kept to the longer red
    v = view(["R3", "R4", "B7"], "R7", discard=["B1", "B2", "B3", "B4"])
    assert played("colour_counter", v) == "B7"
    assert played("colour_counter(w_seen=0.2,w_points=0)", v) in ("R3", "R4")
    # equal counts: the most points first (a tie-break, never outweighing one card of count)
    assert played("colour_counter", view(["R3", "R8", "B7"], "R7", discard=["B1"])) == "R8"
    assert played("colour_counter", view(["R3", "R8", "BSKIP"], "RSKIP", discard=["B1", "B2"])) == "BSKIP"


# ---- features, options and tie rules ----------------------------------------------------------------
def test_ties_are_broken_by_the_play_stream_and_only_ties_draw():
    v = view(["R3", "R4", "R5"], "R7")
    untouched = list(v.rng.state)
    assert played("weighted(w_points=1)", v) == "R5"
    assert v.rng.state == untouched                   # a unique best draws nothing
    tie = view(["R3", "Y3", "B3", "G1"], "G3", voluntary_draw=False)   # legal: the three 3s and G1
    expected = Xoshiro(5, 0, 1).below(3)              # one below(3) among the tied 3s, in hand order
    assert played("weighted(w_number_match=1)", tie) == ["R3", "Y3", "B3"][expected]
    assert tie.rng.state != untouched


def test_voluntary_draw_and_bluff_are_options_with_their_own_weights():
    assert played("weighted(w_voluntary_draw=1)", view(["R3"], "R7")) is None
    v = view(["R3", "WD4"], "R7", legal=(0,), bluffs=(1,))
    assert played("weighted(w_bluff=1)", v) == "WD4"
    assert played("weighted(w_bluff=-1)", v) == "R3"


def test_stack_accept_and_keep_weights():
    v = view(["R+2", "R3"], "B+2", legal=(0,))
    assert policy("weighted(w_accept=1)").stack(v) is None
    assert policy("weighted(w_accept=-1)").stack(v) == 0
    drawn = view(["Y1", "R3"], "R7")
    assert policy("weighted(w_keep=1)").play_drawn(drawn, C("R3")) is False
    assert policy("weighted(w_keep=-1)").play_drawn(drawn, C("R3")) is True
    assert policy("weighted(w_keep=0)").jump_in(drawn, 1) is True     # a tie plays
    assert policy("weighted(w_keep=0.5)").jump_in(drawn, 1) is False


def test_challenge_reads_the_wd4_player_s_hand_size():
    spec = "weighted(w_challenge=-2.5,w_challenge_hand=1)"   # challenge a player holding 3 or more
    assert policy(spec).challenge(view(["R1"], "WD4", seat=1, hand_sizes=(2, 1, 7))) is False
    assert policy(spec).challenge(view(["R1"], "WD4", seat=1, hand_sizes=(3, 1, 7))) is True


def test_target_prefers_the_smallest_hand_under_the_presets():
    v = view(["R1"], "R7", hand_sizes=(1, 6, 2, 4))
    assert policy("by_colour").target(v, (1, 2, 3)) == 2


# ---- parameters and bad input -----------------------------------------------------------------------
def test_presets_are_weight_vectors_of_weighted_and_parameters_override_them():
    spec = parse_policy("punisher(p_challenge=0.3,w_attack=-4)")
    vector = spec.vector()
    assert spec.id == parse_policy("weighted").id and vector.shape == (N_POLICY_PARAMS,)
    assert vector[POLICY_PARAMS.index("w_attack")] == -4
    assert vector[POLICY_PARAMS.index("w_attack_close")] == PRESETS["punisher"][1]["w_attack_close"]
    assert vector[POLICY_PARAMS.index("p_challenge")] == 0.3
    assert spec.label == "punisher(p_challenge=0.3,w_attack=-4)"
    ids, params = lineup_arrays(make_lineup("by_colour,random*", 3))
    assert params.shape == (3, N_POLICY_PARAMS) and ids[1] == ids[2] != ids[0]


@pytest.mark.parametrize("spec, words", [
    ("by_color", ["unknown policy 'by_color'", "by_colour", "punisher", "colour_counter"]),
    ("weighted(w_pints=1)", ["unknown parameter 'w_pints'", "w_points", "w_seen"]),
    ("weighted(w_points=nan)", ["w_points='nan'", "finite"]),
    ("by_colour(w_wild=inf)", ["w_wild='inf'", "finite"]),
    ("punisher(p_draw=0.1)", ["unknown parameter 'p_draw'", "p_challenge"]),
    ("weighted(p_keep_drawn=1.5)", ["p_keep_drawn='1.5'", "[0, 1]"]),
])
def test_bad_weighted_specs_name_the_value_and_the_valid_choices(spec, words):
    with pytest.raises(ValueError) as error:
        make_lineup(spec, 2)
    assert all(w in str(error.value) for w in words), str(error.value)


def test_a_nan_weight_in_a_policy_spec_object_is_refused():
    from unosim.game.policies import PolicySpec
    with pytest.raises(ValueError, match="w_points"):
        parse_policy(PolicySpec("weighted", (("w_points", float("nan")),)))


# ---- p_keep_drawn and force_play_drawn --------------------------------------------------------------
def _drawn_game(force):
    """Seat 1 holds no legal card, draws a playable R5 and keeps it (p_keep_drawn=1) unless forced."""
    return run([["G1", "G2", "G3"], ["Y1", "Y2", "Y3"], ["B1", "B2", "B3"]], "R9", ["R5"],
               scripts=[Scripted(), "random(p_keep_drawn=1)", Scripted()], force_play_drawn=force)


def test_force_play_drawn_plays_a_drawn_card_the_policy_would_keep():
    assert ("play", 1, C("R5"), 0) in _drawn_game(True).turn(1)
    kept = _drawn_game(False).turn(1)
    assert ("draw", 1, C("R5"), 0) in kept and not [e for e in kept if e[0] == "play"]


@pytest.mark.parametrize("lineup", ["random(p_keep_drawn=1)", "greedy_points(p_keep_drawn=1)",
                                    "keep_wilds(p_keep_drawn=1)", "by_colour(p_keep_drawn=1)"])
def test_force_play_drawn_makes_p_keep_drawn_irrelevant_in_the_kernel(lineup):
    base = lineup.split("(")[0]
    forced = dict(force_play_drawn=True, match_mode="single_round")
    a = unosim.simulate("classic", players=4, games=150, seed=3, lineup=lineup, rules=forced)
    b = unosim.simulate("classic", players=4, games=150, seed=3, lineup=base, rules=forced)
    assert a.rounds.equals(b.rounds) and a.seats.drop("policy").equals(b.seats.drop("policy"))
    free = unosim.simulate("classic", players=4, games=150, seed=3, lineup=lineup,
                           rules={"match_mode": "single_round"})
    plain = unosim.simulate("classic", players=4, games=150, seed=3, lineup=base,
                            rules={"match_mode": "single_round"})
    assert not free.rounds.equals(plain.rounds)


def _drawn_and_played(lineup, rules):
    """Turns (kernel traces) in which the seat plays the card it just drew."""
    rs, specs = resolve("classic", 4, lineup, {"match_mode": "single_round", **rules})
    events = run_compiled(rs, 4, specs, 11, 0, 200, trace=True).events
    count, drawn = 0, None
    for code, seat, a, _ in events.tolist():
        if code in (L.EV_TURN, L.EV_ROUND_END):
            drawn = None
        elif code == L.EV_DRAW:
            drawn = (seat, a)
        elif code == L.EV_PLAY and drawn == (seat, a):
            count += 1
    return count


def test_p_keep_drawn_one_never_plays_a_drawn_card_unless_forced():
    assert _drawn_and_played("random(p_keep_drawn=1)", {}) == 0
    assert _drawn_and_played("random", {}) > 100
    assert _drawn_and_played("random(p_keep_drawn=1)", {"force_play_drawn": True}) > 100
    half = _drawn_and_played("random(p_keep_drawn=0.5)", {})
    assert 0 < half < _drawn_and_played("random", {})


def test_weighted_presets_play_every_variant_with_sane_tables():
    for variant in ("classic", "minions", "spin", "no_mercy"):
        r = unosim.simulate(variant, players=4, games=60, seed=2, rules={"match_mode": "single_round"},
                            lineup="by_colour,by_number,punisher,colour_counter")
        won = r.seats.group_by("game").agg(pl.col("won").sum())
        assert (won["won"] <= 1).all() and r.rounds.height > 0
        assert np.isfinite(r.rounds["n_turns"].to_numpy()).all()


# ---- greedy_points as weights -----------------------------------------------------------------------
# greedy_points written as weights: the most points, the first card on ties (w_order), the colour held
# most (lowest index on ties, w_colour_order; none held: the four tie and below(4) picks, as greedy's
# below(4)), the smallest hand as target. Powers of two keep every sum exact.
GREEDY_AS_WEIGHTS = ("weighted(w_points=1,w_order=0.0009765625,w_voluntary_draw=-100,w_bluff=-100,"
                     "w_accept=-100,w_keep=-100,w_colour_held=1,w_colour_order=0.000244140625,"
                     "w_target_hand=-1,w_target_order=0.0009765625,p_challenge=0.3)")


@pytest.mark.parametrize("variant, rules", [
    ("classic", {"stacking": "any_draw", "jump_in": True, "seven_o": True}),
    ("minions", {}),
    ("no_mercy", {}),
])
def test_greedy_points_written_as_weights_replays_greedy_points_outside_the_spin_wheel(variant, rules):
    """Every decision outside the spin wheel (card, stack, drawn card, jump-in, colour, target,
    challenge) is a weighted sum; the wheel's Almost UNO and group choices are not (docs/tutorials/strategies.md)."""
    rules = {"match_mode": "single_round", **rules}
    rs, greedy = resolve(variant, 4, "greedy_points(p_challenge=0.3)", rules)
    _, weighted = resolve(variant, 4, GREEDY_AS_WEIGHTS, rules)
    a = run_compiled(rs, 4, greedy, 4, 0, 300, trace=True)
    b = run_compiled(rs, 4, weighted, 4, 0, 300, trace=True)
    assert np.array_equal(a.events, b.events)
    assert np.array_equal(a.rounds, b.rounds) and np.array_equal(a.seats, b.seats)


@pytest.mark.parametrize("lineup, expected", [
    ("by_color,random*", "unknown policy 'by_color'"),
    ("weighted(w_points=nan)", "w_points='nan'"),
    ("punisher(w_atack=1)", "unknown parameter 'w_atack'"),
])
def test_cli_refuses_a_bad_weighted_lineup_in_one_line(lineup, expected, capsys):
    from unosim.cli import main
    code = main(["simulate", "classic", "-n", "3", "--games", "5", "--seed", "1", "--lineup", lineup])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and expected in err and "Traceback" not in err, err


def test_bench_rows_cover_random_and_every_preset():
    """make bench's policy rows (bench/policies.py): random first as the ratio's base, then every
    preset; the figures are measured by make bench, never asserted here."""
    from bench.policies import policy_rates
    rows = policy_rates(games=200, repeats=1, own_builds=False)   # the session's build: no compile
    assert [r["lineup"] for r in rows] == ["random", *PRESETS]
    assert rows[0]["ratio"] == 1.0 and rows[0]["turns_ratio"] == 1.0
    assert all(r["games_per_cpu_s"] > 0 and r["turns_per_cpu_s"] > 0 for r in rows)
