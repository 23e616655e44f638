"""The deck editor's "add a card": cards declared as data (docs/rules.md §2.7) as the page sees them.

The page builds a card from the vocabulary the server sends (:func:`vocabulary`, read from
:mod:`unosim.game.card_effects`, never a second list in the page) and asks :func:`check` whether the
what-if's deck with it can be played at the chosen table: the same validation as a spec's ``[cards.NAME]``
or ``--card`` (:mod:`unosim.game.custom_cards` through the ``cards`` rule, then the deal), so a bad card
gets the CLI's one-line message. :func:`label` is how the answer names a card ("draw_three (2 per
colour)").
"""

from __future__ import annotations

from typing import Any

from ..game import card_effects, rules
from ..game.custom_cards import CardDecl


def vocabulary() -> list[dict[str, Any]]:
    """Every effect a declared card may carry, in the vocabulary's order, with what the page needs to
    offer it: its description and section, and the range of N for an effect written ``name:N``."""
    return [{"name": e.name, "doc": e.doc, "section": e.section, "stackable": e.stackable,
             "count": list(e.count) if e.count else None, "default_count": e.default_count}
            for e in card_effects.EFFECTS]


def label(card: CardDecl) -> str:
    """A card as the answer names it: ``draw_three (2 per colour)``, ``everyone_draws (4 wild)``."""
    return f"{card.name} ({card.count} {'wild' if card.wild else 'per colour'})"


def labels(ruleset: rules.RuleSet) -> list[str]:
    """The declared cards of a rule set, each by :func:`label` (built-in look-alikes included: a card
    equal to a class the family plays adds to that class, yet the designer named it)."""
    return [label(card) for card in ruleset.cards]


def check(data: Any) -> dict[str, Any]:
    """Validate ``{"variant", "players", "rules"}`` (``rules``: the what-if's overrides, its ``cards``
    and ``deck`` among them) as a comparison would; a ValueError carries the one-line message. Returns
    each card's spec form and label and the deck in effect."""
    if not isinstance(data, dict) or set(data) - {"variant", "players", "rules"}:
        raise ValueError("the request must be a JSON object with keys variant, players and rules "
                         "(the what-if's rule overrides, with its cards)")
    variant, players, overrides = data.get("variant", "classic"), data.get("players", 4), data.get("rules", {})
    if not isinstance(variant, str) or variant not in rules.variant_names():
        raise ValueError(f"unknown variant {variant!r}: valid variants are {rules.variant_names()}")
    if not isinstance(overrides, dict):
        raise ValueError(f"rules={overrides!r} is invalid: valid is a table of rule name → value")
    ruleset = rules.get_variant(variant, {k: v for k, v in overrides.items() if k != "match_mode"})
    ruleset.check_players(players)
    return {"cards": [{"name": c.name, "spec": str(c), "label": label(c)} for c in ruleset.cards],
            "deck": ruleset.deck_in_effect(), "deck_size": ruleset.deck_size}
