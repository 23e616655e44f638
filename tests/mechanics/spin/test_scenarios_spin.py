"""Scripted scenarios for the spin variant (docs/rules.md §2.3, protocol ``unosim.engine`` §6) on the reference
engine: the spin card and the designated spinner, every wheel outcome of §2.3.3, discarding by outcome
(§2.3.4), who plays next (§2.3.5), the spin card as first and as final card (§2.3.6), a jump-in
cancelling a pending spin (§4) and the counters of §1.13.

Unless a test says otherwise: 3 players, dealer 0, so ``F`` = seat 1; ``T`` = R9; seat 1 opens with the
spin card R3*, which makes seat 2 the spinner; turn 2 is seat 2's spin. ``spin_weights`` put all the
weight on the outcome under test.
"""

from __future__ import annotations

import pytest
from scenario_tools import C, E, Scripted, names, run, stacked_deck

from unosim.game import cards
from unosim.game import protocol as L
from unosim.game.cards import POINTS
from unosim.game.rule_table import SPIN_OUTCOMES
from unosim.game.rules import get_variant
from unosim.reference import run_games
from unosim.reference.rng import PLAY_STREAM, Xoshiro

O = {name: i for i, name in enumerate(SPIN_OUTCOMES)}  # noqa: E741 (O for Outcome, as in the tables)


class Wheel(Scripted):
    """:class:`Scripted` plus the wheel decisions, given as card names; never touches the random stream.

    ``almost``: cards to discard on Almost UNO; ``number`` / ``group``: ``(number or colour, cards)``
    for Discard Number / Discard Colour; ``reveals``: War reveals, one per level, used when the card
    is among the candidates; ``war_discard``: the War winner's discards; ``shout``: the UNO Spin
    discard (``None``: keep). Unscripted, it discards the most it may, in hand order, and reveals the
    first candidate. ``asked`` records every wheel question with what was offered.
    """

    def __init__(self, plays=(), *, almost=None, number=None, group=None, reveals=(), war_discard=None,
                 shout="first", **script):
        super().__init__(plays, **script)
        self.almost, self.number, self.group = almost, number, group
        self.reveals, self.war_cards, self.shout = list(reveals), war_discard, shout
        self.asked = []

    @staticmethod
    def _indices(view, card_names):
        chosen = []
        for name in card_names:
            chosen.append(next(i for i, c in enumerate(view.hand) if c == C(name) and i not in chosen))
        return chosen

    def almost_uno(self, view):
        self.asked.append(("almost_uno", len(view.hand)))
        if self.almost is None:
            return list(range(len(view.hand) - 2))
        return self._indices(view, self.almost)

    def discard_number(self, view, numbers):
        self.asked.append(("discard_number", numbers))
        if self.number is None:
            return numbers[0], [i for i, c in enumerate(view.hand)
                                if cards.KIND[c] == cards.NUMBER and cards.NUMBER_OF[c] == numbers[0]]
        return self.number[0], self._indices(view, self.number[1])

    def discard_colour(self, view, colours):
        self.asked.append(("discard_colour", colours))
        if self.group is None:
            return colours[0], [i for i, c in enumerate(view.hand) if cards.COLOUR[c] == colours[0]]
        return self.group[0], self._indices(view, self.group[1])

    def war_reveal(self, view, candidates):
        offered = names([view.hand[i] for i in candidates])
        self.asked.append(("war_reveal", offered))
        if self.reveals and self.reveals[0] in offered:
            return candidates[offered.index(self.reveals.pop(0))]
        return candidates[0]

    def war_discard(self, view, revealed):
        self.asked.append(("war_discard", names([view.hand[i] for i in revealed])))
        if self.war_cards is None:
            return list(revealed)
        return self._indices(view, self.war_cards)

    def uno_spin_discard(self, view):
        self.asked.append(("uno_spin_discard", len(view.hand)))
        if self.shout == "first":
            return 0
        return None if self.shout is None else view.hand.index(C(self.shout))


OPENER = ["R3*", "G6", "G7", "B5", "YSKIP"]          # seat 1: plays R3* in turn 1
OTHER = ["B1", "Y1", "G8", "Y6", "WD4"]               # seat 0
SPINNER = ["G3", "B2", "RSKIP", "GREV", "R8"]         # seat 2


def wheel_game(outcome, spinner_hand, *, hands=None, wheels=None, draws=(), turns=3, first="R9", **rules):
    """Seat 1 plays R3*, seat 2 spins ``outcome`` in turn 2; ``turns`` turns are played."""
    hands = hands or [OTHER, OPENER, spinner_hand]
    wheels = wheels or [Wheel() for _ in hands]
    wheels[1].plays = wheels[1].plays or ["R3*"]
    weights = {outcome: 1.0} if isinstance(outcome, str) else outcome
    return run(hands, first, draws, scripts=wheels, variant="spin", spin_weights=weights,
               max_turns_per_round=turns, **rules)


