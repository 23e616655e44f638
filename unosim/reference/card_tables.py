"""The per-id card tables of :mod:`unosim.game.cards` as plain tuples (fast to index from Python).

They cover the declared cards' ids too (:mod:`unosim.game.custom_cards`: colour by id, a kind of their
own, class-default points, no draw value); what a rule set declares for them (points, draw value,
challenge) is in the table's ``book`` (``custom_cards.book``), which the rules read.
"""

from ..game import cards, custom_cards

_CUSTOM_COLOUR, _CUSTOM_KIND, _CUSTOM_POINTS = custom_cards.default_tables()
_N_CUSTOM = len(_CUSTOM_COLOUR)
COLOUR = tuple(int(x) for x in cards.COLOUR) + _CUSTOM_COLOUR
KIND = tuple(int(x) for x in cards.KIND) + _CUSTOM_KIND
NUMBER_OF = tuple(int(x) for x in cards.NUMBER_OF) + (-1,) * _N_CUSTOM
POINTS = tuple(int(x) for x in cards.POINTS) + _CUSTOM_POINTS
DRAW_VALUE = tuple(int(x) for x in cards.DRAW_VALUE) + (0,) * _N_CUSTOM
HAND_CLASS = tuple(int(x) for x in cards.HAND_CLASS)


def is_wild(card: int) -> bool:
    return COLOUR[card] == cards.NO_COLOUR
