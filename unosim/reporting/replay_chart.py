"""The replay picture: each seat's hand size turn by turn in one game (what ``unosim replay`` prints, drawn).

The trace records what happens, not the hands' sizes: they are counted here from the events (a card
played or discarded leaves a hand, a draw joins it; swaps, passes, trades, redeals and knock-outs move
or empty whole hands, as docs/rules.md says). tests/reporting/test_replay_chart.py checks the count against the
cards each seat held at the end of every round, as the engine records them.
"""

from __future__ import annotations

import polars as pl
from matplotlib.figure import Figure

from ..game import protocol as L


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
        elif code == L.EV_SPIN:
            final_winner = last_player if b else -1
        elif code == L.EV_TRADE:
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


def replay_figure(variant, *, players: int, seed: int, game: int = 0, lineup="random",
                  rules: dict | None = None) -> Figure:
    """Each seat's hand size turn by turn in game ``game`` of a ``simulate`` call with the same arguments
    (the game ``unosim.replay`` prints); a dotted line marks each new round."""
    from ..play.simulate import resolve
    from ..play.trace import replay_events

    rule_set, specs = resolve(variant, players, lineup, rules)
    events = replay_events(variant, players=players, seed=seed, game=game, lineup=lineup, rules=rules)
    sizes = hand_sizes(events, players, rule_set.hand_size)
    fig = Figure(figsize=(8, 3.6), layout="constrained")
    ax = fig.add_subplot()
    for seat in range(players):
        own = sizes.filter(pl.col("seat") == seat)
        ax.step(own["turn"], own["cards"], where="post", label=f"seat {seat}: {specs[seat].name}")
    for start in sizes.group_by("round").agg(pl.col("turn").min()).filter(pl.col("round") > 0)["turn"]:
        ax.axvline(start, color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel("turn")
    ax.set_ylabel("cards in hand")
    ax.set_ylim(bottom=0)
    ax.set_title(f"{variant}, {players} players, seed {seed}, game {game}: hand sizes turn by turn")
    ax.legend(loc="upper left", fontsize="small", frameon=False)
    return fig
