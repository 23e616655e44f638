"""The design report: what the search did, its Pareto chart, and what the fresh games confirm.

``design_report.html`` in the design's directory, self-contained (the chart inline as SVG). It states
first that the designs were selected by a search, how many were tried, and that the confirmation games
are independent of the search (another seed); the sentences about the confirmed designs are the
confirmation study's findings (``findings.json``: each a claim checked against its tables by
:mod:`unosim.analysis.checker`, Holm's adjustment over the confirmed designs). The search's own numbers
appear only in the chart and the trials table, as what the search saw.
"""

from __future__ import annotations

import html
import io
from pathlib import Path

import polars as pl

from ..store.atomic import write_text_atomic
from .objectives import OBJECTIVES
from .spec import DesignSpec

REPORT = "design_report.html"
CHART = "pareto.svg"


def pareto_chart(trials: pl.DataFrame, spec: DesignSpec, confirmed: list[str]) -> bytes:
    """Objective against objective (the first two; one objective: against the trial number): every
    design tried (grey), the feasible Pareto front (blue), the base game (black star), the confirmed
    designs labelled."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    names = list(spec.objectives[:2])
    x_name, y_name = (names[0], names[1]) if len(names) > 1 else ("trial", names[0])
    done = trials.filter(pl.col("state") == "complete")
    fig = Figure(figsize=(7, 4.8))
    ax = fig.add_subplot()
    ax.scatter(done[x_name], done[y_name], s=10, c="#bbbbbb", label=f"designs tried ({len(done):,})")
    front = done.filter(pl.col("pareto")).sort(x_name)
    ax.scatter(front[x_name], front[y_name], s=22, c="#1f6fb4", label="Pareto front (feasible)")
    if x_name != "trial" and not done.is_empty():
        ax.scatter([done[f"base_{x_name}"].mean()], [done[f"base_{y_name}"].mean()], marker="*", s=220,
                   c="black", label=f"base game ({spec.variant})", zorder=5)
    else:
        ax.axhline(done[f"base_{y_name}"].mean(), color="black", linestyle="--", label=f"base game ({spec.variant})")
    for i, name in enumerate(confirmed):
        row = done.filter(pl.col("trial") == int(name.removeprefix("design_")))
        if not row.is_empty():   # labels alternate above and below their point: neighbours on the front overlap less
            ax.annotate(name, (row[x_name][0], row[y_name][0]), xytext=(6, 6 if i % 2 == 0 else -14),
                        textcoords="offset points",
                        fontsize=9, color="#b4461f")
            ax.scatter(row[x_name], row[y_name], s=60, facecolors="none", edgecolors="#b4461f")
    ax.set_xlabel(_axis(x_name))
    ax.set_ylabel(_axis(y_name))
    ax.set_title(f"Design search {spec.name}: numbers on the search's games (optimistic for the best)",
                 fontsize=10)
    ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    out = io.BytesIO()
    fig.savefig(out, format="svg")
    return out.getvalue()


def _axis(name: str) -> str:
    if name == "trial":
        return "design (trial number)"
    return f"{name} ({OBJECTIVES[name].shown_unit})" if len(OBJECTIVES[name].shown_unit) < 40 else name


def write(directory: Path, spec: DesignSpec, trials: pl.DataFrame, confirmed: list[str], *, feasible: bool,
          games: int, findings: list | None, confirm_report: Path | None, closest: pl.DataFrame | None) -> Path:
    """Write ``design_report.html`` (and the chart as ``pareto.svg``) into ``directory``."""
    svg = pareto_chart(trials, spec, confirmed)
    write_text_atomic(directory / CHART, svg.decode("utf-8"))
    tried = int((trials["state"] == "complete").sum()) if not trials.is_empty() else 0
    confirmed_text = (f"the top {len(confirmed)} design(s) were re-played on fresh games from a seed the search "
                      f"never used, independent of the search." if findings is not None else
                      "these designs were <strong>not</strong> re-played on fresh games (no confirmation was run), "
                      "so this report states no finding about them.")
    parts = [f"<h1>Design search: {html.escape(spec.name)}</h1>",
             f"<p><strong>These designs were selected by a search.</strong> The search tried {tried:,} designs "
             f"of {html.escape(spec.variant)} at {spec.players} players ({games:,} games), each against the "
             f"base game on the same game numbers. A design chosen as the best of many looks better on the "
             f"search's games than it is (the winner's curse, docs/rules.md §8.8), so nothing below rests on "
             f"those games: {confirmed_text}</p>",
             "<p>Objectives: " + html.escape("; ".join(g.describe() for g in spec.goals)) + ". Constraints: "
             + html.escape("; ".join(b.describe() for b in spec.bounds) or "none") + ".</p>"]
    if not feasible:
        parts.append("<p><strong>No design the search tried satisfies the constraints.</strong> The closest "
                     "(smallest violation) are listed below; none was confirmed.</p>")
        if closest is not None:
            parts.append(_table(closest))
    parts.append(f'<figure><img alt="Pareto chart of the designs tried" src="data:image/svg+xml;base64,'
                 f'{_b64(svg)}"/><figcaption>Every design tried (grey), the feasible Pareto front (blue), the '
                 f'base game (black), the confirmed designs labelled; numbers on the search\'s games.'
                 f'</figcaption></figure>')
    if findings is not None:
        parts.append("<h2>What the fresh games confirm</h2><p>Each sentence is a checked claim of the "
                     "confirmation study (its findings.json; Holm's adjustment over the confirmed designs' "
                     "effects).</p><ul>")
        parts += [f"<li><strong>{html.escape(c.subject)}</strong> {html.escape(c.text)}</li>" for c in findings]
        parts.append("</ul>")
        if confirm_report is not None:
            parts.append(f'<p>The confirmation study\'s full report: <a href="{html.escape(str(confirm_report))}">'
                         f'{html.escape(confirm_report.name)}</a>.</p>')
    shown = trials.filter(pl.col("trial").is_in([int(n.removeprefix("design_")) for n in confirmed]))
    if not shown.is_empty():
        parts.append("<h2>The confirmed designs (search numbers)</h2>" + _table(_nonempty(shown)))
    page = ("<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Design search "
            f"{html.escape(spec.name)}</title><style>body{{font-family:system-ui,sans-serif;max-width:60rem;"
            "margin:2rem auto;padding:0 1rem;line-height:1.45;overflow-wrap:anywhere}}img{{max-width:100%}}figure{{margin:0}}.scroll{{overflow-x:auto}}"
            "table{{border-collapse:collapse;font-size:.85rem}}td,th{{border:1px solid #ccc;padding:.2rem .4rem}}"
            "</style></head><body>" + "\n".join(parts) + "</body></html>\n")
    path = directory / REPORT
    write_text_atomic(path, page)
    return path


def _b64(data: bytes) -> str:
    import base64
    return base64.b64encode(data).decode("ascii")


def _nonempty(frame: pl.DataFrame) -> pl.DataFrame:
    return frame.select([c for c in frame.columns if frame[c].null_count() < len(frame)])


def _table(frame: pl.DataFrame) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in frame.columns)
    rows = "".join("<tr>" + "".join(f"<td>{html.escape(_fmt(v))}</td>" for v in r) + "</tr>"
                   for r in frame.iter_rows())
    return f"<div class='scroll'><table><tr>{head}</tr>{rows}</table></div>"


def _fmt(value) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    return "" if value is None else str(value)
