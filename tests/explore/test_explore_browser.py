"""The explorer as a person uses it: the server started, the page driven in headless Chromium (Debian's
`chromium`, installed by `.ci/run`; Playwright drives it): a rule toggled, a run with its progress, the
findings, the charts and the export links appear; a bad lineup shows the CLI's message on the page."""

from __future__ import annotations

import pytest
from playwright.sync_api import sync_playwright


@pytest.fixture(scope="module")
def page(explorer, chromium):
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        tab = browser.new_page(viewport={"width": 1280, "height": 900})
        tab.goto(explorer.url)
        tab.wait_for_selector("body[data-ready='1']")
        yield tab
        browser.close()


def test_toggle_a_rule_run_and_see_findings_charts_and_exports(page):
    rows = page.locator("#rules tbody tr")
    assert rows.count() >= 10
    stacking = page.locator("#rules tr[data-rule='stacking'] td.doc")
    assert "draw cards stack" in stacking.inner_text() and "docs/rules.md §4" in stacking.inner_text()
    page.select_option("select[name='what_if:stacking']", "any_draw")
    assert "changed" in page.locator("#rules tr[data-rule='stacking']").get_attribute("class")
    page.fill("#games", "4000")
    page.click("#run")
    page.wait_for_selector("#verdicts li", timeout=300_000)
    assert page.eval_on_selector("#progress", "p => p.value === p.max && p.max === 8000")
    # the answer first: the verdict naming the rule, the scorecard; every finding folded below, by rule
    assert page.locator("#verdicts li").all_inner_texts()[0].startswith("stacking_any_draw vs classic — ")
    assert page.locator("#scorecard table.scorecard tbody tr").count() == 1
    assert not page.is_visible("#findings li")
    page.click("#all-findings > summary")
    findings = page.locator("#findings li").all_text_contents()
    assert any("largest hand" in f and "larger" in f for f in findings), findings
    assert page.locator("#findings summary").all_inner_texts()[0].startswith("stacking_any_draw (vs classic)")
    assert page.locator("#history li").count() == 1
    assert "Paired" in page.inner_text("#pairing")
    page.wait_for_selector("#charts figure[data-chart='house_rule_effects'] svg", timeout=300_000)
    charts = page.eval_on_selector_all("#charts figure", "fs => fs.map(f => f.dataset.chart)")
    assert {"house_rule_effects", "win_rate_by_seat", "turn_survival"} <= set(charts)
    assert page.eval_on_selector("#charts figure svg", "s => s.getBoundingClientRect().height") > 100
    effects = page.inner_text("#effects-table")
    assert "stacking_any_draw vs classic" in effects and "%" in effects and "p_holm" not in effects
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


def test_the_page_separates_house_rules_from_settings_and_adds_what_ifs(page):
    page.evaluate("fillVariant()")   # every rule back at the variant's value
    assert page.locator("#rules tr[data-rule='seven_o']").count() == 1
    assert page.locator("#settings tr[data-rule='max_turns_per_round']").count() == 1
    assert page.locator("#rules tr[data-rule='max_turns_per_round']").count() == 0
    link = page.get_attribute("#rules tr[data-rule='seven_o'] a.section", "href")
    assert page.evaluate(f"fetch('{link}').then(r => r.status)") == 200
    page.check("input[name='what_if:seven_o']")
    page.click("#add-what-if")
    assert page.is_checked("input[name='what_if:seven_o']"), "adding a column keeps what was set"
    page.select_option("select[name='what_if2:stacking']", "any_draw")
    sent = page.evaluate("request()")
    assert sent["what_if"] == [{"seven_o": True}, {"stacking": "any_draw"}]
    page.click("#remove-what-if")
    assert page.evaluate("request()")["what_if"] == {"seven_o": True}
    page.uncheck("input[name='what_if:seven_o']")


def test_a_no_op_comparison_is_refused_on_the_page(page):
    page.evaluate("fillVariant()")
    page.click("#run")
    page.wait_for_selector("#error:not([hidden])")
    assert "changes nothing" in page.inner_text("#error")


def test_on_a_phone_the_page_never_scrolls_sideways_and_chart_text_is_readable(page):
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        page.click("#add-what-if")
        page.click("#history li a")   # the first test's answer, shown again: its charts in the phone layout
        page.wait_for_selector("#charts figure svg")
        widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert widths[0] <= widths[1] == 390, widths
        smallest = page.evaluate("""[...document.querySelectorAll('#charts figure > svg')].map(svg => {
            const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
            return Math.min(...[...svg.querySelectorAll('text')].map(t => parseFloat(getComputedStyle(t).fontSize) * scale));
        })""")
        assert len(smallest) >= 3 and min(smallest) >= 10, smallest   # chart text at 10 px or more, measured
        page.click("#remove-what-if")
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})


