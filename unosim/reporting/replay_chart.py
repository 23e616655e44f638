"""The replay picture: each seat's hand size turn by turn in one game (what ``unosim replay`` prints, drawn).

The trace records what happens, not the hands' sizes: :func:`unosim.play.trace.hand_sizes` counts them
from the events.
"""

from __future__ import annotations

import polars as pl
from matplotlib.figure import Figure


def replay_figure(variant, *, players: int, seed: int, game: int = 0, lineup="random",
                  rules: dict | None = None) -> Figure:
    """Each seat's hand size turn by turn in game ``game`` of a ``simulate`` call with the same arguments
    (the game ``unosim.replay`` prints); a dotted line marks each new round."""
    from ..play.simulate import resolve
    from ..play.trace import hand_sizes, replay_events

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
