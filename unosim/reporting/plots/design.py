"""A design search's Pareto chart: objective against objective for every design tried. It only draws
columns of the tables of :mod:`unosim.analysis.design` (:mod:`unosim.reporting.plots`)."""

from __future__ import annotations

import polars as pl
from matplotlib.figure import Figure

from .layout import SIGNIFICANT, fit, one_panel, set_title, set_xlabel

_TRIED, _CONFIRMED = "#bbbbbb", "#b4461f"


def pareto_chart(trials: pl.DataFrame, objectives: pl.DataFrame, variant: str, title: str = "") -> Figure:
    """The first two objectives against each other (one objective: against the trial number): every design
    tried (grey), the feasible Pareto front (blue), the base game (black star: its mean over the designs'
    search games; a dashed line with one objective), the confirmed designs ringed and labelled. The numbers
    are the search's own. ``trials``: ``design_trials``; ``objectives``: ``design_objectives``."""
    names = objectives["objective"].to_list()[:2]
    labels = dict(zip(objectives["objective"], objectives["label"], strict=True))
    x, y = (names[0], names[1]) if len(names) > 1 else ("trial", names[0])
    labels["trial"] = "design (trial number)"
    done = trials.filter(pl.col("state") == "complete").with_columns(
        pl.col(c).cast(pl.Float64) for c in {x, y, f"base_{y}", *([f"base_{x}"] if x != "trial" else [])})
    fig = one_panel(7, 4.8)
    ax = fig.subplots()
    ax.scatter(done[x], done[y], s=10, c=_TRIED, label=f"designs tried ({done.height:,})")
    front = done.filter(pl.col("pareto").cast(pl.String).str.to_lowercase() == "true").sort(x)
    ax.scatter(front[x], front[y], s=22, c=SIGNIFICANT, label="Pareto front (feasible)")
    if x != "trial" and not done.is_empty():
        ax.scatter([done[f"base_{x}"].mean()], [done[f"base_{y}"].mean()], marker="*", s=220, c="black",
                   label=f"base game ({variant})", zorder=5)
    elif not done.is_empty():
        ax.axhline(done[f"base_{y}"].mean(), color="black", linestyle="--", label=f"base game ({variant})")
    confirmed = done.filter(pl.col("confirmed").cast(pl.String).str.to_lowercase() == "true").sort("trial")
    for i, row in enumerate(confirmed.iter_rows(named=True)):   # labels alternate above and below their point
        ax.annotate(f"design_{row['trial']}", (row[x], row[y]), xytext=(6, 6 if i % 2 == 0 else -14),
                    textcoords="offset points", fontsize=9, color=_CONFIRMED)
    ax.scatter(confirmed[x], confirmed[y], s=60, facecolors="none", edgecolors=_CONFIRMED)
    set_xlabel(ax, labels[x])
    ax.set_ylabel(fit(labels[y], 28))
    ax.grid(alpha=0.3)
    if title:
        set_title(ax, title, fontsize="medium")
    ax.legend(fontsize="x-small", loc="best")
    return fig
