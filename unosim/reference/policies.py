"""The reference engine's built-in policies (``random``, ``greedy_points``, ``keep_wilds`` and, in
:mod:`.weighted`, ``weighted``) and the lineup of seats a game is played by: built-in names, policy
objects or plain callables (the interface is :mod:`.policy`'s)."""


from __future__ import annotations

from abc import ABCMeta, abstractmethod
from dataclasses import dataclass
from typing import Any

from ..game import cards
from ..game.policies import PolicySpec, make_lineup, parse_policy
from ..game.protocol import WEIGHTED
from .card_tables import COLOUR, POINTS
from .policy import PolicyView, PythonPolicy, card_number, features
from .weighted import WeightedPolicy


class RandomPolicy(PythonPolicy):
    """Built-in ``random`` with its parameters (protocol §4)."""

    def __init__(self, p_draw: float = 0.0, p_bluff: float = 0.0, p_challenge: float = 0.0,
                 p_keep_drawn: float = 0.0):
        self.p_draw, self.p_bluff, self.p_challenge = p_draw, p_bluff, p_challenge
        self.p_keep_drawn = p_keep_drawn

    def play_drawn(self, view: PolicyView, card: int) -> bool:
        return not view.rng.bernoulli(self.p_keep_drawn)   # p_keep_drawn = 0 draws nothing

    def play(self, view: PolicyView) -> int | None:
        if view.rules.voluntary_draw and view.rng.bernoulli(self.p_draw):
            return None
        if view.bluffs and view.rng.bernoulli(self.p_bluff):
            return view.bluffs[0]
        return view.legal[view.rng.below(len(view.legal))]

    def challenge(self, view: PolicyView) -> bool:
        return view.rng.bernoulli(self.p_challenge)


def _held_colours(hand) -> list[int]:
    """How many cards of each colour a hand holds (wilds count for none)."""
    held = [0, 0, 0, 0]
    for card in hand:
        if COLOUR[card] != cards.NO_COLOUR:
            held[COLOUR[card]] += 1
    return held


class _DeterministicPolicy(PythonPolicy, metaclass=ABCMeta):
    """Shared parts of ``greedy_points`` and ``keep_wilds`` (protocol §4)."""

    def __init__(self, p_challenge: float = 0.0, p_keep_drawn: float = 0.0):
        # They never draw voluntarily or bluff (protocol §4), so p_draw / p_bluff are not parameters.
        self.p_challenge = p_challenge
        self.p_keep_drawn = p_keep_drawn

    def play_drawn(self, view: PolicyView, card: int) -> bool:
        return not view.rng.bernoulli(self.p_keep_drawn)   # p_keep_drawn = 0 draws nothing

    def colour(self, view: PolicyView) -> int:
        held = _held_colours(view.hand)
        if max(held) == 0:
            return view.rng.below(4)
        return held.index(max(held))   # lowest colour index on ties

    def challenge(self, view: PolicyView) -> bool:
        return view.rng.bernoulli(self.p_challenge)

    def target(self, view: PolicyView, candidates: tuple[int, ...]) -> int:
        return min(candidates, key=lambda seat: view.hand_sizes[seat])   # first on ties

    def stack(self, view: PolicyView) -> int | None:
        # protocol §5: stack whenever possible, choosing among the stackable cards as for a normal play
        return self.play(view) if view.legal else None

    # ---- the spin wheel (protocol §6): always the most, in hand order, never random -----------------
    @abstractmethod
    def keep_score(self, view: PolicyView, index: int) -> int:
        """Almost UNO keeps the two cards with the highest score (ties: earlier in hand)."""

    @abstractmethod
    def group_score(self, view: PolicyView, indices: list[int]) -> int:
        """Discard Number / Colour discards the group with the highest score (ties: the first)."""

    def almost_uno(self, view: PolicyView) -> list[int]:
        ranked = sorted(range(len(view.hand)), key=lambda i: (-self.keep_score(view, i), i))
        kept = set(ranked[:2])
        return [i for i in range(len(view.hand)) if i not in kept]

    def _discard_group(self, view: PolicyView, options: tuple[int, ...], key) -> tuple[int, list[int]]:
        groups = [[i for i, c in enumerate(view.hand) if key(c) == option] for option in options]
        best = max(range(len(options)), key=lambda k: self.group_score(view, groups[k]))
        return options[best], groups[best]

    def discard_number(self, view: PolicyView, numbers: tuple[int, ...]) -> tuple[int, list[int]]:
        return self._discard_group(view, numbers, card_number)

    def discard_colour(self, view: PolicyView, colours: tuple[int, ...]) -> tuple[int, list[int]]:
        return self._discard_group(view, colours, lambda c: COLOUR[c])

    def war_reveal(self, view: PolicyView, candidates: tuple[int, ...]) -> int:
        return candidates[0]

    def war_discard(self, view: PolicyView, revealed: tuple[int, ...]) -> list[int]:
        return list(revealed)


