"""Charts and the report: one self-contained HTML file with its figures."""

from __future__ import annotations

import base64
import re

import polars as pl
import pytest
from matplotlib.figure import Figure

from unosim import analysis, plots
from unosim.dataset import open_dataset
from unosim.report import write_report

PNG = b"\x89PNG\r\n\x1a\n"


def test_report_is_one_self_contained_html_file(small_dataset, tmp_path):  # noqa: F811
    path = write_report(open_dataset(small_dataset), tmp_path / "report.html")
    html = path.read_text()
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', html)
    assert len(images) >= 8
    assert all(base64.b64decode(image).startswith(PNG) for image in images)
    assert not re.search(r'(src|href)="(https?:|/|\.\.?/)', html), "the report must not load anything"
    for text in ("Study <code>small</code>", "Win rate by seat", "Card values vs printed points",
                 "Paired comparisons", "classic-p3-greedy_first", "engine version"):
        assert text in html
    assert (small_dataset / "analysis" / "win_rates.csv").exists()


def test_report_of_a_match_study_shows_match_statistics(match_dataset, tmp_path):  # noqa: F811
    html = write_report(open_dataset(match_dataset), tmp_path / "m.html").read_text()
    assert "Match vs round win rate" in html


@pytest.fixture(scope="module")
def tables(small_dataset):  # noqa: F811
    return analysis.standard_tables(open_dataset(small_dataset))


@pytest.mark.parametrize("draw", [
    lambda t: plots.win_rate_by_position(t["win_rates"].filter(pl.col("lineup") == "random")),
    lambda t: plots.win_rate_by_position(t["win_rates_dealer"], "rel_dealer"),
    lambda t: plots.length_curves(t["length_distributions"], "n_draws", "survival"),
    lambda t: plots.length_curves(t["length_distributions"], "n_turns", "pmf"),
    lambda t: plots.card_values_vs_points(t["card_values"].filter(pl.col("players") == 3)),
    lambda t: plots.paired_deltas(t["compare_wins"]),
], ids=["seat", "dealer", "survival", "pmf", "cards", "paired"])
def test_plots_draw_analysis_tables(tables, draw):
    fig = draw(tables)
    assert isinstance(fig, Figure) and fig.axes
    assert plots.to_png(fig).startswith(PNG)
