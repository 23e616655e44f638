"""The rule × measure scorecard as one picture: an HTML table whose cells are small inline SVG strips.

Every cell shows the effects of one comparison on one measure, one line per setting (players × lineup ×
variant), on the one scale all measures share: **multiples of the measure's minimum effect**
(docs/rules.md §8.2; the ``scaled`` columns of ``scorecard.csv``). The band between −1 and +1 (smaller
than the smallest effect worth stating) is shaded; beyond it the scale is logarithmic, so an effect 2× and
one 30× its minimum both fit without hiding the band. The colour is the profile's judgement of the row:
green better, red worse, grey too small to matter (negligible, or identical games), hollow and dashed too
few games to tell, blue-grey a measure the profile does not judge. Above the strip, the effect in the unit
the text uses (% for a relative change, points for a share).

The same markup serves the report and the explorer (:func:`scorecard_html`); the numbers are the
scorecard table's, the words its classes: nothing here estimates.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import polars as pl
from markupsafe import Markup, escape

from ..analysis.measures import MEASURES, PROFILE_KEYS
from ..analysis.profile import WORDS

JUDGEMENT_WORDS = {"good": "better", "bad": "worse", "neutral": "too small to matter",
                   "unclear": "too few games to tell", "not judged": "not in your profile"}
VERDICT_ORDER = ("better", "worse", "mixed", "too close to call", "same")
#: the scale's end, in multiples of the minimum effect: at least this, at most :data:`MOST`
LEAST, MOST = 3.0, 100.0
WIDTH, STRIP = 100.0, 22.0   # a strip's viewBox: 100 wide, the lines in 22 units of height


@dataclass(frozen=True)
class Comparison:
    """One row of the scorecard: B against A on ``axis`` (a rule, or a lineup), its verdict."""

    axis: str
    a: str
    b: str
    verdict: str


def comparisons(verdicts: pl.DataFrame, card: pl.DataFrame) -> list[Comparison]:
    """The comparisons of the scorecard, ordered as the profile cares: better and worse first, then mixed,
    too close to call, same; comparisons the profile does not judge last (verdict "")."""
    rules = verdicts.filter(pl.col("level") == "rule") if not verdicts.is_empty() else verdicts
    judged = {(r["axis"], r["a"], r["b"]): r["verdict"] for r in rules.iter_rows(named=True)}
    seen = list(dict.fromkeys(card.select("axis", "a", "b").iter_rows())) if not card.is_empty() else []
    out = [Comparison(axis, a, b, judged.get((axis, a, b), "")) for axis, a, b in seen]
    rank = {v: i for i, v in enumerate(VERDICT_ORDER)}
    return sorted(out, key=lambda c: (c.axis != "variant", rank.get(c.verdict, len(rank))))


def judged_measures(card: pl.DataFrame) -> set[str]:
    """The measures the card's profile judged (a row of theirs has a judgement)."""
    return set(card.filter(pl.col("judgement") != "not judged")["measure"].to_list()) if not card.is_empty() else set()


def measures_of(card: pl.DataFrame) -> list[str]:
    """The measures of the card's columns: those its profile judged (in the profile's key order), then the
    others (in the order of :data:`~unosim.analysis.measures.MEASURES`)."""
    present = set(card["measure"].to_list()) if not card.is_empty() else set()
    judged = judged_measures(card)
    first = [PROFILE_KEYS[k] for k in WORDS if PROFILE_KEYS[k] in judged]
    return first + [m for m in MEASURES if m in present and m not in judged]


def scale_end(card: pl.DataFrame) -> float:
    """The strips' common end: the largest finite |scaled| end in the card, within [LEAST, MOST]."""
    ends = [abs(v) for c in ("scaled", "scaled_low", "scaled_high") if c in card.columns
            for v in card[c].to_list() if v is not None and math.isfinite(v)]
    return min(MOST, max([LEAST, *ends]))


def _warp(x: float) -> float:
    """Linear within ±1 (the minimum band), logarithmic beyond: symlog with threshold 1."""
    return x if abs(x) <= 1 else math.copysign(1 + math.log10(abs(x)), x)


