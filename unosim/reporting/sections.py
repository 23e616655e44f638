"""The report's sections as data: each an :class:`Entry` (id, title, builder, condition) of :data:`SECTIONS`,
in order, built from a :class:`Context` (the dataset, its tables, findings and charts) into a
:class:`Section` the template renders (its text, figures, tables, folded tables). A design's confirmation
study leads with the design search (:mod:`unosim.analysis.design`); a tournament with its standings.
"""

from __future__ import annotations

import base64
import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from ..analysis.card_prices import PRICE_SUBJECT
from ..analysis.standard import TABLE_DIR
from ..store.reader import Dataset
from .charts import CHART_DIR


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
    href: str = ""  # the chart's SVG file, relative to the report, for the link that opens it full size
    phone: str = ""  # base64 of its phone layout (panels in one column), shown on narrow screens


@dataclass
class Section:
    id: str
    title: str
    text: str = ""
    figures: list[FigureImage] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    empty: str = ""  # shown when the study cannot answer the question
    lead: list[tuple[str, list[str]]] = field(default_factory=list)  # headed lists of findings, before the text
    folded: list[Table] = field(default_factory=list)  # tables shown closed, each opened on a click


@dataclass(frozen=True)
class Context:
    """What a section is built from: the dataset, its tables and findings, the charts drawn from them (by
    name: the chart and its image) and where the report goes."""

    ds: Dataset
    tables: dict[str, pl.DataFrame]
    figures: dict
    found: list
    out: Path


def relative_link(path: Path, report: Path) -> str:
    """``path`` as a link from the report's folder (a POSIX path, as a URL wants)."""
    return Path(os.path.relpath(path.resolve(), report.resolve().parent)).as_posix()


def _is_tournament(ctx: Context) -> bool:
    from ..analysis.tournament import TOURNAMENT_FILE
    return (ctx.ds.path / TOURNAMENT_FILE).is_file()


def _tournament(ctx: Context, section: Section) -> Section:
    """A tournament dataset (``unosim tournament``) opens with its standings and head-to-head matrix."""
    ds, tables, out = ctx.ds, ctx.tables, ctx.out
    from ..analysis.tournament import tournament_of
    from ..store.atomic import write_bytes_atomic
    from .plots import to_svg
    from .tournament_chart import result_chart
    result = tournament_of(ds.path, tables["standings"], tables["head_to_head"])
    data = to_svg(result_chart(result))
    path = ds.path / TABLE_DIR / CHART_DIR / "tournament.svg"
    write_bytes_atomic(path, data)
    figure = FigureImage(f"Standings of {result.title}: win rate and rating with 95% intervals (clustered by "
                         "deal), and the head-to-head shares.",
                         "tournament standings with intervals and a head-to-head heatmap",
                         base64.b64encode(data).decode("ascii"), relative_link(path, out))
    section.text = ("Every deal is played under every seat arrangement of the tournament's seating scheme, "
                    "where each policy sits in each seat equally often, so card and seat luck cancel; intervals "
                    "are 95%, clustered by deal. Verdicts come from the head-to-head shares: a policy plays "
                    "better than another when the share of seat comparisons it finishes ahead is above 50% "
                    "after Holm's adjustment over the pairs and by at least 1 point; otherwise there is no "
                    "clear difference. " + RATING_SENTENCE + " " + order_note(result.standings))
    section.figures.append(figure)
    section.tables += [as_table(result.standings, "Standings"),
                       as_table(result.head_to_head_matrix(intervals=True),
                              "Head-to-head: share of seat comparisons the row policy finished ahead of the column "
                              "policy, in %, with its 95% interval (clustered by deal)")]
    return section


RATING_SENTENCE = ("The rating is a Bradley–Terry fit to who finished ahead of whom, on the Elo scale (mean 0; "
                   "a gap of 100 means finishing ahead about 64% of the time).")


def order_note(standings: pl.DataFrame) -> str:
    """Why the win-rate order and the rating order differ, when they do."""
    by_wins = standings.sort("win_rate", descending=True)["policy"].to_list()
    by_rating = standings.sort("rating", descending=True)["policy"].to_list()
    if by_wins == by_rating:
        return "Win rate and rating rank the policies in the same order."
    return (f"Win rate ranks {', '.join(by_wins)}; the rating ranks {', '.join(by_rating)}: the win rate counts "
            "only wins, the rating every finishing order (who is knocked out later, who holds fewer points "
            "among the losers), so a policy that rarely wins but loses narrowly can rate higher.")


