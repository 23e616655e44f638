"""One self-contained HTML report per study, written as a short study a game designer can act on.

Order: the **findings** (plain sentences generated from the statistics, ranked by effect size, nothing
claimed without Holm-adjusted support), a table of contents, then one section per question —
house-rule effects, length, tension and comebacks, seat fairness, skill, card values (and matches in
match modes), declared in :data:`unosim.reporting.sections.SECTIONS` (a design's confirmation study opens
with the design search, before the verdicts; a tournament with its standings) — and a collapsed appendix with the cells, seeds, the full effective rules and every
table. Figures are inline SVG images (sharp at any zoom) with captions and alt text; tables scroll
inside their own container, so the page never scrolls sideways; nothing is loaded from elsewhere.

The report only renders: it reads the tables and findings ``unosim analyze`` wrote (``<dataset>/analysis/``,
bound to this very dataset: :func:`unosim.analysis.provenance.current_tables`) and draws the charts from
them; without a current analysis it refuses, naming the command that writes one (``unosim report``
runs the analysis first when needed).
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
import polars as pl

from ..analysis.claims import FAMILIES, MIN_EFFECT
from ..analysis.provenance import current_tables
from ..analysis.standard import TABLE_DIR, read_findings
from ..game import rules
from ..store.atomic import write_text_atomic
from ..store.layout import DatasetError
from ..store.reader import Dataset
from . import scorecard
from .charts import CHART_DIR, phone_svgs, study_charts, write_charts
from .charts import read_charts as read_chart_files
from .sections import SECTIONS, Context, FigureImage, Section, Table, as_cell, as_table, relative_link

REPORT_NAME = "report.html"
APPENDIX_ROWS = 1500  # longer tables stay in their CSV file (the report must stay light)


def write_report(ds: Dataset, out: str | Path | None = None) -> Path:
    """Render the report of ``ds`` to ``out`` (default ``<dataset>/report.html``) from its current analysis;
    returns the path. Raises :class:`~unosim.store.layout.DatasetError` when ``<dataset>/analysis`` is
    missing, stale or edited (``unosim analyze`` writes it)."""
    directory = ds.path / TABLE_DIR
    tables = current_tables(ds, directory)
    found = read_findings(directory) if tables is not None else None
    if found is None:
        raise DatasetError(f"{directory} holds no current analysis of {ds.path} (missing, computed from other "
                           f"data, or edited): run `unosim analyze {ds.path}` first")
    charts = study_charts(tables)
    chart_dir = ds.path / TABLE_DIR / CHART_DIR
    svgs = read_chart_files(charts, chart_dir) or write_charts(charts, chart_dir)
    phones = phone_svgs(charts, chart_dir)
    out = Path(out) if out else ds.path / REPORT_NAME
    figures = {c.name: (c, FigureImage(c.caption, c.alt, base64.b64encode(svgs[c.name]).decode("ascii"),
                                       relative_link(chart_dir / f"{c.name}.svg", out),
                                       base64.b64encode(phones[c.name]).decode("ascii")))
               for c in charts}
    env = jinja2.Environment(loader=jinja2.PackageLoader("unosim.reporting", "templates"),
                             autoescape=jinja2.select_autoescape(["html", "j2"]), undefined=jinja2.StrictUndefined)
    study = ds.manifest["study"]
    answer = _answer(tables, found, ds.manifest["study"]["variants"])
    context = Context(ds, tables, figures, found, out)
    built = [(entry, entry.build(context, Section(entry.id, entry.title))) for entry in SECTIONS if entry.when(context)]
    html = env.get_template("report.html.j2").render(
        study=study, manifest=ds.manifest, answer=answer, findings=found, grouped=_by_rule(found, answer),
        quiet=("no_effect", "identical", "negligible", "note", "inconclusive"),
        families=_families(tables), minimums=_minimums(), glossary=_glossary_link(out),
        total_games=f"{sum(c['games'] for c in study['cells']):,}", n_cells=len(study["cells"]),
        leading=[s for e, s in built if e.lead], sections=[s for e, s in built if not e.lead],
        appendix=_appendix(ds, tables))
    write_text_atomic(out, html)
    return out


@dataclass
class Answer:
    """What the report opens with: one verdict sentence per comparison (the rule-level verdict claims),
    the scorecard picture, the profile they judge by."""

    verdicts: list = field(default_factory=list)      # (comparison, claim)
    scorecard: str = ""
    legend: str = ""
    profile: str = ""
    unexercised: list = field(default_factory=list)   # a rule no lineup met, and the players who would

    @property
    def subjects(self) -> list[str]:
        return [c.subject for _, c in self.verdicts]


def _subject(b: str, a: str) -> str:
    return f"{b} (vs {a})"   # a comparison's subject in its claims (unosim.analysis.verdicts)


def _answer(tables: dict[str, pl.DataFrame], found: list, variants: dict) -> Answer:
    card, verdict_table = tables.get("scorecard"), tables.get("verdicts")
    if card is None or card.is_empty():
        return Answer()
    verdict_table = verdict_table if verdict_table is not None else pl.DataFrame()
    rule_claims = {c.subject: c for c in found if c.section == "verdict" and not c.scope}
    order = scorecard.comparisons(verdict_table, card)
    verdicts = [(comp, rule_claims[_subject(comp.b, comp.a)]) for comp in order
                if _subject(comp.b, comp.a) in rule_claims]
    described = verdict_table["profile"][0] if not verdict_table.is_empty() else ""
    return Answer(verdicts, scorecard.scorecard_html(card, verdict_table), scorecard.legend(scorecard.scale_end(card)),
                  described, unexercised(card, variants))


#: a player's choice a behaviour rule acts on (pipeline.house_rules.BEHAVIOURS), in plain words
CHOICE_WORDS = {"p_keep_drawn": "keep a playable card they drew", "p_challenge": "challenge a Wild Draw Four",
                "p_bluff": "bluff a Wild Draw Four", "p_draw": "draw although they could play"}


def unexercised(card: pl.DataFrame, variants: dict) -> list[str]:
    """For each rule whose every game was identical to its baseline's: that no lineup of the study met it,
    and, for a rule that acts on a player's choice, the players who would (a lineup that makes it)."""
    from ..pipeline.house_rules import BEHAVIOURS
    notes = []
    for (axis, a, b), rows in card.group_by(["axis", "a", "b"], maintain_order=True):
        if axis != "variant" or not (rows["class"] == "identical").all() or a not in variants or b not in variants:
            continue
        ruled_a, ruled_b = (rules.from_key(variants[v]["key"]).as_dict() for v in (a, b))
        changed = [k for k in ruled_b if ruled_b[k] != ruled_a.get(k)]
        choices = [BEHAVIOURS[k] for k in changed if k in BEHAVIOURS]
        lineups = ", ".join(sorted(set(rows["lineup"].drop_nulls().to_list())))
        text = f"{b}: no lineup of this study ({lineups}) met the rule: every game was identical to {a}'s."
        if choices:
            words = " or ".join(CHOICE_WORDS[c] for c in choices)
            example = ",".join(f"{c}=0.3" for c in choices)
            text += (f" Players who sometimes {words} would: a lineup such as random({example}) (the demo's "
                    "casual players; docs/rules.md §5.1).")
        notes.append(text)
    return notes