def _x(value: float, end: float) -> float:
    value = max(-end, min(end, value))
    return WIDTH / 2 + (WIDTH / 2 - 3) * _warp(value) / _warp(end)


def _strip(rows: list[dict], end: float, judged: bool) -> str:
    """One cell's SVG: the minimum band, 0, the ±10 guides, one interval per row (setting) with a tick at
    its estimate. The strip stretches to its cell's width (strokes keep their width), so marks are
    lines, never circles."""
    step = min(4.0, (STRIP - 4) / max(len(rows) - 1, 1))
    height = 4 + step * (len(rows) - 1) + 4
    band = _x(-1, end), _x(1, end)
    parts = [f'<rect x="{band[0]:.2f}" y="0" width="{band[1] - band[0]:.2f}" height="{height:.1f}" class="band"/>',
             f'<line x1="50" x2="50" y1="0" y2="{height:.1f}" class="zero"/>']
    for guide in (-10, 10):
        if end >= 10:
            x = _x(guide, end)
            parts.append(f'<line x1="{x:.2f}" x2="{x:.2f}" y1="0" y2="{height:.1f}" class="guide"/>')
    for i, row in enumerate(rows):
        y = 4 + i * step
        kind = row["judgement"] if judged else "not judged"
        if row["class"] == "identical" or row["scaled"] is None or not math.isfinite(row["scaled"]):
            parts.append(f'<line x1="50" x2="50" y1="{y - 1.8:.2f}" y2="{y + 1.8:.2f}" class="mark identical"/>')
            continue
        low = row["scaled_low"] if row["scaled_low"] is not None else -end
        high = row["scaled_high"] if row["scaled_high"] is not None else end
        css = {"good": "good", "bad": "bad", "neutral": "neutral", "unclear": "unclear"}.get(kind, "unjudged")
        x = _x(row["scaled"], end)
        parts.append(f'<line x1="{_x(low, end):.2f}" x2="{_x(high, end):.2f}" y1="{y:.2f}" y2="{y:.2f}" '
                     f'class="ci {css}"/>')
        parts.append(f'<line x1="{x:.2f}" x2="{x:.2f}" y1="{y - 1.8:.2f}" y2="{y + 1.8:.2f}" class="mark {css}"/>')
    pixels = min(34, 8 + 3 * len(rows))
    return (f'<svg class="strip" viewBox="0 0 {WIDTH:.0f} {height:.1f}" preserveAspectRatio="none" '
            f'style="height:{pixels}px" aria-hidden="true">{"".join(parts)}</svg>')


def _number(value: float, unit: str | None = None) -> str:
    """"+6.9%", "−24 pt", "+0.2 cards": two significant digits, the sign always shown."""
    digits = 0 if abs(value) >= 10 else 1
    text = f"{value:+.{digits}f}".replace("-", "−")
    if unit is None:
        return text
    return f"{text}%" if unit == "%" else f"{text} {'pt' if unit == 'points' else unit}"


def _summary(rows: list[dict], judged: bool) -> tuple[str, str]:
    """(css class, text) of a cell: the practical effects' range in their unit, or the cell's state."""
    practical = [r for r in rows if r["class"] == "practical" and r["effect"] is not None]
    states = {r["judgement"] for r in rows}
    if practical:
        unit = max({r["unit"] for r in practical}, key=[r["unit"] for r in practical].count)
        values = sorted((r["effect"] for r in practical if r["unit"] == unit), key=abs)
        same = len(values) == 1 or _number(values[0]) == _number(values[-1])
        text = _number(values[0], unit) if same else f"{_number(values[0])} to {_number(values[-1], unit)}"
        if not judged:
            return "unjudged", text
        css = "mixed" if {"good", "bad"} <= states else "good" if "good" in states else "bad"
        return css, text
    if {r["class"] for r in rows} <= {"identical"}:
        return "neutral", "identical games"
    if "unclear" in states or any(r["class"] == "inconclusive" for r in rows):
        return ("unclear" if judged else "unjudged"), "too few games"
    return ("neutral" if judged else "unjudged"), "no real change"


