"""Variant families: one :class:`FamilySpec` record per family holds every per-family fact.

A family is a published game (UNO, UNO Minions, UNO Spin, UNO Show 'em No Mercy, UNO Flip): its deck, its
player range, the rule defaults it changes, the rules it fixes or does not have, the card kinds (effect verbs) its deck may hold, which turned-up first cards it refuses, and its
description. :data:`REGISTRY` is the tuple of every family; :mod:`unosim.game.rules` reads it for defaults,
validation, decks and the variant list, so a new family that reuses existing effect verbs is one
FamilySpec here plus its card ids (:mod:`unosim.game.cards`) and tests (see CONTRIBUTING.md).

``mechanics`` names the rule mechanism the engines implement for the family (``protocol.FAMILIES``,
the kernels' ``IR_FAMILY``): the five built-in families are their own mechanism; a new family without a
new mechanism (a different deck, other defaults) names the existing one it plays by. The round counters a
family fills are its mechanism's round columns (``protocol.MECHANISMS``), never listed here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from . import cards, rule_table
from .protocol import FAMILIES, MAX_CARDS, MAX_PLAYERS, MECHANISMS


@dataclass(frozen=True)
class FamilySpec:
    """Everything that differs between variant families (docs/rules.md §2, §3, §4)."""

    name: str
    mechanics: str                      # one of protocol.FAMILIES: the rules the engines apply
    description: str                    # the published game, for `unosim variants`
    deck: Callable[..., np.ndarray]     # the deck rules' values -> count vector over card ids (§2.x.1)
    players: tuple[int, int] = (2, MAX_PLAYERS)
    # rule defaults that differ from RuleSet's field defaults (the classic game's)
    defaults: Mapping[str, Any] = field(default_factory=dict)
    fixed: tuple[str, ...] = ()         # rules the family fixes to its default (docs/rules.md §4)
    not_applicable: tuple[str, ...] = ()   # rules the family does not have (§4: n/a)
    # rules that mean something in this family only; default: its mechanism's (rule_table.PARAMETERS)
    own_rules: tuple[str, ...] | None = None
    kinds: tuple[int, ...] = ()         # card kinds (cards.KIND values) its deck may hold: its effect verbs
    # card kinds that cannot stay as the first card (docs/rules.md §1.9, §3 "valid configurations")
    first_card_excluded_kinds: tuple[int, ...] = (cards.WD4,)
    deck_rules: tuple[str, ...] = ("n_blank",)   # the rules ``deck`` reads, passed by name

    def __post_init__(self):
        if self.mechanics not in FAMILIES:
            raise ValueError(f"family {self.name!r}: mechanics={self.mechanics!r} is invalid: valid are "
                             f"{list(FAMILIES)}")
        object.__setattr__(self, "defaults", MappingProxyType(dict(self.defaults)))
        if self.own_rules is None:
            object.__setattr__(self, "own_rules", rule_table.own_rules(self.mechanics))

    @property
    def counters(self) -> tuple[str, ...]:
        """The round columns only the families of this family's mechanism fill (zero elsewhere): the
        columns its :class:`~unosim.game.protocol.Mechanism` record declares."""
        wing = MECHANISMS.get(self.mechanics)
        return tuple(column for f in wing.rounds for column in f.columns) if wing else ()

    def deck_counts(self, n_blank: int = 0, **rules: Any) -> np.ndarray:
        """The family's deck with ``n_blank`` blanks and the given deck rules (``deck_rules``; the others
        at the family's defaults)."""
        values = {**rule_table.COMMON_DEFAULTS, **self.defaults, "n_blank": n_blank, **rules}
        counts = np.asarray(self.deck(**{k: values[k] for k in self.deck_rules}), np.int64)
        if counts.shape != (cards.N_CARD_IDS,) or (counts < 0).any() or not 0 < counts.sum() <= MAX_CARDS:
            raise ValueError(f"family {self.name!r}: its deck must be a count vector over the "
                             f"{cards.N_CARD_IDS} card ids holding 1..{MAX_CARDS} cards")
        return counts

    def first_card_excluded(self, counts: np.ndarray) -> int:
        """How many cards of the deck cannot stay as the first card (``k`` of docs/rules.md §3)."""
        kinds = np.asarray(cards.KIND)
        return int(counts[np.isin(kinds, self.first_card_excluded_kinds)].sum())


