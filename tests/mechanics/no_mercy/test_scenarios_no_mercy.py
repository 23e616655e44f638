"""Scripted scenarios for no_mercy (docs/rules.md §2.4): first card (§2.4.2), every card effect with two and
three active players (§2.4.4), escalating stacking (§2.4.5), the end of a round (§2.4.7) and scoring
(§2.4.8). Knock-outs (§2.4.6) are in test_scenarios_no_mercy_knockouts.py.

Dealer 0, so F = seat 1 takes turn 1 on the number card R9 unless stated otherwise.
"""

import pytest
from scenario_tools import C, E, Scripted, names, run

from unosim.game.cards import POINTS

NM = {"variant": "no_mercy"}
SEAT0, SEAT2 = ["B5", "B6", "B7", "B8"], ["G7", "G8", "B4", "G6"]
DRAWS = ["G1", "WD6", "B1", "G2", "G3", "Y1", "Y2", "Y3", "Y4", "Y5"]


def hands_for(players, card, rest=("R3", "Y8", "R4")):
    hands = [SEAT0, [card, *rest], SEAT2]
    return hands[:players]


def draws(seat, cards_):
    return [E("draw", seat, c) for c in cards_]


def accepts(seat, total):
    return [E("accept", seat, total)] + draws(seat, DRAWS[:total])


# ---- docs/rules.md §2.4.4: card, players, events of turn 1 after PLAY (and COLOUR), next seat, events of
# turn 2 when it is a response turn (the scripted responder accepts)
EFFECT_ROWS = [
    ("R5", 3, [], 2, None),
    ("R5", 2, [], 0, None),
    ("R0", 3, [E("pass", 1)], 2, None),
    ("R0", 2, [E("pass", 1)], 0, None),
    ("R7", 3, [E("swap", 1, 0)], 2, None),
    ("R7", 2, [E("swap", 1, 0)], 0, None),
    ("RSKIP", 3, [E("skip", 2)], 0, None),
    ("RSKIP", 2, [E("skip", 0)], 1, None),
    ("RREV", 3, [], 0, None),
    ("RREV", 2, [E("skip", 0)], 1, None),
    ("RSKALL", 3, [], 1, None),
    ("RSKALL", 2, [], 1, None),
    # reaching one card by Discard All calls for UNO (docs/rules.md §6 C10)
    ("RDALL", 3, [E("discard", 1, "R3"), E("discard", 1, "R4"), E("uno", 1, 1)], 2, None),
    ("RDALL", 2, [E("discard", 1, "R3"), E("discard", 1, "R4"), E("uno", 1, 1)], 0, None),
    ("R+2", 3, [], 2, accepts(2, 2)),
    ("R+2", 2, [], 0, accepts(0, 2)),
    ("R+4", 3, [], 2, accepts(2, 4)),
    ("R+4", 2, [], 0, accepts(0, 4)),
    ("WD6", 3, [E("colour", 1, 2)], 2, accepts(2, 6)),
    ("WD6", 2, [E("colour", 1, 2)], 0, accepts(0, 6)),
    ("WD10", 3, [E("colour", 1, 2)], 2, accepts(2, 10)),
    ("WD10", 2, [E("colour", 1, 2)], 0, accepts(0, 10)),
    # WRD4 reverses first: the responder is the player before p; with two players p itself (N4, N18)
    ("WRD4", 3, [E("colour", 1, 2)], 0, accepts(0, 4)),
    ("WRD4", 2, [E("colour", 1, 2)], 1, accepts(1, 4)),
    # Roulette: the victim names blue (3) and reveals until blue; the wild WD6 does not count
    ("ROULETTE", 3, [E("roulette", 2, 3), *draws(2, ["G1", "WD6", "B1"])], 0, None),
    ("ROULETTE", 2, [E("roulette", 0, 3), *draws(0, ["G1", "WD6", "B1"])], 1, None),
]


def effect_game(card, players, turns=2, **overrides):
    scripts = [Scripted(colours=[3]) for _ in range(players)]
    scripts[1] = Scripted(plays=[card], colours=[2], targets=[0])
    s = run(hands_for(players, card), "R9", DRAWS, scripts=scripts, max_turns_per_round=turns, **NM, **overrides)
    return s, scripts


