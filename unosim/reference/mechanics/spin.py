"""The spin family's wing, reference twin of ``unosim/engine/mechanics/spin.py``: spin cards, the
designated spinner and the UNO Spin wheel (docs/rules.md §2.3, docs/protocol.md §6).

A spin card (a NUMBER card with the spin flag, docs/rules.md §2.3.1) played with cards left designates
``next(p)`` as the **spinner** (:func:`designate_spinner`); at its next ``TURN`` it spins instead of
playing (:func:`replaces_turn`, docs/rules.md §1.5 step 2). A spin card that empties its player's hand
makes ``next(p)`` spin once more for scoring (:func:`on_final`, docs/rules.md §2.3.6). A jump-in cancels a
pending spin (docs/rules.md §4 ``jump_in``, :func:`on_jump_in`).

:func:`spin` draws the outcome and applies it; there is one function per outcome of docs/rules.md §2.3.3,
named after it. Every outcome function returns the seat the game continues from — the War winner or
the UNO Spin shouter (docs/rules.md §2.3.5) — or None (continue after the spinner).

Cards discarded by the wheel go **on top** of the discard pile in the order the discarder chooses
(docs/rules.md §2.3.4, §6 S9), without any effect; a wild left on top makes the discarder name the colour;
a hand that a discard empties wins at once (§6 S10), except in a final spin, whose round is already
won (§6 S13). The decisions (what to discard, which card to reveal in War …) are asked of the seat's
policy through the table (``Table.ask``, as the core asks its own with ``Table.ask_*``) by the ``ask_*``
functions below, which check every answer; see :mod:`..policy` for their API.

Per round the table keeps, set by :func:`start`: the ``spinner`` (-1: none), ``spins``,
``final_spins``, one count per outcome (``outcome_counts``, in ``rule_table.SPIN_OUTCOMES`` order) and per
seat ``wheel_gained`` / ``wheel_lost`` (docs/rules.md §1.13); the hand each seat last showed
(``table.shown``) is part of every policy's view and stays on the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...game import cards
from ...game import protocol as L
from ...game.checks import scaled
from ...game.rule_table import SPIN_OUTCOMES
from ..card_tables import COLOUR, KIND, NUMBER_OF, is_wild
from ..rng import Xoshiro
from ..table import NOT_MINE, Table, is_int

RED, BLUE = 0, 3          # docs/rules.md §6 S15: red = colour 0 (R), blue = colour 3 (B)

SPIN_FLAG = tuple(int(x) for x in cards.SPIN)


def is_spin_card(card: int) -> bool:
    """A NUMBER card with the spin flag (docs/rules.md §2.3.1: one copy of each 1-5 per colour)."""
    return KIND[card] == cards.NUMBER and SPIN_FLAG[card] == 1


def weighted(rng: Xoshiro, weights: Sequence[float]) -> int:
    """Protocol §6: ``u = uniform() * sum(w)``, the first ``i`` with ``u < w[0] + ... + w[i]``; the weights
    come scaled by a power of two (:func:`unosim.game.checks.scaled`), exactly as the kernel receives them."""
    u = rng.uniform() * sum(weights)
    total = 0.0
    for i, w in enumerate(weights):
        total += w
        if u < total:
            return i
    # Only reachable through rounding: the last outcome that has any weight.
    return max(i for i, w in enumerate(weights) if w > 0)


# ---- hooks called by the core (reference/hooks.py) ----------------------------------------------
def start(table: Table) -> None:
    table.spinner = -1
    table.spins = table.final_spins = 0
    table.outcome_counts = [0] * len(SPIN_OUTCOMES)
    table.wheel_gained = [0] * table.players
    table.wheel_lost = [0] * table.players


def designate_spinner(table: Table, seat: int) -> None:
    """docs/rules.md §2.3.2: ``seat`` spins at its next turn (a new spin card replaces an older
    designation); nobody is skipped."""
    table.spinner = seat
    table.emit(L.EV_SPINNER, seat)


def on_number(table: Table, player: int, card: int) -> None:
    """A spin card played with cards left designates ``next(player)`` (docs/rules.md §2.3.2)."""
    if is_spin_card(card):
        designate_spinner(table, table.next_seat(player))


def on_first_card(table: Table, first: int, card: int) -> None:
    """docs/rules.md §2.3.6, §6 S3 (``spin_first_card_spins``): F spins instead of its first turn."""
    if is_spin_card(card) and table.rules.spin_first_card_spins:
        designate_spinner(table, first)


def on_jump_in(table: Table) -> None:
    """docs/rules.md §4 ``jump_in``: a jump-in cancels a pending spin obligation (no event)."""
    table.spinner = -1


def replaces_turn(table: Table, seat: int):
    """``TURN(s)`` of the designated spinner: the designation is cleared and ``s`` spins instead of
    playing (docs/rules.md §1.5 step 2). Returns the next player (None if the round ended), or
    ``NOT_MINE`` for any other seat."""
    if seat != table.spinner:
        return NOT_MINE
    table.spinner = -1
    return spin(table, seat, final=False)


def on_final(table: Table, winner: int, card: int) -> None:
    """docs/rules.md §2.3.6, §6 S11/S13: after ``winner`` emptied its hand with a spin card, ``next(winner)``
    spins once more for scoring. Not a turn, no checkpoint; the winner takes part in nothing and a
    hand the spin empties does not change the winner."""
    if is_spin_card(card):
        spin(table, table.next_seat(winner), final=True)


def write(table: Table, row: list[int]) -> None:
    row[L.RC_SPINS] = table.spins
    row[L.RC_FINAL_SPINS] = table.final_spins
    row[L.RC_OUTCOME:L.RC_OUTCOME + len(table.outcome_counts)] = table.outcome_counts


def write_seat(table: Table, row: list[int], seat: int) -> None:
    row[L.SC_WHEEL_GAINED] = table.wheel_gained[seat]
    row[L.SC_WHEEL_LOST] = table.wheel_lost[seat]


# ---- the wheel (docs/rules.md §2.3.3) ------------------------------------------------------------------------
def spin(table: Table, spinner: int, final: bool) -> int | None:
    """Draw an outcome from ``spin_weights`` with the play stream, count it, apply it.

    Returns the next player (docs/rules.md §2.3.5): ``next(War winner)`` / ``next(shouter)`` when
    ``spin_continue_after_winner`` is on, else ``next(spinner)``; None if the round is over (always
    after a final spin)."""
    outcome = weighted(table.game.play_rng, scaled(table.rules.spin_weights))
    table.emit(L.EV_SPIN, spinner, outcome, int(final))
    table.spins += 1
    table.final_spins += int(final)
    table.outcome_counts[outcome] += 1
    leader = OUTCOMES[outcome](table, spinner, final)
    if table.over:
        return None
    if leader is not None and table.rules.spin_continue_after_winner:
        return table.next_seat(leader)          # docs/rules.md §6 S4
    return table.next_seat(spinner)


def takers(table: Table, final: bool) -> list[int]:
    """The seats that take part in a wheel outcome, in seat order: every active seat, except the
    round winner in a final spin (docs/rules.md §2.3.6, §6 S11)."""
    excluded = table.winner if final else -1
    return [s for s in range(table.players) if table.active[s] and s != excluded]


def almost_uno(table: Table, spinner: int, final: bool) -> None:
    """``s`` may discard all but 2 cards of its choice, if it holds more than 2."""
    if len(table.hands[spinner]) > 2:
        wheel_discard(table, spinner, ask_almost_uno(table, spinner), final)


def discard_number(table: Table, spinner: int, final: bool) -> None:
    """``s`` picks a number among its NUMBER cards and may discard any or all cards with it."""
    hand = table.hands[spinner]
    numbers = sorted({NUMBER_OF[c] for c in hand if KIND[c] == cards.NUMBER})
    if numbers:
        wheel_discard(table, spinner, ask_discard_number(table, spinner, tuple(numbers)), final)


def discard_colour(table: Table, spinner: int, final: bool) -> None:
    """``s`` picks a colour among its coloured cards and may discard any or all cards of it (numbers
    and coloured action cards, not wilds)."""
    hand = table.hands[spinner]
    colours = sorted({COLOUR[c] for c in hand if not is_wild(c)})
    if colours:
        wheel_discard(table, spinner, ask_discard_colour(table, spinner, tuple(colours)), final)


def draw_red(table: Table, spinner: int, final: bool) -> None:
    draw_until(table, spinner, RED)


def draw_blue(table: Table, spinner: int, final: bool) -> None:
    draw_until(table, spinner, BLUE)


def draw_until(table: Table, seat: int, colour: int) -> None:
    """Draw Red / Draw Blue: draw until a card of ``colour`` **or any wild** is drawn (docs/rules.md §6 S7), or
    the obligation ends (failed draw, knock-out; §1.6). Every card drawn is a wheel gain."""
    drawn_before = table.n_drawn[seat]
    while table.draw_one(seat):   # terminates: each pass moves a card from the piles to the hand
        card = table.hands[seat][-1]
        if COLOUR[card] == colour or is_wild(card):
            break
    table.wheel_gained[seat] += table.n_drawn[seat] - drawn_before


def trade_hands(table: Table, spinner: int, final: bool) -> None:
    """Every taking-part seat gives its whole hand to the next taking-part seat on its left (seat
    order ``i → i+1``), whatever the direction (docs/rules.md §6 S8). In a final spin the winner is left out:
    hands pass among the others only. Decision: with fewer than two taking part nothing moves."""
    seats = takers(table, final)
    if len(seats) >= 2:
        given = [table.hands[s] for s in seats]
        for i, giver in enumerate(seats):
            receiver = seats[(i + 1) % len(seats)]
            table.hands[receiver] = given[i]
            table.wheel_lost[giver] += len(given[i])
            table.wheel_gained[receiver] += len(given[i])
            table.hand_changed(giver)          # a hand that changes owner clears uno_done (§1.10)
        table.moves += 1
    table.emit(L.EV_TRADE, spinner)


def show_hand(table: Table, spinner: int, final: bool) -> None:
    """``s`` shows its hand: no change of game state; policies see it as ``view.shown[s]`` for the
    rest of the round (the built-in ``keep_wilds`` uses its colour counts, protocol §6)."""
    table.shown[spinner] = tuple(table.hands[spinner])
    table.emit(L.EV_SHOW, spinner)


def war(table: Table, spinner: int, final: bool) -> int | None:
    """docs/rules.md §2.3.3 WAR, §6 S5, S6, S14.

    Participants: taking-part seats holding a NUMBER card, in order from ``s`` in direction ``d``.
    At each level every remaining participant reveals its highest not yet revealed number card (which
    of several equal ones is its choice); one without such a card drops out. Nobody revealed: no
    winner. One revealed: it wins (also at the first level, and a lone tied player who can still
    reveal). Otherwise the unique highest reveal of this level wins, else the tied seats go on. The
    winner may discard all of its own revealed cards; everybody else takes theirs back.
    """
    taking_part = set(takers(table, final))
    order = [(spinner + k * table.direction) % table.players for k in range(table.players)]
    remaining = [s for s in order if s in taking_part
                 and any(KIND[c] == cards.NUMBER for c in table.hands[s])]
    revealed: dict[int, list[int]] = {s: [] for s in remaining}     # hand indices in reveal order
    winner = -1
    # terminates: a level that goes on leaves >= 2 seats that each revealed one more of their finitely
    # many NUMBER cards
    while remaining:
        level: dict[int, int] = {}                                  # seat -> number revealed
        for seat in remaining:
            candidates = highest_unrevealed(table.hands[seat], revealed[seat])
            if not candidates:
                continue                                            # drops out (docs/rules.md §6 S6)
            index = ask_war_reveal(table, seat, candidates)
            revealed[seat].append(index)
            level[seat] = NUMBER_OF[table.hands[seat][index]]
            table.emit(L.EV_REVEAL, seat, table.hands[seat][index])
        if len(level) <= 1:
            winner = next(iter(level), -1)
            break
        best = max(level.values())
        remaining = [seat for seat in level if level[seat] == best]
        if len(remaining) == 1:
            winner = remaining[0]
            break
    table.emit(L.EV_WAR, winner)
    if winner < 0:
        return None
    wheel_discard(table, winner, ask_war_discard(table, winner, tuple(revealed[winner])), final)
    return winner


def highest_unrevealed(hand: Sequence[int], revealed: Sequence[int]) -> tuple[int, ...]:
    """Hand indices (hand order) of the number cards with the highest number not yet revealed."""
    unrevealed = [i for i, c in enumerate(hand) if KIND[c] == cards.NUMBER and i not in revealed]
    if not unrevealed:
        return ()
    top = max(NUMBER_OF[hand[i]] for i in unrevealed)
    return tuple(i for i in unrevealed if NUMBER_OF[hand[i]] == top)


def uno_spin(table: Table, spinner: int, final: bool) -> int | None:
    """One taking-part player holding a card shouts first, chosen with probability proportional to
    ``shout_weight`` (docs/rules.md §5 item 12; eligible seats in seat order); it may discard one card."""
    eligible = [s for s in takers(table, final) if table.hands[s]]
    if not eligible:
        return None
    weights = table.rules.shout_weight
    per_seat = scaled(weights if isinstance(weights, tuple) else (weights,) * table.players)
    shouter = eligible[weighted(table.game.play_rng, [per_seat[s] for s in eligible])]
    table.emit(L.EV_SHOUT, shouter)
    index = ask_uno_spin_discard(table, shouter)
    wheel_discard(table, shouter, [] if index is None else [index], final)
    return shouter


OUTCOMES = (almost_uno, discard_number, discard_colour, draw_red, draw_blue, trade_hands, show_hand, war,
            uno_spin)


# ---- discarding by wheel outcome (docs/rules.md §2.3.4) -----------------------------------------------------
def wheel_discard(table: Table, seat: int, indices: Sequence[int], final: bool) -> None:
    """Put the cards at ``indices`` (of the hand before the discard) on top of the discard pile in
    that order, without effects. The last one is the new ``T``; a wild on top makes ``seat`` name the
    colour; nothing discarded leaves ``T`` and ``A`` alone. A hand that became empty wins at once,
    except in a final spin (docs/rules.md §6 S10, S13)."""
    hand = table.hands[seat]
    chosen = [hand[i] for i in indices]
    for k, index in enumerate(indices):
        # Remove that very position (not the first copy of the id: with two equal cards the order of
        # the rest would differ); earlier removals shifted the positions after them.
        card = hand.pop(index - sum(1 for earlier in indices[:k] if earlier < index))
        table.discard_pile.append(card)
        table.hand_changed(seat)
        table.moves += 1
        table.wheel_lost[seat] += 1
        table.emit(L.EV_DISCARD, seat, card)
    if not chosen:
        return
    if is_wild(table.top):
        table.colour = table.ask_colour(seat)
        table.emit(L.EV_COLOUR, seat, table.colour)
    else:
        table.colour = COLOUR[table.top]
    if not hand and not final:
        table.win(seat)


# ---- asking the policies (every answer is checked, never corrected) ---------------------------------
def _check_indices(table: Table, seat: int, question: str, answer: Any, allowed: Sequence[int],
                   at_most: int) -> list[int]:
    """A list of distinct indices from ``allowed``, at most ``at_most`` of them (the discard order)."""
    if isinstance(answer, (list, tuple)) and all(is_int(i) and i in allowed for i in answer) \
            and len(set(answer)) == len(answer) and len(answer) <= at_most:
        return [int(i) for i in answer]
    raise table.invalid(seat, question, answer,
                         f"a list of at most {at_most} distinct hand indices from {list(allowed)}")


def ask_almost_uno(table: Table, seat: int) -> list[int]:
    hand = table.hands[seat]
    answer = table.ask(seat, "almost_uno")
    return _check_indices(table, seat, "almost_uno()", answer, range(len(hand)), len(hand) - 2)


def _ask_group(table: Table, seat: int, method: str, options: tuple[int, ...],
               member: Any) -> list[int]:
    """discard_number / discard_colour: ``(option, indices)`` with every index holding that option."""
    answer = table.ask(seat, method, options)
    question = f"{method}() with options {list(options)}"
    if not (isinstance(answer, tuple) and len(answer) == 2 and is_int(answer[0]) and answer[0] in options):
        raise table.invalid(seat, question, answer, f"a pair (one of {list(options)}, list of hand indices)")
    hand = table.hands[seat]
    allowed = [i for i, c in enumerate(hand) if member(c, answer[0])]
    return _check_indices(table, seat, question, answer[1], allowed, len(allowed))


def ask_discard_number(table: Table, seat: int, numbers: tuple[int, ...]) -> list[int]:
    return _ask_group(table, seat, "discard_number", numbers,
                      lambda c, n: KIND[c] == cards.NUMBER and NUMBER_OF[c] == n)


def ask_discard_colour(table: Table, seat: int, colours: tuple[int, ...]) -> list[int]:
    return _ask_group(table, seat, "discard_colour", colours, lambda c, colour: COLOUR[c] == colour)


def ask_war_reveal(table: Table, seat: int, candidates: tuple[int, ...]) -> int:
    choice = table.ask(seat, "war_reveal", candidates)
    if is_int(choice) and choice in candidates:
        return int(choice)
    raise table.invalid(seat, "war_reveal()", choice, f"one of the hand indices {list(candidates)}")


def ask_war_discard(table: Table, seat: int, revealed: tuple[int, ...]) -> list[int]:
    answer = table.ask(seat, "war_discard", revealed)
    return _check_indices(table, seat, "war_discard()", answer, revealed, len(revealed))


def ask_uno_spin_discard(table: Table, seat: int) -> int | None:
    choice = table.ask(seat, "uno_spin_discard")
    if choice is None or (is_int(choice) and 0 <= choice < len(table.hands[seat])):
        return choice if choice is None else int(choice)
    raise table.invalid(seat, "uno_spin_discard()", choice,
                         f"a hand index 0..{len(table.hands[seat]) - 1} or None (keep)")