def spin_turn_events(s, outcome, seat=2, k=2):
    """Turn ``k``: the SPIN event, then the outcome's events (checkpoint included)."""
    events = s.turn(k)
    assert s.turn_seat(k)[0] == seat
    assert events[0] == E("spin", seat, O[outcome], 0)
    return events[1:]


def hand_names(snapshot, seat):
    return names(snapshot.hands[seat])


def before_turn(s, k):
    """The table when turn ``k`` starts (a colour set without an event shows only from there on)."""
    return s.after(E("turn", s.turn_seat(k)[0], k, 0))


# ---- the spin card and the designated spinner (docs/rules.md §2.3.2) -------------------------------------------
def test_spin_card_designates_next_player_who_spins_instead_of_playing():
    s = wheel_game("show_hand", SPINNER)
    assert s.turn(1) == [E("play", 1, "R3*"), E("spinner", 2)]
    assert spin_turn_events(s, "show_hand") == [E("show", 2)]
    assert s.turn_players() == [1, 2, 0]               # nobody skipped, the spin was seat 2's turn
    assert (s.round["spins"], s.round["show_hand"], s.round["n_turns"]) == (1, 1, 3)
    assert s.seat(2)["n_played"] == 0


def test_plain_number_card_designates_nobody():
    s = wheel_game("show_hand", SPINNER, wheels=[Wheel(), Wheel(["R3"]), Wheel()],
                   hands=[OTHER, ["R3", "G6", "G7", "B5", "YSKIP"], SPINNER])
    assert s.turn(1) == [E("play", 1, "R3")]
    assert not s.of("spin", "spinner") and s.round["spins"] == 0


def test_show_hand_changes_nothing_and_is_seen_by_every_policy():
    spinner_hand = SPINNER
    wheels = [Wheel(), Wheel(), Wheel()]
    s = wheel_game("show_hand", spinner_hand, wheels=wheels)
    before, after = s.snapshots[s.events.index(E("spin", 2, O["show_hand"], 0)) - 1], s.after(E("show", 2))
    assert before == after                              # no change of game state
    view = wheels[0].views[-1]                          # seat 0 plays turn 3
    assert view.shown == (None, None, tuple(C(c) for c in spinner_hand))
    assert s.seat(2)["wheel_lost"] == s.seat(2)["wheel_gained"] == 0


# ---- ALMOST_UNO ----------------------------------------------------------------------------------------
# discards chosen (None: the most, in hand order), events after the discards, colour in play after
ALMOST_ROWS = [
    (["G4", "Y5", "B8"], [], 3),
    (["B8", "Y5", "WILD"], [E("colour", 2, 1)], 1),     # a wild on top: the discarder names A
    (["Y5"], [], 1),                                     # "may": keeps more than two (docs/rules.md §6 S12)
    ([], [], 0),                                         # keeps everything: T and A unchanged
    (None, [], 1),                                       # G4, B8, Y5: Y5 on top
]


@pytest.mark.parametrize("discards,colour_events,colour", ALMOST_ROWS,
                         ids=["three", "wild-on-top", "keeps-more", "keeps-all", "maximum"])
def test_almost_uno(discards, colour_events, colour):
    spinner_hand = ["G4", "B8", "Y5", "R6", "WILD"] if discards is None or "WILD" in discards \
        else ["G4", "Y5", "R6", "B8", "Y7"]
    wheel = Wheel(almost=discards, colours=[1])
    s = wheel_game("almost_uno", spinner_hand, wheels=[Wheel(), Wheel(), wheel])
    expected = discards if discards is not None else spinner_hand[:3]
    assert wheel.asked == [("almost_uno", 5)]
    assert spin_turn_events(s, "almost_uno") == [E("discard", 2, c) for c in expected] + colour_events
    after = before_turn(s, 3)
    assert hand_names(after, 2) == [c for c in spinner_hand if c not in expected]
    assert names(after.discard_pile) == ["R9", "R3*", *expected]
    assert after.colour == colour
    assert s.seat(2)["wheel_lost"] == len(expected)
    assert s.seat(2)["n_played"] == 0                   # wheel discards are not plays


class ByIndex(Wheel):
    """Answers Almost UNO / UNO Spin with fixed hand indices."""

    def __init__(self, indices, **kw):
        super().__init__(**kw)
        self.indices = indices

    def almost_uno(self, view):
        return list(self.indices)

    def uno_spin_discard(self, view):
        return self.indices[0]


@pytest.mark.parametrize("outcome,indices,left", [
    ("almost_uno", [2, 4, 3], ["Y9", "G3"]),            # the second Y9 goes, the first stays in front
    ("uno_spin", [2], ["Y9", "G3", "B4", "R8"]),
], ids=["almost-uno", "uno-spin"])
def test_wheel_discards_remove_the_chosen_copy_of_two_equal_cards(outcome, indices, left):
    """Protocol §2, §6: a discarded card leaves its own position; the order of the others is kept."""
    spinner = ByIndex(indices)
    s = wheel_game(outcome, ["Y9", "G3", "Y9", "B4", "R8"], wheels=[Wheel(), Wheel(), spinner],
                   shout_weight=(0.001, 0.001, 1000.0))
    assert hand_names(before_turn(s, 3), 2) == left


