"""Scripted scenarios: legal plays (docs/rules.md §1.4), action cards (§1.7) and the Wild Draw Four (§1.8).

Dealer 0, so F = seat 1 takes turn 1 on the number card R9 unless stated otherwise.
"""

import pytest
from scenario_tools import E, Scripted, names, run

FILLERS = {0: ["B1", "B2", "B3"], 2: ["G7", "G8", "B4"]}
VICTIM_DRAWS = ["G1", "G2", "G3", "G4", "Y1", "Y2"]


def hands_with(players, card, rest=("Y7", "Y8")):
    hands = [FILLERS[0], [card, *rest], FILLERS[2]]
    return hands[:players] if players == 3 else [FILLERS[0], [card, *rest]]


# card, players, overrides, events of turn 1 after the PLAY, seat of turn 2
ACTION_ROWS = [
    ("R5", 3, {}, [], 2),
    ("RSKIP", 3, {}, [E("skip", 2)], 0),
    ("RSKIP", 2, {}, [E("skip", 0)], 1),
    ("RREV", 3, {}, [], 0),
    ("RREV", 2, {}, [E("skip", 0)], 1),
    ("RREV", 2, {"two_player_reverse_skip": False}, [], 0),
    ("R+2", 3, {}, [E("draw", 2, "G1"), E("draw", 2, "G2"), E("skip", 2)], 0),
    ("R+2", 2, {}, [E("draw", 0, "G1"), E("draw", 0, "G2"), E("skip", 0)], 1),
    ("WILD", 3, {}, [E("colour", 1, 2)], 2),
    ("WD4", 3, {}, [E("colour", 1, 2)] + [E("draw", 2, c) for c in VICTIM_DRAWS[:4]] + [E("skip", 2)], 0),
    ("WD4", 2, {}, [E("colour", 1, 2)] + [E("draw", 0, c) for c in VICTIM_DRAWS[:4]] + [E("skip", 0)], 1),
]


@pytest.mark.parametrize("card,players,overrides,effect,next_seat", ACTION_ROWS,
                         ids=[f"{r[0]}-{r[1]}p-{'-'.join(r[2]) or 'default'}" for r in ACTION_ROWS])
def test_action_card_effect_and_next_player(card, players, overrides, effect, next_seat):
    scripts = [Scripted() for _ in range(players)]
    scripts[1] = Scripted(plays=[card], colours=[2])
    s = run(hands_with(players, card), "R9", VICTIM_DRAWS, scripts=scripts, max_turns_per_round=2, **overrides)
    assert s.turn(1) == [E("play", 1, card)] + effect
    assert s.turn_seat(2)[0] == next_seat


def test_reverse_changes_direction_for_the_following_turns():
    s = run(hands_with(3, "RREV", ("R7", "R8")), "R9", scripts=[Scripted(), Scripted(plays=["RREV"]), Scripted()],
            max_turns_per_round=4)
    assert s.turn_players() == [1, 0, 2, 1]
    assert s.after(E("turn", 0, 2)).direction == -1


def test_two_player_reverse_still_reverses_the_direction():
    """docs/rules.md §6 C27: acts as SKIP, but d changes (the trace shows it)."""
    s = run([FILLERS[0], ["RREV", "Y7", "Y8"]], "R9", scripts=[Scripted(), Scripted(plays=["RREV"])],
            max_turns_per_round=1)
    assert s.after(E("skip", 0)).direction == -1


def test_wild_names_the_colour_in_play_for_the_next_player():
    """The next player may play only the named colour (or a wild) on a Wild."""
    seat2 = Scripted()
    s = run([FILLERS[0], ["WILD", "Y7", "Y8"], ["G7", "B4", "R1"]], "R9",
            scripts=[Scripted(), Scripted(plays=["WILD"], colours=[3]), seat2], max_turns_per_round=2)
    assert seat2.views[0].colour == 3
    assert names(seat2.views[0].hand[i] for i in seat2.views[0].legal) == ["B4"]
    assert s.turn(2)[0] == E("play", 2, "B4")


# ---- legality (docs/rules.md §1.4) --------------------------------------------------------------------------
# first card (F = seat 1 starts unless the first card skips it), colour F names for a wild,
# candidate card, legal?
MATCH_ROWS = [
    ("R9", "R2", True),       # same colour
    ("R9", "G9", True),       # same number
    ("R9", "G8", False),
    ("R9", "GSKIP", False),   # a symbol does not match a number
    ("R9", "WILD", True),     # wild cards always match
    ("R9", "DUMBFU", True),
    ("RREV", "GREV", True),   # same symbol
    ("RREV", "GSKIP", False),
    ("RREV", "R+2", True),
    ("R+2", "G+2", True),
]


