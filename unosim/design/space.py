"""The search space of a design: derived from the rule table and the designer deck, never listed by hand.

**Rules**: every rule of :data:`unosim.game.rule_table.PARAMETERS` in the groups ``house`` and ``deck``
(the house rules of docs/rules.md §4, the hand size and the blank cards) that the variant's family has
(:func:`unosim.game.rules.applies`) and does not fix, with its
domain from the table: a toggle's two values, a choice's choices, an integer rule's range, and for a
rule holding one choice per slot (``blank_effects``: one effect per blank card) one choice for all its
slots. ``mercy_limit`` (none or ``hand_size + 1``..200) is
searched over none and :data:`MERCY_LIMITS`, the limits a table plays (a limit of 200 never bites).
Match rules are not searched (a design is judged on single rounds) nor the people's habits (§1.10).

**Deck**: the count of each card class the family plays (:func:`unosim.game.designer_deck.valid_classes`),
from 0 to ``max(`` :data:`DECK_CLASS_MOST` ``, published)``.

A spec's ``[design.space]`` narrows it: ``rules = [...]`` searches only those rules, ``fixed = {rule =
value}`` fixes rules (the design's base), ``ranges = {hand_size = [5, 9], stacking = ["none",
"any_draw"]}`` narrows domains, ``deck = {draw_two = [4, 12], wild = [2, 8]}`` searches only those
classes in those ranges (the others stay as published), ``deck = false`` keeps the published deck. A narrowed domain must lie inside the table's.

**Declared cards** (docs/rules.md §2.7) are the designer's own: declared in ``fixed = {cards = {...}}``
and fixed, unless ``cards = {draw_three = [0, 4]}`` searches a declared card's ``count`` (per colour for a
coloured card, in all for a wild) in that range; at 0 the design leaves the card out. Only the count
varies: the card is data for the compiled engine, so no count compiles anything (a count of 0 plays the
family's build without declared cards).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..game import card_effects, custom_cards, designer_deck, families, rule_table
from ..game.rules import applies, get_variant, variant_names
from .errors import DesignSpecError

SEARCHED_GROUPS = ("house", "deck")
#: rules of those groups that are not dimensions: the deck is searched by its classes, and declared cards
#: (docs/rules.md §2.7) are the designer\'s own invention, fixed in a search
NOT_SEARCHED = ("deck", "cards")
MERCY_LIMITS = (15, 20, 25, 30, 35, 40, 50)
DECK_CLASS_MOST = 16
NONE = "none"
CARDS_PREFIX = "cards."


@dataclass(frozen=True)
class Dimension:
    """One searched quantity: a rule (``rule``) or a card class's count (``deck.<class>``), with its
    ``choices`` (categorical) or integer range ``low..high``."""

    name: str
    choices: tuple[Any, ...] = ()
    low: int = 0
    high: int = 0
    doc: str = ""
    section: str = ""

    @property
    def is_deck(self) -> bool:
        return self.name.startswith("deck.")

    @property
    def is_card(self) -> bool:
        """A declared card's count (``cards.<name>``)."""
        return self.name.startswith(CARDS_PREFIX)

    @property
    def size(self) -> int:
        return len(self.choices) if self.choices else self.high - self.low + 1

    def domain_text(self) -> str:
        if self.choices:
            return ", ".join(_shown(c) for c in self.choices)
        return f"{self.low}..{self.high}"

    def suggest(self, trial) -> Any:
        """The value Optuna's ``trial`` picks (categorical values as strings: Optuna stores them)."""
        if self.choices:
            picked = trial.suggest_categorical(self.name, [_shown(c) for c in self.choices])
            return self.choices[[_shown(c) for c in self.choices].index(picked)]
        return trial.suggest_int(self.name, self.low, self.high)

    def value_of(self, params: Mapping[str, Any]) -> Any:
        raw = params[self.name]
        if self.choices:
            return self.choices[[_shown(c) for c in self.choices].index(raw)]
        return int(raw)


def _shown(value: Any) -> str:
    return rule_table.format_value(value)


