"""Helpers for scripted scenario tests on the reference engine.

* :func:`C` turns card names (``"R7"``, ``"GSKIP"``, ``"Y+2"``, ``"BREV"``, ``"WILD"``, ``"WD4"``,
  ``"BLANK0"``, ``"DUMBFU"``) into card ids.
* :func:`stacked_deck` builds a ``deck_order`` that deals the hands you want, turns up the first
  card(s) you want and then serves the draws you want.
* :class:`Scripted` is a Python policy that plays a fixed list of choices.
* :func:`run` plays one scripted game and returns a :class:`Scenario` with named trace events.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from unosim.game import cards, custom_cards
from unosim.game import protocol as L
from unosim.game.rules import get_variant
from unosim.reference import PythonPolicy, RawResults, run_games

CARD_IDS = {cards.card_name(i): i for i in range(cards.N_FACE_IDS)}   # the faces (a pairing's ids share their names)
CARD_IDS["WD4"] = cards.ID_WD4
# declared cards (docs/rules.md §2.7) by slot: RCUSTOM0 … BCUSTOM0 for a coloured one, CUSTOM0 for a wild one
CARD_IDS.update({name: i for i, name in enumerate(custom_cards.book(()).names) if i >= custom_cards.ID_CUSTOM0})


def C(name: str) -> int:
    """Card id from its short name (``cards.card_name``)."""
    return CARD_IDS[name]


def names(ids: Sequence[int]) -> list[str]:
    return [cards.card_name(int(i)) for i in ids]


def stacked_deck(family_deck: np.ndarray, players: int, dealer: int, hands: Sequence[Sequence[str]],
                 first: str | Sequence[str], draws: Sequence[str] = ()) -> list[int]:
    """A full ``deck_order`` (last element = top of the draw pile) for a scripted round.

    ``hands[s]``: the cards seat ``s`` should hold, in hand order (every seat, equal lengths = the
    rules' ``hand_size``). The deal gives one card at a time starting at ``dealer + 1`` and pops from
    the end, so the top of the pile is the first dealt card. ``first``: the card turned up (or several,
    turned up one after another when the earlier ones are Wild Draw Fours). ``draws``: the next cards
    of the draw pile in the order they will be drawn. The remaining cards lie below them and are drawn
    in ascending id order.
    """
    if len(hands) != players or len({len(h) for h in hands}) != 1:
        raise ValueError("give one hand per seat, all of the same size")
    hand_size = len(hands[0])
    firsts = [first] if isinstance(first, str) else list(first)
    top_down = []
    for k in range(hand_size):
        for offset in range(1, players + 1):
            top_down.append(C(hands[(dealer + offset) % players][k]))
    top_down += [C(c) for c in firsts] + [C(c) for c in draws]
    rest = list(np.repeat(np.arange(len(family_deck)), family_deck))   # ids in ascending order
    for card in top_down:
        rest.remove(card)   # raises ValueError when a card is asked for more often than the deck holds
    bottom_up = sorted(rest, reverse=True)
    return bottom_up + top_down[::-1]


class Scripted(PythonPolicy):
    """Plays a fixed script and never touches the random stream.

    ``plays``: card names to play, in order, or ``"draw"``; when the script is exhausted it plays its
    first legal card. ``colours``: colours to name, also as a Roulette victim (then colour 0).
    ``targets``: swap targets (then the first candidate). ``challenges``: challenge answers (then
    False). ``drawn``: answers to ``play_drawn`` (then True: play the drawn card). ``stacks``: card
    names to stack on a pending penalty, or ``"accept"`` (then accept). ``jumps``: answers to
    ``jump_in`` (then True).
    """

    def __init__(self, plays: Sequence[str] = (), colours: Sequence[int] = (), targets: Sequence[int] = (),
                 challenges: Sequence[bool] = (), drawn: Sequence[bool] = (), stacks: Sequence[str] = (),
                 jumps: Sequence[bool] = ()):
        self.plays, self.colours, self.targets = list(plays), list(colours), list(targets)
        self.challenges, self.drawn = list(challenges), list(drawn)
        self.stacks, self.jumps = list(stacks), list(jumps)
        self.views = []          # every view this policy was asked to play from
        self.stack_views = []    # every view this policy was asked to stack from
        self.jump_views = []     # every (view, index) this policy was asked to jump in with

    def play(self, view):
        self.views.append(view)
        if not self.plays:
            return view.legal[0]
        choice = self.plays.pop(0)
        if choice == "draw":
            return None
        return view.hand.index(C(choice))

    def colour(self, view):
        return self.colours.pop(0) if self.colours else 0

    def play_drawn(self, view, card):
        return self.drawn.pop(0) if self.drawn else True

    def challenge(self, view):
        return self.challenges.pop(0) if self.challenges else False

    def target(self, view, candidates):
        self.candidates = candidates
        return self.targets.pop(0) if self.targets else candidates[0]

    def stack(self, view):
        self.stack_views.append(view)
        choice = self.stacks.pop(0) if self.stacks else "accept"
        return None if choice == "accept" else view.hand.index(C(choice))

    def jump_in(self, view, index):
        self.jump_views.append((view, index))
        return self.jumps.pop(0) if self.jumps else True


Event = tuple[str, int, int, int]


def E(name: str, seat: int = -1, a: int | str = 0, b: int = 0) -> Event:
    """A named trace event; a card name as ``a`` is turned into its id."""
    return (name, seat, C(a) if isinstance(a, str) else a, b)


@dataclass(frozen=True)
class Snapshot:
    """The table right after one event."""

    hands: tuple[tuple[int, ...], ...]
    draw_pile: tuple[int, ...]
    discard_pile: tuple[int, ...]
    colour: int
    direction: int
    set_aside: tuple[int, ...] = ()
    pending: int = 0
    active: tuple[bool, ...] = ()


@dataclass
class Scenario:
    results: RawResults
    events: list[Event]
    players: int
    snapshots: list[Snapshot]

    def after(self, event: Event) -> Snapshot:
        """The table right after the first occurrence of ``event``."""
        return self.snapshots[self.events.index(event)]

    def setup(self) -> list[Event]:
        """Events from ROUND_START up to (excluding) the first TURN or ROUND_END."""
        end = next(i for i, e in enumerate(self.events) if e[0] in ("turn", "round_end"))
        return self.events[:end]

    def turn(self, k: int, round_index: int = 0) -> list[Event]:
        """Events of turn ``k`` (1-based) of round ``round_index`` after its TURN event, checkpoint
        included, up to the next TURN or ROUND_END (a jump-in is a turn of its own)."""
        rounds = [i for i, e in enumerate(self.events) if e[0] == "round_start"]
        start = rounds[round_index]
        begin = next(i for i in range(start, len(self.events))
                     if self.events[i][0] == "turn" and self.events[i][2] == k) + 1
        end = next(i for i in range(begin, len(self.events)) if self.events[i][0] in ("turn", "round_end"))
        return self.events[begin:end]

    def turn_seat(self, k: int, round_index: int = 0) -> tuple[int, int]:
        rounds = [i for i, e in enumerate(self.events) if e[0] == "round_start"]
        for e in self.events[rounds[round_index]:]:
            if e[0] == "turn" and e[2] == k:
                return (e[1], k)
        raise AssertionError(f"no turn {k} in round {round_index}")

    def turn_players(self, round_index: int = 0) -> list[int]:
        rounds = [i for i, e in enumerate(self.events) if e[0] == "round_start"] + [len(self.events)]
        return [e[1] for e in self.events[rounds[round_index]:rounds[round_index + 1]] if e[0] == "turn"]

    def of(self, *kinds: str) -> list[Event]:
        return [e for e in self.events if e[0] in kinds]

    @property
    def round(self) -> dict[str, int]:
        return dict(zip(L.ROUND_COLUMNS, (int(x) for x in self.results.rounds[0]), strict=True))

    def seat(self, s: int, round_index: int = 0) -> dict[str, int]:
        row = self.results.seats[round_index * self.players + s]
        return dict(zip(L.SEAT_COLUMNS, (int(x) for x in row), strict=True))

    @property
    def match(self) -> dict[str, int]:
        return dict(zip(L.MATCH_COLUMNS, (int(x) for x in self.results.matches[0]), strict=True))


def run(hands: Sequence[Sequence[str]], first: str | Sequence[str], draws: Sequence[str] = (), *,
        scripts: Sequence[Any] | None = None, variant: str = "classic", dealer: int = 0,
        seed: int = 1, **overrides: Any) -> Scenario:
    """Play one game with a stacked first round. ``hands`` fixes ``hand_size``; unless overridden the
    match is a single round, the dealer is ``dealer`` and nobody forgets UNO."""
    players = len(hands)
    settings = {"hand_size": len(hands[0]), "first_dealer": dealer, "match_mode": "single_round", **overrides}
    rules = get_variant(variant, settings)
    deck = stacked_deck(rules.all_counts(), players, dealer, hands, first, draws)
    lineup = list(scripts) if scripts is not None else [Scripted() for _ in range(players)]
    snapshots = []

    def observe(table, event):
        snapshots.append(Snapshot(tuple(tuple(h) for h in table.hands), tuple(table.draw_pile),
                                  tuple(table.discard_pile), table.colour, table.direction,
                                  tuple(table.set_aside), table.pending, tuple(table.active)))

    results = run_games(rules, players, lineup, seed, 0, 1, deck, True, observe)
    events = [(L.EV_NAMES[int(code)], int(seat), int(a), int(b)) for code, seat, a, b in results.events]
    return Scenario(results, events, players, snapshots)


def fill_hands(players: int, hand_size: int, fixed: dict[int, Sequence[str]], reserved: Sequence[str] = (),
               variant: str = "classic") -> list[list[str]]:
    """Hands for every seat: ``fixed[s]`` first, then filler cards in id order, leaving out the
    ``reserved`` cards (kept for the first card and the draws)."""
    pool = list(cards.deck_ids(get_variant(variant).deck_counts()))
    for name in [c for hand in fixed.values() for c in hand] + list(reserved):
        pool.remove(C(name))
    fillers = [cards.card_name(int(c)) for c in pool]
    hands = []
    for seat in range(players):
        hand = list(fixed.get(seat, ()))
        while len(hand) < hand_size:
            hand.append(fillers.pop(0))
        hands.append(hand)
    return hands
