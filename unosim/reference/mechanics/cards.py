"""Cards declared as data, reference interpreter (docs/rules.md §2.7): a declared card's effects
(:mod:`unosim.game.card_effects`) applied in order, as played with cards left, as the first card (§1.9)
and as the last card (§1.11 with ``final_card_effects``). The core (:mod:`..effects`) calls it for
every declared card, before any wing: a declared card belongs to no mechanism.

The effect list is the table's ``book`` (``custom_cards.book``); every verb is the one the built-in
cards use (skips and draw cards from :mod:`..penalties`; the swap, the pass, the colour discard and
draw-until-colour from the table), so a declared card that copies a
built-in card plays as it does.

While the effects run, ``anchor`` is the last seat the card passed over (a skipped or drawing seat;
at first the player): the turn goes to ``next(anchor)``, or back to the player after ``skip_everyone``.
"""

from __future__ import annotations

from ...game import card_effects as E
from ...game import protocol as L
from ..penalties import draw_card_played, skip
from ..table import Table

DRAW, SKIP, REVERSE, SKIP_EVERYONE, OTHERS_DRAW, WILD, DISCARD_COLOUR, SWAP_HANDS, PASS_HANDS, \
    DRAW_UNTIL_COLOUR, SELF_DRAW = (E.BY_NAME[n].code for n in (
        "draw", "skip", "reverse", "skip_everyone", "others_draw", "wild", "discard_colour", "swap_hands",
        "pass_hands", "draw_until_colour", "self_draw"))


def on_play(table: Table, player: int, card: int, guilty: bool) -> int | None:
    """A declared card played with cards left: the next seat, None when an effect ended the round (the
    player's hand emptied by ``discard_colour``, a knock-out)."""
    effects = table.book.effects[card]
    anchor, again = player, False
    has_draw = any(code == DRAW for code, _ in effects)
    for code, n in effects:
        if code == DRAW:    # the last effect (custom_cards.contradiction): a draw card, §1.7, §1.8, §4
            return draw_card_played(table, player, card, guilty)
        if code == REVERSE:
            table.direction = -table.direction
            if table.n_active == 2 and table.rules.two_player_reverse_skip and not has_draw:
                anchor = skip_next(table, anchor)     # two players: a Reverse skips the other (§1.7)
        elif code == SKIP:
            for _ in range(min(n, table.n_active - 1)):   # at most every other seat: then p plays again
                anchor = skip_next(table, anchor)
        elif code == SKIP_EVERYONE:
            again = True
        elif code == OTHERS_DRAW:
            others_draw(table, player, n)
        elif code == DISCARD_COLOUR:
            table.discard_colour(player, table.colour)   # the named colour
            if not table.hands[player]:
                table.win(player)
                return None
        elif code == SWAP_HANDS:
            table.swap_hands(player, table.ask_target(player, table.others_from(player)))
        elif code == PASS_HANDS:
            table.pass_hands(player)
        elif code == DRAW_UNTIL_COLOUR:
            victim = table.next_seat(anchor)
            table.draw_until_colour(victim, table.colour)
            if not table.over:
                skip(table, victim)
            anchor = victim
        elif code == SELF_DRAW:
            table.draw(player, n)
        if table.over:      # a knock-out left one player (docs/rules.md §2.4.6)
            return None
    return player if again else table.next_seat(anchor)


def skip_next(table: Table, anchor: int) -> int:
    victim = table.next_seat(anchor)
    skip(table, victim)
    return victim


def others_draw(table: Table, player: int, count: int) -> None:
    """Every other active seat draws ``count``, from ``next(player)`` in turn order."""
    for other in table.others_from(player):
        if table.end == L.END_KNOCKOUT:     # a knock-out left one player: it won at once
            return
        table.draw(other, count)


def on_first_card(table: Table, first: int, card: int) -> int | None:
    """A declared card turned up first (F has named a wild's colour): its skip and draw effects act as
    if the dealer had played it, its reverse as the built-in Reverse (d = −1, the dealer starts); its
    other effects do nothing (docs/rules.md §2.7). The seat of the first turn."""
    anchor = table.dealer
    for code, n in table.book.effects[card]:
        if code == REVERSE:
            before = table.next_seat(anchor)     # in the new direction its next seat is the anchor
            table.direction = -table.direction
            anchor = before
        elif code == SKIP:
            for _ in range(min(n, table.n_active - 1)):
                anchor = skip_next(table, anchor)
        elif code == DRAW:
            victim = table.next_seat(anchor)
            table.draw(victim, n)
            if table.over:
                return None
            skip(table, victim)
            anchor = victim
    return table.next_seat(anchor)


def on_final(table: Table, player: int, card: int, pending: int) -> None:
    """A declared card that emptied the hand, with ``final_card_effects`` (docs/rules.md §1.11): its
    effects on the others still act, in order — a reverse turns the direction, ``draw:N`` makes
    ``next(player)`` draw the pending total and N, ``others_draw``, ``draw_until_colour`` as played;
    skips, swaps, passes and the player's own draws do nothing. ``pending``: P before the card."""
    for code, n in table.book.effects[card]:
        if table.end == L.END_KNOCKOUT:     # a knock-out left one player: it won at once
            return
        if code == REVERSE:
            table.direction = -table.direction
        elif code == DRAW:
            table.draw(table.next_seat(player), pending + n)
        elif code == OTHERS_DRAW:
            others_draw(table, player, n)
        elif code == DRAW_UNTIL_COLOUR:
            table.draw_until_colour(table.next_seat(player), table.colour)
