"""Scripted scenarios: the turn's draw step (docs/rules.md §1.5), drawing and the end of a round without a
winner (§1.6), UNO calls (§1.10) and matches (§1.12)."""

import pytest
from scenario_tools import C, E, Scripted, fill_hands, run

from unosim.reference.rng import Xoshiro

HANDS = [["B1", "B2", "B3"], ["G7", "Y8", "R5"], ["G1", "G2", "B4"]]


# ---- the draw step (docs/rules.md §1.5 step 4-5, §4 toggles) ---------------------------------------------------
def test_player_without_a_legal_card_draws_and_may_play_a_legal_drawn_card():
    s = run([HANDS[0], ["G7", "Y8", "B5"], HANDS[2]], "R9", ["R3"], max_turns_per_round=1)
    assert s.turn(1) == [E("draw", 1, "R3"), E("play", 1, "R3")]


def test_drawn_legal_card_may_be_kept():
    s = run([HANDS[0], ["G7", "Y8", "B5"], HANDS[2]], "R9", ["R3"],
            scripts=[Scripted(), Scripted(drawn=[False]), Scripted()], max_turns_per_round=2)
    assert s.turn(1) == [E("draw", 1, "R3")]
    assert s.turn_seat(2)[0] == 2


def test_force_play_drawn_plays_without_asking():
    drawer = Scripted(drawn=[False])
    s = run([HANDS[0], ["G7", "Y8", "B5"], HANDS[2]], "R9", ["R3"], scripts=[Scripted(), drawer, Scripted()],
            force_play_drawn=True, max_turns_per_round=1)
    assert s.turn(1) == [E("draw", 1, "R3"), E("play", 1, "R3")]
    assert drawer.drawn == [False]


def test_drawn_illegal_card_ends_the_turn():
    s = run([HANDS[0], ["G7", "Y8", "B5"], HANDS[2]], "R9", ["G3", "R3"], max_turns_per_round=2)
    assert s.turn(1) == [E("draw", 1, "G3")]
    assert s.turn_seat(2)[0] == 2


def test_draw_until_playable_draws_until_a_legal_card():
    s = run([HANDS[0], ["G7", "Y8", "B5"], HANDS[2]], "R9", ["G3", "Y4", "B8", "R3"],
            draw_until_playable=True, max_turns_per_round=1)
    assert s.turn(1) == [E("draw", 1, c) for c in ("G3", "Y4", "B8", "R3")] + [E("play", 1, "R3")]


def test_voluntary_draw_only_the_drawn_card_may_be_played():
    player = Scripted(plays=["draw"])
    s = run(HANDS, "R9", ["G3"], scripts=[Scripted(), player, Scripted()], max_turns_per_round=1)
    assert player.views[0].legal == (2,)                 # R5 was playable
    assert s.turn(1) == [E("draw", 1, "G3")]


def test_without_voluntary_draw_drawing_with_a_legal_card_is_an_error():
    with pytest.raises(ValueError, match=r"'Scripted' at seat 1 answered None .*legal indices \[2\]"):
        run(HANDS, "R9", scripts=[Scripted(), Scripted(plays=["draw"]), Scripted()], voluntary_draw=False)


# ---- drawing, reshuffle, failed draws, stalemate, turn cap (docs/rules.md §1.6) ------------------------------
DRAWN = ["G1", "G2", "G3", "G4", "G5"]


def big_hands(fixed):
    """Seven players holding 15 cards each leave 5 cards in the draw pile (111 - 105 - 1)."""
    return fill_hands(7, 15, fixed, reserved=["R9", *DRAWN])


def test_reshuffle_keeps_the_top_card_and_the_colour():
    hands = big_hands({1: ["R5"], 2: ["R6"]})
    scripts = [Scripted(plays=["draw"] * 5, drawn=[False] * 5) for _ in range(7)]
    scripts[1] = Scripted(plays=["R5"] + ["draw"] * 5, drawn=[False] * 5)
    scripts[2] = Scripted(plays=["R6"] + ["draw"] * 5, drawn=[False] * 5)
    s = run(hands, "R9", DRAWN, scripts=scripts, seed=3, max_turns_per_round=8)
    # turn k belongs to seat k mod 7; turns 3-7 empty the draw pile
    assert [e for k in range(3, 8) for e in s.turn(k)] == [E("draw", k % 7, c)
                                                            for k, c in zip(range(3, 8), DRAWN, strict=True)]
    expected_pile = [C("R9"), C("R5")]
    Xoshiro(3, 0, 0).shuffle(expected_pile)
    assert s.turn(8) == [E("reshuffle", -1, 2), E("draw", 1, expected_pile[-1])]
    snapshot = s.after(E("reshuffle", -1, 2))
    assert snapshot.discard_pile == (C("R6"),) and snapshot.colour == 0
    assert s.round["n_reshuffles"] == 1