_CLASSIC_KINDS = (cards.NUMBER, cards.SKIP, cards.REVERSE, cards.DRAW_TWO, cards.WILD, cards.WD4)
_CLASSIC_TOGGLES = dict(stacking="none", seven_o=False, draw_until_playable=False, force_play_drawn=False,
                        final_card_effects=True, mercy_limit=None, target=500)
_OTHERS_ONLY = tuple(r for m in ("classic", "minions", "spin") for r in rule_table.own_rules(m))

CLASSIC = FamilySpec(
    name="classic", mechanics="classic",
    description="UNO (the classic deck with Wild Customizable cards): 108 cards + 3 blanks",
    deck=cards.classic_deck, defaults=dict(_CLASSIC_TOGGLES, n_blank=3),
    kinds=(*_CLASSIC_KINDS, cards.BLANK))
MINIONS = FamilySpec(
    name="minions", mechanics="minions",
    description="UNO Minions (Dumb Fu): 112 cards with 4 Dumb Fu pose cards",
    deck=lambda n_blank: cards.minions_deck(), defaults=dict(_CLASSIC_TOGGLES, n_blank=0),
    kinds=(*_CLASSIC_KINDS, cards.DUMB_FU))
SPIN = FamilySpec(
    name="spin", mechanics="spin",
    description="UNO Spin: spin cards and the nine-outcome wheel",
    deck=lambda n_blank: cards.spin_deck(), defaults=dict(_CLASSIC_TOGGLES, n_blank=0),
    kinds=_CLASSIC_KINDS)
NO_MERCY = FamilySpec(
    name="no_mercy", mechanics="no_mercy",
    description="UNO Show 'em No Mercy: 168 cards, stacking by value, mercy knock-outs",
    deck=lambda n_blank: cards.no_mercy_deck(),
    defaults=dict(stacking="escalating", seven_o=True, draw_until_playable=True, force_play_drawn=True,
                  final_card_effects=False, mercy_limit=25, target=1000, n_blank=0),
    fixed=("stacking", "seven_o", "draw_until_playable", "force_play_drawn", "two_player_reverse_skip"),
    not_applicable=("wd4_challenge", "no_bluffing", *_OTHERS_ONLY),
    kinds=(cards.NUMBER, cards.SKIP, cards.REVERSE, cards.DRAW_TWO, cards.DRAW_FOUR, cards.DISCARD_ALL,
           cards.SKIP_EVERYONE, cards.WRD4, cards.WD6, cards.WD10, cards.ROULETTE),
    # §2.4: cards are turned up until a number, so every other card is refused as the first card
    first_card_excluded_kinds=tuple(k for k in range(cards.N_KINDS) if k != cards.NUMBER))

FLIP = FamilySpec(
    name="flip", mechanics="flip",
    description="UNO Flip: 112 double-sided cards, a light and a dark side turned over by Flip cards",
    deck=lambda flip_pairing: cards.flip_deck(flip_pairing), deck_rules=("flip_pairing",), defaults=dict(_CLASSIC_TOGGLES, n_blank=0),
    # §2.6.8: the published game has no stacking; a flip card is a pair of faces, so no designer deck
    fixed=("stacking",), not_applicable=("deck", *_OTHERS_ONLY),
    kinds=(cards.NUMBER, cards.SKIP, cards.REVERSE, cards.WILD, cards.DRAW_ONE, cards.FLIP, cards.WD2,
           cards.DRAW_FIVE, cards.SKIP_EVERYONE, cards.WDC),
    first_card_excluded_kinds=(cards.WD2,))

# Every family, in the order `unosim variants` lists them. Append a FamilySpec to add one.
REGISTRY: tuple[FamilySpec, ...] = (CLASSIC, MINIONS, SPIN, NO_MERCY, FLIP)


def names() -> tuple[str, ...]:
    return tuple(spec.name for spec in REGISTRY)


def get(name: str) -> FamilySpec:
    """The registered family ``name``; a ValueError names the valid ones."""
    for spec in REGISTRY:
        if spec.name == name:
            return spec
    raise ValueError(f"unknown variant family {name!r}: valid are {list(names())}")