@dataclass(frozen=True)
class Space:
    """The searched dimensions of a design over ``variant`` (the base game with ``fixed`` applied)."""

    variant: str
    fixed: dict[str, Any]
    dimensions: tuple[Dimension, ...]

    def overrides(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The rule overrides of a design (searched values by dimension name) on top of ``fixed``."""
        out = dict(self.fixed)
        deck = dict(out.pop("deck", {}) or {})
        for d in self.dimensions:
            if d.name not in values or d.is_card:
                continue
            if d.is_deck:
                deck[d.name.removeprefix("deck.")] = int(values[d.name])
            elif _slots(d.name) > 1:
                out[d.name] = (values[d.name],) * _slots(d.name)
            else:
                out[d.name] = None if values[d.name] == NONE else values[d.name]
        if deck:
            out["deck"] = deck
        counts = {d.name.removeprefix(CARDS_PREFIX): int(values[d.name])
                  for d in self.dimensions if d.is_card and d.name in values}
        if counts:
            out["cards"] = with_counts(self.fixed["cards"], counts)
        return out

    def size(self) -> int:
        total = 1
        for d in self.dimensions:
            total *= d.size
        return total

    def describe(self) -> list[dict[str, str]]:
        """One row per dimension: name, domain, what it is (``unosim design --space``)."""
        return [{"dimension": d.name, "values": d.domain_text(), "what": d.doc,
                 "§": d.section} for d in self.dimensions]


def _slots(name: str) -> int:
    """How many values a searched rule holds: one choice per slot of a rule that has choices (the effect of
    each blank card), else one."""
    rule = rule_table.BY_NAME.get(name)
    return rule.size if rule is not None and rule.choices else 1


def rule_dimension(rule: rule_table.Rule, published: Any) -> Dimension | None:
    doc, section = rule.doc, f"§{rule.section}"
    if rule.name == "mercy_limit":
        return Dimension(rule.name, (NONE, *MERCY_LIMITS), doc=doc, section=section)
    if rule.choices and rule.size > 1:
        return Dimension(rule.name, rule.choices, doc=f"{doc} (one for all {rule.size})", section=section)
    if rule.choices:
        return Dimension(rule.name, rule.choices, doc=doc, section=section)
    if rule.widget == "int":
        low, high = _int_range(rule)
        return Dimension(rule.name, low=low, high=high, doc=doc, section=section)
    return None   # a rule the search has no domain for (the deck: its classes are dimensions of their own)


def _int_range(rule: rule_table.Rule) -> tuple[int, int]:
    """An integer rule's valid range, read from its checker's one-line error (``an integer in lo..hi``)."""
    import re
    match = re.search(r"(\d+)\.\.(\d+)", rule.valid)
    return int(match[1]), int(match[2])


def derive(variant: str, *, rules: list[str] | None = None, fixed: Mapping[str, Any] | None = None,
           ranges: Mapping[str, Any] | None = None, deck: Mapping[str, Any] | bool = True,
           cards: Mapping[str, Any] | None = None) -> Space:
    """The space of ``variant`` (module docstring), narrowed by a spec's ``[design.space]``."""
    if variant not in variant_names():
        raise DesignSpecError(f"unknown variant {variant!r}: valid variants are {variant_names()}")
    fixed = dict(fixed or {})
    try:
        base = get_variant(variant, {**fixed, "match_mode": "single_round"})
    except ValueError as exc:
        raise DesignSpecError(f"[design.space] fixed: {exc}") from None
    spec = families.get(base.family)
    table = {r.name: r for r in rule_table.PARAMETERS
             if r.group in SEARCHED_GROUPS and r.name not in NOT_SEARCHED and r.name not in spec.fixed
             and applies(r.name, base.family)}
    if rules is not None:
        if not isinstance(rules, list):
            raise DesignSpecError(f"[design.space] rules = {rules!r} is invalid: valid is a list of rules from "
                                  f"{sorted(table)}")
        for name in rules:
            if name not in table:
                raise DesignSpecError(f"[design.space] rules: {name!r} is not a rule {variant} can search: "
                                      f"valid are {sorted(table)}")
    names = [n for n in table if (rules is None or n in rules) and n not in fixed]
    dims = [d for n in names if (d := rule_dimension(table[n], getattr(base, n))) is not None]
    dims = [_narrow(d, (ranges or {}).get(d.name)) for d in dims]
    for name in ranges or {}:
        if name not in {d.name for d in dims} and not name.startswith("deck."):
            raise DesignSpecError(f"[design.space] ranges: {name!r} is not a searched rule: valid are "
                                  f"{[d.name for d in dims]}")
    if deck is not False and "deck" not in fixed and "deck" not in spec.not_applicable:
        dims += _deck_dimensions(base, spec, deck if isinstance(deck, Mapping) else {})
    elif isinstance(deck, Mapping) and deck:
        raise DesignSpecError(f"[design.space] deck: {variant}'s deck is not designed here (fixed or n/a)")
    dims += _card_dimensions(base, cards or {})
    if not dims:
        raise DesignSpecError(f"the design space of {variant} is empty: every rule is fixed and the deck is "
                              f"kept; search at least one rule or card class")
    return Space(variant, fixed, tuple(dims))


def _narrow(d: Dimension, wanted: Any) -> Dimension:
    if wanted is None:
        return d
    where = f"[design.space] ranges.{d.name}"
    if d.choices:
        if not isinstance(wanted, list) or not wanted:
            raise DesignSpecError(f"{where} = {wanted!r} is invalid: valid is a list of values from "
                                  f"[{d.domain_text()}]")
        shown = [_shown(c) for c in d.choices]
        picked = []
        for w in wanted:
            if _shown(w) not in shown:
                raise DesignSpecError(f"{where}: {w!r} is not a value of {d.name}: valid are [{d.domain_text()}]")
            picked.append(d.choices[shown.index(_shown(w))])
        return Dimension(d.name, tuple(picked), doc=d.doc, section=d.section)
    low, high = _range(wanted, where, d.low, d.high)
    return Dimension(d.name, low=low, high=high, doc=d.doc, section=d.section)


def _range(wanted: Any, where: str, lo: int, hi: int) -> tuple[int, int]:
    if isinstance(wanted, int) and not isinstance(wanted, bool):
        wanted = [wanted, wanted]
    if (not isinstance(wanted, list) or len(wanted) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in wanted)
            or not lo <= wanted[0] <= wanted[1] <= hi):
        raise DesignSpecError(f"{where} = {wanted!r} is invalid: valid is [low, high] with {lo} ≤ low ≤ high ≤ {hi}")
    return int(wanted[0]), int(wanted[1])


