"""The charts of a study, by name: what ``unosim analyze`` writes and the report shows.

:func:`study_charts` lists every chart the analysis tables support, each with the report section it
belongs to, a caption and alt text; figures are drawn only when asked for (:attr:`Chart.draw`).
:func:`write_charts` writes each as ``<name>.png`` (144 dpi, sharp on high-DPI screens) and
``<name>.svg`` under ``<dataset>/analysis/charts/``, atomically.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

import polars as pl
from joblib.executor import get_memmapping_executor
from matplotlib.figure import Figure

from ..game.rules import variant_names
from ..store.atomic import write_bytes_atomic
from . import plots

CHART_DIR = "charts"


@dataclass(frozen=True)
class Chart:
    name: str          # file stem, unique in a study
    section: str       # id of the report section
    caption: str
    alt: str
    draw: Callable[[], Figure]


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", str(text).lower()).strip("_")


def _symmetric_lineups(tables: dict[str, pl.DataFrame]) -> set[str]:
    """Lineups with the same policy in every seat (from the win-rate table's policy column)."""
    policies = tables["win_rates"].group_by("lineup").agg(pl.col("policy").n_unique().alias("k"))
    return set(policies.filter(pl.col("k") == 1)["lineup"].to_list())


def study_charts(tables: dict[str, pl.DataFrame]) -> list[Chart]:
    """Every chart the tables support, in report order (:data:`CHARTS`)."""
    return [chart for charts_of in CHARTS for chart in charts_of(tables)]


def _design_charts(tables: dict[str, pl.DataFrame]) -> list[Chart]:
    trials, objectives = tables.get("design_trials"), tables.get("design_objectives")
    if trials is None or trials.is_empty() or objectives is None or objectives.is_empty():
        return []
    search = tables["design_search"].row(0, named=True)
    names = objectives["objective"].to_list()
    axes = f"{names[0]} against {names[1]}" if len(names) > 1 else f"{names[0]} of each design"
    return [Chart(
        "pareto", "design",
        f"Every design the search tried, {axes} on the search's own games (optimistic for the best: the "
        "winner's curse): grey, every design; blue, the feasible Pareto front; black, the base game; ringed "
        "and labelled, the confirmed designs (what they do is in the sentences above, from fresh games).",
        f"Pareto chart of the {search['tried']} designs tried by the search, with the base game and the "
        "confirmed designs labelled.",
        lambda: plots.pareto_chart(trials, objectives, str(search["variant"])))]


def _effect_charts(tables: dict[str, pl.DataFrame]) -> list[Chart]:
    charts: list[Chart] = []
    effects = tables.get("effects")
    if effects is None or effects.is_empty():
        return charts
    rule_effects = effects.filter(pl.col("axis") == "variant")
    lineup_effects = effects.filter(pl.col("axis") == "lineup")
    if not rule_effects.is_empty():
        charts.append(Chart(
            "house_rule_effects", "effects",
            "House-rule effects: change against the baseline with 95% intervals, one panel per measure, one "
            "row per rule and table size, in the units of the text (relative change in %; comebacks, rounds "
            "with no winner and seat spread in percentage points), one x scale per unit. Grey band: the "
            "measure's minimum effect (smaller is too small to matter). Blue: an effect of practical size "
            "(Holm-supported, its whole interval beyond the minimum); grey: not (hollow: too few games to "
            "tell); hollow dot at 0: identical games (the rule changed no game). Rows without a bounded "
            "relative change (a zero baseline) are drawn in an absolute panel.",
            "Forest plot of the change each house rule makes to length, tension, comebacks, hand size, "
            "penalties, seat fairness and skill edge, with confidence intervals.",
            lambda: plots.effect_forest(rule_effects)))
        charts.append(Chart(
            "length_differences", "length",
            "Mean turns per round in the baseline (grey) and with each rule (blue: a change of practical "
            "size, at least 2%; grey: not), with the 95% interval of the difference.",
            "Dot plot of mean turns per round for the baseline and each house rule.",
            lambda: plots.length_differences(rule_effects)))
    if not lineup_effects.is_empty():
        charts.append(Chart(
            "lineup_effects", "skill",
            "What a strategy lineup changes against another lineup on the same decks: relative change "
            "with 95% intervals, in the units of the text, one x scale per unit (grey band: the minimum effect; "
            "blue: an effect of practical size).",
            "Forest plot of the changes a strategy lineup makes to length, penalties and fairness.",
            lambda: plots.effect_forest(lineup_effects)))
    return charts


def _survival_charts(tables: dict[str, pl.DataFrame]) -> list[Chart]:
    survival = tables.get("survival", pl.DataFrame({"lineup": []}))
    survival = survival.filter(pl.col("lineup").is_in(list(_symmetric_lineups(tables))))
    # a tournament has no lineup with one policy in every seat; a small study no turn with enough rounds
    if not survival.is_empty() and survival["at_risk"].max() >= plots.MIN_AT_RISK:
        return [Chart(
            "turn_survival", "length",
            "Share of rounds lasting more than x turns (Kaplan-Meier; rounds stopped by the turn cap are "
            "censored, not counted as ending), 95% intervals, lineups with one policy in every seat.",
            "Survival curves of turns per round per player count, one line per variant.",
            lambda: plots.survival_curves(survival))]
    return []


def _quality_charts(tables: dict[str, pl.DataFrame]) -> list[Chart]:
    if "quality" in tables and not tables["quality"].is_empty():
        return [Chart(
            "game_quality", "tension",
            "Per cell: lead changes per round (tension), share of rounds won from ≥ 3 cards behind "
            "(comebacks) and the largest hand, with 95% intervals.",
            "Dot plots of lead changes, comeback share and largest hand per cell.",
            lambda: plots.quality_by_cell(tables["quality"]))]
    return []


def _position_charts(tables: dict[str, pl.DataFrame]) -> list[Chart]:
    charts: list[Chart] = []
    for (lineup,), rows in tables["win_rates_dealer"].group_by(["lineup"], maintain_order=True):
        if lineup not in _symmetric_lineups(tables):
            continue  # with one skilled seat, position and policy are confounded: see Skill
        charts.append(Chart(
            f"win_rate_by_position_{_slug(lineup)}", "fairness",
            f"Win rate by position after the dealer (0 = the dealer, 1 = first to be dealt), lineup {lineup}; dashed lines: "
            "the fair share 1/N. Every panel has the same y scale.",
            f"Win rate against position after the dealer for lineup {lineup}, with the 1/N line.",
            lambda rows=rows, lineup=lineup: plots.win_rate_by_position(rows, "rel_dealer", f"lineup {lineup}")))
    return charts


def _skill_charts(tables: dict[str, pl.DataFrame]) -> list[Chart]:
    if "skill" in tables and not tables["skill"].is_empty():
        return [Chart(
            "skill_edge", "skill",
            "The skilled seat's share of the won rounds minus its fair share 1/N, per cell, with 95% intervals "
            "(blue: an edge of practical size, at least 1 point).",
            "Dot plot of the skill edge of each skilled lineup per variant and player count.",
            lambda: plots.skill_chart(tables["skill"]))]
    return []


def _card_charts(tables: dict[str, pl.DataFrame]) -> list[Chart]:
    balance = tables.get("card_balance")
    if balance is not None and not balance.is_empty():
        lineups = balance["lineup"].unique(maintain_order=True).to_list()
        lineup = "random" if "random" in lineups else lineups[0]
        players = balance.filter(pl.col("lineup") == lineup)["players"].max()
        rows = balance.filter(pl.col("lineup") == lineup, pl.col("players") == players)
        published = rows.filter(pl.col("variant").is_in(variant_names()))
        rows = published if not published.is_empty() else rows  # house-rule variants repeat their base deck
        return [Chart(
            f"card_balance_{players}p_{_slug(lineup)}", "cards",
            f"Cards ranked from most under-valued (top) to most over-valued by their printed points, "
            f"{players} players, lineup {lineup} (every variant and table size is in the table below); labels give "
            "printed → suggested points. Blue: a mismatch of practical size (at least 0.5 points of win probability).",
            f"Ranked card-value mismatch for {players} players with intervals.",
            lambda: plots.card_balance_chart(rows, f"{players} players, lineup {lineup}"))]
    return []


def _match_charts(tables: dict[str, pl.DataFrame]) -> list[Chart]:
    if "match_wins" in tables:
        return [Chart(
            "match_vs_round", "matches", "Match win rate against round win rate per seat.",
            "Scatter of match against round win rate per seat.",
            lambda: plots.match_vs_round(tables["match_wins"]))]
    return []


#: the charts of a study in report order: each entry gives the charts its tables support (none: the study
#: cannot draw it), each chart naming its report section
CHARTS: tuple[Callable[[dict[str, pl.DataFrame]], list[Chart]], ...] = (
    _design_charts, _effect_charts, _survival_charts, _quality_charts, _position_charts, _skill_charts,
    _card_charts, _match_charts)


def charts_left_out(tables: dict[str, pl.DataFrame]) -> list[str]:
    """One sentence per chart the tables would have if the study had more games."""
    survival = tables.get("survival")
    if survival is not None and not survival.is_empty() and survival["at_risk"].max() < plots.MIN_AT_RISK:
        return [f"turn_survival: too few games for the chart (it draws a curve while at least "
                f"{plots.MIN_AT_RISK} rounds are still running; at most {int(survival['at_risk'].max())} are)"]
    return []


#: from this many charts on, they are drawn in worker processes (matplotlib draws on one core; a
#: worker's start costs about a second, a study's chart one to three)
PARALLEL_FROM = 4


PHONE = "phone"   # the suffix of a chart's phone layout: <name>.phone.svg


def _render(chart: Chart) -> tuple[bytes, bytes, bytes]:
    """(SVG, PNG, the phone's SVG). The PNG is laid out first: Agg measures text at 144 dpi, with hinting, a
    little wider than the SVG renderer does, so a layout made for the SVG cut the longest labels at the PNG's
    edges; the SVG (which the browser draws to the SVG renderer's measure) keeps the PNG's layout with room to
    spare. The phone's layout (:func:`plots.phone`: panels in one column, text ≥ 10 px on a 390-px screen) is
    drawn on its own."""
    fig = chart.draw()
    png = plots.to_png(fig)
    svg = plots.to_svg(fig)
    with plots.phone():
        narrow = plots.pad_for_phone(chart.draw())
        plots.to_png(narrow)   # the same layout pass as the wide SVG's
        phone = plots.to_svg(narrow)
    return svg, png, phone


def phone_svgs(charts: list[Chart], directory: str | Path) -> dict[str, bytes]:
    """The phone layouts :func:`write_charts` wrote, by chart name."""
    return {c.name: (Path(directory) / f"{c.name}.{PHONE}.svg").read_bytes() for c in charts}


def write_charts(charts: list[Chart], directory: str | Path) -> dict[str, bytes]:
    """Write every chart as PNG and SVG (and its phone layout, ``<name>.phone.svg``) under ``directory``;
    returns the SVG bytes by chart name. The
    files are the same bytes however many processes drew them."""
    with ChartDrawing(directory) as drawing:
        return drawing.finish(charts)


class ChartDrawing:
    """The charts of an analysis, drawn while the analysis goes on. :meth:`start`, given the tables known so
    far, draws the charts they support; :meth:`finish`, given the final charts, draws the others, writes
    every one as PNG and SVG under ``directory`` (atomically) and returns the SVG bytes by name. From
    :data:`PARALLEL_FROM` charts on, with two cores or more, they are drawn in worker processes, so the
    charts of the tables per cell are drawn while the parent compares the cells (the longest part of a
    house-rule study's analysis). A chart's files are the same bytes however and whenever it was drawn."""

    def __init__(self, directory: str | Path):
        self.directory = Path(directory)
        self._drawing: dict[str, Future] = {}   # in worker processes
        self._waiting: dict[str, Chart] = {}    # not started: drawn here unless more charts come

    def __enter__(self) -> ChartDrawing:
        return self

    def __exit__(self, *exc) -> None:
        for future in self._drawing.values():   # an analysis that failed: drop what is not drawn yet
            future.cancel()

    def start(self, tables: dict[str, pl.DataFrame]) -> None:
        self._add(study_charts(tables))

    def finish(self, charts: list[Chart]) -> dict[str, bytes]:
        self._add([c for c in charts if c.name not in self._drawing])
        svgs = {}
        for chart in charts:
            future = self._drawing.get(chart.name)
            svg, png, phone = future.result() if future is not None else _render(self._waiting[chart.name])
            svgs[chart.name] = svg
            write_bytes_atomic(self.directory / f"{chart.name}.svg", svg)
            write_bytes_atomic(self.directory / f"{chart.name}.png", png)
            write_bytes_atomic(self.directory / f"{chart.name}.{PHONE}.svg", phone)
        return svgs

    def _add(self, charts: list[Chart]) -> None:
        self._waiting.update((c.name, c) for c in charts)
        cores = os.cpu_count() or 1
        if cores > 1 and len(self._drawing) + len(self._waiting) >= PARALLEL_FROM:
            # joblib's worker processes, shared with its Parallel (a plain loky executor would break that)
            pool = get_memmapping_executor(cores)
            self._drawing.update((name, pool.submit(_render, chart)) for name, chart in self._waiting.items())
            self._waiting.clear()


def read_charts(charts: list[Chart], directory: str | Path) -> dict[str, bytes] | None:
    """The SVGs written by :func:`write_charts`, or None when any is missing (its phone layout too)."""
    directory = Path(directory)
    paths = {c.name: directory / f"{c.name}.svg" for c in charts}
    if not all((directory / f"{c.name}.{PHONE}.svg").exists() for c in charts):
        return None
    if not all(p.exists() for p in paths.values()):
        return None
    return {name: p.read_bytes() for name, p in paths.items()}
