"""Designer decks: a variant's deck changed by counts of card classes it already plays (docs/rules.md §2.5).

The ``deck`` rule holds ``{class: count}`` over the card classes of :data:`unosim.game.cards.HAND_CLASSES`
(``n0`` … ``n9``, ``skip``, ``reverse``, ``draw_two``, ``wild``, ``wd4``, ``dumb_fu``, ``draw_four`` …):
each named class gets exactly that many copies, every other card stays as published. Rulings:

* a coloured class's count is spread over the four colours as evenly as possible, the remainder going
  to the colours in the order red, yellow, green, blue (``draw_two = 10``: 3 red, 3 yellow, 2 green,
  2 blue);
* a number class counts the plain copies; the spin-flagged copies of 1-5 in spin stay as published;
* blank cards are set with ``n_blank``, not here;
* a class must be one the family's mechanism plays (its ``FamilySpec.kinds``), and the deck must hold
  at most ``protocol.MAX_CARDS`` cards (the engine's bound) and deal the table (checked with the player
  count, as for any deck: docs/rules.md §3).

The deck reaches the engines as a count vector over card ids (``RuleSet.deck_counts``),
like every published deck.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import cards
from .cards import MAX_CARDS
from .checks import is_int


def ids(name: str) -> np.ndarray:
    """The card ids a class's copies go to: one per colour in colour order, or one wild: the class's first
    id in each colour, its plain copy (a flagged copy of the same class, a spin card, has a later id in
    :mod:`unosim.game.cards` and keeps its published count). UNO Flip's faces are left out: a flip card is
    a pair of faces (its deck is not designed, §2.6)."""
    index = cards.HAND_CLASSES.index(name)
    single_faced = np.arange(cards.N_CARD_IDS) < cards.ID_DRAW_ONE
    of_class = np.flatnonzero((cards.HAND_CLASS == index) & single_faced)
    _, first = np.unique(cards.COLOUR[of_class], return_index=True)   # sorted by colour, first id of each
    return of_class[first]


#: the classes a designer deck may set: every hand class of single-faced cards but the blanks
#: (``n_blank`` sets those)
CLASSES = tuple(c for c in cards.HAND_CLASSES if c != "blank" and ids(c).size)


def kind_of(name: str) -> int:
    return int(cards.KIND[ids(name)[0]])


def normalise(rule: str, value: Any) -> tuple[tuple[str, int], ...]:
    """``value`` (a table ``{class: count}``, pairs, or ``class:count`` / ``class=count`` strings) as
    (class, count) pairs in :data:`CLASSES` order; a ValueError names a bad class or count."""
    if value is None or value == "none":
        value = {}
    if isinstance(value, str):
        value = [part for part in value.replace(";", ",").split(",") if part.strip()]
    pairs: dict[str, Any] = {}
    if isinstance(value, dict):
        pairs = dict(value)
    elif isinstance(value, (list, tuple)):
        for item in value:
            if isinstance(item, str) and (":" in item or "=" in item):
                k, _, v = item.replace("=", ":").partition(":")
                k, v = k.strip(), v.strip()
                pairs[k] = int(v) if v.lstrip("-").isdigit() else v
            elif isinstance(item, (list, tuple)) and len(item) == 2:
                pairs[item[0]] = item[1]
            else:
                raise ValueError(f"rule {rule}={value!r} is invalid: valid is a table of card class → count, "
                                 f"e.g. {{draw_two = 12, wild = 8}}")
    else:
        raise ValueError(f"rule {rule}={value!r} is invalid: valid is a table of card class → count, "
                         f"e.g. {{draw_two = 12, wild = 8}}")
    for k, v in pairs.items():
        if k not in CLASSES:
            hint = " (blank cards are set with n_blank)" if k == "blank" else ""
            raise ValueError(f"unknown card class {k!r} in rule {rule}{hint}: valid are {list(CLASSES)}")
        if not is_int(v) or not 0 <= v <= MAX_CARDS:
            raise ValueError(f"rule {rule} {k}={v!r} is invalid: valid is a count in 0..{MAX_CARDS}")
    return tuple((k, int(pairs[k])) for k in CLASSES if k in pairs)


def valid_classes(kinds: tuple[int, ...]) -> list[str]:
    """The classes a family whose deck holds ``kinds`` may set."""
    return [c for c in CLASSES if kind_of(c) in kinds]


def apply(counts: np.ndarray, deck: tuple[tuple[str, int], ...]) -> np.ndarray:
    """The published count vector with each class of ``deck`` set to its count (rulings above)."""
    out = np.array(counts, np.int64)
    for name, count in deck:
        where = ids(name)
        share, extra = divmod(count, len(where))
        out[where] = share + (np.arange(len(where)) < extra)
    return out


def check(family: str, kinds: tuple[int, ...], deck: tuple[tuple[str, int], ...], counts: np.ndarray) -> None:
    """The family plays every class of ``deck`` and the resulting deck (``counts``) fits the engine."""
    allowed = valid_classes(kinds)
    for name, _ in deck:
        if name not in allowed:
            raise ValueError(f"card class {name!r} is not played in {family}: its deck may set {allowed}")
    total = int(counts.sum())
    if not 0 < total <= MAX_CARDS:
        raise ValueError(f"the designer deck holds {total} cards: valid is 1..{MAX_CARDS} (the engine's largest "
                         f"deck, protocol.MAX_CARDS)")


def describe(counts: np.ndarray) -> dict[str, int]:
    """The deck in effect as class → count (every class the deck holds), for ``unosim rules`` and manifests."""
    per_class = np.bincount(cards.HAND_CLASS, weights=counts, minlength=cards.N_HAND_CLASSES)
    return {c: int(per_class[i]) for i, c in enumerate(cards.HAND_CLASSES) if per_class[i]}