@pytest.mark.parametrize("card,players,effect,next_seat,response", EFFECT_ROWS,
                         ids=[f"{r[0]}-{r[1]}p" for r in EFFECT_ROWS])
def test_card_effect_and_next_player(card, players, effect, next_seat, response):
    s, _ = effect_game(card, players)
    assert s.turn(1) == [E("play", 1, card)] + effect
    assert s.turn_seat(2)[0] == next_seat
    if response is not None:
        assert s.turn(2) == response
        assert s.round["largest_stack"] == response[0][2]


def test_zero_passes_every_hand_to_the_next_seat_in_the_direction_of_play():
    s, _ = effect_game("R0", 3)
    hands = [names(h) for h in s.after(E("pass", 1)).hands]
    assert hands == [SEAT2, SEAT0, ["R3", "Y8", "R4"]]
    assert (s.round["passes_0"], s.round["swaps_7"]) == (1, 0)


def test_zero_after_a_reverse_passes_the_other_way():
    scripts = [Scripted(plays=["R0"]), Scripted(plays=["RREV"]), Scripted()]
    hands = [["R0", "B6", "B7"], ["RREV", "Y2", "Y3"], ["G7", "G8", "G9"]]
    s = run(hands, "R9", DRAWS, scripts=scripts, max_turns_per_round=2, **NM)
    assert s.turn_players() == [1, 0] and s.turn(2) == [E("play", 0, "R0"), E("pass", 0)]
    after = [names(h) for h in s.after(E("pass", 0)).hands]
    assert after == [["Y2", "Y3"], ["G7", "G8", "G9"], ["B6", "B7"]]      # seat s gives to s - 1


def test_seven_swaps_with_the_chosen_active_player():
    s, scripts = effect_game("R7", 3, turns=1)
    assert scripts[1].candidates == (2, 0)       # the other active seats from next(p)
    hands = [names(h) for h in s.after(E("swap", 1, 0)).hands]
    assert hands == [["R3", "Y8", "R4"], SEAT0, SEAT2]
    assert (s.round["swaps_7"], s.round["passes_0"]) == (1, 0)


def test_discard_all_puts_the_cards_of_its_colour_under_it():
    s, _ = effect_game("RDALL", 3)
    after = s.after(E("discard", 1, "R4"))
    assert names(after.discard_pile) == ["R9", "R3", "R4", "RDALL"]    # T stays the Discard All
    assert names(after.hands[1]) == ["Y8"] and after.colour == 0
    assert s.round["n_plays"] == 2                    # the extra discards are not plays


def test_discard_all_of_the_printed_colour_not_the_colour_in_play():
    """docs/rules.md §6 N14: a blue Discard All played on a green one (symbol match) discards blue, not green."""
    hands = [["B5", "B6", "B7"], ["GDALL", "Y1", "Y2"], ["BDALL", "B3", "G4"]]
    s = run(hands, "G9", scripts=[Scripted(), Scripted(plays=["GDALL"]), Scripted(plays=["BDALL"])],
            max_turns_per_round=2, **NM)
    assert s.turn(2) == [E("play", 2, "BDALL"), E("discard", 2, "B3"), E("uno", 2, 1)]
    after = s.after(E("discard", 2, "B3"))
    assert names(after.hands[2]) == ["G4"] and after.colour == 3


def test_discard_all_emptying_the_hand_wins():
    hands = [SEAT0, ["RDALL", "R3", "R4", "R5"], SEAT2]
    s = run(hands, "R9", scripts=[Scripted(), Scripted(plays=["RDALL"]), Scripted()], **NM)
    assert s.turn(1)[1:] == [E("discard", 1, c) for c in ("R3", "R4", "R5")]
    assert (s.round["winner_seat"], s.round["end"]) == (1, 0)


def test_roulette_colour_is_in_play_at_once_and_the_player_names_none():
    s, _ = effect_game("ROULETTE", 3)
    assert not [e for e in s.turn(1) if e[0] == "colour"]
    assert s.after(E("roulette", 2, 3)).colour == 3
    assert s.seat(2)["n_drawn"] == 3 and s.turn_seat(2)[0] == 0    # the victim loses its turn


def test_skip_everyone_plays_again_and_then_continues():
    s, _ = effect_game("RSKALL", 3, turns=3)
    assert s.turn_players() == [1, 1, 2]


def test_reverse_changes_the_direction():
    s, _ = effect_game("RREV", 3, turns=3)
    assert s.turn_players() == [1, 0, 2]