def test_failed_draws_and_stalemate_after_n_active_idle_turns():
    """Everyone draws voluntarily: 5 draws empty the pile, the discard pile holds only T, so every
    later draw fails without a reshuffle; 7 idle turns in a row end the round as a stalemate."""
    scripts = [Scripted(plays=["draw"] * 20, drawn=[False] * 20) for _ in range(7)]
    s = run(big_hands({}), "R9", DRAWN, scripts=scripts)
    assert s.turn(6) == [E("draw_fail", 6)]
    assert not s.of("reshuffle")
    assert s.round["n_turns"] == 5 + 7
    assert (s.round["end"], s.round["winner_seat"], s.round["points"]) == (2, -1, 0)
    assert s.events[-2] == E("round_end", -1, 2, 0)
    assert s.match["end"] == 1                            # single round without a winner


def test_a_turn_with_progress_resets_the_idle_count():
    scripts = [Scripted(plays=["draw"] * 20, drawn=[False] * 20) for _ in range(7)]
    scripts[3] = Scripted(plays=["draw", "R5"] + ["draw"] * 20, drawn=[False] * 20)
    s = run(big_hands({3: ["R5"]}), "R9", DRAWN, scripts=scripts)
    assert E("play", 3, "R5") in s.turn(10)               # turns 6-9 idle, turn 10 plays
    assert s.turn(11) == [E("reshuffle", -1, 1), E("draw", 4, "R9")]   # progress again
    assert s.round["end"] == 2 and s.round["n_turns"] == 11 + 7


def test_penalty_draw_ends_early_when_the_piles_are_empty():
    scripts = [Scripted(plays=["draw"] * 20, drawn=[False] * 20) for _ in range(7)]
    scripts[6] = Scripted(plays=["R+2"])
    s = run(big_hands({6: ["R+2"]}), "R9", DRAWN, scripts=scripts, max_turns_per_round=6)
    assert s.turn(6) == [E("play", 6, "R+2"), E("reshuffle", -1, 1), E("draw", 0, "R9"), E("draw_fail", 0),
                          E("skip", 0)]


@pytest.mark.parametrize("cap", [1, 3])
def test_turn_cap_truncates_the_round(cap):
    s = run(HANDS, "R9", max_turns_per_round=cap)
    assert (s.round["n_turns"], s.round["end"], s.round["winner_seat"]) == (cap, 3, -1)
    assert s.events[-2:] == [E("round_end", -1, 3, 0), E("match_end", -1, 0, 1)]


def test_a_round_won_in_the_last_allowed_turn_is_won():
    s = run([["B1"], ["R5"], ["G1"]], "R9", max_turns_per_round=1)
    assert (s.round["end"], s.round["winner_seat"]) == (0, 1)


# ---- UNO (docs/rules.md §1.10) -------------------------------------------------------------------------------
@pytest.mark.parametrize("p_forget,p_catch,outcome,penalty", [
    (0.0, 1.0, 1, []), (1.0, 1.0, 2, ["G1", "G2"]), (1.0, 0.0, 3, [])])
def test_uno_call_forget_and_catch(p_forget, p_catch, outcome, penalty):
    s = run([["B1", "B2"], ["R5", "Y8"], ["G7", "B4"]], "R9", ["G1", "G2", "G3"], p_forget_uno=p_forget,
            p_catch=p_catch, max_turns_per_round=2)
    assert s.turn(1) == [E("play", 1, "R5"), E("uno", 1, outcome)] + [E("draw", 1, c) for c in penalty]
    assert s.seat(1)["n_drawn"] == len(penalty)