def _figures(figures: dict, section: str) -> list[FigureImage]:
    return [image for chart, image in figures.values() if chart.section == section]


#: what "skill" means, in the report and in the README alike
SKILL_MEANING = ("Skill is how much more often a better strategy wins than its fair share 1/N against players who "
                 "choose at random. A study measures it with one skilled seat among random ones (below); the "
                 "skill ladder (<code>unosim ladder</code>) measures it head to head, the expert "
                 "<code>lookahead</code> and every preset rated on one scale per variant.")
#: the ladder's figure, in a source checkout
LADDER_FIGURE = Path(__file__).parents[2] / "data" / "results" / "skill_ladder_p2.png"


def _ladder_link(report: Path) -> str:
    if not LADDER_FIGURE.is_file():
        return ""
    return f' <a class="ladder" href="{relative_link(LADDER_FIGURE, report)}">The ladder at 2 players (figure)</a>.'


def _effects(ctx: Context, section: Section) -> Section:
    effects = ctx.tables.get("effects")
    section.text = ("Each rule (B) against its baseline (A) on the same decks, game by game (paired), or "
                    "on independent samples when the deck differs. Effects are B − A with raw 95% intervals; "
                    "the relative change uses Fieller's interval (blank when it is unbounded). <em>p (Holm)</em> "
                    "is adjusted over every effect of the study; only those below 0.05 and at least the "
                    "measure's minimum effect are called effects. Seat fairness is a test of whether the split "
                    "of wins by position changes (χ² homogeneity, or its permutation test when paired), "
                    "without an interval. A length from cells with rounds stopped by the turn cap is a "
                    "restricted mean (truncated_a/truncated_b: the capped shares); tension and comebacks are "
                    "over the rounds with a winner.")
    section.figures = _figures(ctx.figures, "effects")
    section.empty = ("This study compares no house rules: add a comparisons entry per rule to its spec "
                    "(`unosim study new house-rules` writes such a study).")
    if effects is not None and not effects.is_empty() and (effects["axis"] == "variant").any():
        section.tables.append(as_table(_effects_view(effects.filter(pl.col("axis") == "variant")),
                                     "Every effect of a house rule (B − A), strongest first"))
    return section


def _length(ctx: Context, section: Section) -> Section:
    section.text = ("Turns per round (docs/rules.md §1.13). Rounds stopped by the turn cap are censored: "
                    "their true length is unknown but longer than the cap, so the survival curve is "
                    "Kaplan-Meier's, the mean of such a cell is a <em>restricted mean</em> (the mean of "
                    "min(turns, cap)) and a quantile at the cap prints as “&gt; cap”.")
    section.figures = _figures(ctx.figures, "length")
    section.tables.append(as_table(_lengths_view(ctx.tables["lengths"]), "Turns per round per cell"))
    return section


def _tension(ctx: Context, section: Section) -> Section:
    section.text = ("Tension: how often the unique leader (the seat with strictly the fewest cards) changes "
                    "in a round. Comebacks: the share of rounds won by a seat that had been at least 3 cards "
                    "behind the smallest hand. How each rule changes them is under House-rule effects.")
    section.figures = _figures(ctx.figures, "tension")
    section.empty = ("This dataset has no lead-change or deficit counters (it was simulated before they existed); "
                    "re-run the study to measure tension and comebacks.")
    if "quality" in ctx.tables:
        section.tables.append(as_table(ctx.tables["quality"].select(
            "variant", "players", "lineup", "label", "estimate", "ci_low", "ci_high", "n"), "Per cell"))
    return section


def _fairness(ctx: Context, section: Section) -> Section:
    section.text = ("Win rate by position after the dealer. A fair game gives every position 1/N of the "
                    "rounds someone won: (1 − s)/N of all rounds, s being the share that ended in a "
                    "stalemate. The spread is the best minus the worst position, with Tukey's simultaneous "
                    "95% interval (it covers 0 for a fair game 95% of the time); the range test it inverts "
                    "asks whether the positions win equally often (<em>p (Holm)</em> over the cells; the χ² "
                    "test is shown for reference).")
    section.figures = _figures(ctx.figures, "fairness")
    section.tables.append(as_table(ctx.tables["fairness"].select(
        "variant", "players", "lineup", pl.col("estimate").alias("spread"), "ci_low", "ci_high", "range_p", "p_holm",
        "chi2", "dof", "chi2_p", "best", "worst", "n", "won_rounds"),
        "Spread of win rates by position, its simultaneous interval and the range test of equal positions"))
    return section