# ---- docs/rules.md §2.4.5: escalating stacking --------------------------------------------------------------
STACKABLE_ON = {2: ["G+2", "G+4", "WRD4", "WD6", "WD10"], 4: ["G+4", "WRD4", "WD6", "WD10"],
                6: ["WD6", "WD10"], 10: ["WD10"]}
LAST = {"R+2": 2, "R+4": 4, "WRD4": 4, "WD6": 6, "WD10": 10}
CANDIDATES = ["G+2", "G+4", "WRD4", "WD6", "WD10", "GSKIP", "GREV", "GSKALL", "ROULETTE", "G9"]


@pytest.mark.parametrize("last", list(LAST))
def test_what_may_be_stacked(last):
    """The responder holds one of every candidate kind; exactly the draw cards of value >= V may be
    stacked, with no colour match (green on red) and nothing else (docs/rules.md §6 N2, N6)."""
    responder = 0 if last == "WRD4" else 2
    hands = [SEAT0 + ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"], [last, "R3", "Y8", "R4", "B1", "B2", "B3", "Y7", "Y9", "B0"],
             SEAT2 + ["G5", "G4", "G3", "G2", "G1", "G0"]]
    hands[responder] = CANDIDATES
    scripts = [Scripted() for _ in range(3)]
    scripts[1] = Scripted(plays=[last])
    run(hands, "R9", DRAWS, scripts=scripts, max_turns_per_round=2, **NM)
    view = scripts[responder].stack_views[0]
    assert (view.pending, view.pending_value) == (LAST[last], LAST[last])
    assert sorted(names(view.hand[i] for i in view.legal)) == sorted(STACKABLE_ON[LAST[last]])


def test_a_stack_grows_passes_on_and_the_last_responder_accepts_everything():
    hands = [["WD10", "B6", "B7"], ["R+2", "R3", "Y8"], ["G+4", "G8", "B4"]]
    scripts = [Scripted(stacks=["WD10"], colours=[1]), Scripted(plays=["R+2"]), Scripted(stacks=["G+4"])]
    s = run(hands, "R9", DRAWS, scripts=scripts, max_turns_per_round=5, **NM)
    assert s.turn(2) == [E("play", 2, "G+4")]
    assert s.turn(3) == [E("play", 0, "WD10"), E("colour", 0, 1)]
    assert s.turn(4)[0] == E("accept", 1, 16) and s.seat(1)["n_drawn"] == 10 + 6
    assert s.turn_seat(5)[0] == 2                     # next(responder)
    assert s.round["largest_stack"] == 16
    after = s.after(E("accept", 1, 16))
    assert (after.pending, names(after.discard_pile)[-1], after.colour) == (0, "WD10", 1)


def test_after_acceptance_the_next_player_matches_the_last_draw_card_normally():
    """Seat 2 could stack Y+2 but accepts; seat 0 then plays a normal turn on R+2: G+2 matches by
    symbol, G+4 does not (nothing pends any more)."""
    hands = [["B6", "G+2", "G+4"], ["R+2", "R3", "Y8"], ["G5", "Y+2", "B4"]]
    nxt = Scripted(plays=["G+2"])
    s = run(hands, "R9", DRAWS, scripts=[nxt, Scripted(plays=["R+2"]), Scripted()], max_turns_per_round=3, **NM)
    assert s.turn(2) == accepts(2, 2)
    assert nxt.views[0].legal == (1,) and nxt.views[0].pending == 0 and not nxt.stack_views
    assert s.turn(3) == [E("play", 0, "G+2")]


def test_wrd4_played_into_a_stack_reverses_and_passes_the_total_on():
    hands = [["B5", "B6", "B7"], ["R+2", "R3", "Y8"], ["WRD4", "G8", "B4"]]
    s = run(hands, "R9", DRAWS, scripts=[Scripted(), Scripted(plays=["R+2"]), Scripted(stacks=["WRD4"])],
            max_turns_per_round=3, **NM)
    assert s.turn(2) == [E("play", 2, "WRD4"), E("colour", 2, 0)]
    assert s.turn(3)[0] == E("accept", 1, 6)          # the player before seat 2 after the reversal
    assert s.after(E("accept", 1, 6)).direction == -1


