"""Python policies for the reference engine.

A policy makes every choice RULES.md gives a player. Implement any subset of these methods (the
missing ones behave like :class:`PythonPolicy`, i.e. like the built-in ``random``):

``play(view) -> int | None``
    Index into ``view.hand`` of the card to play, or ``None`` to draw. Only asked when
    ``view.legal`` is non-empty. Valid answers: an index in ``view.legal``, an index in
    ``view.bluffs`` (an illegal Wild Draw Four, RULES §1.8), or ``None`` when
    ``view.rules.voluntary_draw`` is on.
``colour(view) -> int``
    The colour (0-3) named for a wild card just placed; ``view.hand`` no longer holds that card.
``play_drawn(view, card) -> bool``
    Whether to play the legal card just drawn (the last card of ``view.hand``). Not asked when
    ``force_play_drawn`` is on.
``challenge(view) -> bool``
    Whether the victim challenges the Wild Draw Four just played (``view.top``).
``target(view, candidates) -> int``
    A seat from ``candidates`` (the other players, from ``next(seat)`` in direction ``d``) to swap
    hands with (blank ``swap_hands``).

A plain callable ``f(view) -> int | None`` is accepted as a policy: it answers ``play`` and the rest
defaults. Every answer is checked; an invalid one raises ``ValueError`` naming the policy, the answer
and the valid options — the engine never corrects a choice.

The built-in policies of :mod:`unosim.policies` are implemented here in Python exactly as the
protocol (:mod:`unosim.engine` §4) specifies, drawing from the same play stream.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import cards
from ..policies import PolicySpec, make_lineup, parse_policy
from ..reference_rng import Xoshiro
from ..rules import RuleSet
from .card_tables import COLOUR, POINTS


@dataclass(frozen=True)
class PolicyView:
    """What a seat sees when it decides; a read-only snapshot."""

    seat: int
    hand: tuple[int, ...]
    top: int                       # T, the top card of the discard pile
    colour: int                    # A, the colour in play (0-3)
    direction: int                 # +1 clockwise, -1 counter-clockwise
    hand_sizes: tuple[int, ...]    # cards held by every seat, indexed by seat
    pending: int                   # pending draw penalty (0 while stacking is off)
    legal: tuple[int, ...]         # indices into hand of the legal plays
    bluffs: tuple[int, ...]        # indices of illegal Wild Draw Fours that may be played as a bluff
    rules: RuleSet
    rng: Xoshiro                   # the game's play stream: below(n), uniform(), bernoulli(p)


class PythonPolicy:
    """Base class: RULES §5 for every decision, drawing from ``view.rng`` exactly as ``random`` does.

    A subclass that overrides nothing plays identically to the built-in ``random``.
    """

    def play(self, view: PolicyView) -> int | None:
        return view.legal[view.rng.below(len(view.legal))]

    def colour(self, view: PolicyView) -> int:
        return view.rng.below(4)

    def play_drawn(self, view: PolicyView, card: int) -> bool:
        return True

    def challenge(self, view: PolicyView) -> bool:
        return False

    def target(self, view: PolicyView, candidates: tuple[int, ...]) -> int:
        return candidates[view.rng.below(len(candidates))]


class RandomPolicy(PythonPolicy):
    """Built-in ``random`` with its parameters (protocol §4)."""

    def __init__(self, p_draw: float = 0.0, p_bluff: float = 0.0, p_challenge: float = 0.0):
        self.p_draw, self.p_bluff, self.p_challenge = p_draw, p_bluff, p_challenge

    def play(self, view: PolicyView) -> int | None:
        if view.rules.voluntary_draw and view.rng.bernoulli(self.p_draw):
            return None
        if view.bluffs and view.rng.bernoulli(self.p_bluff):
            return view.bluffs[0]
        return view.legal[view.rng.below(len(view.legal))]

    def challenge(self, view: PolicyView) -> bool:
        return view.rng.bernoulli(self.p_challenge)


class _DeterministicPolicy(PythonPolicy):
    """Shared parts of ``greedy_points`` and ``keep_wilds`` (protocol §4)."""

    def __init__(self, p_challenge: float = 0.0):
        # They never draw voluntarily or bluff (protocol §4), so p_draw / p_bluff are not parameters.
        self.p_challenge = p_challenge

    def colour(self, view: PolicyView) -> int:
        held = [0, 0, 0, 0]
        for card in view.hand:
            if COLOUR[card] != cards.NO_COLOUR:
                held[COLOUR[card]] += 1
        if max(held) == 0:
            return view.rng.below(4)
        return held.index(max(held))   # lowest colour index on ties

    def challenge(self, view: PolicyView) -> bool:
        return view.rng.bernoulli(self.p_challenge)

    def target(self, view: PolicyView, candidates: tuple[int, ...]) -> int:
        return min(candidates, key=lambda seat: view.hand_sizes[seat])   # first on ties


class GreedyPointsPolicy(_DeterministicPolicy):
    """Sheds the legal card with the most points, first in hand order on ties."""

    def play(self, view: PolicyView) -> int | None:
        return max(view.legal, key=lambda i: POINTS[view.hand[i]])


class KeepWildsPolicy(_DeterministicPolicy):
    """Plays coloured cards of its longest colour (then the most points); wilds only as a last resort."""

    def play(self, view: PolicyView) -> int | None:
        coloured = [i for i in view.legal if COLOUR[view.hand[i]] != cards.NO_COLOUR]
        if not coloured:
            return view.legal[0]

        def score(i: int) -> int:
            colour = COLOUR[view.hand[i]]
            same_colour = sum(1 for c in view.hand if COLOUR[c] == colour)
            return 100 * same_colour + POINTS[view.hand[i]]

        return max(coloured, key=score)


_BUILT_INS = {"random": RandomPolicy, "greedy_points": GreedyPointsPolicy, "keep_wilds": KeepWildsPolicy}


class _CallablePolicy(PythonPolicy):
    """A plain function ``f(view)`` answering ``play``; everything else as :class:`PythonPolicy`."""

    def __init__(self, function):
        self.function = function

    def play(self, view: PolicyView) -> int | None:
        return self.function(view)

    def __repr__(self) -> str:
        return getattr(self.function, "__name__", repr(self.function))


class _PartialPolicy(PythonPolicy):
    """A user object that implements only some methods; the others fall back to the defaults."""

    def __init__(self, obj: Any):
        self.obj = obj
        for method in ("play", "colour", "play_drawn", "challenge", "target"):
            if callable(getattr(obj, method, None)):
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
        return Seat(_BUILT_INS[spec.name](**dict(spec.params)), spec.label)
    if isinstance(item, PythonPolicy):
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
