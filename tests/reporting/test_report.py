"""Charts and the report: one self-contained HTML file, a short study with findings first."""

from __future__ import annotations

import base64
import html as html_text
import re
import shutil
from pathlib import Path

import numpy
import polars as pl
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from study_specs import analyzed

from unosim import analysis
from unosim.cli import main
from unosim.reporting import plots
from unosim.reporting.charts import study_charts
from unosim.reporting.report import write_report
from unosim.store.layout import DatasetError
from unosim.store.reader import open_dataset

PNG = b"\x89PNG\r\n\x1a\n"
SECTIONS = ("findings", "effects", "length", "tension", "fairness", "skill", "cards", "appendix")


def test_report_is_one_self_contained_html_file(small_dataset, tmp_path):  # noqa: F811
    path = write_report(analyzed(small_dataset), tmp_path / "report.html")
    html = path.read_text()
    images = re.findall(r'<img alt="([^"]+)" src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', html)
    assert len(images) >= 5
    assert all(alt and base64.b64decode(svg).lstrip().startswith((b"<?xml", b"<svg")) for alt, svg in images)
    assert html.count("<figcaption>") == len(images)
    assert not re.search(r'src="(https?:|/|\.\.?/)', html), "the report must not load anything"
    links = re.findall(r'<a class="full" href="([^"#][^"]*)"', html)  # each chart's SVG file, beside it
    assert len(links) == len(images) and all(h.endswith(".svg") and (path.parent / h).is_file() for h in links)
    others = set(re.findall(r'href="([^"#][^"]*)"', html)) - set(links)   # the ladder's figure, the glossary
    assert all(h.endswith(("skill_ladder_p2.png", "glossary.md")) and (path.parent / h).is_file() for h in others), others
    ids = re.findall(r'<section id="([a-z]+)"', html)
    assert ids[0] == "findings" and set(SECTIONS) <= set(ids)
    nav = re.search(r"<nav.*?</nav>", html, re.S).group(0)
    assert set(re.findall(r'href="#([a-z]+)"', nav)) == set(ids)
    for text in ("classic-p3-greedy_first", "engine version", "Effective rules of every variant", "<details>"):
        assert text in html
    assert (small_dataset / "analysis" / "effects.csv").exists()


def test_report_of_identical_games_says_so(house_rule_dataset, tmp_path):  # noqa: F811
    html = write_report(analyzed(house_rule_dataset), tmp_path / "r.html").read_text()
    findings = html[html.index('<section id="findings">'):html.index("</section>")]
    assert re.search(r"force_play_drawn \(vs classic\) <span class=\"count\">\(\d+\)</span></summary>\n<ul>.*?"
                     r"with all-random players at 4p: changed none of "
                     r"the 1,500 games \(every round identical to the baseline\): if it acts at all under these "
                     r"policies, it changes at most 0.2% of games", findings, re.S)
    assert "no effect" not in findings
    assert re.search(r"draw_until_playable \(vs classic\) <span.*?with all-random players at 4p: rounds "
                     r"\d+% longer \[\+\d+%, \+\d+%\], raw 95%", findings, re.S)
    assert findings.index("draw_until_playable") < findings.index("force_play_drawn")


def test_report_of_a_match_study_shows_match_statistics(match_dataset, tmp_path):  # noqa: F811
    html = write_report(analyzed(match_dataset), tmp_path / "m.html").read_text()
    assert 'id="matches"' in html and "Match win rate against round win rate" in html


def test_analyze_writes_every_chart_as_png_and_svg(house_rule_dataset, tmp_path, capsys):  # noqa: F811
    out = tmp_path / "analysis"
    assert main(["analyze", str(house_rule_dataset), "--out", str(out)]) == 0
    charts = study_charts(analysis.read_tables(out))
    assert {"house_rule_effects", "length_differences", "turn_survival"} <= {c.name for c in charts}
    for chart in charts:
        assert (out / "charts" / f"{chart.name}.png").read_bytes().startswith(PNG)
        assert b"<svg" in (out / "charts" / f"{chart.name}.svg").read_bytes()[:2000]
    assert not list((out / "charts").glob(".*tmp")), "writes are atomic"