def test_two_player_wrd4_self_response_is_a_turn_and_may_send_the_stack_back():
    hands = [["B5", "B6", "B7"], ["WRD4", "R+4", "Y8"]]
    s = run(hands, "R9", DRAWS, scripts=[Scripted(), Scripted(plays=["WRD4"], stacks=["R+4"])],
            max_turns_per_round=3, **NM)
    assert s.turn_players() == [1, 1, 0]
    assert s.turn(2) == [E("play", 1, "R+4"), E("uno", 1, 1)]         # its own response turn
    assert s.turn(3)[0] == E("accept", 0, 8)
    assert s.round["n_turns"] == 3 and s.round["largest_stack"] == 8


def test_two_player_wrd4_into_a_stack_comes_back_to_its_player():
    hands = [["WRD4", "B6", "B7"], ["R+2", "R3", "Y8"]]
    s = run(hands, "R9", DRAWS, scripts=[Scripted(stacks=["WRD4"]), Scripted(plays=["R+2"])],
            max_turns_per_round=3, **NM)
    assert s.turn_players() == [1, 0, 0]
    assert s.turn(3)[0] == E("accept", 0, 6)


def test_random_policy_stacks_uniformly_and_accepts_when_it_cannot():
    """docs/rules.md §5 item 3 through the Python default policy: never asked when nothing may be stacked."""
    from unosim.reference import PythonPolicy

    class Spy(PythonPolicy):
        asked = 0

        def stack(self, view):
            Spy.asked += 1
            return super().stack(view)

    hands = [["B5", "B6", "B7"], ["R+2", "R3", "Y8"], ["G7", "G8", "B4"]]
    s = run(hands, "R9", DRAWS, scripts=[Spy(), Scripted(plays=["R+2"]), Spy()], max_turns_per_round=2, **NM)
    assert Spy.asked == 0 and s.turn(2)[0] == E("accept", 2, 2)


# ---- docs/rules.md §2.4.2: the first card ---------------------------------------------------------------------
@pytest.mark.parametrize("first", [["R9"], ["RSKIP", "WD10", "G+2", "B7"], ["ROULETTE", "Y0"], ["WRD4", "G7"]])
def test_first_card_turns_up_until_a_number_without_effect(first):
    s = run([SEAT0, ["R3", "Y8", "B1", "G1"], SEAT2], first, scripts=[Scripted(plays=["draw"]) for _ in range(3)],
            max_turns_per_round=1, **NM)
    number = first[-1]
    assert s.setup()[1:] == [E("first_card", 1, c) for c in first] + [E("first_seat", 1, 1)]
    snapshot = s.after(E("first_seat", 1, 1))
    assert names(snapshot.discard_pile) == first and snapshot.colour == C(number) // 21
    assert (snapshot.direction, s.round["first_seat"], s.turn_seat(1)[0]) == (1, 1, 1)


# ---- docs/rules.md §2.4.7: the final card has no effect; §4 final_card_effects turns draw cards back on --------
FINAL_ROWS = [("R+2", 2), ("R+4", 4), ("WD10", 10), ("WRD4", 4), ("R7", 0), ("R0", 0), ("ROULETTE", 0),
              ("RSKIP", 0), ("RSKALL", 0)]


@pytest.mark.parametrize("effects_on", [False, True], ids=["default-off", "final_card_effects-on"])
@pytest.mark.parametrize("card,value", FINAL_ROWS, ids=[r[0] for r in FINAL_ROWS])
def test_final_card(card, value, effects_on):
    s = run([["B1"], [card], ["G7"]], "R9", DRAWS, scripts=[Scripted(colours=[1]) for _ in range(3)],
            final_card_effects=effects_on, **NM)
    # a final WRD4 reverses first, so its victim is seat 0; the other draw cards hit seat 2
    victim = 0 if card == "WRD4" else 2
    drawn = DRAWS[:value] if effects_on else []
    colour = [E("colour", 1, 1)] if card in ("WD10", "WRD4") else []
    assert s.turn(1) == [E("play", 1, card)] + colour + draws(victim, drawn)
    assert (s.round["winner_seat"], s.round["end"], s.round["largest_stack"]) == (1, 0, 0)
    assert s.round["points"] == sum(int(POINTS[C(c)]) for c in ["B1", "G7", *drawn])


