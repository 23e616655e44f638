"""Ranked rows: the skilled seat's edge per cell, and the cards ranked by how far their value is from their
printed points. Each function only draws columns of a table of :mod:`unosim.analysis`
(:mod:`unosim.reporting.plots`)."""

from __future__ import annotations

import math

import polars as pl
from matplotlib.figure import Figure

from .layout import (
    LAYOUT,
    NOT_SIGNIFICANT,
    SIGNIFICANT,
    fit,
    one_panel,
    practical,
    row_axis,
    set_title,
    set_xlabel,
)


def skill_chart(skill: pl.DataFrame, title: str = "") -> Figure:
    """The skilled seat's share of won rounds minus its fair share 1/N (95% interval), one row per cell; blue
    when Holm's adjustment supports it."""
    labels = [f"{r['policy']} · {r['variant']} · {r['players']}p" for r in skill.iter_rows(named=True)]
    fig = one_panel(8, 0.3 * len(labels) + 1.2)
    ax = fig.subplots()
    y = list(range(len(labels) - 1, -1, -1))
    points = skill.select(y=pl.Series(y), est=100 * pl.col("estimate"), low=100 * pl.col("ci_low"),
                          high=100 * pl.col("ci_high"),
                          supported=pl.Series([practical("skill", r) for r in skill.iter_rows(named=True)]))
    for (supported,), rows in points.group_by("supported", maintain_order=True):   # one errorbar per colour
        ax.errorbar(rows["est"], rows["y"], xerr=[rows["est"] - rows["low"], rows["high"] - rows["est"]],
                    fmt="o", ms=4, capsize=2, color=SIGNIFICANT if supported else NOT_SIGNIFICANT)
    ax.axvline(0, color="black", lw=0.8)
    row_axis(ax, y, labels, "share of won rounds − fair share 1/N (percentage points, 95% CI)", title)
    return fig


def card_balance_chart(balance: pl.DataFrame, title: str = "") -> Figure:
    """One panel per variant: cards ranked from most under-valued (top) to most over-valued (bottom) by
    their printed points, the mismatch with its 95% interval; each row is labelled on the axis with the
    card, its printed and its suggested points, so labels never overlap. ``balance``: rows of
    :func:`unosim.analysis.card_balance` for one player count and lineup."""
    variants = balance["variant"].unique(maintain_order=True).to_list()
    most = max(balance.group_by("variant").len()["len"].to_list())
    layout = LAYOUT.get()
    cols = 1 if layout.narrow else min(len(variants), 3)
    fig = Figure(figsize=(layout.width if layout.narrow else 4.6 * cols,
                          (0.2 * most + 1.2) * math.ceil(len(variants) / cols)), layout="constrained")
    axes = fig.subplots(math.ceil(len(variants) / cols), cols, squeeze=False)
    for ax in list(axes.flat)[len(variants):]:
        ax.set_visible(False)
    for ax, variant in zip(axes.flat, variants, strict=False):
        rows = balance.filter(pl.col("variant") == variant).sort("rank")
        y = list(range(rows.height - 1, -1, -1))
        est = 100 * rows["estimate"].to_numpy()
        colours = [SIGNIFICANT if practical("card", r) else NOT_SIGNIFICANT for r in rows.iter_rows(named=True)]
        ax.errorbar(est, y, xerr=[est - 100 * rows["ci_low"].to_numpy(), 100 * rows["ci_high"].to_numpy() - est],
                    fmt="none", lw=1, ecolor=colours)
        ax.scatter(est, y, s=12, c=colours, zorder=3)
        labels = [f"{r['card']}  {r['points']}→{r['suggested_points']}" for r in rows.iter_rows(named=True)]
        ax.set_yticks(y, labels, fontsize="x-small")
        ax.axvline(0, color="black", lw=0.8)
        set_title(ax, f"{variant}: under-valued ↑, over-valued ↓", 30, fontsize="medium")
        set_xlabel(ax, "value − value its points promise (win-rate points)", fontsize="small")
        ax.grid(alpha=0.3, axis="x")
    if title:
        # two lines: one panel is narrower than the title and its key together
        fig.suptitle(fit(f"{title}\n(labels: card  printed→suggested points)"), fontsize="medium")
    return fig
