"""Scripted scenarios for the house-rule toggles of docs/rules.md §4 on classic: stacking in every mode (with the
Wild Draw Four challenge and exemption of §1.8 and the final-card total of §1.11), jump-in, seven_o,
the draw-step toggles, and mercy_limit. (voluntary_draw off, wd4_challenge off, no_bluffing,
two_player_reverse_skip off and final_card_effects off without stacking are in test_scenarios_actions.py,
test_scenarios_round.py and test_scenarios_final_card.py.)

Dealer 0, so F = seat 1 takes turn 1 on the number card R9 unless stated otherwise.
"""

import pytest
from scenario_tools import E, Scripted, names, run

DRAWS = ["G1", "G2", "G3", "G4", "Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "B5", "B6"]


def draws(seat, cards_):
    return [E("draw", seat, c) for c in cards_]


# ---- stacking (docs/rules.md §1.7, §4) -------------------------------------------------------------------------
# mode, card played by seat 1, what the responder (seat 2) may stack out of G+2, WD4, GSKIP, WILD
STACK_ROWS = [
    ("same_kind", "R+2", ["G+2"]), ("same_kind", "WD4", ["WD4"]),
    ("any_draw", "R+2", ["G+2", "WD4"]), ("any_draw", "WD4", ["G+2", "WD4"]),
    ("escalating", "R+2", ["G+2", "WD4"]), ("escalating", "WD4", ["WD4"]),
]


@pytest.mark.parametrize("mode,card,allowed", STACK_ROWS, ids=[f"{r[0]}-{r[1]}" for r in STACK_ROWS])
def test_stack_responses_allowed_by_each_mode(mode, card, allowed):
    """The responder holds green cards on a red play: no colour match is needed, and a WD4 response is
    exempt from the legality rule (it holds green, the colour in play after the +2)."""
    responder = Scripted()
    hands = [["B1", "B2", "B3", "B4"], [card, "Y7", "Y8", "Y9"], ["G+2", "WD4", "GSKIP", "WILD"]]
    s = run(hands, "R9", DRAWS, scripts=[Scripted(), Scripted(plays=[card], colours=[2]), responder],
            stacking=mode, max_turns_per_round=2)
    view = responder.stack_views[0]
    assert sorted(names(view.hand[i] for i in view.legal)) == sorted(allowed)
    value = 2 if card == "R+2" else 4
    assert view.pending == view.pending_value == value
    assert s.turn(2) == [E("accept", 2, value)] + draws(2, DRAWS[:value])   # no skip event on accepting
    assert s.round["largest_stack"] == value


def test_without_stacking_a_draw_card_resolves_at_once():
    responder = Scripted()
    hands = [["B1", "B2", "B3"], ["R+2", "Y7", "Y8"], ["G+2", "WD4", "G9"]]
    s = run(hands, "R9", DRAWS, scripts=[Scripted(), Scripted(plays=["R+2"]), responder], max_turns_per_round=2)
    assert s.turn(1) == [E("play", 1, "R+2")] + draws(2, DRAWS[:2]) + [E("skip", 2)]
    assert not responder.stack_views and s.turn_seat(2)[0] == 0
    assert s.round["largest_stack"] == 2           # the largest single penalty (protocol §5)


@pytest.mark.parametrize("mode", ["same_kind", "any_draw", "escalating"])
def test_a_stack_passes_on_and_the_first_player_who_accepts_draws_the_total(mode):
    hands = [["R+2", "B2", "B3"], ["R+2", "Y7", "Y8"], ["G+2", "G8", "B4"]]
    scripts = [Scripted(stacks=["R+2"]), Scripted(plays=["R+2"], stacks=["accept"]), Scripted(stacks=["G+2"])]
    s = run(hands, "R9", DRAWS, scripts=scripts, stacking=mode, max_turns_per_round=5)
    assert s.turn_players() == [1, 2, 0, 1, 2]
    assert s.turn(4) == [E("accept", 1, 6)] + draws(1, DRAWS[:6])
    assert s.round["largest_stack"] == 6


WD4_HANDS = [["B1", "B2", "B3"], ["WD4", "Y7", "Y8"], ["WD4", "G8", "B4"]]


@pytest.mark.parametrize("mode", ["same_kind", "any_draw", "escalating"])
def test_wd4_played_normally_the_victim_first_decides_to_challenge(mode):
    """Innocent WD4, challenged: the victim draws 6 and is skipped, nothing pends, no response turn —
    a challenger cannot also stack (docs/rules.md §1.8)."""
    victim = Scripted(challenges=[True], stacks=["WD4"])
    s = run(WD4_HANDS, "R9", DRAWS, scripts=[Scripted(), Scripted(plays=["WD4"], colours=[2]), victim],
            stacking=mode, max_turns_per_round=2)
    assert s.turn(1) == [E("play", 1, "WD4"), E("colour", 1, 2), E("challenge", 2, 0)] + draws(2, DRAWS[:6]) + \
        [E("skip", 2)]
    assert not victim.stack_views and s.turn_seat(2)[0] == 0
    assert s.after(E("skip", 2)).pending == 0


def test_wd4_challenged_guilty_player_draws_and_the_victim_plays_a_normal_turn():
    victim = Scripted(challenges=[True])
    hands = [["B1", "B2", "B3"], ["WD4", "R7", "Y8"], ["WD4", "G8", "B4"]]
    s = run(hands, "R9", DRAWS, scripts=[Scripted(), Scripted(plays=["WD4"], colours=[2]), victim],
            stacking="escalating", max_turns_per_round=2)
    assert s.turn(1)[2:] == [E("challenge", 2, 1)] + draws(1, DRAWS[:4])
    assert s.turn_seat(2)[0] == 2 and victim.views[0].pending == 0 and not victim.stack_views


def test_unchallenged_wd4_gives_a_response_turn_and_a_wd4_response_cannot_be_challenged():
    """Seat 2 declines to challenge and stacks its WD4 although it holds green, the colour in play (the
    exemption of docs/rules.md §1.8, §6 C17); seat 0 is never asked to challenge it."""
    seat0 = Scripted(challenges=[True])
    s = run(WD4_HANDS, "R9", DRAWS, scripts=[seat0, Scripted(plays=["WD4"], colours=[2]),
                                               Scripted(challenges=[False], stacks=["WD4"], colours=[1])],
            stacking="escalating", max_turns_per_round=3)
    assert s.turn(2) == [E("play", 2, "WD4"), E("colour", 2, 1)]
    assert seat0.challenges == [True] and not s.of("challenge")
    assert s.turn(3) == [E("accept", 0, 8)] + draws(0, DRAWS[:8])


@pytest.mark.parametrize("effects_on", [True, False], ids=["final_card_effects-on", "off"])
def test_final_stack_response_makes_the_next_player_draw_the_whole_total(effects_on):
    """Two players: seat 0 gets down to one card (a Skip gives it two plays) and answers a +2 with its
    last card, a +2: seat 1 draws P = 4 with final-card effects, nothing without (docs/rules.md §1.11)."""
    hands = [["RSKIP", "R5", "G+2"], ["R3", "R+2", "Y8"]]
    scripts = [Scripted(plays=["RSKIP", "R5"], stacks=["G+2"]), Scripted(plays=["R3", "R+2"])]
    s = run(hands, "R9", DRAWS, scripts=scripts, stacking="any_draw", final_card_effects=effects_on)
    assert s.turn_players() == [1, 0, 0, 1, 0]
    assert s.turn(5) == [E("play", 0, "G+2")] + (draws(1, DRAWS[:4]) if effects_on else [])
    assert (s.round["winner_seat"], s.round["largest_stack"]) == (0, 2)
    assert s.seat(1)["cards_left"] == 1 + 4 * effects_on


# ---- jump-in (docs/rules.md §4) --------------------------------------------------------------------------------
def jump_game(hands, plays, first="R9", **overrides):
    scripts = [Scripted() for _ in hands]
    for seat, cards_ in plays.items():
        scripts[seat] = Scripted(plays=cards_)
    settings = {"jump_in": True, "max_turns_per_round": 3, **overrides}
    return run(hands, first, DRAWS, scripts=scripts, **settings), scripts


FOUR = [["B1", "B2", "B3"], ["R5", "Y7", "Y8"], ["G7", "G8", "B4"], ["R5", "G5", "Y4"]]


def test_jump_in_bypasses_the_players_in_between_and_play_continues_from_the_jumper():
    s, scripts = jump_game(FOUR, {1: ["R5"]})
    assert s.events[s.events.index(E("play", 1, "R5")) + 1] == ("turn", 3, 2, 1)
    assert s.turn(2) == [E("play", 3, "R5")]
    assert s.turn_players() == [1, 3, 0]              # seat 2 bypassed
    assert scripts[3].jump_views[0][1] == 0 and not scripts[2].jump_views   # only holders are asked
    assert s.round["n_turns"] == 3 and s.seat(3)["n_played"] == 1


def test_only_an_identical_card_jumps_in():
    hands = [["B1", "B2", "B3"], ["R5", "Y7", "Y8"], ["G5", "R6", "B4"], ["Y5", "G6", "Y4"]]
    s, _ = jump_game(hands, {1: ["R5"]})
    assert s.turn_players() == [1, 2, 3] and not [e for e in s.events if e[0] == "turn" and e[3] == 1]


@pytest.mark.parametrize("seat2_jumps", [True, False])
def test_first_willing_holder_from_next_of_the_last_player_jumps_in(seat2_jumps):
    """no_mercy has three red Skips: seat 1 skips seat 2; seat 2 (first from next(1)) may jump in at
    once; if it declines, seat 3 holds none and seat 0 jumps in."""
    hands = [["RSKIP", "B2", "B3"], ["RSKIP", "Y7", "Y8"], ["RSKIP", "G8", "B4"], ["B5", "G5", "Y4"]]
    scripts = [Scripted(), Scripted(plays=["RSKIP"]), Scripted(jumps=[seat2_jumps]), Scripted()]
    s = run(hands, "R9", DRAWS, scripts=scripts, variant="no_mercy", jump_in=True, max_turns_per_round=2)
    jumper = 2 if seat2_jumps else 0
    assert s.turn(2) == [E("play", jumper, "RSKIP"), E("skip", (jumper + 1) % 4)]
    # then the chain check asks the remaining holder once more before the turn cap ends the round
    assert (len(scripts[2].jump_views), len(scripts[0].jump_views)) == ((1, 1) if seat2_jumps else (2, 1))
    assert s.round["end"] == 3


def test_jump_in_chains_and_every_effect_applies():
    """no_mercy has three red Skips: seat 3 and then seat 0 jump in, each skipping the next player."""
    hands = [["RSKIP", "B2", "B3"], ["RSKIP", "Y7", "Y8"], ["G7", "G8", "B4"], ["RSKIP", "G5", "Y4"]]
    s, _ = jump_game(hands, {1: ["RSKIP"]}, variant="no_mercy", max_turns_per_round=4)
    assert s.turn(1) == [E("play", 1, "RSKIP"), E("skip", 2)]
    assert s.turn(2) == [E("play", 3, "RSKIP"), E("skip", 0)]
    assert s.turn(3) == [E("play", 0, "RSKIP"), E("skip", 1)]
    assert [e for e in s.events if e[0] == "turn"] == [("turn", 1, 1, 0), ("turn", 3, 2, 1), ("turn", 0, 3, 1),
                                                       ("turn", 2, 4, 0)]


def test_no_jump_in_while_a_penalty_is_pending():
    hands = [["B1", "B2", "B3"], ["R+2", "Y7", "Y8"], ["G7", "G8", "B4"], ["R+2", "G5", "Y4"]]
    s, scripts = jump_game(hands, {1: ["R+2"]}, stacking="same_kind")
    assert not scripts[3].jump_views and s.turn_players() == [1, 2, 3]


def test_jump_in_after_a_resolved_draw_card_hits_the_jumper_s_next_player():
    hands = [["B1", "B2", "B3"], ["R+2", "Y7", "Y8"], ["G7", "G8", "B4"], ["R+2", "G5", "Y4"]]
    s, _ = jump_game(hands, {1: ["R+2"]})
    assert s.turn(1) == [E("play", 1, "R+2")] + draws(2, DRAWS[:2]) + [E("skip", 2)]
    assert s.turn(2) == [E("play", 3, "R+2")] + draws(0, DRAWS[2:4]) + [E("skip", 0)]
    assert s.turn_seat(3)[0] == 1


@pytest.mark.parametrize("first_play", ["WILD", "draw"])
def test_no_jump_in_on_a_wild_or_after_a_turn_without_a_play(first_play):
    hands = [["WILD", "B2", "B3"], ["WILD", "Y7", "Y8"], ["G7", "G8", "B4"], ["R5", "G5", "Y4"]]
    s, scripts = jump_game(hands, {1: [first_play]})
    assert not scripts[0].jump_views and not scripts[3].jump_views
    assert s.turn_players() == [1, 2, 3]


def test_turn_cap_is_checked_before_a_jump_in():
    s, _ = jump_game(FOUR, {1: ["R5"]}, max_turns_per_round=1)
    assert (s.round["n_turns"], s.round["end"]) == (1, 3)
    assert s.events[-3] != ("turn", 3, 2, 1)


# ---- seven_o (docs/rules.md §4) --------------------------------------------------------------------------------
@pytest.mark.parametrize("card", ["R7", "R0"])
def test_seven_o_on_classic(card):
    chooser = Scripted(plays=[card], targets=[0])
    hands = [["B1", "B2", "B3"], [card, "Y7", "Y8"], ["G7", "G8", "B4"]]
    s = run(hands, "R9", scripts=[Scripted(), chooser, Scripted()], seven_o=True, max_turns_per_round=1)
    if card == "R7":
        assert s.turn(1) == [E("play", 1, "R7"), E("swap", 1, 0)] and chooser.candidates == (2, 0)
        assert (s.round["swaps_7"], s.round["passes_0"]) == (1, 0)
        assert names(s.after(E("swap", 1, 0)).hands[0]) == ["Y7", "Y8"]
    else:
        assert s.turn(1) == [E("play", 1, "R0"), E("pass", 1)]
        assert [names(h) for h in s.after(E("pass", 1)).hands] == [["G7", "G8", "B4"], ["B1", "B2", "B3"],
                                                                  ["Y7", "Y8"]]
        assert (s.round["swaps_7"], s.round["passes_0"]) == (0, 1)


@pytest.mark.parametrize("seven_o", [False, True])
def test_seven_o_off_or_as_the_last_card_has_no_effect(seven_o):
    s = run([["B1"], ["R7"], ["G7"]] if seven_o else [["B1", "B2"], ["R7", "Y7"], ["G7", "G8"]], "R9",
            seven_o=seven_o, max_turns_per_round=1)
    assert not s.of("swap", "pass") and s.round["swaps_7"] == 0


# ---- the draw step (docs/rules.md §4 draw_until_playable, force_play_drawn) ------------------------------------
@pytest.mark.parametrize("until", [False, True])
@pytest.mark.parametrize("force", [False, True])
def test_draw_step_toggles(until, force):
    drawer = Scripted(drawn=[False])
    s = run([["B1", "B2", "B3"], ["G7", "Y8", "B5"], ["G1", "G2", "B4"]], "R9", ["G3", "Y4", "R3"],
            scripts=[Scripted(), drawer, Scripted()], draw_until_playable=until, force_play_drawn=force,
            max_turns_per_round=1)
    drawn = ["G3", "Y4", "R3"] if until else ["G3"]
    played = [E("play", 1, "R3")] if until and force else []
    assert s.turn(1) == draws(1, drawn) + played
    assert drawer.drawn == ([False] if force or not until else [])


# ---- mercy_limit (docs/rules.md §4, §2.4.6) on classic ------------------------------------------------------------
def test_mercy_limit_on_classic_knocks_out_without_a_skip_and_scores_250():
    s = run([["B1", "B2", "B3"], ["R+2", "R5", "Y8"]], "R9", DRAWS, mercy_limit=4)
    assert s.turn(1) == [E("play", 1, "R+2"), E("draw", 0, "G1"), E("knockout", 0, 1)]
    assert (s.round["winner_seat"], s.round["end"], s.round["points"], s.round["knockouts"]) == (1, 1, 250, 1)


def test_mercy_limit_knock_out_by_a_stack_acceptance_on_classic():
    hands = [["B1", "B2", "B3"], ["R+2", "Y7", "Y8"], ["G+2", "G8", "B4"]]
    s = run(hands, "R9", DRAWS, scripts=[Scripted(), Scripted(plays=["R+2"]), Scripted(stacks=["G+2"])],
            stacking="any_draw", mercy_limit=6, max_turns_per_round=4)
    assert s.turn(3) == [E("accept", 0, 4)] + draws(0, DRAWS[:3]) + [E("knockout", 0, 3)]
    assert s.turn_seat(4)[0] == 1 and s.seat(0)["knockout_turn"] == 3
