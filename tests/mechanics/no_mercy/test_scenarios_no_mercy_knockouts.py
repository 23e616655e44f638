"""Scripted scenarios for the Mercy rule (docs/rules.md §2.4.6, §6 N9-N13, N19, N20) and for more than six
players (§2.4.9): knock-outs in the middle of a stack acceptance, of a Roulette reveal and of a
draw-until-playable, the last active player winning with cards in hand, knocked-out seats leaving the
turn order, the 7-swap and the 0-pass, set-aside hands joining the next reshuffle.

Dealer 0, so F = seat 1 takes turn 1 on the number card R9 unless stated otherwise.
"""

import pytest
from scenario_tools import C, E, Scripted, fill_hands, names, run

from unosim.reference.rng import Xoshiro

NM = {"variant": "no_mercy"}
# 15 cards each: seat 0 and 2 hold no draw card and nothing red
SEAT0 = [f"B{k}" for k in range(10)] + ["Y1", "Y2", "Y3", "Y4", "Y5"]
SEAT2 = [f"G{k}" for k in range(10)] + ["Y6", "Y7", "Y8", "BSKIP", "GSKIP"]
# neither blue nor red nor wild nor a 9: never legal on R9, never a match for a blue Roulette
TEN_NOT_BLUE = ["YSKIP", "YSKIP", "GREV", "GREV", "YREV", "YREV", "YDALL", "YDALL", "GDALL", "GDALL"]
NOTHING_ON_R9 = ["G0", "G1", "G2", "G3", "G4", "G5", "G6", "G7", "G8", "Y6", "Y7", "Y8", "GSKIP", "G+2", "Y0"]
REDS_AND_MORE = ["R6", "R7", "R8", "G0", "G1", "G2", "G3", "G4", "B5", "B6", "B7", "B8", "Y2", "Y3", "Y4"]


def draws(seat, cards_):
    return [E("draw", seat, c) for c in cards_]


def test_knock_out_in_the_middle_of_accepting_a_stack():
    """Seat 0 accepts 12 with 15 cards: the 10th card makes 25, it is knocked out at once and the last two
    cards of the penalty are never drawn; then two players are left (docs/rules.md §6 N12)."""
    seat1 = ["R+2", "RSKIP", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "Y9", "G9", "B9", "RREV", "R0"]
    seat2 = ["WD10"] + SEAT2[1:]
    scripts = [Scripted(), Scripted(plays=["R+2", "RSKIP"]), Scripted(stacks=["WD10"], colours=[0])]
    s = run([SEAT0, seat1, seat2], "R9", TEN_NOT_BLUE + ["B1", "B2"], scripts=scripts, max_turns_per_round=12, **NM)
    assert s.turn(3) == [E("accept", 0, 12)] + draws(0, TEN_NOT_BLUE) + [E("knockout", 0, 3)]
    after = s.after(E("knockout", 0, 3))
    assert names(after.set_aside) == SEAT0 + TEN_NOT_BLUE and after.hands[0] == ()
    assert after.pending == 0 and after.active == (False, True, True)
    # next(knocked-out seat) plays a normal turn; with two active players a Skip gives another turn
    assert s.turn(4) == [E("play", 1, "RSKIP"), E("skip", 2)]
    assert s.turn_seat(5)[0] == 1
    knocked = s.events.index(E("knockout", 0, 3))
    assert all(e[1] != 0 for e in s.events[knocked + 1:-2])     # a knocked-out seat never acts again
    assert (s.seat(0)["knocked_out"], s.seat(0)["knockout_turn"], s.seat(0)["cards_left"]) == (1, 3, 0)
    assert (s.seat(0)["n_drawn"], s.round["knockouts"], s.round["largest_stack"]) == (10, 1, 12)


def test_knock_out_in_the_middle_of_a_roulette_reveal():
    """The victim names blue and reveals non-blue cards up to 25: knocked out during the Roulette player's
    turn; the named colour stands and play goes on with next(victim) (docs/rules.md §6 N5, N11)."""
    seat1 = ["ROULETTE", *SEAT2[:10], "R1", "R2", "R3", "R4"]
    s = run([SEAT0, seat1, REDS_AND_MORE], "R9", TEN_NOT_BLUE + ["B1"],
            scripts=[Scripted(), Scripted(plays=["ROULETTE"]), Scripted(colours=[3])],
            max_turns_per_round=2, **NM)
    assert s.turn(1) == [E("play", 1, "ROULETTE"), E("roulette", 2, 3)] + draws(2, TEN_NOT_BLUE) + \
        [E("knockout", 2, 1)]
    assert s.after(E("knockout", 2, 1)).colour == 3
    assert s.turn_seat(2)[0] == 0
    assert s.seat(2)["knockout_turn"] == 1


