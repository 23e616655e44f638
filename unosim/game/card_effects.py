"""The vocabulary of card effects, declared once (docs/rules.md §2.7).

A card declared as data (:mod:`unosim.game.custom_cards`) is a list of effects applied in order; each
effect is one :class:`Effect` of :data:`EFFECTS`: its name, whether it takes a count (``draw:3``) and
its range, its code (the number both engines dispatch on), whether a draw card with it may be stacked,
its one-line description and its docs/rules.md section. ``tests/test_card_effects.py`` keeps the
docs' list (``<!-- card-effects:start -->`` … ``:end -->``) in sync with :func:`markdown`.

Pure Python, like :mod:`unosim.game.rule_table`: it imports nothing of unosim.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_DRAW = 10   # the largest draw any effect asks (No Mercy's Wild Draw Ten)


@dataclass(frozen=True)
class Effect:
    """One effect of the vocabulary."""

    name: str
    code: int
    doc: str
    section: str
    count: tuple[int, int] | None = None   # the range of N for an effect written ``name:N``, else None
    default_count: int = 1                 # N when the count is left out (``skip`` = ``skip:1``)
    stackable: bool = False                # a draw card under the stacking rules (docs/rules.md §4)


EFFECTS: tuple[Effect, ...] = (
    Effect("draw", 1, "the next seat draws N cards and loses its turn; a draw card: it stacks under the "
           "stacking rules", "2.7.1", count=(1, MAX_DRAW), stackable=True),
    Effect("skip", 2, "the next N seats lose their turn", "2.7.2", count=(1, 9)),
    Effect("reverse", 3, "the direction of play changes (two players: it skips the other)", "2.7.3"),
    Effect("skip_everyone", 4, "the player takes another turn", "2.7.4"),
    Effect("others_draw", 5, "every other seat draws N cards, in turn order", "2.7.5", count=(1, MAX_DRAW)),
    Effect("wild", 6, "the player names the colour in play (the card is a wild)", "2.7.6"),
    Effect("discard_colour", 7, "the player discards every card of the colour in play", "2.7.7"),
    Effect("swap_hands", 8, "the player swaps hands with a seat of its choice", "2.7.8"),
    Effect("pass_hands", 9, "every hand passes to the next seat", "2.7.9"),
    Effect("draw_until_colour", 10, "the next seat draws until a card of the colour in play, and loses "
           "its turn", "2.7.10"),
    Effect("self_draw", 11, "the player draws N cards", "2.7.11", count=(1, MAX_DRAW)),
)
BY_NAME: dict[str, Effect] = {e.name: e for e in EFFECTS}
BY_CODE: dict[int, Effect] = {e.code: e for e in EFFECTS}
NAMES: tuple[str, ...] = tuple(BY_NAME)
#: the widest effect list a card may carry
MAX_EFFECTS = 6
# the compiled rules hold at most N_CARD_SLOTS new cards per rule set, each a row of CARD_ROW numbers:
# points, draw value, effect count, (code, N) per effect, and last the card's legality bits
# (custom_cards.rows and LEGALITY_BITS; rule_table's IR_CARDS)
N_CARD_SLOTS = 12
CARD_ROW = 4 + 2 * MAX_EFFECTS
ROW_LEGALITY = CARD_ROW - 1


def valid_forms() -> list[str]:
    """Every effect as a spec writes it (``draw:N`` …), for error messages."""
    return [f"{e.name}:N" if e.count else e.name for e in EFFECTS]


def parse(text: object, card: str = "") -> tuple[int, int]:
    """``"draw:3"`` → (code, 3); an effect without a count has N = 0. A ValueError names the bad effect
    and the valid ones."""
    where = f" of card {card!r}" if card else ""
    if not isinstance(text, str):
        raise ValueError(f"effect {text!r}{where} is invalid: valid are {valid_forms()}")
    name, colon, raw = text.strip().partition(":")
    effect = BY_NAME.get(name.strip())
    if effect is None:
        raise ValueError(f"unknown effect {text!r}{where}: valid are {valid_forms()}")
    if effect.count is None:
        if colon:
            raise ValueError(f"effect {text!r}{where} takes no count: write {effect.name!r}")
        return effect.code, 0
    if not colon:
        return effect.code, effect.default_count
    lo, hi = effect.count
    raw = raw.strip()
    if not raw.isdigit() or not lo <= int(raw) <= hi:
        raise ValueError(f"effect {text!r}{where} is invalid: valid is {effect.name}:N with N in {lo}..{hi}")
    return effect.code, int(raw)


def written(code: int, n: int) -> str:
    """The spec form of (code, N), the inverse of :func:`parse`."""
    effect = BY_CODE[code]
    if effect.count is None:
        return effect.name
    return effect.name if n == effect.default_count and effect.name == "skip" else f"{effect.name}:{n}"


def markdown() -> str:
    """The list of docs/rules.md §2.7, generated from :data:`EFFECTS`."""
    rows = ["| effect | code | what it does | stacks | § |", "|---|---|---|---|---|"]
    for e in EFFECTS:
        form = f"{e.name}:N (N {e.count[0]}..{e.count[1]})" if e.count else e.name
        rows.append(f"| `{form}` | {e.code} | {e.doc} | {'yes' if e.stackable else 'no'} | §{e.section} |")
    return "\n".join(rows)