@pytest.mark.slow
def test_no_chart_of_the_demo_cuts_a_label_at_its_edge(demo_dataset):  # noqa: F811
    """The demo's charts as `unosim analyze` writes them: no dark pixel on the outermost pixels of a PNG (a
    tick label or axis label cut by the figure's border). The demo has the longest row labels
    (``draw_until_playable · 4p · greedy_first``) and the longest axis labels of the shipped studies."""
    charts = sorted((analyzed(demo_dataset).path / "analysis" / "charts").glob("*.png"))
    assert len(charts) >= 6
    cut = {png.name: edges for png in charts if (edges := _ink_at_edges(png))}
    assert not cut, cut


def _ink_at_edges(png: Path, margin: int = 2) -> dict[str, int]:
    """The edges of an image with dark pixels within ``margin`` px of them (a label cut by the figure's
    border), and how many."""
    from PIL import Image
    pixels = numpy.asarray(Image.open(png).convert("L")) < 160
    strips = {"left": pixels[:, :margin], "right": pixels[:, -margin:], "top": pixels[:margin], "bottom": pixels[-margin:]}
    return {edge: int(strip.sum()) for edge, strip in strips.items() if strip.any()}


@pytest.fixture(scope="module")
def tables(small_dataset):  # noqa: F811
    return analysis.standard_tables(open_dataset(small_dataset))


@pytest.mark.parametrize("draw", [
    lambda t: plots.win_rate_by_position(t["win_rates"].filter(pl.col("lineup") == "random")),
    lambda t: plots.win_rate_by_position(t["win_rates_dealer"], "rel_dealer"),
    lambda t: plots.length_curves(t["length_distributions"], "n_draws", "pmf"),
    lambda t: plots.survival_curves(t["survival"]),
    lambda t: plots.card_balance_chart(t["card_balance"].filter(pl.col("players") == 3, pl.col("lineup") == "random")),
    lambda t: plots.effect_forest(t["effects"]),
    lambda t: plots.length_differences(t["effects"]),
    lambda t: plots.skill_chart(t["skill"]),
    lambda t: plots.paired_deltas(t["compare_wins"]),
], ids=["seat", "dealer", "pmf", "kaplan_meier", "cards", "forest", "lengths", "skill", "paired"])
def test_plots_draw_analysis_tables(tables, draw):
    fig = draw(tables)
    assert isinstance(fig, Figure) and fig.axes
    assert plots.to_png(fig).startswith(PNG)
    assert b"<svg" in plots.to_svg(fig)[:2000]


@pytest.mark.parametrize("counts", [1, 2])
def test_a_survival_chart_of_many_lines_keeps_its_panels_and_legend_in_view(tables, counts):
    """A house-rule study's survival chart has 15 variants × 3 lineups at 3 and 4 players: drawn inside the
    panel, their legend squeezed the panel to nothing (matplotlib warned that the layout collapsed); drawn
    beside each panel, two legends squeezed both panels to slivers. The lines are named once, beside the
    panels; every panel keeps a readable size, and the legend lies inside the figure."""
    import warnings
    players = sorted(tables["survival"]["players"].unique())[:counts]
    cells = [tables["survival"].filter((pl.col("players") == n) & (pl.col("variant") == "classic")
                                       & (pl.col("lineup") == "random")) for n in players]
    many = pl.concat([cell.with_columns(variant=pl.lit(f"rule_{i:02d}"), lineup=pl.lit(lineup))
                      for cell in cells for i in range(15) for lineup in ("random", "bluffer", "casual")])
    fig = plots.survival_curves(many)
    FigureCanvasAgg(fig)
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # "constrained_layout not applied because axes sizes collapsed"
        fig.draw(fig.canvas.get_renderer())
    renderer = fig.canvas.get_renderer()
    figure_box = fig.bbox
    (legend,) = fig.legends
    assert len(fig.axes) == counts and not any(ax.get_legend() for ax in fig.axes)
    assert len(legend.get_texts()) == 45
    box = legend.get_window_extent(renderer)
    for ax in fig.axes:
        panel = ax.get_window_extent(renderer)
        assert panel.width > 2 * fig.dpi and panel.height > 2 * fig.dpi, (panel.width / fig.dpi, panel.height / fig.dpi)
        assert box.x0 >= panel.x1
    assert figure_box.x0 <= box.x0 and box.x1 <= figure_box.x1 + 1 and box.y0 >= figure_box.y0 - 1