def test_last_active_player_wins_by_knock_out_while_holding_cards():
    """Two players: the Roulette victim is knocked out, the Roulette's player wins at once (docs/rules.md §6 N20)."""
    seat1 = ["ROULETTE", *SEAT2[:10], "R1", "R2", "R3", "R4"]
    s = run([SEAT0, seat1], "R9", TEN_NOT_BLUE + ["B1"], scripts=[Scripted(colours=[3]), Scripted()], **NM)
    assert s.events[-3:] == [E("knockout", 0, 1), E("round_end", 1, 1, 250), E("match_end", 1, 2, 0)]
    assert (s.round["winner_seat"], s.round["end"], s.round["points"], s.round["n_turns"]) == (1, 1, 250, 1)
    assert (s.seat(1)["won"], s.seat(1)["cards_left"], s.seat(0)["cards_left"]) == (1, 14, 0)


@pytest.mark.parametrize("illegal,knocked_out", [(8, False), (9, True)])
def test_draw_until_playable_knock_out_before_the_play(illegal, knocked_out):
    """Seat 1 holds 15 cards and nothing legal on R9; it draws until the red R5. Arriving as the 24th card
    R5 is played; arriving as the 25th it knocks seat 1 out and is not played (docs/rules.md §6 N19)."""
    drawn = TEN_NOT_BLUE[:illegal] + ["R5"]
    s = run([SEAT0, NOTHING_ON_R9, REDS_AND_MORE], "R9", drawn,
            scripts=[Scripted() for _ in range(3)], max_turns_per_round=2, **NM)
    ending = [E("knockout", 1, 1)] if knocked_out else [E("play", 1, "R5")]
    assert s.turn(1) == draws(1, drawn) + ending
    assert s.seat(1)["knocked_out"] == knocked_out and s.turn_seat(2)[0] == 2


def four_players_after_a_knock_out(plays):
    """Four players, mercy_limit 6: seat 2 accepts a +2 with 4 cards and is knocked out in turn 2."""
    hands = [["R7", "B1", "B2", "B3"], ["R+2", "Y1", "Y2", "Y3"], ["G1", "G2", "G3", "G4"], ["R0", "R3", "G6", "G7"]]
    scripts = [Scripted(targets=[3]), Scripted(plays=["R+2"]), Scripted(), Scripted()]
    for seat, card in plays.items():
        scripts[seat].plays = [card]
    s = run(hands, "R9", ["B4", "B5"], scripts=scripts, mercy_limit=6, max_turns_per_round=4, **NM)
    assert s.turn(2)[-1] == E("knockout", 2, 2)
    return s, scripts


def test_knocked_out_seats_are_left_out_of_the_zero_pass():
    s, _ = four_players_after_a_knock_out({3: "R0"})
    assert s.turn(3) == [E("play", 3, "R0"), E("pass", 3)]
    hands = [names(h) for h in s.after(E("pass", 3)).hands]
    assert hands == [["R3", "G6", "G7"], ["R7", "B1", "B2", "B3"], [], ["Y1", "Y2", "Y3"]]


def test_knocked_out_seats_are_no_seven_swap_targets():
    s, scripts = four_players_after_a_knock_out({3: "R3", 0: "R7"})
    assert s.turn_players() == [1, 2, 3, 0]
    assert scripts[0].candidates == (1, 3)
    assert E("swap", 0, 3) in s.turn(4)


