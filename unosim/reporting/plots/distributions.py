"""Distributions per cell: win rate by position, lengths and their survival, card values against points,
match against round wins, the game-quality measures. Each function only draws columns of a table of
:mod:`unosim.analysis` (:mod:`unosim.reporting.plots`)."""

from __future__ import annotations

import math

import polars as pl
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator

from .layout import LAYOUT, SIGNIFICANT, colours, dress, fit, panels, set_title

MIN_AT_RISK = 20
#: the rows of a column of the survival chart's legend
LEGEND_ROWS = 24
_LINE_STYLES = ("-", "--", ":", "-.")


def _survival_step(ax, rows: pl.DataFrame, label: str, colour=None, style: str = "-") -> None:
    """A survival curve P(X > value) with its 95% band."""
    line, = ax.step(rows["value"], rows["estimate"], where="post", lw=1, label=label, color=colour, linestyle=style)
    ax.fill_between(rows["value"], rows["ci_low"], rows["ci_high"], step="post", alpha=0.2, color=line.get_color())


def _errorbar(ax, x, table: pl.DataFrame, label: str, offset: float = 0.0, colour=None) -> None:
    est = table["estimate"].to_numpy()
    ax.errorbar([v + offset for v in x], est,
                yerr=[est - table["ci_low"].to_numpy(), table["ci_high"].to_numpy() - est],
                fmt="o-", ms=4, capsize=3, lw=1, label=label, color=colour)


def win_rate_by_position(table: pl.DataFrame, position: str = "seat", title: str = "") -> Figure:
    """One panel per variant; x = ``position`` (``seat`` or ``rel_dealer``), one series per player count,
    each player count in one colour in every panel, named once in the figure's legend. ``table``: rows of
    :func:`unosim.analysis.win_rates` for one lineup."""
    variants = table["variant"].unique(maintain_order=True).to_list()
    every_count = sorted(table["players"].unique().to_list())
    colour = dict(zip(every_count, colours(len(every_count)), strict=True))
    fig, axes = panels(len(variants), sharey=True)   # one y scale: noise must not look like a trend
    for ax, variant in zip(axes, variants, strict=True):
        ax.tick_params(axis="y", labelleft=True)
        sub = table.filter(pl.col("variant") == variant)
        counts = sorted(sub["players"].unique().to_list())
        for i, players in enumerate(counts):
            rows = sub.filter(pl.col("players") == players).sort(position)
            _errorbar(ax, rows[position].to_list(), rows, f"{players} players", (i - len(counts) / 2) * 0.06,
                      colour[players])
            ax.axhline(1 / players, color=colour[players], ls="--", lw=0.8, alpha=0.7)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        dress(ax, variant, "seat" if position == "seat" else "position after the dealer (0 = dealer)",
               "win rate, 95% CI (dashed: 1/N)")
    handles = {players: Line2D([], [], color=colour[players], marker="o", ms=4, lw=1) for players in every_count}
    fig.legend(list(handles.values()), [f"{players} players" for players in handles], loc="outside lower center",
               ncols=len(handles), fontsize="small", frameon=False)
    if title:
        fig.suptitle(fit(title))
    return fig


def length_curves(table: pl.DataFrame, metric: str = "n_turns", kind: str = "survival", title: str = "") -> Figure:
    """One panel per player count, one line per variant and lineup (one colour each in every panel).
    ``table``: rows of :func:`unosim.analysis.length_distributions`; ``kind`` ``survival`` (P(X > value),
    log scale) or ``pmf`` (the histogram)."""
    table = table.filter(pl.col("metric") == metric)
    counts = sorted(table["players"].unique().to_list())
    series = table.select("variant", "lineup").unique(maintain_order=True).rows()
    colour = dict(zip(series, colours(len(series)), strict=True))
    fig, axes = panels(len(counts))
    for ax, players in zip(axes, counts, strict=True):
        sub = table.filter(pl.col("players") == players)
        for (variant, lineup), rows in sub.group_by(["variant", "lineup"], maintain_order=True):
            rows = rows.sort("value")
            label = f"{variant} · {lineup}"
            if kind == "survival":
                _survival_step(ax, rows, label, colour[variant, lineup])
                ax.set_yscale("log")
                ax.set_ylabel(f"P({metric} > x)")
            else:
                ax.step(rows["value"], rows["pmf"], where="mid", lw=1, label=label, color=colour[variant, lineup])
                ax.set_ylabel("share of rounds")
        dress(ax, f"{players} players", metric.removeprefix("n_") + " per round", legend="x-small")
    if title:
        fig.suptitle(fit(title))
    return fig


