"""Figures from the analysis tables (matplotlib). Plot functions only draw: every number they show is a
column of a table made by :mod:`unosim.analysis`; they filter and lay out, never estimate.

Each function returns a ``matplotlib.figure.Figure`` made without pyplot (no global figure state, no GUI
backend needed; a notebook displays it inline); :func:`to_png` encodes one for the report.
"""

from __future__ import annotations

import io
import math
import textwrap
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import polars as pl
from matplotlib import colormaps, rc_context
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator

from ..analysis.measures import MEASURES
from ..analysis.practical import INCONCLUSIVE, PRACTICAL, classify

_PANEL = (4.2, 3.2)


@dataclass(frozen=True)
class Layout:
    """How a figure is laid out: ``narrow`` for a phone (panels in one column, ``width`` inches wide: at
    a 390-px screen's width the figure is shown at about its own size, so its text keeps its points)."""

    narrow: bool = False
    width: float = 3.6


DESKTOP = Layout()
_LAYOUT: ContextVar[Layout] = ContextVar("layout", default=DESKTOP)   # Layout is frozen: one shared default
#: a phone's fonts: matplotlib's "x-small" at 11 pt is 7.6 pt, 10 px at the figure's own size
PHONE_FONT = 11


@contextmanager
def phone():
    """Figures drawn inside are laid out for a phone (:class:`Layout`): one column, larger text. The
    figure must also be saved inside (its fonts are resolved then)."""
    token = _LAYOUT.set(Layout(narrow=True))
    try:
        with rc_context({"font.size": PHONE_FONT}):
            yield
    finally:
        _LAYOUT.reset(token)


def pad_for_phone(fig: Figure) -> Figure:
    """More margin round a phone's figure: the browser draws its text a little wider than matplotlib
    measures it, and a phone's figure has no slack at its edges."""
    engine = fig.get_layout_engine()
    if engine is not None and hasattr(engine, "set"):
        engine.set(w_pad=0.09, h_pad=0.06)
    return fig


def _fit(text: str, chars: int = 30) -> str:
    """``text`` broken into lines of at most ``chars`` characters on a phone (a title or label wider than
    the figure would be cut at its edge); unchanged otherwise."""
    if not _LAYOUT.get().narrow:
        return text
    return "\n".join(textwrap.fill(line, chars) for line in text.split("\n"))


def _title(ax, text: str, chars: int = 30, **style) -> None:
    """A panel's title; on a phone wrapped and set flush right (the row labels take the left of a narrow
    figure, so a title centred over the axes would run past the figure's right edge)."""
    ax.set_title(_fit(text, chars), loc="right" if _LAYOUT.get().narrow else "center", **style)


def _xlabel(ax, text: str, **style) -> None:
    """An x-axis label; on a phone wrapped and set flush right (as :func:`_title`)."""
    ax.set_xlabel(_fit(text), loc="right" if _LAYOUT.get().narrow else "center", **style)


def _figure(width: float, height: float) -> Figure:
    """A one-panel figure ``width`` inches wide, or a phone's width (:func:`phone`)."""
    layout = _LAYOUT.get()
    return Figure(figsize=(layout.width if layout.narrow else width, height), layout="constrained")


def _panels(n: int, columns: int = 3, sharey: bool = False) -> tuple[Figure, list]:
    layout = _LAYOUT.get()
    cols = 1 if layout.narrow else min(n, columns)
    rows = math.ceil(n / cols)
    width = layout.width if layout.narrow else _PANEL[0] * cols
    height = _PANEL[1] * (layout.width / _PANEL[0]) * rows if layout.narrow else _PANEL[1] * rows
    fig = Figure(figsize=(width, height), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False, sharey=sharey)
    flat = list(axes.flat)
    for ax in flat[n:]:
        ax.set_visible(False)
    return fig, flat[:n]


def _dress(ax, title: str, xlabel: str, ylabel: str | None = None, legend: str | None = None) -> None:
    """A panel's title, axis labels and light grid, and its legend (at font size ``legend``) when it has
    series."""
    _title(ax, title)
    _xlabel(ax, xlabel)
    if ylabel is not None:
        ax.set_ylabel(_fit(ylabel, 28))
    ax.grid(alpha=0.3)
    if legend:
        ax.legend(fontsize=legend)


