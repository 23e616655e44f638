"""The demo report in a real browser (headless Chromium, from Debian's `chromium` package; `.ci/run`
installs it): findings first, every in-page link resolves, every image loads, and at 1280 px the page
never scrolls sideways; on a phone (390 px) every chart has a link that opens its SVG full size and no
table caption is clipped.

Chromium is driven without extra dependencies: the report is copied with a small script appended that
runs at the load event and writes its measurements into the DOM; ``--dump-dom`` (with a virtual-time
budget, so the load event and image decoding have happened) returns that DOM.
"""

from __future__ import annotations

import re
import subprocess

import numpy
import pytest
from browser import PROBE, chromium_dom
from study_specs import analyzed

from unosim.reporting.report import write_report


@pytest.mark.slow
def test_demo_report_in_a_real_browser(demo_dataset, tmp_path, chromium):  # noqa: F811
    report = write_report(analyzed(demo_dataset), tmp_path / "report.html")
    probe = tmp_path / "probe.html"
    probe.write_text(report.read_text().replace("</body>", PROBE + "</body>"))
    dom = chromium_dom(chromium, probe, tmp_path / "profile")
    assert dom["innerWidth"] == 1280
    assert dom["sections"][0] == "findings"
    assert dom["findingsTop"] < 900, "the findings start on the first screen"
    assert dom["findingsItems"] >= 3
    answer = dom["answer"]   # the first screen (1280 × 800) holds the verdicts and the whole scorecard
    assert answer["verdictItems"] == answer["scorecardRows"] == 6, answer
    assert answer["verdicts"]["top"] < answer["scorecard"]["top"] and answer["scorecard"]["bottom"] <= 800, answer
    assert answer["folded"]["height"] <= 800, "the folded list of findings is at most one screen"
    assert answer["smallestText"] >= 10, answer
    assert len(dom["navLinks"]) >= 8 and not dom["unresolved"], dom["unresolved"]
    assert {link[1:] for link in dom["navLinks"]} == set(dom["sections"])
    assert dom["images"] and all(i["complete"] and i["width"] > 0 and i["alt"] for i in dom["images"]), dom["images"]
    assert dom["scrollWidth"] <= dom["clientWidth"], (dom["scrollWidth"], dom["clientWidth"])


@pytest.mark.slow
def test_on_a_phone_every_chart_opens_full_size_and_no_caption_is_clipped(demo_dataset, tmp_path, chromium):  # noqa: F811
    report = write_report(analyzed(demo_dataset), tmp_path / "report.html")
    probe = tmp_path / "probe.html"
    probe.write_text(report.read_text().replace("</body>", PROBE + "</body>"))
    dom = chromium_dom(chromium, probe, tmp_path / "profile", width=390)
    assert dom["innerWidth"] == 390
    assert dom["answer"]["smallestText"] >= 10, dom["answer"]
    # on a phone the charts stack their panels: every chart's text is drawn at 10 px or more (measured)
    assert len(dom["chartText"]) >= 6
    for chart in dom["chartText"]:
        assert chart["texts"] > 0 and chart["width"] <= 390 and chart["smallest"] >= 10, chart
    assert dom["figures"] and all(f["href"] and f["height"] > 0 for f in dom["figures"]), dom["figures"]
    for figure in dom["figures"]:  # the link is on screen and its SVG is there
        assert 0 <= figure["left"] and figure["right"] <= 390, figure
        assert (tmp_path / figure["href"]).is_file() and (tmp_path / figure["href"]).read_bytes().lstrip()[:5] in (
            b"<?xml", b"<svg ")
    assert dom["captions"]
    for caption in dom["captions"]:
        assert caption["left"] >= 0 and caption["right"] <= 390, caption
        assert caption["scrollWidth"] <= caption["clientWidth"], caption
    assert dom["scrollWidth"] <= dom["clientWidth"], (dom["scrollWidth"], dom["clientWidth"])


#: the tallest page of charts one screenshot draws (CSS px; at twice the density)
PAGE = 6000


@pytest.mark.slow
def test_chromium_draws_every_chart_of_the_demo_with_no_label_cut_at_its_edge(demo_dataset, tmp_path, chromium):  # noqa: F811
    """The report shows each chart's SVG, whose text the browser draws in its own fonts: every SVG of the demo
    (the wide layout and the phone's), drawn by Chromium at twice the pixel density, has no dark pixel on its outermost pixels (a tick label or
    an axis label cut by the figure's border; the PNGs: tests/reporting/test_report.py)."""
    from PIL import Image
    charts = sorted((analyzed(demo_dataset).path / "analysis" / "charts").glob("*.svg"))
    assert len(charts) >= 12 and any(svg.name.endswith(".phone.svg") for svg in charts)   # wide and phone
    sizes = {}
    for svg in charts:   # each SVG's size in CSS pixels (1 pt = 4/3 px)
        head = svg.read_text()[:2000]
        sizes[svg] = tuple(round(float(re.search(rf'{side}="([\d.]+)pt"', head).group(1)) * 4 / 3)
                           for side in ("width", "height"))
    # the SVGs one below the other, in pages of at most PAGE px (a taller screenshot is not drawn whole)
    pages, top = [[]], 0
    for svg, (_, height) in sizes.items():
        if pages[-1] and top + height > PAGE:
            pages.append([])
            top = 0
        pages[-1].append(svg)
        top += height + 20
    cut = {}
    for number, svgs in enumerate(pages):
        boxes, top = {}, 0
        for svg in svgs:
            boxes[svg] = (top, *sizes[svg])
            top += sizes[svg][1] + 20
        page = tmp_path / f"charts{number}.html"
        page.write_text('<html><body style="margin:0;background:white">' + "".join(
            f'<img src="{svg.as_uri()}" style="position:absolute;left:0;top:{y}px;width:{w}px;height:{h}px">'
            for svg, (y, w, h) in boxes.items()) + "</body></html>")
        shot = tmp_path / f"charts{number}.png"
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
                        "--allow-file-access-from-files", f"--user-data-dir={tmp_path / 'profile'}",
                        "--force-device-scale-factor=2", f"--window-size={max(w for _, w, _ in boxes.values())},{top}",
                        "--virtual-time-budget=10000", f"--screenshot={shot}", page.as_uri()],
                       capture_output=True, timeout=120, check=True)
        dark = numpy.asarray(Image.open(shot).convert("L")) < 160
        for svg, (y, width, height) in boxes.items():
            chart = dark[2 * y:2 * (y + height), :2 * width]
            assert chart.shape == (2 * height, 2 * width) and chart.any(), (svg.name, chart.shape)  # drawn, whole
            edges = {"left": chart[:, :2], "right": chart[:, -2:], "top": chart[:2], "bottom": chart[-2:]}
            if any(strip.any() for strip in edges.values()):
                cut[svg.name] = {edge: int(strip.sum()) for edge, strip in edges.items() if strip.any()}
    assert not cut, cut
