"""Python policies for the reference engine.

A policy makes every choice docs/rules.md gives a player. Implement any subset of these methods (the
missing ones behave like :class:`PythonPolicy`, i.e. like the built-in ``random``):

``play(view) -> int | None``
    Index into ``view.hand`` of the card to play, or ``None`` to draw. Only asked when
    ``view.legal`` is non-empty. Valid answers: an index in ``view.legal``, an index in
    ``view.bluffs`` (an illegal Wild Draw Four, docs/rules.md §1.8), or ``None`` when
    ``view.rules.voluntary_draw`` is on.
``colour(view) -> int``
    The colour (0-3) named for a wild card just placed; ``view.hand`` no longer holds that card.
``play_drawn(view, card) -> bool``
    Whether to play the legal card just drawn (the last card of ``view.hand``). Not asked when
    ``force_play_drawn`` is on.
``challenge(view) -> bool``
    Whether the victim challenges the Wild Draw Four just played (``view.top``).
``target(view, candidates) -> int``
    A seat from ``candidates`` (the other active players, from ``next(seat)`` in direction ``d``) to
    swap hands with (blank ``swap_hands``, a 7 with ``seven_o``).
``stack(view) -> int | None``
    With a draw penalty pending (``view.pending`` = P, ``view.pending_value`` = V): an index in
    ``view.legal`` (the cards the stacking mode allows) to stack, or ``None`` to accept and draw P.
    Only asked when some card may be stacked.
``jump_in(view, index) -> bool``
    Whether to jump in (docs/rules.md §4 ``jump_in``) with ``view.hand[index]``, a card identical to
    ``view.top``.

The wheel of the ``spin`` variant (docs/rules.md §2.3.3, protocol §6) asks for these decisions; a list of
indices is the order in which the cards go onto the discard pile (its last card is the new top). The
wheel's discards are "may" choices (docs/rules.md §6 S12): a shorter list, even an empty one, keeps cards.

``almost_uno(view) -> list[int]``
    Hand indices to discard, at most ``len(view.hand) - 2`` (asked only with more than 2 cards).
``discard_number(view, numbers) -> (int, list[int])``
    A number from ``numbers`` (the distinct numbers of the NUMBER cards held, ascending) and the
    indices of cards with that number to discard.
``discard_colour(view, colours) -> (int, list[int])``
    A colour from ``colours`` (the distinct colours of the coloured cards held, ascending) and the
    indices of cards of that colour to discard.
``war_reveal(view, candidates) -> int``
    War: which of ``candidates`` (the indices of the highest number cards not yet revealed) to reveal.
``war_discard(view, revealed) -> list[int]``
    War won: indices from ``revealed`` (the cards it revealed, in reveal order) to discard.
``uno_spin_discard(view) -> int | None``
    UNO Spin won: the index of the card to discard, or ``None`` to keep all.

``view.discard`` is the discard pile (public: every card on it was played or discarded face up).

A Show Hand outcome is visible to every policy afterwards: ``view.shown[s]`` is the hand seat ``s``
last showed in this round (a tuple of card ids), or ``None``.

``colour(view)`` is also asked of the victim of a Wild Color Roulette (it names the colour it reveals
for, docs/rules.md §2.4.4).

A plain callable ``f(view) -> int | None`` is accepted as a policy: it answers ``play`` and the rest
defaults. Every answer is checked; an invalid one raises ``ValueError`` naming the policy, the answer
and the valid options — the engine never corrects a choice.

The built-in policies of :mod:`unosim.policies` are implemented here in Python exactly as the
protocol (:mod:`unosim.engine` §4) specifies, drawing from the same play stream.
"""

from __future__ import annotations

from abc import ABCMeta, abstractmethod
from dataclasses import dataclass
from typing import Any

from .. import cards
from ..policies import PolicySpec, make_lineup, parse_policy
from ..protocol import WEIGHTED
from ..reference_rng import Xoshiro
from ..rules import RuleSet
from .card_tables import COLOUR, KIND, NUMBER_OF, POINTS


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
    pending_value: int = 0         # V, the draw value of the last card stacked (0 when nothing pends)
    active: tuple[bool, ...] = ()  # by seat: still in the round (False once knocked out)
    shown: tuple[tuple[int, ...] | None, ...] = ()  # spin: by seat, the hand last shown (SHOW_HAND)
    discard: tuple[int, ...] = ()  # the discard pile, oldest first (its last card is ``top``)