def test_a_player_count_has_one_colour_in_every_panel_and_one_legend(tables):
    """The win rate by position: variants with other player counts (no_blank: 3 players only; classic: 2
    and 3) draw each count in the same colour in every panel, named once in the figure's legend."""
    rows = tables["win_rates_dealer"].filter(pl.col("lineup") == "random")
    fig = plots.win_rate_by_position(rows, "rel_dealer")
    seen: dict[str, set] = {}
    for ax in fig.axes:
        for series in ax.containers:   # an errorbar per player count
            seen.setdefault(series.get_label(), set()).add(series.lines[0].get_color())
    assert {"2 players", "3 players"} <= set(seen) and all(len(colours) == 1 for colours in seen.values()), seen
    assert len({next(iter(c)) for c in seen.values()}) == len(seen), "two counts share a colour"
    assert len(fig.legends) == 1 and not any(ax.get_legend() for ax in fig.axes)
    assert [t.get_text() for t in fig.legends[0].get_texts()] == sorted(seen)


def test_match_against_round_wins_has_one_colour_per_player_count():
    rows = [{"variant": v, "players": n, "seat": 0, **{f"{kind}_{stat}": 0.5 for kind in ("round", "match")
                                                      for stat in ("estimate", "ci_low", "ci_high")}}
            for v, n in (("classic", 2), ("classic", 3), ("minions", 3))]
    fig = plots.match_vs_round(pl.DataFrame(rows))
    seen: dict[str, set] = {}
    for ax in fig.axes:
        for series in ax.containers:
            seen.setdefault(series.get_label(), set()).add(series.lines[0].get_color())
    assert set(seen) == {"2 players", "3 players"} and all(len(c) == 1 for c in seen.values()), seen


def test_a_length_curve_has_one_colour_in_every_panel(tables):
    """length_curves: a panel per player count, where the 3-player panel has variants the 2-player one has
    not (classic, left out at 2 players here, comes first): each variant · lineup keeps its colour."""
    rows = tables["length_distributions"].filter(~((pl.col("players") == 2) & (pl.col("variant") == "classic")))
    fig = plots.length_curves(rows, "n_turns", "pmf")
    seen: dict[str, set] = {}
    for ax in fig.axes:
        for line in ax.get_lines():
            seen.setdefault(line.get_label(), set()).add(line.get_color())
    assert len(seen) >= 5 and all(len(colours) == 1 for colours in seen.values()), seen


def test_card_chart_labels_do_not_overlap(tables):
    """Each card is labelled on its own row of the axis: the label boxes are disjoint."""
    fig = plots.card_balance_chart(tables["card_balance"].filter(pl.col("players") == 3, pl.col("lineup") == "random"))
    FigureCanvasAgg(fig)
    renderer = fig.canvas.get_renderer()
    fig.draw(renderer)
    for ax in fig.axes:
        boxes = [t.get_window_extent(renderer) for t in ax.get_yticklabels() if t.get_text()]
        assert len(boxes) >= 5
        boxes.sort(key=lambda b: b.y0)
        assert all(lower.y1 <= upper.y0 + 0.5 for lower, upper in zip(boxes, boxes[1:], strict=False))


def test_tables_of_another_format_are_refused_by_the_report_and_recomputed_by_unosim_report(
        house_rule_dataset, tmp_path):  # noqa: F811
    """Tables left by an older unosim (other FORMAT) are not trusted: the report, which only renders, refuses
    them naming `unosim analyze`; `unosim report` recomputes them first."""
    analyzed(house_rule_dataset)
    dataset = shutil.copytree(house_rule_dataset, tmp_path / "known_effects")   # the shared one stays intact
    directory = dataset / "analysis"
    write_report(analyzed(dataset), tmp_path / "a.html")
    (directory / "FORMAT").write_text("1\n")
    (directory / "fairness.csv").write_text("variant,players\nx,1\n")  # an old table without the χ² column
    with pytest.raises(DatasetError, match=f"run `unosim analyze {dataset}` first"):
        write_report(open_dataset(dataset), tmp_path / "b.html")
    assert main(["report", str(dataset), "--out", str(tmp_path / "b.html")]) == 0
    html = (tmp_path / "b.html").read_text()
    assert "range_p" in html and (directory / "FORMAT").read_text().strip() != "1"


