"""UNO Flip's wing, reference twin of ``unosim/engine/mechanics/flip.py`` (docs/rules.md §2.6, protocol §7).

Hands and piles hold the face in play; a Flip card turns every card to its other face
(``cards.FLIP_PARTNER``). The wing keeps on the table the side in play (``table.side``: 0 light, 1 dark)
and the round's ``table.flips``, set by :func:`start`; the core reaches it through the hooks of
:mod:`unosim.reference.hooks`.
"""

from __future__ import annotations

from ...game import cards, flip_pairing
from ...game import protocol as L
from ..card_tables import COLOUR, KIND, is_wild
from ..table import NOT_MINE, Skips, Table

PARTNER = tuple(int(x) for x in cards.FLIP_PARTNER)


def start(table: Table) -> None:
    """A round starts light side up (the deck is dealt by its light faces); in a flip game whose pairing
    lets a back name its card (§6 F1), a seat's view of the others is :func:`seen`; under any other
    pairing a back leaves the card open, and the view holds no other hand."""
    table.side = 0
    table.flips = 0
    if table.rules.mechanics == "flip" and flip_pairing.load(table.rules.flip_pairing).face_determined():
        table.seen = seen


def on_play(table: Table, player: int, card: int, guilty: bool):
    """A Wild Draw Colour or a Flip played with cards left: the seat taking the next turn, or the
    victim who drew and loses its turn (``Skips``); anything else is not this wing's (``NOT_MINE``)."""
    if KIND[card] == cards.WDC:
        victim = table.next_seat(player)
        return Skips(victim) if wild_draw_colour(table, player, victim, guilty) else victim
    if KIND[card] == cards.FLIP:
        turn_over(table, player)
        return table.next_seat(player)
    return NOT_MINE


def on_final(table: Table, player: int, card: int) -> None:
    """docs/rules.md §2.6.7: a last Flip still turns the cards (the hands score by the new side); a last
    Wild Draw Colour still makes ``next(player)`` draw until the colour."""
    if KIND[card] == cards.FLIP:
        turn_over(table, player)
    elif KIND[card] == cards.WDC:
        table.draw_until_colour(table.next_seat(player), table.colour)


def write(table: Table, row: list[int]) -> None:
    row[L.RC_FLIPS] = table.flips


def seen(table: Table, seat: int) -> dict:
    """What ``seat`` knows of the others' cards (§2.6.6): the faces turned away from their owners name
    the cards (§6 F1), so every other hand and the draw pile's top card; the ``others`` and
    ``next_draw`` fields of a Python policy's view (``Table.seen`` under flip)."""
    others = tuple(None if t == seat else tuple(sorted(hand)) for t, hand in enumerate(table.hands))
    return {"others": others, "next_draw": table.draw_pile[-1] if table.draw_pile else -1}


def turned(pile: list[int]) -> list[int]:
    """A pile turned over as one block: reversed, every card on its other face (docs/rules.md §6 F2)."""
    return [PARTNER[card] for card in reversed(pile)]


def turn_over(table: Table, player: int) -> None:
    """docs/rules.md §2.6.3: every hand (order kept) and the draw, discard and set-aside piles turn over;
    the new ``T`` is in play, and a wild ``T`` has ``player`` name the colour (§6 F3)."""
    table.hands = [[PARTNER[card] for card in hand] for hand in table.hands]
    table.draw_pile = turned(table.draw_pile)
    table.discard_pile = turned(table.discard_pile)
    table.set_aside = turned(table.set_aside)
    table.side = 1 - table.side
    table.flips += 1
    if not is_wild(table.top):
        table.colour = COLOUR[table.top]
    table.emit(L.EV_FLIP, player, table.side)
    if is_wild(table.top):
        table.colour = table.ask_colour(player)
        table.emit(L.EV_COLOUR, player, table.colour)


def wild_draw_colour(table: Table, player: int, victim: int, guilty: bool) -> bool:
    """docs/rules.md §2.6.4: a Wild Draw Colour (colour named) against ``victim``, who may challenge it
    like a Wild Draw Four (§1.8): guilty, ``player`` draws until the colour and the victim keeps its
    turn; innocent, the victim draws until the colour, then 2 more. True when the victim drew and
    loses its turn."""
    may_challenge = table.rules.wd4_challenge and not table.rules.no_bluffing
    if may_challenge and table.ask_challenge(victim):
        table.emit(L.EV_CHALLENGE, victim, int(guilty))
        if guilty:
            table.draw_until_colour(player, table.colour)
            return False
        if table.draw_until_colour(victim, table.colour):   # a failed draw or knock-out ends it all
            table.draw(victim, 2)
        return True
    table.draw_until_colour(victim, table.colour)
    return True