class PythonPolicy:
    """Base class: docs/rules.md §5 for every decision, drawing from ``view.rng`` exactly as ``random`` does.

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

    def stack(self, view: PolicyView) -> int | None:
        # docs/rules.md §5 item 3: uniform over the card instances that may be stacked; accept if none.
        return view.legal[view.rng.below(len(view.legal))] if view.legal else None

    def jump_in(self, view: PolicyView, index: int) -> bool:
        return True    # docs/rules.md §5 item 10: always jumps in when eligible

    # ---- the spin wheel: docs/rules.md §5 item 8, drawn exactly as protocol §6 says for ``random`` ----------
    def almost_uno(self, view: PolicyView) -> list[int]:
        # keeps a uniformly random 2-card subset; the shuffle also makes the discard order uniform
        order = list(range(len(view.hand)))
        view.rng.shuffle(order)
        return order[:len(order) - 2]

    def discard_number(self, view: PolicyView, numbers: tuple[int, ...]) -> tuple[int, list[int]]:
        number = numbers[view.rng.below(len(numbers))]
        return number, _shuffled(view, [i for i, c in enumerate(view.hand) if _number(c) == number])

    def discard_colour(self, view: PolicyView, colours: tuple[int, ...]) -> tuple[int, list[int]]:
        colour = colours[view.rng.below(len(colours))]
        return colour, _shuffled(view, [i for i, c in enumerate(view.hand) if COLOUR[c] == colour])

    def war_reveal(self, view: PolicyView, candidates: tuple[int, ...]) -> int:
        return candidates[view.rng.below(len(candidates))]

    def war_discard(self, view: PolicyView, revealed: tuple[int, ...]) -> list[int]:
        return _shuffled(view, list(revealed))

    def uno_spin_discard(self, view: PolicyView) -> int | None:
        return view.rng.below(len(view.hand))


def _number(card: int) -> int:
    """The number of a NUMBER card, -1 for any other card."""
    return NUMBER_OF[card] if KIND[card] == cards.NUMBER else -1


def _shuffled(view: PolicyView, indices: list[int]) -> list[int]:
    view.rng.shuffle(indices)
    return indices


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
        return self._discard_group(view, numbers, _number)

    def discard_colour(self, view: PolicyView, colours: tuple[int, ...]) -> tuple[int, list[int]]:
        return self._discard_group(view, colours, lambda c: COLOUR[c])

    def war_reveal(self, view: PolicyView, candidates: tuple[int, ...]) -> int:
        return candidates[0]

    def war_discard(self, view: PolicyView, revealed: tuple[int, ...]) -> list[int]:
        return list(revealed)


class GreedyPointsPolicy(_DeterministicPolicy):
    """Sheds the legal card with the most points, first in hand order on ties."""

    def play(self, view: PolicyView) -> int | None:
        return max(view.legal, key=lambda i: POINTS[view.hand[i]])

    def keep_score(self, view: PolicyView, index: int) -> int:
        return -POINTS[view.hand[index]]                        # keeps the cheapest cards

    def group_score(self, view: PolicyView, indices: list[int]) -> int:
        return sum(POINTS[view.hand[i]] for i in indices)        # sheds the most points

    def uno_spin_discard(self, view: PolicyView) -> int | None:
        return max(range(len(view.hand)), key=lambda i: POINTS[view.hand[i]])


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
        return 100 * sum(1 for c in view.hand if COLOUR[c] == COLOUR[card]) + POINTS[card]

    def group_score(self, view: PolicyView, indices: list[int]) -> int:
        return len(indices)                                      # sheds the most cards

    def uno_spin_discard(self, view: PolicyView) -> int | None:
        # its highest-point coloured card; a wild only when it holds nothing else (first on ties)
        coloured = [i for i, c in enumerate(view.hand) if COLOUR[c] != cards.NO_COLOUR]
        return max(coloured or range(len(view.hand)), key=lambda i: POINTS[view.hand[i]])


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


class _PartialPolicy(PythonPolicy):
    """A user object that implements only some methods; the others fall back to the defaults."""

    def __init__(self, obj: Any):
        self.obj = obj
        for method in ("play", "colour", "play_drawn", "challenge", "target", "stack", "jump_in",
                       "almost_uno", "discard_number", "discard_colour", "war_reveal", "war_discard",
                       "uno_spin_discard"):
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
        if spec.id == WEIGHTED:   # ``weighted`` and its presets: the full parameter vector
            from .weighted import WeightedPolicy
            return Seat(WeightedPolicy(spec.vector()), spec.label)
        if spec.name not in _BUILT_INS:
            raise ValueError(f"policy {spec.label!r} runs in the compiled engine only (unosim.simulate); the "
                             f"reference engine plays {list(_BUILT_INS)} and replays lookahead's recorded "
                             f"decisions (unosim.reference.lookahead)")
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