def test_the_report_computes_no_statistics(small_dataset, tmp_path, monkeypatch):  # noqa: F811
    """Rendering reads the analysis: with every computing entry point of the analyses broken, the report
    of an analysed dataset is still written, and the same as before."""
    from unosim.analysis import findings, standard, tournament
    ds = analyzed(small_dataset)
    before = write_report(ds, tmp_path / "before.html").read_text()

    def computing(*args, **kwargs):
        raise AssertionError("the report computed statistics")
    for module, name in ((standard, "standard_tables"), (standard, "checked_claims"), (findings, "claims"),
                         (tournament, "load_tournament")):
        monkeypatch.setattr(module, name, computing)
    assert write_report(ds, tmp_path / "after.html").read_text() == before


def test_the_forest_plot_draws_a_supported_effect_from_a_zero_baseline():
    """Knock-outs 0 → 0.2 have no relative change: they are drawn in an absolute panel, not dropped."""
    from unosim.analysis.effects import finish_effects
    row = {"axis": "variant", "a": "classic", "b": "knockout_rule", "variant": "classic", "players": 4,
           "lineup": "random", "paired": True, "identical": False, "measure": "knockouts", "mean_a": 0.0,
           "mean_b": 0.2, "estimate": 0.2, "ci_low": 0.15, "ci_high": 0.25, "p_value": 1e-9,
           "rel_change": float("nan"), "rel_low": float("nan"), "rel_high": float("nan"), "n": 500,
           "test": "paired t"}
    fig = plots.effect_forest(finish_effects([row, {**row, "measure": "length", "mean_a": 40.0, "mean_b": 44.0,
                                                    "estimate": 4.0, "ci_low": 3.0, "ci_high": 5.0,
                                                    "rel_change": 0.1, "rel_low": 0.075, "rel_high": 0.125}]))
    panel = next(ax for ax in fig.axes if ax.get_visible() and ax.get_title() == "knock-outs, absolute change")
    drawn = [x for line in panel.get_lines() for x in line.get_xdata()]
    assert any(abs(x - 0.2) < 1e-12 for x in drawn)


@pytest.fixture(scope="module")
def drawn_in_one(tables, tmp_path_factory):
    """The study's charts drawn in this process, one after the other: the folder and what write_charts
    returned (the bytes the charts drawn in workers, or early, must equal)."""
    from unosim.reporting import charts
    folder = tmp_path_factory.mktemp("charts") / "serial"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(charts, "PARALLEL_FROM", 10**6)
        return folder, charts.write_charts(study_charts(tables), folder)


def test_charts_drawn_in_worker_processes_are_the_bytes_drawn_in_one(tables, drawn_in_one, tmp_path, monkeypatch):
    from unosim.reporting import charts
    chosen = study_charts(tables)
    assert len(chosen) >= 2
    monkeypatch.setattr(charts, "PARALLEL_FROM", 2)
    parallel = charts.write_charts(chosen, tmp_path / "parallel")
    serial_folder, serial = drawn_in_one
    assert parallel == serial
    for chart in chosen:
        png = f"{chart.name}.png"
        assert (tmp_path / "parallel" / png).read_bytes() == (serial_folder / png).read_bytes(), png