def test_almost_uno_with_two_cards_does_nothing_and_asks_nothing():
    wheel = Wheel()
    s = wheel_game("almost_uno", ["G4", "Y5"], hands=[["B1", "B2"], ["R3*", "G6"], ["G4", "Y5"]],
                   wheels=[Wheel(), Wheel(), wheel])
    assert spin_turn_events(s, "almost_uno") == []
    assert wheel.asked == []


def test_almost_uno_may_not_go_below_two_cards():
    wheel = Wheel(almost=["G4", "Y5", "R6", "B8"])
    with pytest.raises(ValueError, match="almost_uno"):
        wheel_game("almost_uno", ["G4", "Y5", "R6", "B8", "Y7"], wheels=[Wheel(), Wheel(), wheel])


# ---- DISCARD_NUMBER / DISCARD_COLOUR -------------------------------------------------------------------
# outcome, spinner hand, options offered, choice, colour in play after
GROUP_ROWS = [
    ("discard_number", ["G3", "B3*", "R6", "WILD", "Y3"], (3, 6), (3, ["B3*", "Y3", "G3"]), 2),
    ("discard_number", ["G3", "B3*", "R6", "WILD", "Y3"], (3, 6), (3, ["G3"]), 2),
    ("discard_number", ["G3", "B3*", "R6", "WILD", "Y3"], (3, 6), (6, ["R6"]), 0),
    ("discard_colour", ["YSKIP", "G3", "Y+2", "WILD", "Y4"], (1, 2), (1, ["Y4", "YSKIP", "Y+2"]), 1),
    ("discard_colour", ["B3*", "G3", "BREV", "WILD", "Y4"], (1, 2, 3), (3, ["BREV", "B3*"]), 3),
]


@pytest.mark.parametrize("outcome,spinner_hand,options,choice,colour", GROUP_ROWS,
                         ids=["number-all", "number-some", "number-other", "colour-actions", "colour-spin"])
def test_discard_number_and_colour(outcome, spinner_hand, options, choice, colour):
    """The chooser orders the cards; the last is the new T. Discarded cards have no effect: no skip,
    no draw, no new spinner (docs/rules.md §2.3.4)."""
    key = "number" if outcome == "discard_number" else "group"
    wheel = Wheel(**{key: choice})
    s = wheel_game(outcome, spinner_hand, wheels=[Wheel(), Wheel(), wheel])
    assert wheel.asked == [(outcome, options)]
    assert spin_turn_events(s, outcome) == [E("discard", 2, c) for c in choice[1]]
    assert s.turn_players() == [1, 2, 0]
    after = before_turn(s, 3)
    assert names(after.discard_pile) == ["R9", "R3*", *choice[1]]
    assert after.colour == colour
    assert hand_names(after, 2) == [c for c in spinner_hand if c not in choice[1]]
    assert (s.seat(2)["wheel_lost"], s.round[outcome]) == (len(choice[1]), 1)


@pytest.mark.parametrize("outcome,spinner_hand", [
    ("discard_number", ["GSKIP", "WILD", "B+2", "YREV", "WD4"]),
    ("discard_colour", ["WILD", "WILD", "WD4", "WD4", "WILD"]),
], ids=["no-number-card", "only-wilds"])
def test_discard_outcome_without_candidates_does_nothing(outcome, spinner_hand):
    wheel = Wheel()
    s = wheel_game(outcome, spinner_hand, wheels=[Wheel(), Wheel(), wheel])
    assert spin_turn_events(s, outcome) == [] and wheel.asked == []


def test_discard_of_a_card_outside_the_chosen_number_is_refused():
    wheel = Wheel(number=(3, ["G3", "R6"]))
    with pytest.raises(ValueError, match="discard_number"):
        wheel_game("discard_number", ["G3", "B3*", "R6", "WILD", "Y3"], wheels=[Wheel(), Wheel(), wheel])


# ---- DRAW_RED / DRAW_BLUE (docs/rules.md §6 S7, S15) -----------------------------------------------------------
DRAW_ROWS = [
    ("draw_red", ["G1", "Y2", "B4", "R4", "G2"], 4),
    ("draw_blue", ["G1", "Y2", "B4", "R4", "G2"], 3),
    ("draw_red", ["G1", "WILD", "R4"], 2),              # a wild ends the draw
    ("draw_blue", ["G1", "Y2", "WD4", "B4"], 3),
    ("draw_red", ["R1"], 1),
]


@pytest.mark.parametrize("outcome,draws,count", DRAW_ROWS, ids=["red", "blue", "red-wild", "blue-wd4", "red-first"])
def test_draw_red_and_blue(outcome, draws, count):
    s = wheel_game(outcome, SPINNER, draws=draws, turns=2)
    assert spin_turn_events(s, outcome) == [E("draw", 2, c) for c in draws[:count]]
    assert (s.seat(2)["wheel_gained"], s.seat(2)["n_drawn"], s.round["n_draws"]) == (count, count, count)
    assert s.round["draw_red" if outcome == "draw_red" else "draw_blue"] == 1