def survival_curves(survival: pl.DataFrame, title: str = "") -> Figure:
    """Kaplan-Meier P(turns > x), one panel per player count, one line per variant (a colour) and lineup
    (a line style), drawn while at least :data:`MIN_AT_RISK` rounds are still running (the far tail is
    noise). The lines are named once, in a legend beside the panels (in columns of at most
    :data:`LEGEND_ROWS`; a house-rule study has a dozen variants and three lineups), and the figure widens
    for it, so the panels keep their size. ``survival``: the table of :func:`unosim.analysis.turn_survival`."""
    counts = sorted(survival["players"].unique().to_list())
    variants = survival["variant"].unique(maintain_order=True).to_list()
    lineups = survival["lineup"].unique(maintain_order=True).to_list()
    palette = colours(len(variants))

    def look(variant: str, lineup: str) -> dict:
        return {"color": palette[variants.index(variant)],
                "linestyle": _LINE_STYLES[lineups.index(lineup) % len(_LINE_STYLES)]}

    fig, axes = panels(len(counts))
    for ax, players in zip(axes, counts, strict=True):
        sub = survival.filter(pl.col("players") == players)
        for (variant, lineup), rows in sub.group_by(["variant", "lineup"], maintain_order=True):
            rows = rows.filter(pl.col("at_risk") >= MIN_AT_RISK).sort("value")
            _survival_step(ax, rows, f"{variant} · {lineup}", *look(variant, lineup).values())
        ax.set_yscale("log")
        dress(ax, f"{players} players", "turns per round", "P(turns > x), Kaplan-Meier")
    series = survival.select("variant", "lineup").unique(maintain_order=True).rows()
    handles = [Line2D([], [], lw=1, **look(*s)) for s in series]
    names = [f"{v} · {lineup}" for v, lineup in series]
    if LAYOUT.get().narrow:   # a phone: the legend below the stacked panels, in two columns
        fig.legend(handles, names, loc="outside lower center", fontsize="x-small", ncols=1)
        width, height = fig.get_size_inches()
        fig.set_size_inches(width, height + 0.17 * len(series) + 0.3)
    else:
        columns = math.ceil(len(series) / LEGEND_ROWS)
        fig.legend(handles, names, loc="outside right upper", fontsize="x-small", ncols=columns)
        width, height = fig.get_size_inches()
        fig.set_size_inches(width + 2.6 * columns, max(height, 0.17 * min(len(series), LEGEND_ROWS) + 1.2))
    if title:
        fig.suptitle(fit(title))
    return fig


def card_values_vs_points(table: pl.DataFrame, title: str = "") -> Figure:
    """One panel per variant: each card kind's value (win probability vs an average card, 95% CI) against
    its printed points. ``table``: rows of :func:`unosim.analysis.card_values` for one player count and
    lineup."""
    variants = table["variant"].unique(maintain_order=True).to_list()
    fig, axes = panels(len(variants))
    for ax, variant in zip(axes, variants, strict=True):
        rows = table.filter(pl.col("variant") == variant)
        est = rows["estimate"].to_numpy()
        ax.errorbar(rows["points"], est, yerr=[est - rows["ci_low"].to_numpy(), rows["ci_high"].to_numpy() - est],
                    fmt="o", ms=4, capsize=2, lw=1)
        for card, x, y in zip(rows["card"], rows["points"], est, strict=True):
            ax.annotate(card, (x, y), textcoords="offset points", xytext=(4, 3), fontsize="x-small")
        ax.axhline(0, color="grey", lw=0.8)
        dress(ax, variant, "printed points", "Δ win probability vs an average card")
    if title:
        fig.suptitle(fit(title))
    return fig


def match_vs_round(table: pl.DataFrame, title: str = "") -> Figure:
    """Match win rate against round win rate per seat, one panel per variant, a player count in one colour
    in every panel. ``table``: rows of :func:`unosim.analysis.match_vs_round_wins`."""
    variants = table["variant"].unique(maintain_order=True).to_list()
    every_count = sorted(table["players"].unique().to_list())
    colour = dict(zip(every_count, colours(len(every_count)), strict=True))
    fig, axes = panels(len(variants))
    for ax, variant in zip(axes, variants, strict=True):
        rows = table.filter(pl.col("variant") == variant)
        for (players,), sub in rows.group_by(["players"], maintain_order=True):
            ax.errorbar(sub["round_estimate"], sub["match_estimate"],
                        xerr=[sub["round_estimate"] - sub["round_ci_low"], sub["round_ci_high"] - sub["round_estimate"]],
                        yerr=[sub["match_estimate"] - sub["match_ci_low"], sub["match_ci_high"] - sub["match_estimate"]],
                        fmt="o", ms=3, capsize=2, lw=1, label=f"{players} players", color=colour[players])
        ax.axline((0, 0), slope=1, color="grey", lw=0.8)
        dress(ax, variant, "round win rate", "match win rate", legend="small")
    if title:
        fig.suptitle(fit(title))
    return fig


def quality_by_cell(quality: pl.DataFrame, title: str = "") -> Figure:
    """Per-cell means of the game-quality measures (one panel each) with 95% intervals."""
    measures = quality["measure"].unique(maintain_order=True).to_list()
    cells = list(dict.fromkeys(f"{r['variant']} · {r['players']}p · {r['lineup']}"
                               for r in quality.iter_rows(named=True)))
    layout = LAYOUT.get()
    if layout.narrow:   # a phone: the panels one below the other, each labelled
        fig = Figure(figsize=(layout.width, (0.2 * len(cells) + 1.3) * len(measures)), layout="constrained")
        axes = fig.subplots(len(measures), 1, squeeze=False, sharey=True)[:, 0]
    else:
        fig = Figure(figsize=(3.6 * len(measures) + 2.2, 0.2 * len(cells) + 1.3), layout="constrained")
        axes = fig.subplots(1, len(measures), squeeze=False, sharey=True)[0]
    for ax, measure in zip(axes, measures, strict=True):
        ax.tick_params(axis="y", labelleft=True)
        rows = quality.filter(pl.col("measure") == measure)
        y = [len(cells) - 1 - cells.index(f"{r['variant']} · {r['players']}p · {r['lineup']}")
             for r in rows.iter_rows(named=True)]
        est = rows["estimate"].to_numpy()
        ax.errorbar(est, y, xerr=[est - rows["ci_low"].to_numpy(), rows["ci_high"].to_numpy() - est],
                    fmt="o", ms=3, capsize=2, lw=1, color=SIGNIFICANT)
        ax.set_yticks(range(len(cells) - 1, -1, -1), cells, fontsize="x-small")
        set_title(ax, rows["label"][0], 28, fontsize="small")
        ax.grid(alpha=0.3, axis="x")
    if title:
        fig.suptitle(fit(title))
    return fig