def _skill(ctx: Context, section: Section) -> Section:
    tables, effects = ctx.tables, ctx.tables.get("effects")
    section.text = (SKILL_MEANING + _ladder_link(ctx.out) + " Here: the one skilled seat's share of the rounds that have a "
                    "winner minus its fair share 1/N (Wilson interval, score test, Holm over the table; rounds "
                    "without a winner are left out, <em>n</em> counts the won rounds). How a rule changes the "
                    "skilled seat's edge over random players: its share of the won rounds minus the same seat's "
                    "share in the all-random twin on the same deals, the rule's minus the published game's "
                    "(paired over the deals by the delta method, raw 95% intervals, Holm within the skill changes).")
    section.figures, section.lead = _figures(ctx.figures, "skill"), _skill_lead(ctx.found)
    section.empty = ("No lineup of this study has exactly one skilled seat (e.g. 'greedy_points,random*'), so skill "
                    "is not measured.")
    if effects is not None and (effects["axis"] == "lineup").any():
        section.tables.append(as_table(_effects_view(effects.filter(pl.col("axis") == "lineup")),
                                     "What a lineup changes against another (B − A), strongest first"))
    if "skill" in tables and "rounds_needed" in tables["skill"].columns:
        section.tables.append(as_table(_luck_skill_view(tables["skill"]),
                                     "Luck vs skill per variant: the skilled seat's share of the rounds with a winner "
                                     "against its fair share, how far above it, and the rounds it needs for a 95% "
                                     "chance of having won more than its fair share of them (raw 95% intervals; ∞: "
                                     "no bound)"))
    if "skill_changes" in tables:
        section.tables.append(as_table(_skill_changes_view(tables["skill_changes"]),
                                     "The house rules ranked by how they change the skilled seat's edge over its "
                                     "all-random twin (B − A, in shares of won rounds)"))
    if "skill" in tables:
        section.tables.append(as_table(tables["skill"].select(
            "variant", "players", "lineup", "seat", "policy", "win_rate", "fair_share", "estimate", "ci_low",
            "ci_high", "p_holm", "random_rate", "n", "rounds",
            *[c for c in ("rounds_needed", "rounds_needed_ci_low", "rounds_needed_ci_high") if c in tables["skill"].columns]),
            "Skill edge per cell (shares of won rounds) and the rounds needed for a 95% chance of winning more "
            "than the fair share"))
    return section


def _cards(ctx: Context, section: Section) -> Section:
    section.text = ("What holding a card in the opening hand is worth (change in win probability against an "
                    "average card), compared with what its printed points promise (the least-squares line of "
                    "value on points). Positive: the card is worth more than its points say "
                    "(under-valued). A card's suggested points differ from its printed ones only when its "
                    "mismatch is supported after Holm's adjustment and at least 0.5 points of win probability: "
                    "it then moves to the points the line gives the edge of its interval nearest to the line "
                    "(the smallest change the evidence demands); every other card keeps its printed points.")
    section.figures = _figures(ctx.figures, "cards")
    prices = [c.text for c in ctx.found if c.subject.startswith(PRICE_SUBJECT)]
    if prices:   # cards declared as data (docs/rules.md §2.7), priced on the points line: checked findings
        section.lead = [("What the declared cards are worth", prices)]
    if not ctx.tables["card_balance"].is_empty():
        section.tables.append(as_table(ctx.tables["card_balance"].select(
            "variant", "players", "lineup", "rank", "card", "points", "suggested_points", "value", "estimate",
            "ci_low", "ci_high", "p_holm"), "Cards ranked by mismatch, with the suggested point table"))
    else:
        section.empty = "Too few games to tell the cards' values apart: no card values are estimated."
    return section


def _matches(ctx: Context, section: Section) -> Section:
    section.text = "Match win probability against round win probability per seat."
    section.figures = _figures(ctx.figures, "matches")
    section.tables.append(as_table(ctx.tables["match_wins"], "Match and round win rates"))
    section.tables.append(as_table(ctx.tables["match_ends"], "How matches end"))
    return section