def _by_rule(found: list, answer: Answer) -> list[tuple[str, list]]:
    """Every claim grouped by the comparison it is about, in the order of the verdicts (what the profile
    cares about first); within a group the profile's order (:func:`unosim.analysis.verdicts.ranked`): the
    verdicts, the judged effects by size, the rest. Claims about no comparison (skill, cards, seats) last."""
    from ..analysis.verdicts import ranked
    groups: dict[str, list] = {subject: [] for subject in answer.subjects}
    for claim in ranked(found):
        groups.setdefault(claim.subject, []).append(claim)
    return [(subject, claims) for subject, claims in groups.items() if claims]


def _families(tables: dict[str, pl.DataFrame]) -> list[str]:
    """The report's Holm families, one per table that findings speak for, with their sizes: the tests, each
    once (rows of one ``holm_test`` are one: :mod:`unosim.analysis.twin_cells`)."""
    out = []
    for name, (column, family) in FAMILIES.items():
        table = tables.get(name)
        if table is not None and not table.is_empty() and column in table.columns:
            tested = table.filter(pl.col(column).is_not_null() & pl.col(column).cast(pl.Float64).is_not_nan())
            size = tested["holm_test"].drop_nulls().n_unique() if "holm_test" in tested.columns else tested.height
            out.append(f"{family} ({size:,} tests)")
    return out


def _minimums() -> str:
    names = {"length": "length", "lead_changes": "lead changes", "max_hand": "largest hand", "penalty": "penalty",
             "knockouts": "knock-outs", "comebacks": "comebacks", "no_winner": "rounds with no winner",
             "fairness": "seat-spread change",
             "skill_edge": "skill-edge change", "skill": "skill edge", "spread": "seat spread",
             "card": "card mismatch", "head_to_head": "head-to-head share"}
    parts = [f"{names[m]} {x:.0%} relative" if kind == "relative" else f"{names[m]} {x * 100:g} points"
             for m, (kind, x) in MIN_EFFECT.items()]
    return "; ".join(parts)


GLOSSARY = Path(__file__).parents[2] / "docs" / "glossary.md"


def _glossary_link(report: Path) -> str:
    """A link to docs/glossary.md (the short words of the findings), in a source checkout."""
    return relative_link(GLOSSARY, report) if GLOSSARY.is_file() else ""


def _appendix(ds: Dataset, tables: dict[str, pl.DataFrame]) -> dict:
    cells = ds.cells().select("name", "variant", "players", "lineup", "lineup_label", "games", "seed",
                              "rules_key")
    variants = ds.manifest["study"]["variants"]
    effective = {name: rules.from_key(v["key"]).as_dict() for name, v in variants.items()}
    keys = list(next(iter(effective.values()))) if effective else []
    rule_rows = [[as_cell(k)] + [as_cell(_plain(effective[v][k])) for v in effective] for k in keys]
    return {"cells": as_table(cells, "Cells, their seeds and rule keys"),
            "rules": Table("Effective rules of every variant", ["rule", *effective], rule_rows),
            "tables": [as_table(t, name) for name, t in tables.items() if 0 < t.height <= APPENDIX_ROWS],
            "files": sorted(f"{TABLE_DIR}/{name}.csv" for name, t in tables.items() if t.height > APPENDIX_ROWS)}


def _plain(value) -> object:
    return ", ".join(map(str, value)) if isinstance(value, list) else value