def test_draw_red_ends_when_both_piles_are_empty():
    """10 players × 10 cards hold every red card and every wild; the turned-up R3* makes F = seat 1
    spin at once, so the discard pile is T alone: seat 1 draws the 7 cards left, then fails (§1.6)."""
    players, size = 10, 10
    deck = [cards.card_name(int(c)) for c in cards.deck_ids(get_variant("spin").deck_counts())]
    deck.remove("R3*")
    deck.sort(key=lambda c: cards.COLOUR[C(c)] not in (0, cards.NO_COLOUR))   # reds and wilds first
    hands, rest = [deck[k * size:(k + 1) * size] for k in range(players)], deck[players * size:]
    assert len(rest) == 7 and all(cards.COLOUR[C(c)] not in (0, cards.NO_COLOUR) for c in rest)
    s = run(hands, "R3*", rest, scripts=[Wheel() for _ in range(players)], variant="spin",
            spin_weights={"draw_red": 1}, spin_first_card_spins=True, max_turns_per_round=1)
    assert spin_turn_events(s, "draw_red", seat=1, k=1) == [E("draw", 1, c) for c in rest] + [E("draw_fail", 1)]
    assert s.seat(1)["wheel_gained"] == len(rest) and s.round["n_reshuffles"] == 0


# ---- TRADE_HANDS (docs/rules.md §6 S8): always to the left, whatever the direction --------------------------------
# players, hands, plays per seat, the spinner, the turn it spins in, the direction then, the next seat
TRADE_ROWS = [
    (3, {1: ["R3*"]}, 2, 2, +1, 0),
    (4, {1: ["RREV"], 0: ["R3*"]}, 3, 3, -1, 2),       # d = -1: seat 0's spin card makes seat 3 spin
    (2, {1: ["R3*"]}, 0, 2, +1, 1),
]


@pytest.mark.parametrize("players,plays,spinner,k,direction,next_seat", TRADE_ROWS,
                         ids=["clockwise", "counter-clockwise", "two-players"])
def test_trade_hands_passes_every_hand_to_the_left(players, plays, spinner, k, direction, next_seat):
    if players == 4:
        hands = [["R3*", "G6", "G9", "Y2"], ["RREV", "B3", "G7", "B5"], ["G3", "Y1", "RSKIP", "R4"],
                 ["Y4", "Y7", "GSKIP", "B9"]]
    else:
        hands = [["B1", "B2", "G8", "Y6"], ["R3*", "RREV", "G7", "B5"], ["G3", "Y1", "RSKIP", "R4"]][:players]
    wheels = [Wheel(plays.get(seat, [])) for seat in range(players)]
    s = run(hands, "R9", scripts=wheels, variant="spin", spin_weights={"trade_hands": 1},
            max_turns_per_round=k + 1)
    assert s.turn(k) == [E("spin", spinner, O["trade_hands"], 0), E("trade", spinner)]
    before = s.snapshots[s.events.index(E("spin", spinner, O["trade_hands"], 0))]
    after = s.after(E("trade", spinner))
    assert after.direction == direction
    for seat in range(players):
        assert after.hands[(seat + 1) % players] == before.hands[seat]
        assert s.seat(seat)["wheel_lost"] == len(before.hands[seat])
        assert s.seat(seat)["wheel_gained"] == len(before.hands[(seat - 1) % players])
    assert s.turn_seat(k + 1)[0] == next_seat


def test_a_hand_received_by_trade_must_call_uno():
    """Seat 1 called UNO in turn 1; its one card moves to seat 2, which must call again (docs/rules.md §1.10)."""
    s = run([["B1", "B2"], ["R3*", "G7"], ["G3", "B4"]], "R9", scripts=[Wheel(), Wheel(["R3*"]), Wheel()],
            variant="spin", spin_weights={"trade_hands": 1}, max_turns_per_round=2)
    assert s.turn(1) == [E("play", 1, "R3*"), E("spinner", 2), E("uno", 1, 1)]
    assert s.turn(2) == [E("spin", 2, O["trade_hands"], 0), E("trade", 2), E("uno", 2, 1)]


