"""The explorer as a person uses it: the server started, the page driven in headless Chromium (Debian's
`chromium`, installed by `.ci/run`; Playwright drives it): a rule toggled, a run with its progress, the
findings, the charts and the export links appear; a bad lineup shows the CLI's message on the page."""

from __future__ import annotations

import pytest
from playwright.sync_api import sync_playwright

from unosim.explore import start


@pytest.fixture(scope="module")
def page(tmp_path_factory, chromium):
    explorer = start(workdir=tmp_path_factory.mktemp("explore"))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        tab = browser.new_page(viewport={"width": 1280, "height": 900})
        tab.goto(explorer.url)
        tab.wait_for_selector("body[data-ready='1']")
        yield tab
        browser.close()
    explorer.stop()


def test_toggle_a_rule_run_and_see_findings_charts_and_exports(page):
    rows = page.locator("#rules tbody tr")
    assert rows.count() >= 10
    stacking = page.locator("#rules tr[data-rule='stacking'] td.doc")
    assert "draw cards stack" in stacking.inner_text() and "docs/rules.md §4" in stacking.inner_text()
    page.select_option("select[name='what_if:stacking']", "any_draw")
    assert "changed" in page.locator("#rules tr[data-rule='stacking']").get_attribute("class")
    page.fill("#games", "4000")
    page.click("#run")
    page.wait_for_selector("#findings li", timeout=300_000)
    assert page.eval_on_selector("#progress", "p => p.value === p.max && p.max === 8000")
    findings = page.locator("#findings li").all_inner_texts()
    assert any("largest hand" in f and "larger" in f for f in findings), findings
    assert "Paired" in page.inner_text("#pairing")
    page.wait_for_selector("#charts figure[data-chart='house_rule_effects'] svg", timeout=300_000)
    charts = page.eval_on_selector_all("#charts figure", "fs => fs.map(f => f.dataset.chart)")
    assert {"house_rule_effects", "win_rate_by_seat", "turn_survival"} <= set(charts)
    assert page.eval_on_selector("#charts figure svg", "s => s.getBoundingClientRect().height") > 100
    assert "stacking" in page.inner_text("#effects-table") or page.locator("#effects-table tr").count() > 3
    spec = page.get_attribute("#save-spec", "href")
    assert spec.endswith("/spec.toml")
    text = page.evaluate(f"fetch('{spec}').then(r => r.text())")
    assert 'stacking = "any_draw"' in text and "[[comparisons]]" in text
    assert "effects" in page.locator("#csv-links a").all_inner_texts()


def test_a_bad_lineup_shows_the_clis_message(page):
    page.fill("#lineup", "random,nobody")
    page.click("#run")
    page.wait_for_selector("#error:not([hidden])")
    assert "nobody" in page.inner_text("#error") and "valid" in page.inner_text("#error")
    page.fill("#lineup", "random")


def test_the_deck_editor_sends_only_the_changed_counts(page):
    page.click("#deck-box summary")
    page.fill("#deck input[name='deck:draw_two']", "12")
    sent = page.evaluate("request()")
    assert sent["what_if"]["deck"] == {"draw_two": 12} and "deck" not in sent["baseline"]
    page.fill("#deck input[name='deck:draw_two']", "8")
    assert "deck" not in page.evaluate("request()")["what_if"]