def _heading(measure: str) -> str:
    info = MEASURES[measure]
    return info.plain


def _minimum(measure: str) -> str:
    info = MEASURES[measure]
    return f"min ±{info.minimum:.0%}" if info.relative else f"min ±{info.minimum * 100:g} pt"


def scorecard_html(card: pl.DataFrame, verdicts: pl.DataFrame, names: dict[str, str] | None = None) -> Markup:
    """The scorecard picture (module docstring); empty when the card is. ``names``: a plain name per rule
    key (default: the key itself)."""
    if card.is_empty():
        return Markup("")
    names = names or {}
    end = scale_end(card)
    measures = measures_of(card)
    judged = judged_measures(card)
    rows_of: dict[tuple, list[dict]] = {}
    for r in card.iter_rows(named=True):
        rows_of.setdefault((r["axis"], r["a"], r["b"], r["measure"]), []).append(r)
    head = "".join(f'<th scope="col"{"" if m in judged else " class=unjudged-col"}>{escape(_heading(m))}'
                   f'<span class="min">{_minimum(m)}{"" if m in judged else " · not judged"}</span></th>'
                   for m in measures)
    body = []
    for comp in comparisons(verdicts, card):
        cells = []
        for m in measures:
            rows = rows_of.get((comp.axis, comp.a, comp.b, m))
            label = escape(_heading(m))
            if not rows:
                cells.append(f'<td data-label="{label}" class="none">—</td>')
                continue
            css, text = _summary(rows, m in judged)
            title = escape("; ".join(_row_title(r) for r in rows))
            cells.append(f'<td data-label="{label}" title="{title}"><span class="effect {css}">{escape(text)}</span>'
                         f'{_strip(rows, end, m in judged)}</td>')
        name = names.get(comp.b, comp.b)
        verdict = comp.verdict or "not judged"
        body.append(f'<tr><th scope="row"><span class="rule">{escape(name)}</span> <span class="vs">vs '
                    f'{escape(names.get(comp.a, comp.a))}</span> <span class="verdict v-{verdict.replace(" ", "-")}">'
                    f'{escape(verdict)}</span></th>{"".join(cells)}</tr>')
    return Markup(
        f'<div class="scorecard-wrap"><table class="scorecard" aria-label="scorecard: each rule against each '
        f'measure"><thead><tr><th scope="col">rule (B vs A) · verdict</th>{head}</tr></thead><tbody>'
        f'{"".join(body)}</tbody></table></div>')


def _row_title(row: dict) -> str:
    where = " ".join(str(x) for x in (f"{row['players']}p" if row["players"] else "", row["variant"] or "",
                                      row["lineup"] or "") if x)
    if row["effect"] is None:
        return f"{where}: {row['class']}"
    low = "" if row["effect_low"] is None else _number(row["effect_low"], row["unit"])
    high = "" if row["effect_high"] is None else _number(row["effect_high"], row["unit"])
    return f"{where}: {_number(row['effect'], row['unit'])} [{low}, {high}] {row['class']}"


def legend(end: float) -> Markup:
    guides = "; dotted: ±10" if end >= 10 else ""
    return Markup(
        '<p class="legend">Each line: one setting (players, lineup) with its 95% interval, on one scale for every '
        'measure: the effect in multiples of the measure\'s minimum effect (grey band: within ±1, too small to '
        f'matter; logarithmic beyond{guides}; ends ±{end:.0f}). The number above: the effects of practical size '
        'in the unit of the text. <span class="key good">better for you</span> · <span class="key bad">worse</span> · '
        '<span class="key neutral">too small to matter</span> · <span class="key unclear">too few games to tell '
        '(dashed)</span> · <span class="key unjudged">not in your profile</span>. Hover a cell for each setting.</p>')


def verdict_groups(found: Iterable) -> dict[str, str]:
    """subject → its rule-level verdict word, from verdict claims."""
    return {c.subject: c.verdict for c in found if c.section == "verdict" and not c.scope}