def test_set_aside_hands_join_the_next_reshuffle():
    """Classic with mercy_limit 12 (docs/rules.md §4): ten players hold 10 cards, the draw pile 10. Seat 2 is
    knocked out drawing a +2; eight single draws empty the pile; the next draw reshuffles the discards
    but T together with the 12 set-aside cards (docs/rules.md §1.6, §2.4.6)."""
    hands = fill_hands(10, 10, {1: ["R+2"]}, reserved=["R9"])
    scripts = [Scripted(plays=["draw"] * 3, drawn=[False] * 3) for _ in range(10)]
    scripts[1] = Scripted(plays=["R+2", "draw"], drawn=[False])
    s = run(hands, "R9", scripts=scripts, mercy_limit=12, seed=5, max_turns_per_round=10)
    assert s.turn(1)[-1] == E("knockout", 2, 1)     # no Skip for a knocked-out victim (decision)
    set_aside = s.after(E("knockout", 2, 1)).set_aside
    assert len(set_aside) == 12 and s.turn_players()[1:] == [3, 4, 5, 6, 7, 8, 9, 0, 1]
    expected = [C("R9"), *set_aside]
    Xoshiro(5, 0, 0).shuffle(expected)
    assert s.turn(10)[:2] == [E("reshuffle", -1, 13), E("draw", 1, expected[-1])]
    after = s.after(E("reshuffle", -1, 13))
    assert after.set_aside == () and list(after.draw_pile) == expected
    assert names(after.discard_pile) == ["R+2"]


def test_knocked_out_players_play_again_in_the_next_round_of_a_points_match():
    hands = [SEAT0, ["WD10", *SEAT2[:10], "R1", "R2", "R3", "R4"]]
    s = run(hands, "R9", scripts=[Scripted(), Scripted(plays=["WD10"])], match_mode="points",
            max_rounds_per_match=2, **NM)
    assert s.seat(0)["knocked_out"] == 1 and s.match["n_rounds"] == 2
    assert 0 in s.turn_players(round_index=1)        # dealt in again, takes turns


def test_responder_knocked_out_before_responding_clears_the_pending_penalty():
    """Minions with stacking and mercy_limit 7 (docs/rules.md §4): the +2's responder breaks its Dumb Fu pose at
    the start of its response turn and is knocked out by the 4-card penalty; P lapses, and next(it)
    plays a normal turn (docs/rules.md §2.4.6)."""
    hands = [["R6", "R7", "B1", "B2"], ["DUMBFU", "R+2", "Y1", "Y2"], ["R5", "G1", "G2", "G3"]]
    scripts = [Scripted(plays=["R6", "R7"]), Scripted(plays=["DUMBFU", "R+2"]), Scripted(plays=["R5"])]
    s = run(hands, "R9", ["B5", "B6", "B7", "B8"], scripts=scripts, variant="minions", stacking="any_draw",
            mercy_limit=7, p_dumbfu_fail=1.0, max_turns_per_round=6)
    assert s.turn(5) == [E("pose", 2, 1)] + draws(2, ["B5", "B6", "B7", "B8"]) + [E("knockout", 2, 5)]
    assert s.turn_seat(6)[0] == 0 and s.turn(6) == [E("play", 0, "R7")]
    assert scripts[0].views[-1].pending == 0 and not scripts[0].stack_views


def test_more_than_six_players_failed_draws_and_stalemate():
    """Seven players (docs/rules.md §2.4.9) with mercy_limit raised to 150: every blue card, every wild and every 9
    is in a hand, so seat 1 draws all 90 cards of the pile without a legal one and the next draw fails;
    then everybody draws voluntarily or must draw, and 7 idle turns end the round as a stalemate."""
    blue = ["B0", "B0"] + [f"B{k}" for k in range(1, 9) for _ in range(2)] + ["B9"] + \
        ["BSKIP"] * 3 + ["BREV"] * 3 + ["B+2"] * 3 + ["B+4"] * 2 + ["BDALL"] * 3 + ["BSKALL"] * 2
    others = blue + ["WRD4"] * 8 + ["WD6"] * 4 + ["WD10"] * 4 + ["ROULETTE"] * 8 + \
        ["R9", "R9", "Y9", "Y9", "G9", "G9", "R8"]
    hands = [others[k * 11:(k + 1) * 11] for k in range(6)]
    hands.insert(1, ["R0", "R0", "R1", "R1", "R2", "R2", "R3", "R3", "R4", "R4", "R5"])
    scripts = [Scripted(plays=["draw"] * 10) for _ in range(7)]
    s = run(hands, "B9", scripts=scripts, mercy_limit=150, **NM)
    first = s.turn(1)
    assert len(first) == 91 and first[-1] == E("draw_fail", 1) and not s.of("reshuffle")
    assert all(s.turn(k) == [E("draw_fail", k % 7)] for k in range(2, 9))
    assert (s.round["n_turns"], s.round["end"], s.round["winner_seat"], s.round["points"]) == (8, 2, -1, 0)
