"""The per-id card tables of :mod:`unosim.game.cards` as plain tuples (fast to index from Python).

They cover the declared cards' ids too (:mod:`unosim.game.custom_cards`: colour by id, a kind of their
own, class-default points, no draw value); what a rule set declares for them (points, draw value,
challenge) is in the table's ``book`` (``custom_cards.book``), which the rules read.
"""

from ..game import cards, custom_cards

COLOUR = tuple(int(x) for x in custom_cards.ALL_COLOUR)
KIND = tuple(int(x) for x in custom_cards.ALL_KIND)
NUMBER_OF = tuple(int(x) for x in custom_cards.ALL_NUMBER_OF)
POINTS = tuple(int(x) for x in custom_cards.ALL_POINTS)
DRAW_VALUE = tuple(int(x) for x in custom_cards.ALL_DRAW_VALUE)
HAND_CLASS = tuple(int(x) for x in custom_cards.ALL_HAND_CLASS)   # a declared card: its slot's class
#: the face each id shows (an UNO Flip pairing's copies on other backs show one face, docs/rules.md §6 F1)
BASE_FACE = tuple(int(x) for x in custom_cards.ALL_BASE_FACE)


def is_wild(card: int) -> bool:
    return COLOUR[card] == cards.NO_COLOUR