def _deck_dimensions(base, spec: families.FamilySpec, narrowed: Mapping[str, Any]) -> list[Dimension]:
    classes = designer_deck.valid_classes(spec.kinds)
    for name in narrowed:
        if name not in classes:
            raise DesignSpecError(f"[design.space] deck: {name!r} is not a card class {base.name} plays: valid "
                                  f"are {classes}")
    published = base.deck_in_effect()
    dims = []
    for c in (classes if not narrowed else [c for c in classes if c in narrowed]):
        most = max(DECK_CLASS_MOST, published.get(c, 0))
        low, high = (0, most) if c not in narrowed else _range(narrowed[c], f"[design.space] deck.{c}", 0,
                                                                designer_deck.MAX_CARDS)
        dims.append(Dimension(f"deck.{c}", low=low, high=high, doc=f"{c} cards in the deck "
                              f"(published {published.get(c, 0)})", section="§2.5"))
    return dims


def with_counts(declared: Any, counts: Mapping[str, int]) -> list[str]:
    """The declared cards ``declared`` (as a spec's ``fixed.cards`` holds them) with the searched
    ``counts``, in the ``--card`` syntax; a card at count 0 is left out."""
    cards = custom_cards.normalise("cards", declared)
    return [str(replace(d, count=counts.get(d.name, d.count))) for d in cards if counts.get(d.name, d.count) > 0]


def _card_dimensions(base, narrowed: Any) -> list[Dimension]:
    """The searched counts of declared cards (``[design.space] cards``): each must be declared in ``fixed``."""
    if not isinstance(narrowed, Mapping):
        raise DesignSpecError(f"[design.space] cards = {narrowed!r} is invalid: valid is a table of declared card "
                              f"name → [low, high] count, e.g. {{draw_three = [0, 4]}}")
    declared = {d.name: d for d in base.cards}
    dims = []
    for name, wanted in narrowed.items():
        if name not in declared:
            raise DesignSpecError(f"[design.space] cards: {name!r} is not a card declared in [design.space] fixed: "
                                  f"valid are {sorted(declared)} (declare it in fixed = {{cards = {{...}}}})")
        low, high = _range(wanted, f"[design.space] cards.{name}", 0, designer_deck.MAX_CARDS)
        d = declared[name]
        per = "in all" if d.wild else "per colour"
        dims.append(Dimension(f"{CARDS_PREFIX}{name}", low=low, high=high, section="§2.7",
                              doc=f"declared card {name} ({'+'.join(card_effects.written(c, n) for c, n in d.effects)}"
                                  f"): copies {per} (declared {d.count})"))
    return dims