# ---- WAR (docs/rules.md §2.3.3, §6 S5, S6, S14) -------------------------------------------------------------------
# name, hands of seats 0, 1 (opens with R3*), 2 (spinner), reveals (seat, card) in order, winner, discards
WAR_ROWS = [
    ("unique-winner",
     ["G9", "B1", "Y6", "WILD", "WD4"], ["R3*", "G6", "G7", "B5", "YSKIP"], ["Y8", "B2", "RSKIP", "GREV", "R4"],
     [(2, "Y8"), (0, "G9"), (1, "G7")], 0, ["G9"]),
    ("multi-level-tie",
     ["G9", "G8", "B1", "B6", "WILD"], ["R3*", "B9", "G7", "G5", "YSKIP"], ["Y9", "Y8", "B2", "R5", "RSKIP"],
     [(2, "Y9"), (0, "G9"), (1, "B9"), (2, "Y8"), (0, "G8"), (1, "G7"), (2, "R5"), (0, "B6")], 0,
     ["G9", "G8", "B6"]),
    ("all-tied-drop-out",
     ["G9", "WD4", "BSKIP", "YREV", "WILD"], ["R3*", "B8", "G+2", "YSKIP", "GSKIP"],
     ["Y9", "B+2", "RSKIP", "GREV", "WILD"],
     [(2, "Y9"), (0, "G9"), (1, "B8")], -1, []),
    ("single-participant",
     ["G4", "B7", "WILD", "WD4", "RREV"], ["R3*", "GSKIP", "YREV", "G+2", "WD4"],
     ["RSKIP", "GREV", "WILD", "B+2", "YSKIP"],
     [(0, "B7")], 0, ["B7"]),
    ("lone-tied-player-reveals-and-wins",
     ["G9", "B2", "BSKIP", "YREV", "WILD"], ["R3*", "B8", "G+2", "YSKIP", "GSKIP"],
     ["Y9", "B+2", "RSKIP", "GREV", "WILD"],
     [(2, "Y9"), (0, "G9"), (1, "B8"), (0, "B2")], 0, ["G9", "B2"]),
    ("one-drops-out-the-others-compare",     # all tied on 9; seat 2 drops out, G7 beats B2
     ["G9", "B2", "BSKIP", "YREV", "WILD"], ["R3*", "B9", "G7", "G+2", "YSKIP"], ["Y9", "B+2", "RSKIP", "GREV", "WILD"],
     [(2, "Y9"), (0, "G9"), (1, "B9"), (0, "B2"), (1, "G7")], 1, ["B9", "G7"]),
    ("spinner-wins",
     ["G5", "B1", "Y6", "WILD", "WD4"], ["R3*", "G6", "G7", "B5", "YSKIP"], ["Y8", "B2", "RSKIP", "GREV", "R4"],
     [(2, "Y8"), (0, "Y6"), (1, "G7")], 2, ["Y8"]),
    ("tie-broken-by-the-second-level-only",   # seat 1's 9 at level 0 does not count at level 1
     ["G9", "G2", "B1", "BSKIP", "WILD"], ["R3*", "B9", "G7", "G5", "YSKIP"], ["Y9", "Y4", "B+2", "RSKIP", "GREV"],
     [(2, "Y9"), (0, "G9"), (1, "B9"), (2, "Y4"), (0, "G2"), (1, "G7")], 1, ["B9", "G7"]),
]


@pytest.mark.parametrize("name,h0,h1,h2,reveals,winner,discards", WAR_ROWS, ids=[r[0] for r in WAR_ROWS])
def test_war(name, h0, h1, h2, reveals, winner, discards):
    s = wheel_game("war", h2, hands=[h0, h1, h2])
    expected = [E("reveal", seat, c) for seat, c in reveals] + [E("war", winner)] + \
        [E("discard", winner, c) for c in discards]
    assert spin_turn_events(s, "war") == expected
    after = before_turn(s, 3)
    for seat, hand in enumerate([h0, h1[1:], h2]):     # everybody else takes its cards back
        assert hand_names(after, seat) == [c for c in hand if seat != winner or c not in discards]
    assert names(after.discard_pile) == ["R9", "R3*", *discards]
    assert after.colour == cards.COLOUR[C((["R3*"] + discards)[-1])]
    assert s.seat(max(winner, 0))["wheel_lost"] == len(discards)
    assert s.turn_seat(3)[0] == ((winner + 1) % 3 if winner >= 0 else 0)    # docs/rules.md §2.3.5


def test_war_reveal_among_equal_cards_and_discard_order_are_the_players_choice():
    winner = Wheel(reveals=["B9", "G9"], war_discard=["G9", "B9"])
    hands = [["G9", "B9", "B1", "WILD", "WD4"], ["R3*", "R9", "G7", "B5", "YSKIP"], ["Y9", "B2", "RSKIP", "GREV", "R4"]]
    s = wheel_game("war", hands[2], hands=hands, wheels=[winner, Wheel(), Wheel()])
    assert spin_turn_events(s, "war") == [
        E("reveal", 2, "Y9"), E("reveal", 0, "B9"), E("reveal", 1, "R9"),   # all tied on 9
        E("reveal", 2, "R4"), E("reveal", 0, "G9"), E("reveal", 1, "G7"), E("war", 0),
        E("discard", 0, "G9"), E("discard", 0, "B9")]
    assert winner.asked == [("war_reveal", ["G9", "B9"]), ("war_reveal", ["G9"]), ("war_discard", ["B9", "G9"])]


def test_war_winner_may_keep_its_cards():
    hands = [["G9", "B1", "Y6", "WILD", "WD4"], OPENER, ["Y8", "B2", "RSKIP", "GREV", "R4"]]
    s = wheel_game("war", hands[2], hands=hands, wheels=[Wheel(war_discard=[]), Wheel(), Wheel()])
    assert spin_turn_events(s, "war")[-1] == E("war", 0)
    assert s.seat(0)["wheel_lost"] == 0


