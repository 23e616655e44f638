"""One self-contained HTML report per study, written as a short study a game designer can act on.

Order: the **findings** (plain sentences generated from the statistics, ranked by effect size, nothing
claimed without Holm-adjusted support), a table of contents, then one section per question —
house-rule effects, length, tension and comebacks, seat fairness, skill, card values (and matches in
match modes) — and a collapsed appendix with the cells, seeds, the full effective rules and every
table. Figures are inline SVG images (sharp at any zoom) with captions and alt text; tables scroll
inside their own container, so the page never scrolls sideways; nothing is loaded from elsewhere.

The report reads the tables and charts written by ``unosim analyze`` (``<dataset>/analysis/``) when
they are there and of the current format, and computes and writes them otherwise; it never estimates
anything itself.
"""

from __future__ import annotations

import base64
import math
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
import polars as pl

from . import rules
from .analysis.findings import Finding, findings
from .analysis.standard import TABLE_DIR
from .atomic import write_text_atomic
from .charts import CHART_DIR, study_charts, write_charts
from .charts import read_charts as read_chart_files
from .dataset import Dataset
from .provenance import bound_tables, write_analysis

REPORT_NAME = "report.html"
APPENDIX_ROWS = 1500  # longer tables stay in their CSV file (the report must stay light)
_ALWAYS = ("win_rates", "win_rates_dealer", "fairness", "points", "lengths", "length_distributions", "survival",
           "card_values", "card_balance")


@dataclass
class Table:
    caption: str
    columns: list[str]
    rows: list[list[dict]]


@dataclass
class FigureImage:
    caption: str
    alt: str
    svg: str  # base64


@dataclass
class Section:
    id: str
    title: str
    text: str = ""
    figures: list[FigureImage] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    empty: str = ""  # shown when the study cannot answer the question


def analysis_tables(ds: Dataset) -> dict[str, pl.DataFrame]:
    """The dataset's analysis tables: read from ``analysis/`` when complete and computed from this very
    dataset (:func:`unosim.provenance.bound_tables`), else computed and written."""
    directory = ds.path / TABLE_DIR
    tables = bound_tables(ds, directory) or {}
    wanted_effects = bool(ds.manifest["study"]["comparisons"])
    if not all(name in tables for name in _ALWAYS) or (wanted_effects and "effects" not in tables):
        tables = write_analysis(ds, directory)[0]
    return tables


def write_report(ds: Dataset, out: str | Path | None = None) -> Path:
    """Render the report of ``ds`` to ``out`` (default ``<dataset>/report.html``); returns the path."""
    tables = analysis_tables(ds)
    charts = study_charts(tables)
    chart_dir = ds.path / TABLE_DIR / CHART_DIR
    svgs = read_chart_files(charts, chart_dir) or write_charts(charts, chart_dir)
    figures = {c.name: (c, FigureImage(c.caption, c.alt, base64.b64encode(svgs[c.name]).decode("ascii")))
               for c in charts}
    out = Path(out) if out else ds.path / REPORT_NAME
    env = jinja2.Environment(loader=jinja2.PackageLoader("unosim", "templates"),
                             autoescape=jinja2.select_autoescape(["html", "j2"]), undefined=jinja2.StrictUndefined)
    study = ds.manifest["study"]
    found = findings(tables)
    html = env.get_template("report.html.j2").render(
        study=study, manifest=ds.manifest, findings=found, headline=_headline(found),
        total_games=f"{sum(c['games'] for c in study['cells']):,}", n_cells=len(study["cells"]),
        sections=_tournament_sections(ds) + _sections(tables, figures, study), appendix=_appendix(ds, tables))
    write_text_atomic(out, html)
    return out


def _tournament_sections(ds: Dataset) -> list[Section]:
    """A tournament dataset (``unosim tournament``) opens with its standings and head-to-head matrix."""
    from .plots import to_svg
    from .tournaments import TOURNAMENT_FILE, load_tournament
    if not (ds.path / TOURNAMENT_FILE).is_file():
        return []
    result = load_tournament(ds.path)
    svg = base64.b64encode(to_svg(result.chart())).decode("ascii")
    figure = FigureImage(f"Standings of {result.title}: win rate and rating with 95% intervals (clustered by "
                         "deal), and the head-to-head shares.",
                         "tournament standings with intervals and a head-to-head heatmap", svg)
    return [Section("tournament", "Tournament",
                    "Every deal is played under every seat arrangement of the tournament's seating scheme, "
                    "where each policy sits in each seat equally often, so card and seat luck cancel; intervals are 95%, clustered by deal. A policy whose interval lies above "
                    "another's beats it on these rules.",
                    [figure], [_table(result.standings, "Standings"),
                               _table(result.head_to_head_matrix(),
                                      "Head-to-head: share of games the row policy finished ahead of the "
                                      "column policy")])]