def test_while_the_engine_compiles_the_page_shows_the_compile_notice(page, explorer):
    """The worker's compile notice (its message, as a cold build sends it: a real compile takes minutes)
    replaces "running: 0 of N games" on the page, and goes when the compile ends."""
    page.evaluate("fillVariant()")
    page.check("input[name='what_if:seven_o']")
    page.fill("#games", "20000")
    page.click("#run")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('running')", timeout=120_000)
    words = "compiling the classic engine (7-0), random/greedy policies (first use of this build …): 12 s so far"
    explorer._runs._results.put(("compiling", words, None))
    page.wait_for_function(f"document.querySelector('#status').textContent.startsWith({words!r})", timeout=30_000)
    explorer._runs._results.put(("compiling", None, None))
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('running')", timeout=30_000)
    page.click("#cancel")
    page.wait_for_function("document.querySelector('#status').textContent === 'cancelled'", timeout=30_000)
    page.uncheck("input[name='what_if:seven_o']")


def test_while_another_process_compiles_the_build_the_page_says_it_waits(page, explorer, monkeypatch):
    """The wait for another process's compile of the build (the notice as the worker forwards it: here
    from this process, a real cold build compiles for minutes) replaces "running: 0 of N games" on the page,
    and goes when the wait ends."""
    import io

    from unosim.engine.compiler import notice
    from unosim.explore.jobs import _forward_compiles
    monkeypatch.setattr(notice, "_watchers", [])
    monkeypatch.setattr(notice, "TICK_S", 0.1)
    page.evaluate("fillVariant()")
    page.check("input[name='what_if:seven_o']")
    page.fill("#games", "20000")
    page.click("#run")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('running')", timeout=120_000)
    _forward_compiles(explorer._runs._results)
    with notice.WaitNotice("classic engine (7-0), random/greedy policies", 90, io.StringIO()):
        page.wait_for_function("document.querySelector('#status').textContent.startsWith('waiting for another "
                               "process that is compiling the classic engine (7-0)')", timeout=30_000)
        text = page.text_content("#status")
    assert "s so far; the games start after it" in text, text
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('running')", timeout=30_000)
    page.click("#cancel")
    page.wait_for_function("document.querySelector('#status').textContent === 'cancelled'", timeout=30_000)
    page.uncheck("input[name='what_if:seven_o']")


def _add_a_draw_three_and_run(page) -> str:
    """Compose a Draw Three in the deck editor as a person does (a contradictory try first, whose line shows
    beside the control), run a small what-if with it and return what the answer says of the card."""
    page.evaluate("fillVariant(); document.getElementById('deck-box').open = true")
    while page.locator("#card-effects li button").count():   # what an earlier test left composed
        page.click("#card-effects li button")
    page.fill("#card-name", "draw_three")
    page.select_option("#card-class", "coloured")
    page.fill("#card-count", "2")
    page.select_option("#card-effect", "draw")
    assert "the next seat draws N cards" in page.inner_text("#card-effect-doc")   # the declared table's words
    page.fill("#card-n", "3")
    page.click("#card-add-effect")
    page.select_option("#card-effect", "skip")
    page.click("#card-add-effect")
    assert page.locator("#card-effects li code").all_inner_texts() == ["draw:3", "skip:1"]
    page.click("#card-add")
    page.wait_for_selector("#card-error:not([hidden])")
    assert "'draw:N' must be the last effect" in page.inner_text("#card-error")
    page.click("#card-effects li:nth-child(2) button")
    page.click("#card-add")
    page.wait_for_selector("#declared-cards tr[data-card='draw_three']")
    assert page.is_hidden("#card-error")
    assert "draw_three (2 per colour)" in page.inner_text("#declared-cards")
    assert page.evaluate("request()")["what_if"] == {"cards": {"draw_three": {
        "coloured": True, "effects": ["draw:3"], "points": 20, "count": 2}}}
    runs = page.locator("#history li").count()
    page.fill("#games", "300")
    page.click("#run")
    page.wait_for_function(f"document.querySelectorAll('#history li').length === {runs + 1}", timeout=300_000)
    assert page.locator("#verdicts li").all_inner_texts()[0].startswith("with_draw_three vs classic — ")
    widths = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1], widths
    return page.inner_text("#answer-cards")


@pytest.mark.parametrize("width", [1280, 390])
def test_add_a_draw_three_in_the_deck_editor_run_and_the_answer_names_it(page, width):
    page.set_viewport_size({"width": width, "height": 900})
    try:
        assert _add_a_draw_three_and_run(page) == "with_draw_three: with draw_three (2 per colour)"
    finally:
        page.evaluate("for (const b of document.querySelectorAll('#declared-cards button')) b.click()")
        page.set_viewport_size({"width": 1280, "height": 900})
    assert "cards" not in page.evaluate("request()")["what_if"]
