"""One self-contained HTML report per study: the manifest summary, figures (base64 PNG) and tables.

The report reads the tables written by ``unosim analyze`` (``<dataset>/analysis/*.csv``) when they are
there and computes them otherwise; it never estimates anything itself.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
import polars as pl

from . import plots
from .atomic import write_text_atomic
from .analysis.standard import TABLE_DIR, read_tables, standard_tables, write_tables
from .dataset import Dataset

REPORT_NAME = "report.html"
_ALWAYS = ("win_rates", "win_rates_dealer", "points", "lengths", "length_distributions", "card_values")


@dataclass
class Table:
    caption: str
    columns: list[str]
    rows: list[list[dict]]
    open: bool = False


@dataclass
class FigureImage:
    caption: str
    png: str


@dataclass
class Section:
    title: str
    text: str = ""
    figures: list[FigureImage] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)


def analysis_tables(ds: Dataset) -> dict[str, pl.DataFrame]:
    """The dataset's analysis tables: read from ``analysis/`` when complete, else computed and written."""
    directory = ds.path / TABLE_DIR
    tables = read_tables(directory) if directory.is_dir() else {}
    if not all(name in tables for name in _ALWAYS):
        tables = standard_tables(ds)
        write_tables(tables, directory)
    return tables


def write_report(ds: Dataset, out: str | Path | None = None) -> Path:
    """Render the report of ``ds`` to ``out`` (default ``<dataset>/report.html``); returns the path."""
    tables = analysis_tables(ds)
    out = Path(out) if out else ds.path / REPORT_NAME
    env = jinja2.Environment(loader=jinja2.PackageLoader("unosim", "templates"),
                             autoescape=jinja2.select_autoescape(["html", "j2"]), undefined=jinja2.StrictUndefined)
    html = env.get_template("report.html.j2").render(
        study=ds.manifest["study"], manifest=ds.manifest, cells=_cells_table(ds),
        total_games=f"{sum(c['games'] for c in ds.manifest['study']['cells']):,}",
        sections=_sections(tables))
    write_text_atomic(out, html)
    return out


def _sections(tables: dict[str, pl.DataFrame]) -> list[Section]:
    sections = []
    win = Section("Win rate by seat", "Seat 0..n−1 as dealt around the table; the first dealer is random "
                  "unless the variant fixes it.")
    dealer = Section("Win rate by position relative to the dealer",
                     "1 = the seat left of the dealer, dealt first; 0 = the dealer.")
    for (lineup,), rows in tables["win_rates"].group_by(["lineup"], maintain_order=True):
        win.figures.append(_figure(plots.win_rate_by_position(rows, "seat", f"lineup {lineup}"),
                                   f"Win rate by seat, lineup {lineup}"))
    for (lineup,), rows in tables["win_rates_dealer"].group_by(["lineup"], maintain_order=True):
        dealer.figures.append(_figure(plots.win_rate_by_position(rows, "rel_dealer", f"lineup {lineup}"),
                                      f"Win rate by position after the dealer, lineup {lineup}"))
    win.tables.append(_table(tables["win_rates"], "Win rates by seat"))
    dealer.tables.append(_table(tables["win_rates_dealer"], "Win rates by position relative to the dealer"))
    win.tables.append(_table(tables["points"], "Mean points of the winner (won rounds)"))
    sections += [win, dealer]

    lengths = Section("Game length", "Per round, in turns, plays and draws (RULES §1.13); every round counts.")
    for metric in ("n_turns", "n_plays", "n_draws"):
        lengths.figures.append(_figure(plots.length_curves(tables["length_distributions"], metric, "survival"),
                                       f"Survival curve of {metric}: share of rounds longer than x"))
    lengths.figures.append(_figure(plots.length_curves(tables["length_distributions"], "n_turns", "pmf"),
                                   "Distribution of turns per round"))
    lengths.tables.append(_table(tables["lengths"], "Mean and quantiles", open_=True))
    sections.append(lengths)

    cards = Section("Card values vs printed points",
                    "For each card kind: the change in win probability from holding one in the opening "
                    "hand instead of an average card (linear probability model with dealer-position "
                    "controls, cluster-robust by game), beside the points the card scores. A card worth "
                    "more than cards printed with more points is under-valued by the scoring; one worth "
                    "less than cheaper cards is over-valued.")
    for (players, lineup), rows in tables["card_values"].group_by(["players", "lineup"], maintain_order=True):
        cards.figures.append(_figure(plots.card_values_vs_points(rows, f"{players} players, lineup {lineup}"),
                                     f"Card values, {players} players, lineup {lineup}"))
    cards.tables.append(_table(tables["card_values"], "Card values"))
    sections.append(cards)

    if "compare_wins" in tables:
        compare = Section("Paired comparisons", "B − A for each comparison of the spec. Paired (same decks, "
                          "game by game: McNemar's exact test, Wilcoxon signed-rank) when the cells share "
                          "decks, otherwise independent samples.")
        compare.figures.append(_figure(plots.paired_deltas(tables["compare_wins"]), "Win rate differences"))
        compare.tables.append(_table(tables["compare_wins"], "Win rate differences by seat", open_=True))
        compare.tables.append(_table(tables["compare_lengths"], "Length differences", open_=True))
        sections.append(compare)
    if "match_wins" in tables:
        matches = Section("Matches", "Match win probability against round win probability per seat.")
        matches.figures.append(_figure(plots.match_vs_round(tables["match_wins"]), "Match vs round win rate"))
        matches.tables.append(_table(tables["match_wins"], "Match and round win rates", open_=True))
        matches.tables.append(_table(tables["match_ends"], "How matches end"))
        summary = tables["rounds_per_match"]
        matches.figures.append(_figure(plots.length_curves(summary, "n_rounds", "survival"),
                                       "Survival curve of rounds per match"))
        sections.append(matches)
    return sections


def _figure(fig, caption: str) -> FigureImage:
    return FigureImage(caption, base64.b64encode(plots.to_png(fig)).decode("ascii"))


def _table(frame: pl.DataFrame, caption: str, open_: bool = False) -> Table:
    rows = [[_cell(v) for v in row] for row in frame.iter_rows()]
    return Table(caption, frame.columns, rows, open_)


def _cell(value) -> dict:
    if isinstance(value, float):
        return {"value": f"{value:.4g}", "text": False}
    if isinstance(value, (int, bool)) or value is None:
        return {"value": "" if value is None else str(value), "text": False}
    return {"value": str(value), "text": True}


def _cells_table(ds: Dataset) -> Table:
    cells = ds.cells().select("name", "variant", "players", "lineup", "lineup_label", "rules_key", "games",
                              "seed")
    return _table(cells, "Cells", open_=True)