def test_charts_started_before_the_comparisons_are_the_bytes_drawn_at_the_end(small_dataset, drawn_in_one,  # noqa: F811
                                                                             tmp_path, monkeypatch):
    """`unosim analyze` starts drawing the charts of the cells' tables while it compares the cells
    (ChartDrawing.start, with the tables standard_tables gives `ready`): the files are those of charts
    drawn all at once from the final tables (the module's `tables`, computed apart: the same tables), and
    the charts of the comparisons are drawn at the end."""
    from unosim.analysis.standard import standard_tables
    from unosim.reporting import charts
    early: list[dict] = []
    final = standard_tables(open_dataset(small_dataset), ready=early.append)
    (known,) = early
    assert "effects" not in known and {"win_rates", "survival", "card_balance", "skill"} <= set(known)
    assert all(known[name].equals(final[name]) for name in known), "a table given to ready changed later"
    monkeypatch.setattr(charts, "PARALLEL_FROM", 2)
    with charts.ChartDrawing(tmp_path / "early") as drawing:
        drawing.start(known)
        started = set(drawing._drawing)
        svgs = drawing.finish(study_charts(final))
    assert started and started < set(svgs), "some charts start early, the comparisons' at the end"
    assert "house_rule_effects" not in started and "house_rule_effects" in svgs
    serial_folder, serial = drawn_in_one
    assert serial == svgs
    for name in svgs:
        for kind in ("png", "svg"):
            assert (tmp_path / "early" / f"{name}.{kind}").read_bytes() == (serial_folder / f"{name}.{kind}").read_bytes()
    # the chart workers are joblib's: its Parallel still runs in this process (a plain loky executor broke it)
    from joblib import Parallel, delayed
    assert Parallel(n_jobs=2)(delayed(abs)(-k) for k in range(3)) == [0, 1, 2]


SKILL_SPEC = {
    "study": {"name": "skill_small", "seed": 5, "games": 300, "mode": "single_round", "common_random_numbers": True},
    "variants": {"stacking_any_draw": {"base": "classic", "rules": {"stacking": "any_draw"}},
                 "draw_until_playable": {"base": "classic", "rules": {"draw_until_playable": True}}},
    "lineups": {"expert": "lookahead(rollouts=4),random*"},
    # as `study new house-rules` writes it: the expert's cells play fewer games than their all-random twins
    "grid": [{"variants": ["classic", "stacking_any_draw", "draw_until_playable"], "players": [2],
              "lineups": ["random"]},
             {"variants": ["classic", "stacking_any_draw", "draw_until_playable"], "players": [2],
              "lineups": ["expert"], "games": 200}],
    "comparisons": [{"axis": "variant", "a": "classic", "b": "stacking_any_draw"},
                    {"axis": "variant", "a": "classic", "b": "draw_until_playable"}],
}


def test_the_skill_section_leads_with_how_much_is_skill_and_ranks_the_rules(tmp_path):
    """A small house-rule study with the expert and its all-random twin: the Skill section opens with the
    expert's edge and the rounds it needs, then every rule's change of that edge, ranked, with the table
    of the changes sorted the same way (as a reader sees the page: tags stripped)."""
    from unosim.pipeline.runner import run_study
    from unosim.pipeline.study import parse_study
    path = run_study(parse_study(SKILL_SPEC), tmp_path, n_jobs=1, progress=False).path
    html = write_report(analyzed(path), tmp_path / "s.html").read_text()
    section = html[html.index('<section id="skill">'):]
    section = section[:section.index("</section>")]
    assert section.index("How much is skill") < section.index("How the house rules change it") \
        < section.index('<p class="note">')
    text = html_text.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", section)))
    assert re.search(r"lookahead\(rollouts=4\) in one seat \(lineup expert\) of classic at 2p wins \d+(\.\d+)?% of the rounds with "
                     r"a winner against a fair share of 50\.0%: \+\d+(\.\d+)? percentage points \[\+?−?[\d.]+, "
                     r"\+[\d.]+\] \(raw 95%\) from its fair share; (it needs [\d,]+ rounds \[[\d,]+, ([\d,]+|no bound)\] "
                     r"for a 95% chance of having won more than its fair share of them \(and keeps it with more rounds\)|"
                     r"the rounds it needs for a 95% chance of having won more than its fair share of them cannot be "
                     r"named, as the interval of its share reaches its fair share: at least [\d,]+ rounds, with no "
                     r"upper bound)\.", text), text[:600]
    changes = pl.read_csv(path / "analysis" / "skill_changes.csv")
    assert changes.height == 2 and set(changes["b"]) == {"stacking_any_draw", "draw_until_playable"}
    assert changes["n"].to_list() == [200, 200]   # paired on the games all four cells played
    lead = text[text.index("How the house rules change it"):text.index("Skill is how much more often")]
    for b in changes["b"]:
        assert lead.count(f"{b} (vs classic): with lookahead(rollouts=4) in one seat (lineup expert) at 2p") == 1
    ranked_table = re.search(r"The house rules ranked by how they change.*?</table>", section, re.S).group(0)
    rows = re.findall(r"<tr><td class=\"text\">(\w+)</td>", ranked_table)
    assert rows == changes.sort("estimate", descending=True)["b"].to_list()


