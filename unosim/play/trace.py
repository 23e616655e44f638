"""Replay one game as a human-readable, turn-by-turn log (debugging, teaching, golden files)."""

from __future__ import annotations

import string

import numpy as np
import polars as pl

from ..game import custom_cards
from ..game import protocol as L
from ..game.cards import COLOUR_NAMES, DARK_COLOUR_NAMES
from ..game.cards import card_name as builtin_name
from ..game.checks import as_int
from .simulate import MAX_SEED, check_games, resolve, run_compiled

_UNO = {1: "calls UNO", 2: "forgot UNO and is caught", 3: "forgot UNO, not caught"}
#: the events that read themselves (a wing's: ``protocol.Event.line``), by code
_DECLARED = {code: event for code, event in enumerate(L.EVENTS, 1) if event.line}


def _declared_line(event: L.Event, seat: int, a: int, b: int, side: int, card_name) -> str:
    """A wing's event as the line its :class:`~unosim.game.protocol.Event` declares."""
    if seat < 0 and event.nobody:
        return f"  {event.nobody}"
    values = {"who": lambda: f"seat {seat}", "seat": lambda: seat, "card": lambda: card_name(a),
              "colour": lambda: (DARK_COLOUR_NAMES if side else COLOUR_NAMES)[a],
              "a_word": lambda: event.a_words[a], "b_word": lambda: event.b_words[b]}
    used = {name for _, name, _, _ in string.Formatter().parse(event.line) if name}   # a only means what they say
    return "  " + event.line.format(**{name: values[name]() for name in used})


def describe(event, side: int = 0, names: tuple[str, ...] | None = None) -> str:
    """One trace event (code, seat, a, b) as a line of text; ``side`` 1: UNO Flip's dark side is in play
    (its colours are named pink, teal, orange, purple: P, T, O, V); ``names``: every card id's name, the
    declared cards' included (``custom_cards.book(...).names``; default: the built-in cards')."""
    code, seat, a, b = (int(x) for x in event)
    card_name = names.__getitem__ if names is not None else builtin_name
    if code in _DECLARED:
        return _declared_line(_DECLARED[code], seat, a, b, side, card_name)
    who = f"seat {seat}"
    if code == L.EV_ROUND_START:
        return f"== game {b}, round {a}: dealer is seat {seat}"
    if code == L.EV_FIRST_CARD:
        return f"first card turned up: {card_name(a)}"
    if code == L.EV_RETURN:
        return f"  {card_name(a)} goes back into the draw pile at position {b}"
    if code == L.EV_FIRST_SEAT:
        return f"seat {seat} starts, direction {'clockwise' if a > 0 else 'counter-clockwise'}"
    if code == L.EV_TURN:
        return f"-- turn {a}: seat {seat}" + (" jumps in" if b else "")
    if code == L.EV_PLAY:
        return f"  {who} plays {card_name(a)}"
    if code == L.EV_COLOUR:
        return f"  {who} names colour {(DARK_COLOUR_NAMES if side else COLOUR_NAMES)[a]}"
    if code == L.EV_DRAW:
        return f"  {who} draws {card_name(a)}"
    if code == L.EV_DRAW_FAIL:
        return f"  {who} cannot draw: both piles are empty"
    if code == L.EV_RESHUFFLE:
        return f"  the discard pile is reshuffled into a new draw pile of {a} cards"
    if code == L.EV_SKIP:
        return f"  {who} is skipped"
    if code == L.EV_CHALLENGE:
        return f"  {who} challenges the Wild Draw Four: {'guilty' if a else 'innocent'}"
    if code == L.EV_UNO:
        return f"  {who} {_UNO[a]}"
    if code == L.EV_SWAP:
        return f"  {who} swaps hands with seat {a}"
    if code == L.EV_REDEAL:
        return f"  {who} collects, shuffles and redeals all hands"
    if code == L.EV_DISCARD:
        return f"  {who} discards {card_name(a)}"
    if code == L.EV_ACCEPT:
        return f"  {who} accepts the pending penalty of {a} cards"
    if code == L.EV_KNOCKOUT:
        return f"  {who} is knocked out (mercy rule) during turn {a}"
    if code == L.EV_PASS:
        return f"  {who}'s 0: every hand passes to the next player"
    if code == L.EV_LOOKAHEAD:
        choice = "draw / accept" if a < 0 else f"hand index {a}"
        return f"  {who} {'searched' if b else 'did not search'}: {choice}"
    if code == L.EV_ROUND_END:
        outcome = L.END_NAMES[a]
        if seat < 0:
            return f"== round over: {outcome}, no winner"
        return f"== round over: seat {seat} {outcome}, scoring {b} points"
    if code == L.EV_MATCH_END:
        return (f"== match over: {L.MATCH_END_NAMES[b]}, winners "
                f"{[s for s in range(L.MAX_PLAYERS) if a >> s & 1] or 'none'}")
    raise ValueError(f"unknown trace event code {code}")


def replay_events(variant, *, players: int, seed: int, game: int = 0, lineup="random",
                  rules: dict | None = None) -> np.ndarray:
    """The trace events (int64[E, 4], see ``protocol.EV_*``) of one game."""
    rs, specs = resolve(variant, players, lineup, rules)
    game = as_int("game", game, 0, MAX_SEED)
    _, seed, game = check_games(1, seed, game)
    return run_compiled(rs, players, specs, seed, game, 1, trace=True).events