def _is_design(ctx: Context) -> bool:
    return "design_search" in ctx.tables and not ctx.tables["design_search"].is_empty()


def _design(ctx: Context, section: Section) -> Section:
    """A design's confirmation study opens with the design verdict (the checked claims of
    :mod:`unosim.analysis.design_findings`), the Pareto chart and, folded, every design the search tried."""
    import html
    search = ctx.tables["design_search"].row(0, named=True)
    section.lead = [("The design verdict", [c.text for c in ctx.found if c.section == "design"])]
    section.text = (f"Objectives: {html.escape(str(search['objectives']))}. Constraints: "
                    f"{html.escape(str(search['constraints']))}. The verdicts below judge each confirmed design "
                    "against the base game by these objectives, on the confirmation's games.")
    section.figures = _figures(ctx.figures, "design")
    trials = ctx.tables["design_trials"]
    if trials.is_empty():
        return section
    view = trials.sort(["confirmed", "pareto", "trial"], descending=[True, True, False], nulls_last=True)
    view = view.select([c for c in view.columns if view[c].null_count() < view.height])
    section.folded.append(as_table(view, f"Every design the search tried ({trials.height:,}), the confirmed first, "
                                       "with its numbers on the search's games (optimistic for the best) and the base "
                                       "game's on the same games (base_…)"))
    return section


@dataclass(frozen=True)
class Entry:
    """One section of the report: its id (the page anchor) and title, the function that builds it
    (given the context and the empty section) and whether the study has it; ``lead``: shown before the
    verdicts."""

    id: str
    title: str
    build: Callable[[Context, Section], Section]
    when: Callable[[Context], bool] = lambda ctx: True
    lead: bool = False


#: the report's sections in order (the charts name the section they belong to: :data:`.charts.CHARTS`)
SECTIONS = (
    Entry("design", "Design search", _design, _is_design, lead=True),
    Entry("tournament", "Tournament", _tournament, _is_tournament),
    Entry("effects", "House-rule effects", _effects),
    Entry("length", "Length", _length),
    Entry("tension", "Tension and comebacks", _tension),
    Entry("fairness", "Seat fairness", _fairness),
    Entry("skill", "Skill", _skill),
    Entry("cards", "Card values", _cards),
    Entry("matches", "Matches", _matches, lambda ctx: "match_wins" in ctx.tables),
)


def _skill_lead(found: list) -> list[tuple[str, list[str]]]:
    """The Skill section opens with how much is skill, then the rules ranked by how they change it."""
    from ..analysis.skill_findings import ranked
    how_much = [c.text for c in found if c.table == "skill" and c.kind == "note"]
    changes = [f"{c.subject}: {c.text}" for c in ranked(found)]
    return [(title, texts) for title, texts in (
        ("How much is skill", how_much),
        ("How the house rules change it (the rules that reward skill most first)", changes)) if texts]


def _luck_skill_view(skill: pl.DataFrame) -> pl.DataFrame:
    """The published variants' rows of the skill table, as a reader wants them: shares in %, intervals
    beside their estimate, the rounds needed with theirs (an unbounded end as ∞)."""
    def rounds(column: str) -> pl.Expr:
        return pl.col(column).cast(pl.Int64).map_elements(lambda n: f"{n:,}", return_dtype=pl.String).fill_null("∞")

    def points(column: str) -> pl.Expr:
        return (pl.col(column) * 100).round(1).cast(pl.String)
    # a column with no value in any row (no random twin in the study) reads back from its CSV as text
    skill = skill.with_columns(pl.col("random_rate").cast(pl.Float64))
    if "baseline" in skill.columns:
        skill = skill.filter(pl.col("baseline").cast(pl.Boolean))
    return skill.sort("variant", "players").select(
        "variant", "players", pl.col("policy").alias("skilled seat"),
        (pl.col("win_rate") * 100).round(1).alias("wins %"), (pl.col("fair_share") * 100).round(1).alias("fair %"),
        (pl.col("random_rate") * 100).round(1).alias("random twin %"),
        pl.format("{} [{}, {}]", points("estimate"), points("ci_low"), points("ci_high")).alias("above fair share, points"),
        # no point value when the share's interval reaches the fair share: only the interval's low end
        pl.when(pl.col("rounds_needed").is_null() & pl.col("rounds_needed_ci_low").is_not_null())
        .then(pl.format("≥ {} (no edge ruled out)", rounds("rounds_needed_ci_low")))
        .otherwise(pl.format("{} [{}, {}]", rounds("rounds_needed"), rounds("rounds_needed_ci_low"),
                             rounds("rounds_needed_ci_high"))).alias("rounds needed"))