def test_uno_penalty_size_and_per_seat_forgetting():
    s = run([["B1"], ["R5"], ["G7"]], "R9", ["G1", "G2", "G3"], p_forget_uno=(0.0, 1.0, 1.0), p_catch=1.0,
            uno_penalty=3, max_turns_per_round=1)
    # checkpoint(F) after the first card: seats 1, 2, 0 in direction d; the rest of the pile is drawn in
    # ascending id order (R0, R1, R1)
    assert s.setup()[3:] == [E("uno", 1, 2), E("draw", 1, "G1"), E("draw", 1, "G2"), E("draw", 1, "G3"),
                             E("uno", 2, 2), E("draw", 2, "R0"), E("draw", 2, "R1"), E("draw", 2, "R1"),
                             E("uno", 0, 1)]


def test_uno_checkpoint_runs_in_the_current_direction():
    s = run([["B1"], ["R5"], ["G7"]], "RREV", max_turns_per_round=1)
    assert [e[1] for e in s.setup() if e[0] == "uno"] == [1, 0, 2]


def test_one_uno_chance_per_one_card_state():
    s = run([["B1", "B2"], ["R5", "Y8"], ["G7", "B4"]], "R9", ["G1", "G2", "G3"], max_turns_per_round=3)
    assert s.turn(1) == [E("play", 1, "R5"), E("uno", 1, 1)]
    assert not [e for k in (2, 3) for e in s.turn(k) if e[0] == "uno" and e[1] == 1]


# ---- matches (docs/rules.md §1.12) ---------------------------------------------------------------------------
ONE_CARD = [["B1"], ["R5"], ["G7"]]            # seat 1 wins round 0 in turn 1 and scores 1 + 7 = 8


@pytest.mark.parametrize("target", [7, 8])
def test_points_match_is_won_at_or_above_the_target(target):
    s = run(ONE_CARD, "R9", match_mode="points", target=target)
    assert s.round["points"] == 8
    assert s.match == {"game": 0, "n_rounds": 1, "first_dealer": 0, "winner_seat": 1, "n_winners": 1,
                       "winners_mask": 2, "end": 0}
    assert s.events[-1] == E("match_end", 1, 2, 0)


def test_points_match_below_the_target_goes_on_and_ends_at_the_first_total_reaching_it():
    s = run(ONE_CARD, "R9", match_mode="points", target=9, max_rounds_per_match=500)
    rounds = s.results.rounds
    assert len(rounds) == s.match["n_rounds"] > 1
    totals = [0, 0, 0]
    for k, row in enumerate(rounds):
        if row[4] >= 0:
            totals[row[4]] += int(row[10])
        assert (max(totals) >= 9) == (k == len(rounds) - 1)
    assert s.match["winner_seat"] == totals.index(max(totals))
    assert [int(r[2]) for r in rounds] == [k % 3 for k in range(len(rounds))]   # the dealer rotates left


def test_lowest_mode_co_winners():
    """Seat 1 wins; seat 2 keeps R0 (0 points), seat 0 a Wild (50 ≥ target): seats 1 and 2 tie at 0."""
    s = run([["WILD"], ["R5"], ["R0"]], "R9", match_mode="lowest", target=50)
    assert s.match == {"game": 0, "n_rounds": 1, "first_dealer": 0, "winner_seat": 1, "n_winners": 2,
                       "winners_mask": 0b110, "end": 0}
    assert s.events[-1] == E("match_end", 1, 0b110, 0)
    assert s.round["points"] == 50                       # the round score is the points-mode score


def test_lowest_mode_goes_on_below_the_target():
    s = run([["WILD"], ["R5"], ["R0"]], "R9", match_mode="lowest", target=51, max_rounds_per_match=500)
    assert s.match["n_rounds"] > 1


def test_single_round_match_winner():
    s = run(ONE_CARD, "R9")
    assert s.match == {"game": 0, "n_rounds": 1, "first_dealer": 0, "winner_seat": 1, "n_winners": 1,
                       "winners_mask": 2, "end": 0}


def test_match_without_winner_after_max_rounds_is_truncated():
    s = run(ONE_CARD, "R9", match_mode="points", target=10_000, max_rounds_per_match=4, max_turns_per_round=1)
    assert s.match["n_rounds"] == 4 and s.match["end"] == 2 and s.match["winner_seat"] == -1
    assert s.events[-1] == E("match_end", -1, 0, 2)
    assert [e[1] for e in s.of("round_start")] == [0, 1, 2, 0]          # dealer rotates after every round
    assert [e[2] for e in s.of("round_start")] == [0, 1, 2, 3]