@pytest.mark.parametrize("first,candidate,legal", MATCH_ROWS)
def test_matching_rules(first, candidate, legal):
    """The first player after the first card's effect sees exactly the matching cards as legal."""
    variant = "minions" if candidate == "DUMBFU" else "classic"
    hands = [["B1", "B2"], ["B3", "B5"], ["B6", "B7"]]
    starter = {"R9": 1, "RREV": 0, "R+2": 2}[first]
    hands[starter] = [candidate, "Y7"]
    scripts = [Scripted(plays=["draw"]) for _ in range(3)]
    run(hands, first, ["Y1", "Y2", "Y3"], scripts=scripts, variant=variant, max_turns_per_round=1)
    views = scripts[starter].views   # a policy is not asked when nothing is legal
    legal_cards = names(views[0].hand[i] for i in views[0].legal) if views else []
    assert (candidate in legal_cards) == legal


# ---- Wild Draw Four (docs/rules.md §1.8) --------------------------------------------------------------------
def wd4_game(holder_rest, challenge, **overrides):
    """Seat 1 plays a WD4 on R9 naming green; seat 2 (the victim) answers ``challenge``."""
    victim = Scripted(challenges=[challenge])
    s = run([FILLERS[0], ["WD4", *holder_rest], FILLERS[2]], "R9", VICTIM_DRAWS,
            scripts=[Scripted(), Scripted(plays=["WD4"], colours=[2]), victim], max_turns_per_round=2,
            **overrides)
    return s, victim


def test_wd4_not_challenged_victim_draws_four_and_loses_the_turn():
    s, _ = wd4_game(["Y7", "Y8"], challenge=False)
    assert s.turn(1)[2:] == [E("draw", 2, c) for c in VICTIM_DRAWS[:4]] + [E("skip", 2)]
    assert s.turn_seat(2)[0] == 0


def test_wd4_challenged_guilty_player_draws_four_victim_keeps_the_turn():
    s, _ = wd4_game(["R3", "Y8"], challenge=True)      # holds red on red: an illegal (bluffed) WD4
    assert s.turn(1) == [E("play", 1, "WD4"), E("colour", 1, 2), E("challenge", 2, 1)] + \
        [E("draw", 1, c) for c in VICTIM_DRAWS[:4]]
    assert s.turn_seat(2)[0] == 2
    assert s.after(E("challenge", 2, 1)).colour == 2     # the named colour stands


def test_wd4_challenged_innocent_victim_draws_six_and_loses_the_turn():
    s, _ = wd4_game(["Y7", "Y8"], challenge=True)
    assert s.turn(1) == [E("play", 1, "WD4"), E("colour", 1, 2), E("challenge", 2, 0)] + \
        [E("draw", 2, c) for c in VICTIM_DRAWS] + [E("skip", 2)]
    assert s.turn_seat(2)[0] == 0
    assert s.seat(2)["n_drawn"] == 6


@pytest.mark.parametrize("overrides", [{"wd4_challenge": False}, {"no_bluffing": True}])
def test_wd4_challenge_not_offered(overrides):
    s, victim = wd4_game(["Y7", "Y8"], challenge=True, **overrides)
    assert victim.challenges == [True]                  # never asked
    assert not s.of("challenge")
    assert s.seat(2)["n_drawn"] == 4


def test_last_card_wd4_cannot_be_challenged():
    victim = Scripted(challenges=[True])
    s = run([["B1"], ["WD4"], ["G7"]], "R9", VICTIM_DRAWS,
            scripts=[Scripted(), Scripted(colours=[1]), victim])
    assert victim.challenges == [True]
    assert s.turn(1) == [E("play", 1, "WD4"), E("colour", 1, 1)] + [E("draw", 2, c) for c in VICTIM_DRAWS[:4]]
    assert s.round["winner_seat"] == 1


# other card held with the WD4 on top R9 (colour R): number match, symbol match, wild, same colour
@pytest.mark.parametrize("first,other,legal", [
    ("R9", "G9", True), ("RSKIP", "GSKIP", True), ("R9", "WILD", True), ("R9", "R2", False),
    ("RSKIP", "RSKIP", False),
])
def test_wd4_legality_depends_only_on_the_colour_in_play(first, other, legal):
    starter = 2 if first == "RSKIP" else 1              # a turned-up Skip skips F
    hands = [["B1", "B2", "B3"], ["B4", "B5", "B6"], ["G1", "G2", "G3"]]
    hands[starter] = ["WD4", other, "Y7"]
    scripts = [Scripted(plays=["draw"]) for _ in range(3)]
    run(hands, first, ["Y1"], scripts=scripts, max_turns_per_round=1)
    view = scripts[starter].views[0]
    assert (0 in view.legal) == legal
    assert (0 in view.bluffs) == (not legal)


def test_no_bluffing_makes_an_illegal_wd4_unplayable():
    with pytest.raises(ValueError, match="bluff|legal indices"):
        wd4_game(["R3", "Y8"], challenge=False, no_bluffing=True)