def _row_axis(ax, y, labels: list[str], xlabel: str, title: str = "", fontsize: str = "small") -> None:
    """A chart of one row per label: the labels along y, the x label, a grid along x, the title."""
    ax.set_yticks(y, [_fit(label, 22) for label in labels], fontsize=fontsize)
    _xlabel(ax, xlabel)
    ax.grid(alpha=0.3, axis="x")
    if title:
        _title(ax, title)


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
    colour = dict(zip(every_count, _colours(len(every_count)), strict=True))
    fig, axes = _panels(len(variants), sharey=True)   # one y scale: noise must not look like a trend
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
        _dress(ax, variant, "seat" if position == "seat" else "position after the dealer (0 = dealer)",
               "win rate, 95% CI (dashed: 1/N)")
    handles = {players: Line2D([], [], color=colour[players], marker="o", ms=4, lw=1) for players in every_count}
    fig.legend(list(handles.values()), [f"{players} players" for players in handles], loc="outside lower center",
               ncols=len(handles), fontsize="small", frameon=False)
    if title:
        fig.suptitle(_fit(title))
    return fig


def length_curves(table: pl.DataFrame, metric: str = "n_turns", kind: str = "survival", title: str = "") -> Figure:
    """One panel per player count, one line per variant and lineup (one colour each in every panel).
    ``table``: rows of :func:`unosim.analysis.length_distributions`; ``kind`` ``survival`` (P(X > value),
    log scale) or ``pmf`` (the histogram)."""
    table = table.filter(pl.col("metric") == metric)
    counts = sorted(table["players"].unique().to_list())
    series = table.select("variant", "lineup").unique(maintain_order=True).rows()
    colour = dict(zip(series, _colours(len(series)), strict=True))
    fig, axes = _panels(len(counts))
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
        _dress(ax, f"{players} players", metric.removeprefix("n_") + " per round", legend="x-small")
    if title:
        fig.suptitle(_fit(title))
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
        _dress(ax, variant, "printed points", "Δ win probability vs an average card")
    if title:
        fig.suptitle(_fit(title))
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
    _row_axis(ax, y, labels, "win rate difference B − A (95% CI)", title, fontsize="x-small")
    return fig


def _context(row: dict) -> str:
    return ", ".join(f"{k}={row[k]}" for k in ("variant", "players", "lineup")
                     if row.get(k) is not None and k != row["axis"])


def match_vs_round(table: pl.DataFrame, title: str = "") -> Figure:
    """Match win rate against round win rate per seat, one panel per variant, a player count in one colour
    in every panel. ``table``: rows of :func:`unosim.analysis.match_vs_round_wins`."""
    variants = table["variant"].unique(maintain_order=True).to_list()
    every_count = sorted(table["players"].unique().to_list())
    colour = dict(zip(every_count, _colours(len(every_count)), strict=True))
    fig, axes = _panels(len(variants))
    for ax, variant in zip(axes, variants, strict=True):
        rows = table.filter(pl.col("variant") == variant)
        for (players,), sub in rows.group_by(["players"], maintain_order=True):
            ax.errorbar(sub["round_estimate"], sub["match_estimate"],
                        xerr=[sub["round_estimate"] - sub["round_ci_low"], sub["round_ci_high"] - sub["round_estimate"]],
                        yerr=[sub["match_estimate"] - sub["match_ci_low"], sub["match_ci_high"] - sub["match_estimate"]],
                        fmt="o", ms=3, capsize=2, lw=1, label=f"{players} players", color=colour[players])
        ax.axline((0, 0), slope=1, color="grey", lw=0.8)
        _dress(ax, variant, "round win rate", "match win rate", legend="small")
    if title:
        fig.suptitle(_fit(title))
    return fig