def test_war_participants_follow_the_direction_of_play():
    """4 players, d = -1 after seat 1's REVERSE: seat 0's spin card makes seat 3 spin; order 3, 2, 1, 0."""
    hands = [["R3*", "G6", "B1", "WILD"], ["RREV", "G7", "B2", "YSKIP"], ["Y5", "B4", "RSKIP", "GREV"],
             ["B8", "G2", "WD4", "BSKIP"]]
    s = run(hands, "R9", scripts=[Wheel(["R3*"]), Wheel(["RREV"]), Wheel(), Wheel()], variant="spin",
            spin_weights={"war": 1}, max_turns_per_round=4)
    assert s.turn(3) == [E("spin", 3, O["war"], 0), E("reveal", 3, "B8"), E("reveal", 2, "Y5"),
                         E("reveal", 1, "G7"), E("reveal", 0, "G6"), E("war", 3), E("discard", 3, "B8")]
    assert s.turn_seat(4)[0] == 2


# ---- UNO_SPIN (docs/rules.md §2.3.3, §5 item 12) -----------------------------------------------------------------
def expected_shouter(seed, weights, eligible, draws_before=1):
    """The play stream: one uniform() for the wheel (the scripted players draw nothing), then
    u = uniform() * sum(w) over the eligible seats in seat order (protocol §6)."""
    rng = Xoshiro(seed, 0, PLAY_STREAM)
    for _ in range(draws_before):
        rng.uniform()
    u, total = rng.uniform() * sum(weights[s] for s in eligible), 0.0
    for seat in eligible:
        total += weights[seat]
        if u < total:
            return seat
    raise AssertionError("no shouter")


@pytest.mark.parametrize("weights", [(1.0, 1.0, 1.0), (0.001, 5.0, 0.2), (3.0, 0.01, 0.01), (0.2, 0.3, 7.0)],
                         ids=["equal", "seat1-fast", "seat0-fast", "seat2-fast"])
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_uno_spin_shouter_follows_the_shout_weights(weights, seed):
    s = wheel_game("uno_spin", SPINNER, shout_weight=weights, seed=seed)
    shouter = expected_shouter(seed, weights, [0, 1, 2])
    events = spin_turn_events(s, "uno_spin")
    assert events[0] == E("shout", shouter)
    assert events[1][:2] == ("discard", shouter)       # unscripted: its first card
    assert s.seat(shouter)["wheel_lost"] == 1
    assert s.turn_seat(3)[0] == (shouter + 1) % 3


def test_uno_spin_shouter_chooses_the_card_and_names_the_colour_of_a_wild():
    weights = (0.001, 0.001, 1000.0)
    shout = Wheel(shout="WILD", colours=[3])
    s = wheel_game("uno_spin", ["G3", "WILD", "RSKIP", "GREV", "R4"], wheels=[Wheel(), Wheel(), shout],
                   shout_weight=weights)
    assert spin_turn_events(s, "uno_spin") == [E("shout", 2), E("discard", 2, "WILD"), E("colour", 2, 3)]


def test_uno_spin_shouter_may_keep_its_cards():
    shout = Wheel(shout=None)
    s = wheel_game("uno_spin", SPINNER, wheels=[Wheel(), Wheel(), shout],
                   shout_weight=(0.001, 0.001, 1000.0))
    assert spin_turn_events(s, "uno_spin") == [E("shout", 2)]
    assert s.seat(2)["wheel_lost"] == 0


# ---- who plays next (docs/rules.md §2.3.5, §6 S4) ----------------------------------------------------------------
WAR_TO_SEAT_0 = ["G9", "B1", "Y6", "WILD", "WD4"]
NEXT_ROWS = [  # outcome, seat 0's hand, shout weights, continue toggle, next player
    ("war", WAR_TO_SEAT_0, 1.0, True, 1),
    ("war", WAR_TO_SEAT_0, 1.0, False, 0),
    ("war", ["G1", "B1", "Y6", "WILD", "WD4"], 1.0, True, 0),          # the spinner wins with Y8
    ("uno_spin", OTHER, (1000.0, 0.001, 0.001), True, 1),
    ("uno_spin", OTHER, (1000.0, 0.001, 0.001), False, 0),
    ("uno_spin", OTHER, (0.001, 1000.0, 0.001), True, 2),
    ("uno_spin", OTHER, (0.001, 1000.0, 0.001), False, 0),
    ("show_hand", OTHER, 1.0, True, 0),
    ("draw_red", OTHER, 1.0, True, 0),
]


@pytest.mark.parametrize("outcome,h0,shout,toggle,next_seat", NEXT_ROWS,
                         ids=[f"{r[0]}-{i}-{'on' if r[3] else 'off'}" for i, r in enumerate(NEXT_ROWS)])