@pytest.mark.parametrize("effects_on", [False, True], ids=["default-off", "final_card_effects-on"])
def test_final_stack_response_discards_or_passes_on_the_pending_total(effects_on):
    """Seat 2 answers a +2 with its last card, a WD10: the pending P is discarded (§2.4.7), or with
    final_card_effects the next player draws all 12 (§4); largest_stack ignores the final card."""
    hands = [["B5", "B6", "R5"], ["R3", "R+2", "Y8"], ["RSKALL", "R4", "WD10"]]
    scripts = [Scripted(plays=["R5"]), Scripted(plays=["R3", "R+2"]), Scripted(plays=["RSKALL", "R4"],
                                                                                stacks=["WD10"])]
    s = run(hands, "R9", DRAWS + ["B2", "B3"], scripts=scripts, final_card_effects=effects_on, **NM)
    assert s.turn_players() == [1, 2, 2, 0, 1, 2]
    assert s.turn(6) == [E("play", 2, "WD10"), E("colour", 2, 0)] + (draws(0, DRAWS + ["B2", "B3"]) if effects_on else [])
    assert (s.round["winner_seat"], s.round["largest_stack"]) == (2, 2)
    assert s.seat(0)["cards_left"] == 2 + 12 * effects_on


# ---- docs/rules.md §2.4.8: scoring -----------------------------------------------------------------------------
def test_points_are_the_active_opponents_hands_plus_250_per_knock_out():
    """Seat 2 is knocked out accepting a +2 (mercy_limit 6); later seat 1 empties its hand."""
    hands = [["R5", "R2", "R8", "B1"], ["R+2", "R3", "R4", "R6"], ["G7", "G8", "B4", "G6"]]
    s = run(hands, "R9", ["G1", "G2"], scripts=[Scripted(), Scripted(), Scripted()], mercy_limit=6, **NM)
    assert s.turn(2) == [E("accept", 2, 2), *draws(2, ["G1", "G2"]), E("knockout", 2, 2)]
    assert s.turn_players() == [1, 2, 0, 1, 0, 1, 0, 1]
    assert (s.round["winner_seat"], s.round["end"], s.round["knockouts"]) == (1, 0, 1)
    assert s.round["points"] == 1 + 250                  # seat 0 keeps B1
    assert (s.seat(2)["cards_left"], s.seat(2)["points_left"], s.seat(2)["knocked_out"]) == (0, 0, 1)


@pytest.mark.parametrize("target,rounds", [(250, 1), (251, 2)])
def test_knock_out_win_scores_250_per_opponent_and_the_match_needs_the_target(target, rounds):
    """Two players: seat 0 accepts a WD10 with 15 cards, reaches 25 and is knocked out; seat 1 wins by
    knock-out with cards in hand and scores exactly 250 (docs/rules.md §1.13)."""
    hands = [[f"B{k}" for k in range(10)] + ["Y1", "Y2", "Y3", "Y4", "Y5"],
             ["WD10"] + [f"G{k}" for k in range(10)] + ["R1", "R2", "R3", "R4"]]
    s = run(hands, "R9", scripts=[Scripted(), Scripted(plays=["WD10"])], match_mode="points", target=target,
            max_rounds_per_match=rounds, **NM)
    assert s.turn(2)[-1] == E("knockout", 0, 2) and s.seat(0)["n_drawn"] == 10
    assert (s.round["winner_seat"], s.round["end"], s.round["points"]) == (1, 1, 250)
    assert s.seat(1)["cards_left"] == 14 and s.seat(1)["won"] == 1
    assert s.match["n_rounds"] == rounds and (rounds == 2 or s.match["winner_seat"] == 1)


def test_lowest_mode_charges_a_knocked_out_player_250():
    hands = [[f"B{k}" for k in range(10)] + ["Y1", "Y2", "Y3", "Y4", "Y5"],
             ["WD10"] + [f"G{k}" for k in range(10)] + ["R1", "R2", "R3", "R4"]]
    s = run(hands, "R9", scripts=[Scripted(), Scripted(plays=["WD10"])], match_mode="lowest", target=200,
            **NM)
    assert s.match["winner_seat"] == 1 and s.match["n_rounds"] == 1   # seat 0 at 250 ≥ 200, seat 1 at 0


def test_default_target_is_1000():
    from unosim.game.rules import get_variant
    assert get_variant("no_mercy").target == 1000 and get_variant("no_mercy").mercy_limit == 25
