"""Card effects of the classic family: as played (RULES §1.7), as first card (§1.9), as final card
(§1.11), the blank cards (§2.1.3) and the Dumb Fu pose windows (§2.2.2).

Every effect function returns the seat that takes the next turn, or ``None`` when the effect ended
the round.
"""

from __future__ import annotations

from .. import cards
from ..engine import layout as L
from .card_tables import COLOUR, KIND
from .table import Table


# ---- skips and Dumb Fu pose windows (RULES §2.2.2) ------------------------------------------------
def skip(table: Table, victim: int) -> None:
    """``victim`` loses its turn. A skip passes the turn to the victim, so it is a pose event."""
    table.emit(L.EV_SKIP, victim)
    pose_event(table, victim)


def open_pose_window(table: Table, target: int) -> None:
    """A Dumb Fu aimed at ``target`` opens its window, replacing an open one without any draw."""
    table.pose_window[target] = 0
    table.emit(L.EV_DUMBFU, target)


def pose_event(table: Table, seat: int) -> None:
    """The turn passes to ``seat`` (its turn or a skip). The second such event closes the window."""
    events = table.pose_window[seat]
    if events is None:
        return
    if events == 0:
        table.pose_window[seat] = 1   # the first event: the target's coming turn
        return
    table.pose_window[seat] = None
    failed = table.game.play_rng.bernoulli(table.rules.p_dumbfu_fail)
    table.emit(L.EV_POSE, seat, int(failed))
    if failed:
        # RULES §6 M6: the failure counts even when the piles cannot supply the cards.
        table.dumbfu_penalties += 1
        table.draw(seat, table.rules.dumbfu_penalty)


# ---- effects of a card played with cards left (RULES §1.7) -----------------------------------------
def apply_played_card(table: Table, player: int, card: int, guilty: bool) -> int | None:
    """The effect of ``card`` just played by ``player``; ``guilty``: an illegal (bluffed) WD4."""
    kind = KIND[card]
    if kind == cards.SKIP:
        victim = table.next_seat(player)
        skip(table, victim)
        return table.next_seat(victim)      # two players: back to the player
    if kind == cards.REVERSE:
        return reverse(table, player)
    if kind == cards.DRAW_TWO:
        return victim_draws_and_is_skipped(table, table.next_seat(player), 2)
    if kind == cards.WD4:
        return wild_draw_four(table, player, guilty)
    if kind == cards.DUMB_FU:
        target = table.next_seat(player)    # not skipped (RULES §6 M1)
        open_pose_window(table, target)
        return target
    if kind == cards.BLANK:
        return apply_blank(table, player, card, as_first_card=False)
    return table.next_seat(player)          # NUMBER, WILD


def reverse(table: Table, player: int) -> int:
    table.direction = -table.direction
    if table.n_active == 2 and table.rules.two_player_reverse_skip:
        # Two players: acts as SKIP, but the direction still changes (RULES §6 C27).
        skip(table, table.next_seat(player))
        return player
    return table.next_seat(player)


def victim_draws_and_is_skipped(table: Table, victim: int, count: int) -> int:
    """DRAW_TWO, an unchallenged WD4, blank ``draw_two_next``: draw, lose the turn (RULES §6 M5)."""
    table.draw(victim, count)
    skip(table, victim)
    return table.next_seat(victim)


def wild_draw_four(table: Table, player: int, guilty: bool) -> int:
    """RULES §1.8: only the victim may challenge, after the colour is named and before drawing."""
    victim = table.next_seat(player)
    # The compiled rules fold no_bluffing into wd4_challenge: with no bluffing nobody is ever guilty,
    # so the challenge is not offered at all (RULES §4).
    may_challenge = table.rules.wd4_challenge and not table.rules.no_bluffing
    if may_challenge and table.ask_challenge(victim):
        table.emit(L.EV_CHALLENGE, victim, int(guilty))
        if guilty:
            table.draw(player, 4)
            return victim                   # the victim keeps its turn (RULES §6 C8)
        return victim_draws_and_is_skipped(table, victim, 6)
    return victim_draws_and_is_skipped(table, victim, 4)


# ---- blank cards (RULES §2.1.3) ----------------------------------------------------------------------
def blank_effect(table: Table, card: int) -> str:
    return table.rules.blank_effects[cards.ID_BLANK.index(card)]


def apply_blank(table: Table, player: int, card: int, as_first_card: bool) -> int | None:
    """A blank's effect with cards left. As the first card the player is ``F``, who then plays,
    except after ``draw_two_next`` (F draws 2 and is skipped)."""
    effect = blank_effect(table, card)
    if effect == "draw_two_next":
        victim = player if as_first_card else table.next_seat(player)
        return victim_draws_and_is_skipped(table, victim, 2)
    if effect == "swap_hands":
        table.swap_hands(player, table.ask_target(player, table.others_from(player)))
    elif effect == "shuffle_hands":
        table.redeal(player)
    elif effect == "others_draw_1":
        for other in table.others_from(player):
            table.draw(other, 1)
    elif effect == "discard_colour":
        discard_named_colour(table, player)
        if not table.hands[player]:
            table.win(player)               # emptied by a discard: wins (RULES §6 C29)
            return None
    return player if as_first_card else table.next_seat(player)


def discard_named_colour(table: Table, player: int) -> None:
    """Blank ``discard_colour``: every card of the named colour goes under the blank, in hand order."""
    hand = table.hands[player]
    index = 0
    while index < len(hand):
        if COLOUR[hand[index]] == table.colour:
            table.discard_under_top(player, index)
        else:
            index += 1


# ---- the first card (RULES §1.9) ---------------------------------------------------------------------
def apply_first_card(table: Table) -> int | None:
    """The effect of the turned-up ``T`` with ``F`` acting; returns the seat taking the first turn."""
    f_seat, top = table.left_of_dealer, table.top
    kind = KIND[top]
    if COLOUR[top] != cards.NO_COLOUR:
        table.colour = COLOUR[top]
    else:
        # WILD, DUMB_FU (no pose, RULES §6 M4) and BLANK: F names the colour.
        table.colour = table.ask_colour(f_seat)
        table.emit(L.EV_COLOUR, f_seat, table.colour)
    if kind == cards.SKIP:
        skip(table, f_seat)
        return table.next_seat(f_seat)
    if kind == cards.DRAW_TWO:
        # No stacking against a turned-up card (RULES §4).
        return victim_draws_and_is_skipped(table, f_seat, 2)
    if kind == cards.REVERSE:
        table.direction = -1
        return table.dealer
    if kind == cards.BLANK:
        return apply_blank(table, f_seat, top, as_first_card=True)
    return f_seat


# ---- the final card (RULES §1.11) ------------------------------------------------------------------
def apply_final_card(table: Table, player: int, card: int) -> None:
    """Effects of the card that emptied ``player``'s hand, after the win and before scoring.

    Only called with ``final_card_effects`` on. A last ``shuffle_hands`` blank never gets here (the
    round goes on); a last ``swap_hands`` blank swaps nothing (RULES §6 C22).
    """
    kind = KIND[card]
    if kind == cards.DRAW_TWO:
        table.draw(table.next_seat(player), 2)
    elif kind == cards.WD4:
        table.draw(table.next_seat(player), 4)     # no challenge
    elif kind == cards.BLANK:
        effect = blank_effect(table, card)
        if effect == "draw_two_next":
            table.draw(table.next_seat(player), 2)
        elif effect == "others_draw_1":
            for other in table.others_from(player):
                table.draw(other, 1)