def test_next_player_after_a_spin(outcome, h0, shout, toggle, next_seat):
    s = wheel_game(outcome, ["Y8", "B2", "RSKIP", "GREV", "R4"], hands=[h0, OPENER, ["Y8", "B2", "RSKIP", "GREV", "R4"]],
                   draws=["R1"], shout_weight=shout, spin_continue_after_winner=toggle)
    assert s.turn_seat(3)[0] == next_seat


def test_war_without_winner_continues_after_the_spinner_with_the_toggle_on():
    row = WAR_ROWS[2]
    s = wheel_game("war", row[3], hands=[row[1], row[2], row[3]], spin_continue_after_winner=True)
    assert E("war", -1) in s.turn(2) and s.turn_seat(3)[0] == 0


# ---- a wheel discard that empties a hand wins at once (docs/rules.md §2.3.4, §6 S10) --------------------------------
EMPTY_ROWS = [  # outcome, hands (3 cards), shout weights, winner
    ("discard_number", [["B1", "B2", "G8"], ["R3*", "G7", "B9"], ["G6", "B6", "Y6"]], 1.0, 2),
    ("discard_colour", [["B1", "B2", "G8"], ["R3*", "G7", "B9"], ["G6", "GSKIP", "G+2"]], 1.0, 2),
    ("war", [["G9", "G8", "B2"], ["R3*", "G+2", "YSKIP"], ["Y9", "Y8", "Y5"]], 1.0, 2),
    ("uno_spin", [["B1", "B2", "G8"], ["R3*", "G7", "B9"], ["G6", "B6", "Y6"]], (0.001, 0.001, 1000.0), None),
]


@pytest.mark.parametrize("outcome,hands,shout,winner", EMPTY_ROWS, ids=[r[0] for r in EMPTY_ROWS])
def test_a_wheel_discard_that_empties_a_hand_wins_the_round(outcome, hands, shout, winner):
    if outcome == "uno_spin":     # the shouter holds a single card: seat 1 after its play, hand size 2
        hands, winner = [["B1", "B2"], ["R3*", "G7"], ["G6", "B6"]], 1
        shout = (0.001, 1000.0, 0.001)
    s = wheel_game(outcome, hands[2], hands=hands, shout_weight=shout, turns=10)
    events = s.turn(2)
    assert events[-1][:2] == ("discard", winner)       # the round ends at once: no checkpoint
    assert s.events[s.events.index(events[-1]) + 1][0] == "round_end"
    assert (s.round["winner_seat"], s.round["end"], s.round["n_turns"]) == (winner, L.END_WON, 2)
    end = s.snapshots[-1]
    assert s.round["points"] == sum(int(POINTS[c]) for seat in range(3) if seat != winner for c in end.hands[seat])
    assert s.seat(winner)["won"] == 1 and s.seat(winner)["cards_left"] == 0


# ---- spin card as first card (docs/rules.md §2.3.6, §6 S3) -----------------------------------------------------
@pytest.mark.parametrize("first", ["R3*", "R3"])
@pytest.mark.parametrize("toggle", [False, True], ids=["first-card-spins-off", "first-card-spins-on"])
def test_spin_card_turned_up_first(first, toggle):
    hands = [OTHER, ["G3", "G6", "G7", "B5", "YSKIP"], ["Y8", "B2", "RSKIP", "GREV", "R4"]]
    s = run(hands, first, scripts=[Wheel() for _ in hands], variant="spin", spin_weights={"show_hand": 1},
            spin_first_card_spins=toggle, max_turns_per_round=2)
    spins = toggle and first == "R3*"
    assert s.setup() == [E("round_start", 0, 0, 0), E("first_card", 1, first)] + \
        ([E("spinner", 1)] if spins else []) + [E("first_seat", 1, 1)]
    if spins:
        assert s.turn(1) == [E("spin", 1, O["show_hand"], 0), E("show", 1)]
    else:
        assert s.turn(1)[0] == E("play", 1, "G3")        # F plays normally
    assert s.turn_seat(2)[0] == 2
    assert s.round["spins"] == int(spins)


# ---- spin card as final card (docs/rules.md §2.3.6, §6 S11, S13) -----------------------------------------------
# 4 players, hand size 1: seat 1 wins turn 1 with R3*; seat 2 = next(1) spins once more for scoring
FINAL_HANDS = [["Y7"], ["R3*"], ["G9"], ["B5"]]
FINAL_ROWS = [  # outcome, draws, events after SPIN, hands after (seats 0, 2, 3)
    ("trade_hands", [], [E("trade", 2)], [["B5"], ["Y7"], ["G9"]]),         # among 0, 2, 3 only
    ("war", [], [E("reveal", 2, "G9"), E("reveal", 3, "B5"), E("reveal", 0, "Y7"), E("war", 2),
                 E("discard", 2, "G9")], [["Y7"], [], ["B5"]]),              # emptied: winner unchanged
    ("draw_red", ["G1", "B2", "R4"], [E("draw", 2, "G1"), E("draw", 2, "B2"), E("draw", 2, "R4")],
     [["Y7"], ["G9", "G1", "B2", "R4"], ["B5"]]),
    ("almost_uno", [], [], [["Y7"], ["G9"], ["B5"]]),
    ("show_hand", [], [E("show", 2)], [["Y7"], ["G9"], ["B5"]]),
]


