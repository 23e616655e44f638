"""The design verdict: what a design search did, and which confirmed design is best on each objective.

Claims of a design's confirmation study (:mod:`.design`), rendered and checked like every finding
(:mod:`.checker` re-renders them from the tables):

* the search (table ``design_search``): the designs it tried, its games, and — only when the confirmation's
  seed stream is not the search's — that the confirmation games are independent of the search;
* for each objective the confirmation compares (an effects measure), the confirmed design best on it: the
  largest change in the objective's direction, or for a target band the design whose mean is nearest the
  band, with its effect against the base game, raw 95 % interval and Holm-adjusted p-value (the effects
  table is one Holm family: every confirmed design × measure), resting on that row of the effects table.
"""

from __future__ import annotations

import math

import polars as pl

from .claims import ALPHA, Claim, Sentence, decimals_for, row_key
from .measures import MEASURES
from .phrasing import claim_of, interval, p_holm_text

SUBJECT = "design search"
SECTION = "design"
#: the lineup the confirmation plays the designs with (the spec's lineup, named in its study spec)
LINEUP = "design_lineup"


def design_claims(tables: dict[str, pl.DataFrame]) -> list[Claim]:
    """The search's claim and each objective's best design (module docstring); nothing without a search."""
    search = tables.get("design_search")
    if search is None or search.is_empty():
        return []
    out = [_search_claim(search.row(0, named=True))]
    effects = tables.get("effects")
    objectives = tables.get("design_objectives")
    if effects is None or effects.is_empty() or objectives is None:
        return out
    for goal in objectives.iter_rows(named=True):
        rows = _confirmed_rows(effects, goal["effect"])
        if rows:
            out.append(_best_claim(goal, rows))
    return out


def _search_claim(row: dict) -> Claim:
    one = [row]
    s = Sentence().add("These designs were selected by a search: it tried ").num(one, 0, "tried", ",.0f")
    s.add(f" designs of {row['variant']} at {row['players']} players on ").num(one, 0, "games", ",.0f")
    s.add(" games, each design against the base game on the same games, and picked the top ")
    s.num(one, 0, "confirmed", ".0f").add(". ")
    if str(row["confirm_seed"]) != str(row["search_seed"]):
        s.add("They and the base game were re-played on ").num(one, 0, "confirm_games", ",.0f")
        s.add(" fresh games each, from a seed stream the search never played: what follows rests on games "
              "independent of the search (the search's own numbers, in the chart, are optimistic for the designs "
              "it picked: the winner's curse, docs/rules.md §8.8).")
    return Claim(kind="note", subject=SUBJECT, measure="design", table="design_search",
                 rows=(row_key("design_search", row),), text=s.text, numbers=tuple(s.numbers), section=SECTION)


def _confirmed_rows(effects: pl.DataFrame, measure: str | None) -> list[dict]:
    if not measure:
        return []
    rows = effects.filter(pl.col("axis") == "variant", pl.col("measure") == measure,
                          pl.col("lineup").cast(pl.String) == LINEUP)
    return [r for r in rows.iter_rows(named=True) if _finite(r.get("estimate")) and _finite(r.get("p_holm"))]


def _finite(value) -> bool:
    return value is not None and isinstance(value, (int, float)) and math.isfinite(value)


def _best_claim(goal: dict, rows: list[dict]) -> Claim:
    info = MEASURES[goal["effect"]]
    banded = _finite(goal["target_low"])
    if banded:
        def distance(r: dict) -> float:
            return max(goal["target_low"] - r["mean_b"], r["mean_b"] - goal["target_high"], 0.0)
        best = min(rows, key=lambda r: (distance(r), str(r["b"])))
    else:
        best = max(rows, key=lambda r: (goal["sign"] * r["estimate"], str(r["b"])))
    one = [best]
    scale, unit = (100.0, "percentage points") if not info.relative else (1.0, info.count_unit or info.unit)
    s = Sentence()
    if banded:
        band = f"{goal['target_low']:g}" if goal["target_low"] == goal["target_high"] else \
            f"{goal['target_low']:g}–{goal['target_high']:g}"
        s.add(f"Nearest to {goal['objective']} {band}: {best['b']}, ")
        s.num(one, 0, "mean_b", f".{decimals_for(best['mean_b'] * scale)}f", scale).add(f" ({info.unit}); ")
    else:
        s.add(f"Best on {'more' if goal['sign'] > 0 else 'less'} {goal['objective']}: {best['b']}, ")
    d = decimals_for(best["estimate"] * scale)
    s.num(one, 0, "estimate", f"+.{d}f", scale).add(f" {unit} against {best['a']} [")
    interval(s, one, 0, scale)
    supported = best["p_holm"] < ALPHA
    s.add("] (raw 95%; ")
    p_holm_text(s, one, 0)
    s.add(": supported" if supported else ": not supported")
    s.add(" after Holm's adjustment over every confirmed design's effects).")
    return claim_of("note", SUBJECT, goal["effect"], "effects", one, s, section=SECTION,
                    direction=(best["estimate"] > 0) - (best["estimate"] < 0), estimate=best["estimate"],
                    ci_low=best["ci_low"], ci_high=best["ci_high"], interval="raw 95%", p=best.get("p_value"),
                    p_holm=best["p_holm"], supported=supported)