@pytest.mark.slow
def test_the_shipped_skill_study_scaled_down_reports_luck_vs_skill_for_every_variant(tmp_path):
    """analyses/studies/skill.toml end to end at 40 games a cell (its full run: the lead's report and the
    spec's header): the report's Luck vs skill table has the expert and the best preset in every variant."""
    import tomllib
    from pathlib import Path

    from unosim.pipeline.runner import run_study
    from unosim.pipeline.study import parse_study
    path = Path(__file__).parents[2] / "analyses" / "studies" / "skill.toml"
    spec = tomllib.loads(path.read_text())
    spec["study"]["games"] = 40
    for grid in spec["grid"]:
        grid.pop("games", None)
    data = run_study(parse_study(spec, source=str(path)), tmp_path, n_jobs=1, progress=False).path
    page = html_text.unescape(write_report(analyzed(data), tmp_path / "skill.html").read_text())
    table = re.search(r"Luck vs skill per variant.*?</table>", page, re.S).group(0)
    rows = re.findall(r"<tr><td class=\"text\">(\w+)</td><td>2</td><td class=\"text\">([\w()=,]+)</td>", table)
    variants = {"classic", "classic_no_blank", "minions", "spin", "no_mercy"}
    assert {(v, p) for v, p in rows} == {(v, p) for v in variants for p in ("lookahead", "colour_counter")}
    skill = page[page.index('<section id="skill">'):]
    assert skill.index("How much is skill") < skill.index("Luck vs skill per variant")


def test_how_much_is_skill_covers_every_variant_but_the_house_rules(tmp_path):
    """A study of two published variants, one of them the baseline of a house rule, each with a skilled lineup
    and its all-random twin (as the demo): "How much is skill" and the Luck vs skill table give the skilled
    seat's edge in both published variants, and leave the house rule to "How the house rules change it"."""
    from unosim.pipeline.runner import run_study
    from unosim.pipeline.study import parse_study
    spec = {"study": {"name": "published", "seed": 2, "games": 300, "mode": "single_round",
                      "common_random_numbers": True},
            "variants": {"seven_o": {"base": "classic", "rules": {"seven_o": True}}},
            "lineups": {"greedy_first": "greedy_points,random*"},
            "grid": [{"variants": ["classic", "minions", "seven_o"], "players": [2],
                      "lineups": ["random", "greedy_first"]}],
            "comparisons": [{"axis": "variant", "a": "classic", "b": "seven_o"}]}
    path = run_study(parse_study(spec), tmp_path, n_jobs=1, progress=False).path
    page = html_text.unescape(write_report(analyzed(path), tmp_path / "p.html").read_text())
    skill = pl.read_csv(path / "analysis" / "skill.csv")
    assert dict(zip(skill["variant"], skill["baseline"], strict=True)) == {"classic": True, "minions": True,
                                                                         "seven_o": False}
    table = re.search(r"Luck vs skill per variant.*?</table>", page, re.S).group(0)
    assert re.findall(r"<tr><td class=\"text\">(\w+)</td>", table) == ["classic", "minions"]
    lead = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page[page.index("How much is skill"):]))
    lead = lead[:lead.index("How the house rules change it")]
    assert [v for v in ("classic", "minions", "seven_o") if f"(lineup greedy_first) of {v} at 2p" in lead] == [
        "classic", "minions"]
