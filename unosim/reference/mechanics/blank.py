"""Classic's blank cards' wing, reference twin of ``unosim/engine/mechanics/blank.py`` (docs/rules.md
§2.1.3, §6 C20-C23): each blank slot does the effect ``blank_effects`` gives it — played with cards
left, as the first card (docs/rules.md §1.9) and as the last card (§1.11 with ``final_card_effects``).
"""

from __future__ import annotations

from ...game import cards
from ...game import protocol as L
from ..card_tables import KIND
from ..table import NOT_MINE, Skips, Table

DRAW_TWO_NEXT_CARDS = 2


def effect_of(table: Table, card: int) -> str:
    return table.rules.blank_effects[cards.ID_BLANK.index(card)]


def on_play(table: Table, player: int, card: int, guilty: bool):
    """A blank played with cards left: the next seat, ``Skips(v)`` after draw_two_next's victim drew,
    None when discard_colour emptied the hand (it wins, docs/rules.md §6 C29); ``NOT_MINE`` for any
    other card."""
    if KIND[card] != cards.BLANK:
        return NOT_MINE
    effect = effect_of(table, card)
    if effect == "draw_two_next":
        victim = table.next_seat(player)
        table.draw(victim, DRAW_TWO_NEXT_CARDS)
        return Skips(victim)
    if effect == "swap_hands":
        table.swap_hands(player, table.ask_target(player, table.others_from(player)))
    elif effect == "shuffle_hands":
        redeal(table, player)
    elif effect == "others_draw_1":
        others_draw_one(table, player)
    elif effect == "discard_colour":
        table.discard_colour(player, table.colour)   # the named colour
        if not table.hands[player]:
            table.win(player)
            return None
    return table.next_seat(player)


def on_first_card(table: Table, first: int, card: int):
    """A first blank (F has named the colour): draw_two_next has F draw 2 and be skipped; the other
    effects act as when F plays it, then F takes the first turn."""
    if KIND[card] != cards.BLANK:
        return NOT_MINE
    if effect_of(table, card) == "draw_two_next":
        table.draw(first, DRAW_TWO_NEXT_CARDS)
        return Skips(first)
    on_play(table, first, card, False)
    return first


def on_last_card(table: Table, player: int, card: int):
    """A last shuffle_hands blank under final_card_effects redeals and play goes on (docs/rules.md §6 C21):
    the next seat; ``NOT_MINE`` for any other last card (the player wins)."""
    if KIND[card] == cards.BLANK and effect_of(table, card) == "shuffle_hands":
        redeal(table, player)
        return table.next_seat(player)
    return NOT_MINE


def on_final(table: Table, player: int, card: int) -> None:
    """A last blank still acts on the others; a last swap_hands swaps nothing (docs/rules.md §6 C22)."""
    if KIND[card] != cards.BLANK:
        return
    effect = effect_of(table, card)
    if effect == "draw_two_next":
        table.draw(table.next_seat(player), DRAW_TWO_NEXT_CARDS)
    elif effect == "others_draw_1":
        others_draw_one(table, player)


def redeal(table: Table, seat: int) -> None:
    """shuffle_hands (protocol §3): collect, shuffle, deal from ``seat+1``."""
    collected = [card for hand in table.hands for card in hand]
    table.game.deck_rng.shuffle(collected)
    for s in range(table.players):
        table.hands[s] = []
        table.hand_changed(s)
    receiver = seat
    while collected:    # terminates: seat is active, so every `players` passes deal at least one card
        receiver = (receiver + 1) % table.players
        if table.active[receiver]:           # knocked-out seats get nothing (protocol §3)
            table.hands[receiver].append(collected.pop())
    table.moves += 1
    table.emit(L.EV_REDEAL, seat)


def others_draw_one(table: Table, player: int) -> None:
    for other in table.others_from(player):
        if table.end == L.END_KNOCKOUT:     # a knock-out left one player: it won at once
            return
        table.draw(other, 1)