def _skill_changes_view(changes: pl.DataFrame) -> pl.DataFrame:
    verdict = (pl.when(pl.col("identical")).then(pl.lit("identical games"))
               .when(pl.col("p_holm") < 0.05).then(pl.lit("supported")).otherwise(pl.lit("no detectable change")))
    return changes.sort("estimate", descending=True, nulls_last=True).select(
        "b", "a", "players", "lineup", "policy", "edge_a", "edge_b", "estimate", "ci_low", "ci_high", "p_holm",
        verdict.alias("verdict"), "n")


def _effects_view(effects: pl.DataFrame) -> pl.DataFrame:
    verdict = (pl.when(pl.col("identical")).then(pl.lit("identical games"))
               .when(pl.col("significant")).then(pl.lit("supported")).otherwise(pl.lit("no detectable effect")))
    size = pl.coalesce(pl.col("rel_change").abs(), pl.col("estimate").abs(), pl.lit(0.0))
    effects = effects.with_columns(_size=size).sort(["significant", "_size"], descending=[True, True])
    return effects.select(
        "b", "a", "variant", "players", "lineup", "label", "mean_a", "mean_b", "estimate", "ci_low", "ci_high",
        (pl.col("rel_change") * 100).alias("change_%"), (pl.col("rel_low") * 100).alias("low_%"),
        (pl.col("rel_high") * 100).alias("high_%"), "p_holm", verdict.alias("verdict"), "test",
        *[c for c in ("truncated_a", "truncated_b") if c in effects.columns])


def _lengths_view(lengths: pl.DataFrame) -> pl.DataFrame:
    """Turns per round per cell. In a cell with rounds stopped by the turn cap the plain mean and the
    quantiles at the cap are not observed lengths: the mean column is the restricted mean there, and a
    quantile at the cap prints as "> cap"."""
    turns = lengths.filter(pl.col("metric") == "n_turns")
    if "truncated_share" not in turns.columns:
        return turns.select("variant", "players", "lineup", pl.col("estimate").alias("mean"), "ci_low", "ci_high",
                            "q50", "q90")
    capped = pl.col("truncated_share") > 0
    quantiles = [pl.when(capped & (pl.col(q).is_null() | (pl.col(q) >= pl.col("restricted_to"))))
                 .then(pl.format("> {}", pl.col("restricted_to"))).otherwise(pl.col(q).cast(pl.String)).alias(q)
                 for q in ("q50", "q90", "q99")]
    return turns.select(
        "variant", "players", "lineup",
        pl.when(capped).then(pl.lit("restricted mean (to the cap)")).otherwise(pl.lit("mean")).alias("measure"),
        pl.when(capped).then(pl.col("restricted_mean")).otherwise(pl.col("estimate")).alias("turns"),
        pl.when(capped).then(None).otherwise(pl.col("ci_low")).alias("ci_low"),
        pl.when(capped).then(None).otherwise(pl.col("ci_high")).alias("ci_high"),
        *quantiles, "truncated_share", pl.col("restricted_to").alias("cap_or_longest"))


def as_table(frame: pl.DataFrame, caption: str) -> Table:
    p_columns = [i for i, c in enumerate(frame.columns) if c.startswith("p_") or c.endswith("_p")]
    rows = []
    for row in frame.iter_rows():
        cells = [as_cell(v) for v in row]
        for i in p_columns:
            if row[i] == 0.0:
                cells[i] = {"value": "< 1e-300", "text": False}  # below floating point, not zero
        rows.append(cells)
    return Table(caption, frame.columns, rows)


def as_cell(value) -> dict:
    if isinstance(value, float):
        return {"value": "" if math.isnan(value) else f"{value:.4g}", "text": False}
    if isinstance(value, (int, bool)) or value is None:
        return {"value": "" if value is None else str(value), "text": False}
    return {"value": str(value), "text": True}