def _headline(found: list[Finding]) -> str:
    effects = [f for f in found if f.kind == "effect"]
    quiet = [f for f in found if f.kind in ("no_effect", "identical")]
    if not effects and not quiet:
        return ""
    return (f"{len(effects)} comparison(s) show a supported effect; {len(quiet)} show none "
            f"({sum(f.kind == 'identical' for f in quiet)} of them played identical games).")


def _figures(figures: dict, section: str) -> list[FigureImage]:
    return [image for chart, image in figures.values() if chart.section == section]


def _sections(tables: dict[str, pl.DataFrame], figures: dict, study: dict) -> list[Section]:
    sections = []
    effects = tables.get("effects")
    house = Section("effects", "House-rule effects",
                    "Each rule (B) against its baseline (A) on the same decks, game by game (paired), or "
                    "on independent samples when the deck differs. Effects are B − A with 95% intervals; "
                    "the relative change uses Fieller's interval. <em>p (Holm)</em> is adjusted over every "
                    "effect of the study; only those below 0.05 are called effects.",
                    _figures(figures, "effects"),
                    empty="This study has no [[comparisons]]: add one per house rule "
                          "(`unosim study new house-rules` writes such a study).")
    if effects is not None and not effects.is_empty() and (effects["axis"] == "variant").any():
        house.tables.append(_table(_effects_view(effects.filter(pl.col("axis") == "variant")),
                                   "Every effect of a house rule (B − A), strongest first"))
    sections.append(house)

    length = Section("length", "Length",
                     "Turns per round (docs/rules.md §1.13). Rounds stopped by the turn cap are censored: "
                     "their true length is unknown but longer than the cap, so the survival curve is "
                     "Kaplan-Meier's and the mean is a <em>restricted mean</em> (the mean of min(turns, cap)).",
                     _figures(figures, "length"))
    length.tables.append(_table(_lengths_view(tables["lengths"]), "Turns per round per cell"))
    sections.append(length)

    tension = Section("tension", "Tension and comebacks",
                      "Tension: how often the unique leader (the seat with strictly the fewest cards) changes "
                      "in a round. Comebacks: the share of rounds won by a seat that had been at least 3 cards "
                      "behind the smallest hand. How each rule changes them is under House-rule effects.",
                      _figures(figures, "tension"),
                      empty="This dataset has no lead-change or deficit counters (it was simulated before "
                            "they existed); re-run the study to measure tension and comebacks.")
    if "quality" in tables:
        tension.tables.append(_table(tables["quality"].select(
            "variant", "players", "lineup", "label", "estimate", "ci_low", "ci_high", "n"), "Per cell"))
    sections.append(tension)

    fairness = Section("fairness", "Seat fairness",
                       "Win rate by position after the dealer. A fair game gives every position 1/N of the "
                       "rounds (a little less when some rounds have no winner). The χ² test asks whether "
                       "the positions win equally often; the spread is the best minus the worst position.",
                       _figures(figures, "fairness"))
    fairness.tables.append(_table(tables["fairness"].select(
        "variant", "players", "lineup", pl.col("estimate").alias("spread"), "ci_low", "ci_high", "chi2", "dof",
        "chi2_p", "chi2_p_holm", "best", "worst", "n"), "Spread of win rates by position and the χ² test of equal positions"))
    sections.append(fairness)

    skill = Section("skill", "Skill",
                    "How much a better strategy wins: the one skilled seat's win rate minus its fair share "
                    "1/N (Wilson interval, score test, Holm over the table). How a rule changes the edge is "
                    "the <em>skill edge</em> measure under House-rule effects.",
                    _figures(figures, "skill"),
                    empty="No lineup of this study has exactly one skilled seat (e.g. "
                          "'greedy_points,random*'), so skill is not measured.")
    if effects is not None and (effects["axis"] == "lineup").any():
        skill.tables.append(_table(_effects_view(effects.filter(pl.col("axis") == "lineup")),
                                   "What a lineup changes against another (B − A), strongest first"))
    if "skill" in tables:
        skill.tables.append(_table(tables["skill"].select(
            "variant", "players", "lineup", "seat", "policy", "win_rate", "fair_share", "estimate", "ci_low",
            "ci_high", "p_holm", "random_rate", "n"), "Skill edge per cell"))
    sections.append(skill)

    cards = Section("cards", "Card values",
                    "What holding a card in the opening hand is worth (change in win probability against an "
                    "average card), compared with what its printed points promise (the least-squares line of "
                    "value on points). Positive: the card is worth more than its points say "
                    "(under-valued). The suggested points are the printed points made monotone in value "
                    "(isotonic regression), changing the table as little as possible.",
                    _figures(figures, "cards"))
    cards.tables.append(_table(tables["card_balance"].select(
        "variant", "players", "lineup", "rank", "card", "points", "suggested_points", "value", "estimate",
        "ci_low", "ci_high", "p_holm"), "Cards ranked by mismatch, with the suggested point table"))
    sections.append(cards)

    if "match_wins" in tables:
        matches = Section("matches", "Matches", "Match win probability against round win probability per seat.",
                          _figures(figures, "matches"))
        matches.tables.append(_table(tables["match_wins"], "Match and round win rates"))
        matches.tables.append(_table(tables["match_ends"], "How matches end"))
        sections.append(matches)
    return sections


