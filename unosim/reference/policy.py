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

The built-in policies of :mod:`unosim.game.policies` are implemented here in Python exactly as the
protocol (docs/protocol.md §4) specifies, drawing from the same play stream.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..game import cards, custom_cards
from ..game.rules import RuleSet
from .card_tables import COLOUR, DRAW_VALUE, KIND, NUMBER_OF, POINTS
from .rng import Xoshiro


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
    # flip (docs/rules.md §2.6.6): by seat, the cards of every other hand, sorted, which their turned-away
    # faces name (None at the seat's own place); and the card the next draw takes, named by the draw
    # pile's top face (-1 when the pile is empty). Outside flip, and under a pairing whose backs do not
    # name the cards (docs/rules.md §6 F1): () and -1.
    others: tuple[tuple[int, ...] | None, ...] = ()
    next_draw: int = -1


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
        return number, shuffled(view, [i for i, c in enumerate(view.hand) if card_number(c) == number])

    def discard_colour(self, view: PolicyView, colours: tuple[int, ...]) -> tuple[int, list[int]]:
        colour = colours[view.rng.below(len(colours))]
        return colour, shuffled(view, [i for i, c in enumerate(view.hand) if COLOUR[c] == colour])

    def war_reveal(self, view: PolicyView, candidates: tuple[int, ...]) -> int:
        return candidates[view.rng.below(len(candidates))]

    def war_discard(self, view: PolicyView, revealed: tuple[int, ...]) -> list[int]:
        return shuffled(view, list(revealed))

    def uno_spin_discard(self, view: PolicyView) -> int | None:
        return view.rng.below(len(view.hand))


def card_number(card: int) -> int:
    """The number of a NUMBER card, -1 for any other card."""
    return NUMBER_OF[card] if KIND[card] == cards.NUMBER else -1


def shuffled(view: PolicyView, indices: list[int]) -> list[int]:
    view.rng.shuffle(indices)
    return indices


@dataclass(frozen=True)
class CardFeatures:
    """What the built-in policies see of each card id in one rule set (tuples indexed by id): points,
    and the weighted policy's draw, attack and reverse features; the built-in cards' from the tables, a
    declared card's derived from its effects (``custom_cards.policy_features``; docs/rules.md §2.7), as
    ``unosim.engine.policies.card_terms.game_tables`` derives them."""

    points: tuple[int, ...]
    draw: tuple[float, ...]
    attack: tuple[float, ...]
    reverse: tuple[float, ...]


@lru_cache(maxsize=64)
def card_features(new_cards: tuple) -> CardFeatures:
    """:class:`CardFeatures` of a rule set declaring ``new_cards`` (``RuleSet.new_cards``)."""
    points = list(POINTS)
    draw = [1.0 if v > 0 else 0.0 for v in DRAW_VALUE]
    attack = [1.0 if DRAW_VALUE[c] > 0 or KIND[c] in (cards.SKIP, cards.SKIP_EVERYONE) else 0.0
              for c in range(len(KIND))]
    reverse = [1.0 if k in (cards.REVERSE, cards.WRD4) else 0.0 for k in KIND]
    for slot, d in enumerate(new_cards):
        f = custom_cards.policy_features(d.points, d.effects)
        for c in range(custom_cards.ID_CUSTOM0 + 5 * slot, custom_cards.ID_CUSTOM0 + 5 * slot + 5):
            points[c], draw[c], attack[c], reverse[c] = d.points, f.draw, f.attack, f.reverse
    return CardFeatures(tuple(points), tuple(draw), tuple(attack), tuple(reverse))


def features(view: PolicyView) -> CardFeatures:
    """The :class:`CardFeatures` of the game ``view`` is a snapshot of."""
    return card_features(view.rules.new_cards)