class GreedyPointsPolicy(_DeterministicPolicy):
    """Sheds the legal card with the most points, first in hand order on ties."""

    def play(self, view: PolicyView) -> int | None:
        points = features(view).points
        return max(view.legal, key=lambda i: points[view.hand[i]])

    def keep_score(self, view: PolicyView, index: int) -> int:
        return -features(view).points[view.hand[index]]         # keeps the cheapest cards

    def group_score(self, view: PolicyView, indices: list[int]) -> int:
        # sheds the most points, by the card table's points as the wheel tallies them (engine/mechanics/spin)
        return sum(POINTS[view.hand[i]] for i in indices)

    def uno_spin_discard(self, view: PolicyView) -> int | None:
        points = features(view).points
        return max(range(len(view.hand)), key=lambda i: points[view.hand[i]])


class KeepWildsPolicy(_DeterministicPolicy):
    """Plays coloured cards of its longest colour (then the most points); wilds only as a last resort."""

    def play(self, view: PolicyView) -> int | None:
        coloured = [i for i in view.legal if COLOUR[view.hand[i]] != cards.NO_COLOUR]
        if not coloured:
            return view.legal[0]

        points = features(view).points

        def score(i: int) -> int:
            colour = COLOUR[view.hand[i]]
            same_colour = sum(1 for c in view.hand if COLOUR[c] == colour)
            return 100 * same_colour + points[view.hand[i]]

        return max(coloured, key=score)

    def colour(self, view: PolicyView) -> int:
        """The colour held most; among ties the one the next seat was last seen (spin SHOW_HAND) to
        hold fewest of, then the lowest index (protocol §6)."""
        held = _held_colours(view.hand)
        if max(held) == 0:
            return view.rng.below(4)
        seen = [0, 0, 0, 0]
        shown = view.shown[_next_seat(view)] if view.shown else None
        for card in shown or ():
            if COLOUR[card] != cards.NO_COLOUR:
                seen[COLOUR[card]] += 1
        return min((c for c in range(4) if held[c] == max(held)), key=lambda c: seen[c])

    def keep_score(self, view: PolicyView, index: int) -> int:
        card = view.hand[index]
        if COLOUR[card] == cards.NO_COLOUR:
            return 1000
        return 100 * sum(1 for c in view.hand if COLOUR[c] == COLOUR[card]) + features(view).points[card]

    def group_score(self, view: PolicyView, indices: list[int]) -> int:
        return len(indices)                                      # sheds the most cards

    def uno_spin_discard(self, view: PolicyView) -> int | None:
        # its highest-point coloured card; a wild only when it holds nothing else (first on ties)
        coloured = [i for i, c in enumerate(view.hand) if COLOUR[c] != cards.NO_COLOUR]
        points = features(view).points
        return max(coloured or range(len(view.hand)), key=lambda i: points[view.hand[i]])


def _next_seat(view: PolicyView) -> int:
    """``next(view.seat)`` (docs/rules.md §1.2): the first active seat after it in the direction of play."""
    n = len(view.hand_sizes)
    seat = view.seat
    for _ in range(n):
        seat = (seat + view.direction) % n
        if not view.active or view.active[seat]:
            return seat
    return view.seat


