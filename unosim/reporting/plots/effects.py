"""Effects of house rules and lineups: the forest of every measure's change, the lengths with and without
each rule, the win-rate differences per seat. Each function only draws columns of a table of
:mod:`unosim.analysis` (:mod:`unosim.reporting.plots`)."""

from __future__ import annotations

import math

import polars as pl
from matplotlib.figure import Figure

from ...analysis.measures import MEASURES
from ...analysis.practical import INCONCLUSIVE, PRACTICAL, classify
from .layout import (
    BAND,
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

_PANEL_TITLES = {"length": "length (turns)", "no_winner": "rounds with no winner",
                 "lead_changes": "tension (lead changes)",
                 "comebacks": "comebacks (≥ 3 cards behind)", "max_hand": "largest hand",
                 "penalty": "draw penalty", "knockouts": "knock-outs",
                 "fairness": "seat spread"}


def _in_points(measure: str) -> bool:
    """A share (comebacks, rounds with no winner, the seat spread) is drawn as its change in percentage
    points, as the sentences state it; every other measure as its relative change in %."""
    return not MEASURES[measure].relative


def effect_row_label(row: dict, narrow: bool = False) -> str:
    """``rule · 4p · lineup`` (the lineup only when it is not ``random``); on a phone the rule on a line
    of its own."""
    parts = [str(row["b"]) if row["axis"] == "variant" else f"{row['b']} ({row['variant']})", f"{row['players']}p"]
    if row["axis"] == "variant" and row["lineup"] != "random":
        parts.append(str(row["lineup"]))
    return fit(parts[0], 22) + "\n" + " · ".join(parts[1:]) if narrow else " · ".join(parts)


def _absolute_rows(effects: pl.DataFrame, measure: str) -> pl.DataFrame:
    """Rows of a relative measure that have no relative change (a zero baseline, or Fieller's interval
    unbounded) but an estimate: they are drawn as an absolute change in a panel of their own."""
    rows = effects.filter(pl.col("measure") == measure, ~pl.col("identical"), pl.col("estimate").is_not_null())
    return rows.filter(pl.col("rel_change").is_null() | pl.col("rel_change").is_nan() | pl.col("rel_low").is_null()
                       | pl.col("rel_low").is_nan())


def _forest_marks(chosen: pl.DataFrame, measure: str, absolute: bool, y_of: dict, narrow: bool):
    """The marks of one panel: (identical rows' y, {(colour, hollow, bounded): [(x, y, minus, plus)]}).
    Hollow: an inconclusive row (its interval reaches across the minimum)."""
    identical, marks = [], {}
    points = _in_points(measure)
    for r in chosen.iter_rows(named=True):
        y = y_of[effect_row_label(r, narrow)]
        if r["identical"]:
            identical.append(y)
            continue
        if absolute or points:
            scale = 100.0 if points else 1.0
            x, low, high = r["estimate"], r["ci_low"], r["ci_high"]
        else:
            scale = 100.0
            x, low, high = r["rel_change"], r["rel_low"], r["rel_high"]
        if x is None or not math.isfinite(x):
            continue
        if not absolute and not points and (low is None or not math.isfinite(low)):
            continue  # drawn in the absolute panel
        cls = classify(measure, r)
        colour = SIGNIFICANT if cls == PRACTICAL else NOT_SIGNIFICANT
        bounded = low is not None and math.isfinite(low) and high is not None and math.isfinite(high)
        marks.setdefault((colour, cls == INCONCLUSIVE, bounded), []).append(
            (scale * x, y, scale * (x - low) if bounded else 0.0, scale * (high - x) if bounded else 0.0))
    return identical, marks


def effect_forest(effects: pl.DataFrame, title: str = "") -> Figure:
    """The house-rule effect chart: one panel per measure, one row per comparison (rule · players ·
    lineup), in the unit of the sentences: a relative change B/A − 1 in % with Fieller's 95% interval, or
    for a share (comebacks, rounds with no winner, seat spread) the change in percentage points. Every
    panel of one unit has the same x scale, and each draws its measure's minimum effect as a grey band,
    so a negligible effect looks as small as it is. A row without a bounded relative change (a zero
    baseline such as knock-outs 0 → 0.2, or an unbounded Fieller interval) is drawn in an extra panel of
    the measure's absolute change. Blue: an effect of practical size (what the text states); grey: not
    (hollow: too few games to tell); hollow at 0: identical games. On a phone (:func:`.layout.phone`) the panels
    stack in one column. ``effects``: the table of :func:`unosim.analysis.effects`."""
    narrow = LAYOUT.get().narrow
    present = set(effects["measure"])
    panels = [(m, False) for m in _PANEL_TITLES if m in present]
    panels += [(m, True) for m in _PANEL_TITLES if m in present and not _in_points(m)
               and not _absolute_rows(effects, m).is_empty()]
    labels = list(dict.fromkeys(effect_row_label(r, narrow) for r in effects.iter_rows(named=True)))
    y_of = {label: len(labels) - 1 - i for i, label in enumerate(labels)}
    cols = 1 if narrow else min(len(panels), 4)
    rows = math.ceil(len(panels) / cols)
    row_height = 0.3 if narrow else 0.22
    fig = Figure(figsize=(LAYOUT.get().width if narrow else 3.0 * cols + 1.8, (row_height * len(labels) + 1.0) * rows),
                 layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False, sharey=True)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    drawn = [(ax, measure, absolute, *_forest_marks(
        _absolute_rows(effects, measure) if absolute else effects.filter(pl.col("measure") == measure),
        measure, absolute, y_of, narrow)) for ax, (measure, absolute) in zip(axes.flat, panels, strict=False)]
    limits: dict[str, list[float]] = {}   # one x scale per unit, over every panel of that unit
    for _, measure, absolute, _, marks in drawn:
        unit = _unit(measure, absolute)
        ends = [v for points in marks.values() for x, _, minus, plus in points for v in (x - minus, x + plus)]
        ends += [-_band(measure, absolute), _band(measure, absolute), 0.0]
        lo, hi = limits.get(unit, [0.0, 0.0])
        limits[unit] = [min(lo, *ends), max(hi, *ends)]
    for i, (ax, measure, absolute, identical, marks) in enumerate(drawn):
        ax.tick_params(axis="y", labelleft=narrow or i % cols == 0, labelsize="small")
        band = _band(measure, absolute)
        if band:
            ax.axvspan(-band, band, color=BAND, lw=0, zorder=0)
        if identical:
            ax.plot([0] * len(identical), identical, "o", mfc="white", mec=NOT_SIGNIFICANT, ms=4)
        for (colour, hollow, bounded), points in marks.items():
            x, y, minus, plus = zip(*points, strict=True)
            ax.errorbar(x, y, xerr=[minus, plus] if bounded else None, fmt="o", ms=3.5, lw=1.2, capsize=2,
                        color=colour, mfc="white" if hollow else colour)
        ax.axvline(0, color="black", lw=0.8)
        lo, hi = limits[_unit(measure, absolute)]
        pad = 0.04 * (hi - lo or 1.0)
        ax.set_xlim(lo - pad, hi + pad)
        heading = _PANEL_TITLES[measure] + (", absolute change" if absolute else "")
        set_title(ax, heading, 26, fontsize="medium")
        set_xlabel(ax, _unit(measure, absolute), fontsize="small")
        ax.grid(alpha=0.3, axis="x")
        if i == 0:  # the y axis is shared: ticks and labels set once
            ax.set_yticks(list(y_of.values()), list(y_of), fontsize="small")
            ax.set_ylim(-0.7, len(labels) - 0.3)
    if title:
        fig.suptitle(fit(title))
    return fig


def _unit(measure: str, absolute: bool) -> str:
    if _in_points(measure):
        return "change (percentage points)"
    return f"change ({MEASURES[measure].count_unit or 'B − A'} per round)" if absolute else "relative change (%)"


def _band(measure: str, absolute: bool) -> float:
    """The measure's minimum effect in the panel's unit (the grey band's half-width)."""
    info = MEASURES[measure]
    if absolute:
        return info.zero_baseline or 0.0
    return 100.0 * info.minimum


def length_differences(effects: pl.DataFrame, title: str = "") -> Figure:
    """Mean turns per round in the baseline (grey) and with the rule (blue), one row per comparison,
    the rule's mean with the 95% interval of the difference. ``effects``: rows of measure ``length``."""
    rows = effects.filter(pl.col("measure") == "length")
    labels = [effect_row_label(r) for r in rows.iter_rows(named=True)]
    fig = one_panel(8.5, 0.26 * len(labels) + 1.2)
    ax = fig.subplots()
    identical, changed = ([(len(labels) - 1 - i, r) for i, r in enumerate(rows.iter_rows(named=True))
                           if r["identical"] == same] for same in (True, False))
    if identical:
        ax.plot([r["mean_a"] for _, r in identical], [y for y, _ in identical], "o", mfc="white",
                mec=NOT_SIGNIFICANT, ms=4)
    def colour_of(r: dict) -> str:
        return SIGNIFICANT if practical("length", r) else NOT_SIGNIFICANT
    for colour in (NOT_SIGNIFICANT, SIGNIFICANT):   # one artist per kind of mark, as in effect_forest
        mine = [(y, r) for y, r in changed if colour_of(r) == colour]
        if mine:   # each row's segment baseline → rule (NaN breaks the line between rows)
            ax.plot([x for _, r in mine for x in (r["mean_a"], r["mean_b"], math.nan)],
                    [v for y, _ in mine for v in (y, y, math.nan)], color=colour, lw=1, alpha=0.6)
    if changed:
        ax.plot([r["mean_a"] for _, r in changed], [y for y, _ in changed], "o", color=NOT_SIGNIFICANT, ms=4,
                linestyle="none")
    for colour in (NOT_SIGNIFICANT, SIGNIFICANT):
        mine = [(y, r) for y, r in changed if colour_of(r) == colour]
        if mine:
            ax.errorbar([r["mean_b"] for _, r in mine], [y for y, _ in mine],
                        xerr=[[r["estimate"] - r["ci_low"] for _, r in mine],
                              [r["ci_high"] - r["estimate"] for _, r in mine]], fmt="o", ms=4, capsize=2, color=colour)
    row_axis(ax, range(len(labels) - 1, -1, -1), labels, "mean turns per round: baseline (grey) → with the rule\n"
              "(95% CI of the difference); hollow: identical games", title)
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
    row_axis(ax, y, labels, "win rate difference B − A (95% CI)", title, fontsize="x-small")
    return fig


def _context(row: dict) -> str:
    return ", ".join(f"{k}={row[k]}" for k in ("variant", "players", "lineup")
                     if row.get(k) is not None and k != row["axis"])
