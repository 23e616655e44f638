"""The per-id card tables of :mod:`unosim.game.cards` as plain tuples (fast to index from Python)."""

from ..game import cards

COLOUR = tuple(int(x) for x in cards.COLOUR)
KIND = tuple(int(x) for x in cards.KIND)
NUMBER_OF = tuple(int(x) for x in cards.NUMBER_OF)
POINTS = tuple(int(x) for x in cards.POINTS)
DRAW_VALUE = tuple(int(x) for x in cards.DRAW_VALUE)
HAND_CLASS = tuple(int(x) for x in cards.HAND_CLASS)


def is_wild(card: int) -> bool:
    return COLOUR[card] == cards.NO_COLOUR