_BUILT_INS = {"random": RandomPolicy, "greedy_points": GreedyPointsPolicy, "keep_wilds": KeepWildsPolicy}


class _CallablePolicy(PythonPolicy):
    """A plain function ``f(view)`` answering ``play``; everything else as :class:`PythonPolicy`."""

    def __init__(self, function):
        self.function = function

    def play(self, view: PolicyView) -> int | None:
        return self.function(view)

    def __repr__(self) -> str:
        return getattr(self.function, "__name__", repr(self.function))


#: the decisions a Python policy may make (docs: the reference engine's policy protocol)
DECISIONS = ("play", "colour", "play_drawn", "challenge", "target", "stack", "jump_in", "almost_uno",
             "discard_number", "discard_colour", "war_reveal", "war_discard", "uno_spin_discard")


def _checked_methods(obj: Any) -> list[str]:
    """The decision methods ``obj`` gives; one given but not callable (``play = 3``) is an error, not
    a silent fallback to the default."""
    given = [name for name in DECISIONS if getattr(obj, name, None) is not None]
    for name in given:
        if not callable(getattr(obj, name)):
            value = repr(getattr(obj, name))
            raise ValueError(f"policy {type(obj).__name__}: its {name} is {value[:60]} (of type "
                             f"{type(getattr(obj, name)).__name__}), not a method: valid is a method {name}(view), "
                             f"or none (the default)")
    return given


class _PartialPolicy(PythonPolicy):
    """A user object that implements only some methods; the others fall back to the defaults."""

    def __init__(self, obj: Any):
        self.obj = obj
        for method in _checked_methods(obj):
            setattr(self, method, getattr(obj, method))

    def __repr__(self) -> str:
        return policy_name(self.obj)


@dataclass(frozen=True)
class Seat:
    """One seat's policy object and the name used in error messages."""

    policy: Any
    name: str


def policy_name(policy: Any) -> str:
    if isinstance(policy, PolicySpec):
        return policy.label
    if isinstance(policy, (_CallablePolicy, _PartialPolicy)):
        return repr(policy)
    return type(policy).__name__


def _as_policy(item: Any) -> Seat:
    if isinstance(item, (str, PolicySpec)):
        spec = parse_policy(item)
        if spec.id == WEIGHTED:   # ``weighted`` and its presets: the full parameter vector
            return Seat(WeightedPolicy(spec.vector()), spec.label)
        if spec.name not in _BUILT_INS:
            raise ValueError(f"policy {spec.label!r} runs in the compiled engine only (unosim.simulate); the "
                             f"reference engine plays {list(_BUILT_INS)} and replays lookahead's recorded "
                             f"decisions (unosim.reference.lookahead)")
        return Seat(_BUILT_INS[spec.name](**dict(spec.params)), spec.label)
    if isinstance(item, PythonPolicy):
        _checked_methods(item)
        return Seat(item, policy_name(item))
    if hasattr(item, "play"):
        return Seat(_PartialPolicy(item), policy_name(item))
    if callable(item):
        return Seat(_CallablePolicy(item), getattr(item, "__name__", repr(item)))
    raise ValueError(f"cannot use {item!r} as a policy: give a built-in name or PolicySpec, an object "
                     f"with a play(view) method, or a callable f(view)")


def resolve_lineup(lineup: Any, players: int) -> tuple[Seat, ...]:
    """One :class:`Seat` per player from a lineup spec, PolicySpecs, Python policies or a mix."""
    if isinstance(lineup, str):
        return tuple(_as_policy(spec) for spec in make_lineup(lineup, players))
    items = list(lineup) if isinstance(lineup, (list, tuple)) else [lineup]
    if all(isinstance(item, (str, PolicySpec)) for item in items):
        return tuple(_as_policy(spec) for spec in make_lineup(items, players))
    if len(items) == 1:
        items = items * players
    if len(items) != players:
        raise ValueError(f"lineup has {len(items)} policies but players={players}: give one per seat "
                         f"or one for all")
    return tuple(_as_policy(item) for item in items)