def to_png(fig: Figure, dpi: int = 144) -> bytes:
    """The figure as PNG bytes (default 144 dpi: sharp at twice the size of a 72-dpi screen)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, pil_kwargs={"compress_level": 1})
    _freeze_layout(fig)
    return buffer.getvalue()


def to_svg(fig: Figure) -> bytes:
    """The figure as SVG bytes, text kept as text (small files, sharp at any zoom)."""
    buffer = io.BytesIO()
    with rc_context({"svg.fonttype": "none", "svg.hashsalt": "unosim"}):
        fig.savefig(buffer, format="svg", metadata={"Date": None})
    _freeze_layout(fig)
    return buffer.getvalue()


def _freeze_layout(fig: Figure) -> None:
    """Keep the layout of the first save: a second format then costs no new layout pass. No layout engine
    at all, rather than matplotlib's "none" placeholder, with which every save still runs a draw pass of its
    own to lay the figure out (a third of the second format's time)."""
    with rc_context({"figure.autolayout": False, "figure.constrained_layout.use": False}):
        fig.set_layout_engine(None)   # with both off: no engine (a user's rc could name one)


# ---- house-rule effects, survival, skill, card balance ---------------------------------------------
_SIGNIFICANT, _NOT_SIGNIFICANT, _BAND = "#1f5fa8", "#9a9a9a", "#e6e6e6"
_PANEL_TITLES = {"length": "length (turns)", "no_winner": "rounds with no winner",
                 "lead_changes": "tension (lead changes)",
                 "comebacks": "comebacks (≥ 3 cards behind)", "max_hand": "largest hand",
                 "penalty": "draw penalty", "knockouts": "knock-outs",
                 "fairness": "seat spread"}


def _in_points(measure: str) -> bool:
    """A share (comebacks, rounds with no winner, the seat spread) is drawn as its change in percentage
    points, as the sentences state it; every other measure as its relative change in %."""
    return not MEASURES[measure].relative


def _practical(measure: str, row: dict) -> bool:
    """The chart's blue: an effect of practical size (Holm-supported and its whole interval beyond the
    measure's minimum, :mod:`unosim.analysis.practical`) — what the text states as an effect."""
    return classify(measure, row) == PRACTICAL


def effect_row_label(row: dict, narrow: bool = False) -> str:
    """``rule · 4p · lineup`` (the lineup only when it is not ``random``); on a phone the rule on a line
    of its own."""
    parts = [str(row["b"]) if row["axis"] == "variant" else f"{row['b']} ({row['variant']})", f"{row['players']}p"]
    if row["axis"] == "variant" and row["lineup"] != "random":
        parts.append(str(row["lineup"]))
    return _fit(parts[0], 22) + "\n" + " · ".join(parts[1:]) if narrow else " · ".join(parts)


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
        colour = _SIGNIFICANT if cls == PRACTICAL else _NOT_SIGNIFICANT
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
    (hollow: too few games to tell); hollow at 0: identical games. On a phone (:func:`phone`) the panels
    stack in one column. ``effects``: the table of :func:`unosim.analysis.effects`."""
    narrow = _LAYOUT.get().narrow
    present = set(effects["measure"])
    panels = [(m, False) for m in _PANEL_TITLES if m in present]
    panels += [(m, True) for m in _PANEL_TITLES if m in present and not _in_points(m)
               and not _absolute_rows(effects, m).is_empty()]
    labels = list(dict.fromkeys(effect_row_label(r, narrow) for r in effects.iter_rows(named=True)))
    y_of = {label: len(labels) - 1 - i for i, label in enumerate(labels)}
    cols = 1 if narrow else min(len(panels), 4)
    rows = math.ceil(len(panels) / cols)
    row_height = 0.3 if narrow else 0.22
    fig = Figure(figsize=(_LAYOUT.get().width if narrow else 3.0 * cols + 1.8, (row_height * len(labels) + 1.0) * rows),
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
            ax.axvspan(-band, band, color=_BAND, lw=0, zorder=0)
        if identical:
            ax.plot([0] * len(identical), identical, "o", mfc="white", mec=_NOT_SIGNIFICANT, ms=4)
        for (colour, hollow, bounded), points in marks.items():
            x, y, minus, plus = zip(*points, strict=True)
            ax.errorbar(x, y, xerr=[minus, plus] if bounded else None, fmt="o", ms=3.5, lw=1.2, capsize=2,
                        color=colour, mfc="white" if hollow else colour)
        ax.axvline(0, color="black", lw=0.8)
        lo, hi = limits[_unit(measure, absolute)]
        pad = 0.04 * (hi - lo or 1.0)
        ax.set_xlim(lo - pad, hi + pad)
        heading = _PANEL_TITLES[measure] + (", absolute change" if absolute else "")
        _title(ax, heading, 26, fontsize="medium")
        _xlabel(ax, _unit(measure, absolute), fontsize="small")
        ax.grid(alpha=0.3, axis="x")
        if i == 0:  # the y axis is shared: ticks and labels set once
            ax.set_yticks(list(y_of.values()), list(y_of), fontsize="small")
            ax.set_ylim(-0.7, len(labels) - 0.3)
    if title:
        fig.suptitle(_fit(title))
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
    fig = _figure(8.5, 0.26 * len(labels) + 1.2)
    ax = fig.subplots()
    identical, changed = ([(len(labels) - 1 - i, r) for i, r in enumerate(rows.iter_rows(named=True))
                           if r["identical"] == same] for same in (True, False))
    if identical:
        ax.plot([r["mean_a"] for _, r in identical], [y for y, _ in identical], "o", mfc="white",
                mec=_NOT_SIGNIFICANT, ms=4)
    def colour_of(r: dict) -> str:
        return _SIGNIFICANT if _practical("length", r) else _NOT_SIGNIFICANT
    for colour in (_NOT_SIGNIFICANT, _SIGNIFICANT):   # one artist per kind of mark, as in effect_forest
        mine = [(y, r) for y, r in changed if colour_of(r) == colour]
        if mine:   # each row's segment baseline → rule (NaN breaks the line between rows)
            ax.plot([x for _, r in mine for x in (r["mean_a"], r["mean_b"], math.nan)],
                    [v for y, _ in mine for v in (y, y, math.nan)], color=colour, lw=1, alpha=0.6)
    if changed:
        ax.plot([r["mean_a"] for _, r in changed], [y for y, _ in changed], "o", color=_NOT_SIGNIFICANT, ms=4,
                linestyle="none")
    for colour in (_NOT_SIGNIFICANT, _SIGNIFICANT):
        mine = [(y, r) for y, r in changed if colour_of(r) == colour]
        if mine:
            ax.errorbar([r["mean_b"] for _, r in mine], [y for y, _ in mine],
                        xerr=[[r["estimate"] - r["ci_low"] for _, r in mine],
                              [r["ci_high"] - r["estimate"] for _, r in mine]], fmt="o", ms=4, capsize=2, color=colour)
    _row_axis(ax, range(len(labels) - 1, -1, -1), labels, "mean turns per round: baseline (grey) → with the rule\n"
              "(95% CI of the difference); hollow: identical games", title)
    return fig


MIN_AT_RISK = 20
#: the rows of a column of the survival chart's legend
LEGEND_ROWS = 24
_LINE_STYLES = ("-", "--", ":", "-.")


def _colours(n: int) -> list:
    """``n`` distinct colours: matplotlib's tab10, or tab20 beyond ten."""
    cmap = colormaps["tab10" if n <= 10 else "tab20"]
    return [cmap(i % cmap.N) for i in range(n)]


def survival_curves(survival: pl.DataFrame, title: str = "") -> Figure:
    """Kaplan-Meier P(turns > x), one panel per player count, one line per variant (a colour) and lineup
    (a line style), drawn while at least :data:`MIN_AT_RISK` rounds are still running (the far tail is
    noise). The lines are named once, in a legend beside the panels (in columns of at most
    :data:`LEGEND_ROWS`; a house-rule study has a dozen variants and three lineups), and the figure widens
    for it, so the panels keep their size. ``survival``: the table of :func:`unosim.analysis.turn_survival`."""
    counts = sorted(survival["players"].unique().to_list())
    variants = survival["variant"].unique(maintain_order=True).to_list()
    lineups = survival["lineup"].unique(maintain_order=True).to_list()
    palette = _colours(len(variants))

    def look(variant: str, lineup: str) -> dict:
        return {"color": palette[variants.index(variant)],
                "linestyle": _LINE_STYLES[lineups.index(lineup) % len(_LINE_STYLES)]}

    fig, axes = _panels(len(counts))
    for ax, players in zip(axes, counts, strict=True):
        sub = survival.filter(pl.col("players") == players)
        for (variant, lineup), rows in sub.group_by(["variant", "lineup"], maintain_order=True):
            rows = rows.filter(pl.col("at_risk") >= MIN_AT_RISK).sort("value")
            _survival_step(ax, rows, f"{variant} · {lineup}", *look(variant, lineup).values())
        ax.set_yscale("log")
        _dress(ax, f"{players} players", "turns per round", "P(turns > x), Kaplan-Meier")
    series = survival.select("variant", "lineup").unique(maintain_order=True).rows()
    handles = [Line2D([], [], lw=1, **look(*s)) for s in series]
    names = [f"{v} · {lineup}" for v, lineup in series]
    if _LAYOUT.get().narrow:   # a phone: the legend below the stacked panels, in two columns
        fig.legend(handles, names, loc="outside lower center", fontsize="x-small", ncols=1)
        width, height = fig.get_size_inches()
        fig.set_size_inches(width, height + 0.17 * len(series) + 0.3)
    else:
        columns = math.ceil(len(series) / LEGEND_ROWS)
        fig.legend(handles, names, loc="outside right upper", fontsize="x-small", ncols=columns)
        width, height = fig.get_size_inches()
        fig.set_size_inches(width + 2.6 * columns, max(height, 0.17 * min(len(series), LEGEND_ROWS) + 1.2))
    if title:
        fig.suptitle(_fit(title))
    return fig


def skill_chart(skill: pl.DataFrame, title: str = "") -> Figure:
    """The skilled seat's share of won rounds minus its fair share 1/N (95% interval), one row per cell; blue
    when Holm's adjustment supports it."""
    labels = [f"{r['policy']} · {r['variant']} · {r['players']}p" for r in skill.iter_rows(named=True)]
    fig = _figure(8, 0.3 * len(labels) + 1.2)
    ax = fig.subplots()
    y = list(range(len(labels) - 1, -1, -1))
    points = skill.select(y=pl.Series(y), est=100 * pl.col("estimate"), low=100 * pl.col("ci_low"),
                          high=100 * pl.col("ci_high"),
                          supported=pl.Series([_practical("skill", r) for r in skill.iter_rows(named=True)]))
    for (supported,), rows in points.group_by("supported", maintain_order=True):   # one errorbar per colour
        ax.errorbar(rows["est"], rows["y"], xerr=[rows["est"] - rows["low"], rows["high"] - rows["est"]],
                    fmt="o", ms=4, capsize=2, color=_SIGNIFICANT if supported else _NOT_SIGNIFICANT)
    ax.axvline(0, color="black", lw=0.8)
    _row_axis(ax, y, labels, "share of won rounds − fair share 1/N (percentage points, 95% CI)", title)
    return fig


def card_balance_chart(balance: pl.DataFrame, title: str = "") -> Figure:
    """One panel per variant: cards ranked from most under-valued (top) to most over-valued (bottom) by
    their printed points, the mismatch with its 95% interval; each row is labelled on the axis with the
    card, its printed and its suggested points, so labels never overlap. ``balance``: rows of
    :func:`unosim.analysis.card_balance` for one player count and lineup."""
    variants = balance["variant"].unique(maintain_order=True).to_list()
    most = max(balance.group_by("variant").len()["len"].to_list())
    layout = _LAYOUT.get()
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
        colours = [_SIGNIFICANT if _practical("card", r) else _NOT_SIGNIFICANT for r in rows.iter_rows(named=True)]
        ax.errorbar(est, y, xerr=[est - 100 * rows["ci_low"].to_numpy(), 100 * rows["ci_high"].to_numpy() - est],
                    fmt="none", lw=1, ecolor=colours)
        ax.scatter(est, y, s=12, c=colours, zorder=3)
        labels = [f"{r['card']}  {r['points']}→{r['suggested_points']}" for r in rows.iter_rows(named=True)]
        ax.set_yticks(y, labels, fontsize="x-small")
        ax.axvline(0, color="black", lw=0.8)
        _title(ax, f"{variant}: under-valued ↑, over-valued ↓", 30, fontsize="medium")
        _xlabel(ax, "value − value its points promise (win-rate points)", fontsize="small")
        ax.grid(alpha=0.3, axis="x")
    if title:
        # two lines: one panel is narrower than the title and its key together
        fig.suptitle(_fit(f"{title}\n(labels: card  printed→suggested points)"), fontsize="medium")
    return fig


def quality_by_cell(quality: pl.DataFrame, title: str = "") -> Figure:
    """Per-cell means of the game-quality measures (one panel each) with 95% intervals."""
    measures = quality["measure"].unique(maintain_order=True).to_list()
    cells = list(dict.fromkeys(f"{r['variant']} · {r['players']}p · {r['lineup']}"
                               for r in quality.iter_rows(named=True)))
    layout = _LAYOUT.get()
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
                    fmt="o", ms=3, capsize=2, lw=1, color=_SIGNIFICANT)
        ax.set_yticks(range(len(cells) - 1, -1, -1), cells, fontsize="x-small")
        _title(ax, rows["label"][0], 28, fontsize="small")
        ax.grid(alpha=0.3, axis="x")
    if title:
        fig.suptitle(_fit(title))
    return fig