@pytest.mark.parametrize("outcome,draws,events,hands_after", FINAL_ROWS, ids=[r[0] for r in FINAL_ROWS])
def test_spin_card_as_final_card(outcome, draws, events, hands_after):
    s = run(FINAL_HANDS, "R9", draws, scripts=[Wheel() for _ in FINAL_HANDS], variant="spin",
            spin_weights={outcome: 1})
    # not a turn, no UNO checks (seats 0 and 3 hold one card with uno_done clear after a trade)
    assert s.turn(1) == [E("play", 1, "R3*"), E("spin", 2, O[outcome], 1)] + events
    end = s.snapshots[-1]
    assert [hand_names(end, seat) for seat in (0, 2, 3)] == hands_after and end.hands[1] == ()
    assert (s.round["winner_seat"], s.round["end"], s.round["n_turns"]) == (1, L.END_WON, 1)
    assert s.round["points"] == sum(int(POINTS[C(c)]) for hand in hands_after for c in hand)
    assert (s.round["spins"], s.round["final_spins"], s.round[outcome]) == (1, 1, 1)
    assert s.seat(1)["wheel_gained"] == s.seat(1)["wheel_lost"] == 0      # the winner takes no part


def test_final_spin_uno_spin_leaves_the_winner_out():
    weights = (1000.0, 1000.0, 0.001, 0.001)           # the winner (seat 1) would shout if eligible
    s = run(FINAL_HANDS, "R9", scripts=[Wheel() for _ in FINAL_HANDS], variant="spin",
            spin_weights={"uno_spin": 1}, shout_weight=weights)
    shouter = expected_shouter(1, weights, [0, 2, 3])
    assert shouter == 0
    assert s.turn(1)[2:] == [E("shout", 0), E("discard", 0, "Y7")]
    assert s.round["winner_seat"] == 1                  # seat 0's emptied hand changes nothing


def test_final_spin_with_two_players_trades_nothing():
    """Decision: with one seat taking part, Trade Hands moves nothing (nobody to give to)."""
    s = run([["Y7"], ["R3*"]], "R9", scripts=[Wheel(), Wheel()], variant="spin",
            spin_weights={"trade_hands": 1})
    assert s.turn(1) == [E("play", 1, "R3*"), E("spin", 0, O["trade_hands"], 1), E("trade", 0)]
    assert s.snapshots[-1].hands == ((C("Y7"),), ())
    assert s.seat(0)["wheel_lost"] == s.seat(0)["wheel_gained"] == 0


def test_no_final_spin_without_final_card_effects():
    s = run(FINAL_HANDS, "R9", scripts=[Wheel() for _ in FINAL_HANDS], variant="spin",
            spin_weights={"trade_hands": 1}, final_card_effects=False)
    assert s.turn(1) == [E("play", 1, "R3*")]
    assert (s.round["spins"], s.round["final_spins"]) == (0, 0)


# ---- a jump-in cancels a pending spin (docs/rules.md §4 jump_in) ----------------------------------------------------
@pytest.mark.parametrize("jump_in", [False, True])
def test_jump_in_cancels_a_pending_spin(jump_in):
    """Spin cards are unique, so with the real deck a jump-in never follows a spin card; the test plants
    a designation of seat 2 when seat 1 plays G7, then seat 3 jumps in with the other G7. Without the
    jump-in seat 2 spins in turn 2; with it seat 2 plays normally when its turn comes (turn 5)."""
    players = 4
    hands = [["B1", "B2", "G8"], ["G7", "G6", "B5"], ["G3", "B4", "RSKIP"], ["G7", "Y1", "Y9"]]
    rules = get_variant("spin", {"hand_size": 3, "first_dealer": 0, "match_mode": "single_round",
                                 "jump_in": jump_in, "spin_weights": {"show_hand": 1},
                                 "max_turns_per_round": 5})
    deck = stacked_deck(rules.deck_counts(), players, 0, hands, "G9")

    def plant(table, event):
        if event == (L.EV_PLAY, 1, C("G7"), 0):
            table.spinner = 2

    results = run_games(rules, players, [Wheel(["G7"] if k == 1 else []) for k in range(players)], 1, 0, 1,
                        deck, True, plant)
    events = [(L.EV_NAMES[int(c)], int(s), int(a), int(b)) for c, s, a, b in results.events]
    turns = [e for e in events if e[0] == "turn"]
    spins = [e for e in events if e[0] == "spin"]
    if jump_in:
        assert turns[:5] == [E("turn", 1, 1), E("turn", 3, 2, 1), E("turn", 0, 3), E("turn", 1, 4), E("turn", 2, 5)]
        assert spins == []
    else:
        assert turns[1] == E("turn", 2, 2) and spins == [E("spin", 2, O["show_hand"], 0)]