def replay(variant, *, players: int, seed: int, game: int = 0, lineup="random",
           rules: dict | None = None) -> str:
    """A turn-by-turn log of game ``game`` of a ``simulate`` call with the same arguments; a declared card
    (docs/rules.md §2.7) by its name."""
    rs, _ = resolve(variant, players, lineup, rules)
    return describe_events(replay_events(variant, players=players, seed=seed, game=game, lineup=lineup,
                                         rules=rules), custom_cards.book(rs.new_cards).names)


_SIDE_SETTERS = {code for code, event in _DECLARED.items() if event.sets_side}


def describe_events(events, names: tuple[str, ...] | None = None) -> str:
    """Trace events as lines of text, each colour named on the side in play (UNO Flip); ``names`` as for
    :func:`describe`."""
    lines, side = [], 0
    for event in events:
        if event[0] == L.EV_ROUND_START:
            side = 0
        elif event[0] in _SIDE_SETTERS:
            side = int(event[2])
        lines.append(describe(event, side, names))
    return "\n".join(lines) + "\n"


# ---- the hands' sizes, counted from the events -------------------------------------------------------
# The trace records what happens, not the hands' sizes: a card played or discarded leaves a hand, a draw
# joins it; swaps, passes, redeals and knock-outs move or empty whole hands, as docs/rules.md says, and so
# do a wing's events by the move their Event declares (its ``hands``):
HAND_MOVES = {
    "goes_out_if_b": "b = 1: the last player has gone out with the round's final card (until the next such "
                     "event); whole-hand moves leave it out",
    "rotate": "every active hand but the one gone out moves to the next such seat in seat order",
}
_MOVES = {code: event.hands for code, event in enumerate(L.EVENTS, 1) if event.hands}
# tests/reporting/test_replay_chart.py checks the count against the cards each seat held at the end of
# every round, as the engine records them.
def hand_sizes(events, players: int, hand_size: int) -> pl.DataFrame:
    """One row per seat at the start of each turn and at each round's end: ``round``, ``turn`` (the
    game's turn count so far, 0 at a round's deal), ``seat``, ``cards``."""
    rows: list[tuple[int, int, int, int]] = []
    sizes, active = [0] * players, [True] * players
    round_index, turns, last_player, final_winner, pass_from = -1, 0, -1, -1, None

    def record() -> None:
        rows.extend((round_index, turns, s, sizes[s]) for s in range(players))

    for code, seat, a, b in (tuple(int(x) for x in e) for e in events):
        if code == L.EV_ROUND_START:
            round_index, sizes, active = a, [hand_size] * players, [True] * players
            record()
        elif code == L.EV_TURN:
            if pass_from is not None:   # the 0's hands went to the next seat, the one now taking its turn
                _pass(sizes, active, pass_from, +1 if seat == _next(pass_from, +1, active) else -1)
                pass_from = None
            turns += 1
            record()
        elif code in (L.EV_PLAY, L.EV_DISCARD):
            sizes[seat] -= 1
            last_player = seat if code == L.EV_PLAY else last_player
        elif code == L.EV_DRAW:
            sizes[seat] += 1
        elif code == L.EV_SWAP:
            sizes[seat], sizes[a] = sizes[a], sizes[seat]
        elif code == L.EV_PASS:
            pass_from = seat   # its direction shows at the next turn
        elif code == L.EV_KNOCKOUT:
            sizes[seat], active[seat] = 0, False
        elif code == L.EV_REDEAL:
            _redeal(sizes, active, seat)
        elif _MOVES.get(code) == "goes_out_if_b":
            final_winner = last_player if b else -1
        elif _MOVES.get(code) == "rotate":
            takers = [s for s in range(players) if active[s] and s != final_winner]
            if len(takers) >= 2:
                given = [sizes[s] for s in takers]
                for i, size in enumerate(given):
                    sizes[takers[(i + 1) % len(takers)]] = size
        elif code == L.EV_ROUND_END:
            if pass_from is not None:
                raise ValueError("a round ended on a 0 passing hands: its direction is not in the trace")
            record()
    return pl.DataFrame(rows, schema=["round", "turn", "seat", "cards"], orient="row")


def _next(seat: int, direction: int, active: list[bool]) -> int:
    n = len(active)
    other = (seat + direction) % n
    while not active[other]:
        other = (other + direction) % n
    return other


def _pass(sizes: list[int], active: list[bool], seat: int, direction: int) -> None:
    moved = list(sizes)
    for s in range(len(sizes)):
        if active[s]:
            moved[_next(s, direction, active)] = sizes[s]
    sizes[:] = moved


def _redeal(sizes: list[int], active: list[bool], seat: int) -> None:
    """Every card collected, dealt one at a time from ``seat + 1`` to the active seats."""
    total, n = sum(sizes), len(sizes)
    sizes[:] = [0] * n
    receiver = seat
    while total:
        receiver = (receiver + 1) % n
        if active[receiver]:
            sizes[receiver] += 1
            total -= 1