def _effects_view(effects: pl.DataFrame) -> pl.DataFrame:
    verdict = (pl.when(pl.col("identical")).then(pl.lit("identical games"))
               .when(pl.col("significant")).then(pl.lit("effect")).otherwise(pl.lit("no detectable effect")))
    size = pl.coalesce(pl.col("rel_change").abs(), pl.col("estimate").abs(), pl.lit(0.0))
    effects = effects.with_columns(_size=size).sort(["significant", "_size"], descending=[True, True])
    return effects.select(
        "b", "a", "variant", "players", "lineup", "label", "mean_a", "mean_b", "estimate", "ci_low", "ci_high",
        (pl.col("rel_change") * 100).alias("change_%"), (pl.col("rel_low") * 100).alias("low_%"),
        (pl.col("rel_high") * 100).alias("high_%"), "p_holm", verdict.alias("verdict"), "test")


def _lengths_view(lengths: pl.DataFrame) -> pl.DataFrame:
    columns = ["variant", "players", "lineup", "estimate", "ci_low", "ci_high", "q50", "q90"]
    extra = [c for c in ("truncated_share", "restricted_mean", "restricted_to") if c in lengths.columns]
    return lengths.filter(pl.col("metric") == "n_turns").select(*columns, *extra).rename({"estimate": "mean"})


def _appendix(ds: Dataset, tables: dict[str, pl.DataFrame]) -> dict:
    cells = ds.cells().select("name", "variant", "players", "lineup", "lineup_label", "games", "seed",
                              "rules_key")
    variants = ds.manifest["study"]["variants"]
    effective = {name: rules.from_key(v["key"]).as_dict() for name, v in variants.items()}
    keys = list(next(iter(effective.values()))) if effective else []
    rule_rows = [[_cell(k)] + [_cell(_plain(effective[v][k])) for v in effective] for k in keys]
    return {"cells": _table(cells, "Cells, their seeds and rule keys"),
            "rules": Table("Effective rules of every variant", ["rule", *effective], rule_rows),
            "tables": [_table(t, name) for name, t in tables.items() if 0 < t.height <= APPENDIX_ROWS],
            "files": sorted(f"{TABLE_DIR}/{name}.csv" for name, t in tables.items() if t.height > APPENDIX_ROWS)}


def _plain(value) -> object:
    return ", ".join(map(str, value)) if isinstance(value, list) else value


def _table(frame: pl.DataFrame, caption: str) -> Table:
    p_columns = [i for i, c in enumerate(frame.columns) if c.startswith("p_") or c.endswith("_p")]
    rows = []
    for row in frame.iter_rows():
        cells = [_cell(v) for v in row]
        for i in p_columns:
            if row[i] == 0.0:
                cells[i] = {"value": "< 1e-300", "text": False}  # below floating point, not zero
        rows.append(cells)
    return Table(caption, frame.columns, rows)


def _cell(value) -> dict:
    if isinstance(value, float):
        return {"value": "" if math.isnan(value) else f"{value:.4g}", "text": False}
    if isinstance(value, (int, bool)) or value is None:
        return {"value": "" if value is None else str(value), "text": False}
    return {"value": str(value), "text": True}
