"""Prices of declared cards (docs/rules.md §2.7): what a card invented as data is worth, in printed points.

The engines count an opening hand by card class, and each declared card on its own: the seat table's
``open_declared_<slot>`` columns (:data:`unosim.game.custom_cards.OPEN_DECLARED`, slot = the order of the
rule set's declared cards that are not a built-in class). :func:`declared_cards` names each slot's card
and its printed points per variant, and :func:`unosim.analysis.card_values` fits each as a class of its
own, like any built-in class: two declared cards in one deck get two values and two prices.

A card's *price* is the printed points that its value is worth on the cell's points line
(:func:`unosim.analysis.card_balance`: the weighted least-squares line of value on printed points):
``points + mismatch / slope``, its interval the mismatch's interval through the same line (which treats
the line as known, as the balance table does). A cell whose line does not rise (points say nothing about
value) prices no card.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from ..game.cards import HAND_CLASSES
from ..game.custom_cards import OPEN_DECLARED
from ..game.rules import RuleSet, from_key
from .claims import Claim, Sentence
from .phrasing import claim_of
from .win_rates import CELL

PRICE_COLUMNS = ("worth", "worth_low", "worth_high")
PRICE_SUBJECT = "Price of "   # the subject of a price claim, before the card's name


@dataclass(frozen=True)
class DeclaredCard:
    """A declared card as the card-value fit sees it."""

    name: str
    points: int        # printed points
    column: str        # the seat table's column of its opening count (custom_cards.OPEN_DECLARED)


def declared_cards(rules: RuleSet) -> tuple[DeclaredCard, ...]:
    """The declared cards of ``rules`` that take a slot of their own (a declared copy of a built-in class
    is that class: it is counted and priced with it)."""
    return tuple(DeclaredCard(d.name, d.points, OPEN_DECLARED[slot]) for slot, d in enumerate(rules.new_cards))


def declared_by_variant(cells: pl.DataFrame) -> dict[str, tuple[DeclaredCard, ...]]:
    """Per variant of ``cells`` (columns ``variant``, ``rules_key``: a manifest's cells) that declares
    cards of its own, those cards."""
    out = {}
    for variant, key in cells.select("variant", "rules_key").unique().iter_rows():
        found = declared_cards(from_key(key))
        if found:
            out[variant] = found
    return out


def is_declared(card: str) -> bool:
    """A declared card's class (its name may not be a built-in class: custom_cards.name_clash)."""
    return card not in HAND_CLASSES


def price_columns() -> list[pl.Expr]:
    """:data:`PRICE_COLUMNS` of a card-balance table (columns ``points``, ``slope`` and the mismatch
    ``estimate``, ``ci_low``, ``ci_high``): null where the line does not rise."""
    rises = pl.col("slope") > 0
    return [pl.when(rises).then(pl.col("points") + pl.col(c) / pl.col("slope")).alias(name)
            for c, name in zip(("estimate", "ci_low", "ci_high"), PRICE_COLUMNS, strict=True)]


def card_prices(balance: pl.DataFrame) -> pl.DataFrame:
    """The declared cards' rows of a :func:`unosim.analysis.card_balance` table with their price
    (``worth``, ``worth_low``, ``worth_high``), ``points`` (printed), ``value`` (win probability against
    an average card) and ``p_holm`` (of the mismatch)."""
    by = [c for c in CELL if c in balance.columns]
    declared = balance.filter(~pl.col("card").is_in(HAND_CLASSES))
    return declared.select(*by, "card", "points", *PRICE_COLUMNS, "value", "value_low", "value_high", "p_holm")


def price_claims(balance: pl.DataFrame) -> list[Claim]:
    """One note per declared card and cell that has a price: its :func:`price_line`, each number checked
    against its row of the card-balance table."""
    if balance.is_empty() or not set(PRICE_COLUMNS) <= set(balance.columns):   # tables written before prices
        return []
    rows = card_prices(balance).filter(pl.col("worth").is_not_null()).to_dicts()
    out = []
    for r in rows:
        one = [r]
        s = Sentence().add(f"{r['card']} ({r['variant']}, lineup {r['lineup']}): worth about ")
        s.num(one, 0, "worth", ".0f").add(f" points at {r['players']} players [")
        s.num(one, 0, "worth_low", ".0f").add(", ").num(one, 0, "worth_high", ".0f").add("] (printed ")
        s.num(one, 0, "points", ".0f").add("): the printed points its value is worth on the line through the "
                                           "card points (raw 95%).")
        out.append(claim_of("note", f"{PRICE_SUBJECT}{r['card']}", "card", "card_balance", one, s,
                            scope=f"{r['players']} players, lineup {r['lineup']}", section="cards"))
    return out


def price_line(row: dict) -> str:
    """``draw_three: worth about 31 points at 4 players [24, 38] (printed 20)``."""
    if row["worth"] is None:
        return (f"{row['card']}: no price at {row['players']} players (printed {row['points']}): the cell's "
                f"points do not rise with value")
    return (f"{row['card']}: worth about {row['worth']:.0f} points at {row['players']} players "
            f"[{row['worth_low']:.0f}, {row['worth_high']:.0f}] (printed {row['points']})")
