"""The tournament chart, in the style of :mod:`unosim.reporting.plots`: it only draws columns of the tables of
:mod:`unosim.analysis.standings` (win rate, rating and head-to-head shares with their intervals), never estimates."""

from __future__ import annotations

import textwrap

import polars as pl
from matplotlib.figure import Figure

#: tick labels longer than this (a tuned weight vector) are shortened and spelt out in a footnote
MAX_LABEL = 32


def short_labels(names: list[str]) -> tuple[dict[str, str], list[str]]:
    """Each entrant's tick label, and the footnotes giving the long ones in full (``[1] weighted(...)``)."""
    labels, notes = {}, []
    for name in names:
        if len(name) <= MAX_LABEL:
            labels[name] = name
        else:
            key = f"[{len(notes) + 1}]"
            labels[name] = f"{name[:MAX_LABEL - len(key) - 2]}… {key}"
            notes.append(f"{key} {name}")
    return labels, notes


def tournament_chart(standings: pl.DataFrame, head_to_head: pl.DataFrame, names: list[str], *,
                     players: int, title: str = "") -> Figure:
    """Three panels: win rate (95% CI, the fair 1/players dashed), rating (95% CI) and the head-to-head
    heatmap (row A, column B: share of comparisons A finished ahead of B)."""
    labels, notes = short_labels(names)
    footnote = "\n".join(textwrap.fill(n, 150, subsequent_indent="    ") for n in notes)
    fig = Figure(figsize=(13, 0.45 * len(names) + 2.6 + 0.16 * footnote.count("\n")), layout="constrained")
    win_ax, rating_ax, h2h_ax = fig.subplots(1, 3, width_ratios=[1, 1, 1.1])
    rows = standings.reverse()  # best at the top
    y = list(range(rows.height))
    for ax, column, low, high, label in (
            (win_ax, "win_rate", "ci_low", "ci_high", "win rate (95% CI)"),
            (rating_ax, "rating", "rating_ci_low", "rating_ci_high", "Bradley–Terry rating, Elo scale (95% CI)")):
        est = rows[column].to_numpy()
        ax.errorbar(est, y, xerr=[est - rows[low].to_numpy(), rows[high].to_numpy() - est], fmt="o", ms=4,
                    capsize=3, lw=1)
        ax.set_yticks(y, [labels[p] for p in rows["policy"]], fontsize="small")
        ax.set_xlabel(label)
        ax.grid(alpha=0.3, axis="x")
    win_ax.axvline(1 / players, color="grey", lw=0.8, ls="--")
    rating_ax.axvline(0, color="grey", lw=0.8, ls="--")
    rating_ax.tick_params(labelleft=False)
    lookup = {(r["a"], r["b"]): r["estimate"] for r in head_to_head.iter_rows(named=True)}
    grid = [[lookup.get((a, b), float("nan")) for b in names] for a in names]
    image = h2h_ax.imshow(grid, cmap="RdBu", vmin=0, vmax=1)
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if a != b:
                h2h_ax.text(j, i, f"{grid[i][j]:.3f}", ha="center", va="center", fontsize="small")
    h2h_ax.set_xticks(range(len(names)), [labels[n] for n in names], rotation=30, ha="right", fontsize="small")
    h2h_ax.set_yticks(range(len(names)), [labels[n] for n in names], fontsize="small")
    h2h_ax.set_title("share of comparisons row finished ahead of column", fontsize="small")
    fig.colorbar(image, ax=h2h_ax, shrink=0.8)
    if title:
        fig.suptitle(title)
    if notes:
        fig.supxlabel(footnote, fontsize="x-small", x=0.01, ha="left")
    return fig


def result_chart(result) -> Figure:
    """A finished tournament's chart (a :class:`unosim.analysis.tournament.TournamentResult`): the
    standings beside the head-to-head heatmap, titled with the tournament's shape."""
    return tournament_chart(result.standings, result.head_to_head, [e.name for e in result.entrants],
                            players=result.players, title=result.title)


def ladder_chart(ratings: pl.DataFrame, *, players: int, title: str = "") -> Figure:
    """The skill ladder: each policy's rating (95% CI) on one Bradley–Terry scale, one line per variant;
    policies left to right in the order of the first variant's ladder (its lowest rating first)."""
    variants = list(dict.fromkeys(ratings["variant"]))
    order = ratings.filter(pl.col("variant") == variants[0]).sort("rating")["policy"].to_list()
    labels, notes = short_labels(order)
    fig = Figure(figsize=(max(6.0, 0.7 * len(order) + 2), 4.2 + 0.2 * len(notes)), layout="constrained")
    ax = fig.subplots()
    x = {policy: i for i, policy in enumerate(order)}
    for k, variant in enumerate(variants):
        rows = ratings.filter(pl.col("variant") == variant).filter(pl.col("policy").is_in(order))
        rows = rows.with_columns(x=pl.col("policy").replace_strict(x, return_dtype=pl.Float64)).sort("x")
        offset = (k - (len(variants) - 1) / 2) * 0.08   # side by side, so the intervals stay readable
        xs = rows["x"].to_numpy() + offset
        y = rows["rating"].to_numpy()
        ax.errorbar(xs, y, yerr=[y - rows["rating_ci_low"].to_numpy(), rows["rating_ci_high"].to_numpy() - y],
                    marker="o", markersize=4, capsize=2, linewidth=1.2, label=variant)
    ax.axhline(0, color="grey", linewidth=0.6, linestyle="--")
    ax.set_xticks(range(len(order)), [labels[p] for p in order], rotation=30, ha="right")
    ax.set_ylabel("rating (Elo scale, mean 0; 95% CI)")
    ax.set_title(title or f"skill ladder, {players} players", fontsize=10)
    ax.legend(fontsize=8, title="variant", title_fontsize=8)
    if notes:
        fig.supxlabel("\n".join(textwrap.fill(n, 110) for n in notes), fontsize=7, ha="left", x=0.01)
    return fig
