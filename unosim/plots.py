"""Figures from the analysis tables (matplotlib). Plot functions only draw: every number they show is a
column of a table made by :mod:`unosim.analysis`; they filter and lay out, never estimate.

Each function returns a ``matplotlib.figure.Figure`` made without pyplot (no global figure state, no GUI
backend needed; a notebook displays it inline); :func:`to_png` encodes one for the report.
"""

from __future__ import annotations

import io
import math

import polars as pl
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

_PANEL = (4.2, 3.2)


def _panels(n: int, columns: int = 3) -> tuple[Figure, list]:
    cols = min(n, columns)
    rows = math.ceil(n / cols)
    fig = Figure(figsize=(_PANEL[0] * cols, _PANEL[1] * rows), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False)
    flat = list(axes.flat)
    for ax in flat[n:]:
        ax.set_visible(False)
    return fig, flat[:n]


def _errorbar(ax, x, table: pl.DataFrame, label: str, offset: float = 0.0) -> None:
    est = table["estimate"].to_numpy()
    ax.errorbar([v + offset for v in x], est,
                yerr=[est - table["ci_low"].to_numpy(), table["ci_high"].to_numpy() - est],
                fmt="o-", ms=4, capsize=3, lw=1, label=label)


def win_rate_by_position(table: pl.DataFrame, position: str = "seat", title: str = "") -> Figure:
    """One panel per variant; x = ``position`` (``seat`` or ``rel_dealer``), one series per player count.
    ``table``: rows of :func:`unosim.analysis.win_rates` for one lineup."""
    variants = table["variant"].unique(maintain_order=True).to_list()
    fig, axes = _panels(len(variants))
    for ax, variant in zip(axes, variants, strict=True):
        sub = table.filter(pl.col("variant") == variant)
        counts = sorted(sub["players"].unique().to_list())
        for i, players in enumerate(counts):
            rows = sub.filter(pl.col("players") == players).sort(position)
            _errorbar(ax, rows[position].to_list(), rows, f"{players} players", (i - len(counts) / 2) * 0.06)
        ax.set_title(variant)
        ax.set_xlabel("seat" if position == "seat" else "seat after the dealer (1 = first dealt)")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel("win rate (95% CI)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small")
    if title:
        fig.suptitle(title)
    return fig


def length_curves(table: pl.DataFrame, metric: str = "n_turns", kind: str = "survival", title: str = "") -> Figure:
    """One panel per player count, one line per variant and lineup. ``table``: rows of
    :func:`unosim.analysis.length_distributions`; ``kind`` ``survival`` (P(X > value), log scale)
    or ``pmf`` (the histogram)."""
    table = table.filter(pl.col("metric") == metric)
    counts = sorted(table["players"].unique().to_list())
    fig, axes = _panels(len(counts))
    for ax, players in zip(axes, counts, strict=True):
        sub = table.filter(pl.col("players") == players)
        for (variant, lineup), rows in sub.group_by(["variant", "lineup"], maintain_order=True):
            rows = rows.sort("value")
            label = f"{variant} · {lineup}"
            if kind == "survival":
                ax.step(rows["value"], rows["estimate"], where="post", lw=1, label=label)
                ax.fill_between(rows["value"], rows["ci_low"], rows["ci_high"], step="post", alpha=0.2)
                ax.set_yscale("log")
                ax.set_ylabel(f"P({metric} > x)")
            else:
                ax.step(rows["value"], rows["pmf"], where="mid", lw=1, label=label)
                ax.set_ylabel("share of rounds")
        ax.set_title(f"{players} players")
        ax.set_xlabel(metric.removeprefix("n_") + " per round")
        ax.grid(alpha=0.3)
        ax.legend(fontsize="x-small")
    if title:
        fig.suptitle(title)
    return fig


def card_values_vs_points(table: pl.DataFrame, title: str = "") -> Figure:
    """One panel per variant: each card kind's value (win probability vs an average card, 95% CI) against
    its printed points. ``table``: rows of :func:`unosim.analysis.card_values` for one player count and
    lineup."""
    variants = table["variant"].unique(maintain_order=True).to_list()
    fig, axes = _panels(len(variants))
    for ax, variant in zip(axes, variants, strict=True):
        rows = table.filter(pl.col("variant") == variant)
        est = rows["estimate"].to_numpy()
        ax.errorbar(rows["points"], est, yerr=[est - rows["ci_low"].to_numpy(), rows["ci_high"].to_numpy() - est],
                    fmt="o", ms=4, capsize=2, lw=1)
        for card, x, y in zip(rows["card"], rows["points"], est, strict=True):
            ax.annotate(card, (x, y), textcoords="offset points", xytext=(4, 3), fontsize="x-small")
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_title(variant)
        ax.set_xlabel("printed points")
        ax.set_ylabel("Δ win probability vs an average card")
        ax.grid(alpha=0.3)
    if title:
        fig.suptitle(title)
    return fig


def paired_deltas(table: pl.DataFrame, title: str = "") -> Figure:
    """A forest plot: one row per comparison and seat, the win-rate difference B − A with its interval.
    ``table``: rows of :func:`unosim.analysis.comparisons` (wins)."""
    labels = [f"{r['b']} − {r['a']} · {_context(r)} · seat {r['seat']}" for r in table.iter_rows(named=True)]
    fig = Figure(figsize=(8, 0.28 * len(labels) + 1.2), layout="constrained")
    ax = fig.subplots()
    est = table["estimate"].to_numpy()
    y = list(range(len(labels)))[::-1]
    ax.errorbar(est, y, xerr=[est - table["ci_low"].to_numpy(), table["ci_high"].to_numpy() - est],
                fmt="o", ms=3, capsize=2, lw=1)
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_yticks(y, labels, fontsize="x-small")
    ax.set_xlabel("win rate difference B − A (95% CI)")
    ax.grid(alpha=0.3, axis="x")
    if title:
        ax.set_title(title)
    return fig


def _context(row: dict) -> str:
    return ", ".join(f"{k}={row[k]}" for k in ("variant", "players", "lineup")
                     if row.get(k) is not None and k != row["axis"])


def match_vs_round(table: pl.DataFrame, title: str = "") -> Figure:
    """Match win rate against round win rate per seat, one panel per variant. ``table``: rows of
    :func:`unosim.analysis.match_vs_round_wins`."""
    variants = table["variant"].unique(maintain_order=True).to_list()
    fig, axes = _panels(len(variants))
    for ax, variant in zip(axes, variants, strict=True):
        rows = table.filter(pl.col("variant") == variant)
        for (players,), sub in rows.group_by(["players"], maintain_order=True):
            ax.errorbar(sub["round_estimate"], sub["match_estimate"],
                        xerr=[sub["round_estimate"] - sub["round_ci_low"], sub["round_ci_high"] - sub["round_estimate"]],
                        yerr=[sub["match_estimate"] - sub["match_ci_low"], sub["match_ci_high"] - sub["match_estimate"]],
                        fmt="o", ms=3, capsize=2, lw=1, label=f"{players} players")
        ax.axline((0, 0), slope=1, color="grey", lw=0.8)
        ax.set_title(variant)
        ax.set_xlabel("round win rate")
        ax.set_ylabel("match win rate")
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small")
    if title:
        fig.suptitle(title)
    return fig


def to_png(fig: Figure, dpi: int = 72) -> bytes:
    """The figure as PNG bytes."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi)
    return buffer.getvalue()
