"""The report opens with the answer: one verdict sentence per compared rule (each a checked claim), the
rule × measure scorecard on the common scale of multiples of the minimum effect, the findings folded."""

from __future__ import annotations

import html as html_text
import re

import polars as pl
import pytest
from study_specs import analyzed

from unosim import analysis
from unosim.analysis.standard import read_findings
from unosim.reporting import scorecard
from unosim.reporting.report import write_report


def _card_row(**over) -> dict:
    row = {"axis": "variant", "a": "classic", "b": "r", "variant": None, "players": 4, "lineup": "random",
           "measure": "length", "plain": "round length", "policy": None, "unit": "%", "effect": 0.0,
           "effect_low": 0.0, "effect_high": 0.0, "minimum": 2.0, "scaled": 0.0, "scaled_low": 0.0,
           "scaled_high": 0.0, "class": "practical", "wish": "shorter", "judgement": "good",
           "games_to_decide": None, "n": 1000, "p_holm": 0.01}
    return {**row, **over}


@pytest.mark.parametrize("scaled, low, high, cls, inside", [
    (0.4, 0.1, 0.8, "negligible", True),      # within the minimum band: drawn inside it
    (-0.9, -0.99, -0.5, "negligible", True),
    (3.0, 1.5, 4.5, "practical", False),      # beyond the minimum: outside the band
    (-40.0, -45.0, -35.0, "practical", False),
])
def test_a_mark_is_inside_the_minimum_band_exactly_when_the_effect_is_below_the_minimum(scaled, low, high, cls, inside):
    card = pl.DataFrame([_card_row(scaled=scaled, scaled_low=low, scaled_high=high, effect=2 * scaled,
                                   **{"class": cls})])
    svg = scorecard._strip(card.to_dicts(), scorecard.scale_end(card), True)
    band = re.search(r'<rect x="([\d.]+)" y="0" width="([\d.]+)"', svg)
    left, right = float(band[1]), float(band[1]) + float(band[2])
    mark = float(re.search(r'<line x1="([\d.]+)" x2="[\d.]+" y1="[\d.]+" y2="[\d.]+" class="mark', svg)[1])
    assert (left <= mark <= right) == inside, (mark, left, right)


def test_one_scale_for_every_measure_orders_effects_by_their_multiple_of_the_minimum():
    """A +3 % length effect (1.5× its 2 % minimum) sits nearer 0 than a +2 point comeback effect (2× its 1-point
    minimum), whatever their raw numbers: the strips share one scale."""
    rows = [_card_row(measure="length", scaled=1.5, scaled_low=1.2, scaled_high=1.8, effect=3.0),
            _card_row(measure="comebacks", unit="points", scaled=2.0, scaled_low=1.5, scaled_high=2.5, effect=2.0),
            _card_row(measure="lead_changes", scaled=30.0, scaled_low=25.0, scaled_high=35.0, effect=60.0)]
    end = scorecard.scale_end(pl.DataFrame(rows))
    assert end == 35.0
    x = [scorecard._x(r["scaled"], end) for r in rows]
    assert 50 < x[0] < x[1] < x[2] <= 100


def test_the_report_opens_with_one_checked_verdict_per_rule_then_the_scorecard(house_rule_dataset, tmp_path):  # noqa: F811
    ds = analyzed(house_rule_dataset)
    html = write_report(ds, tmp_path / "r.html").read_text()
    found = read_findings(ds.path / "analysis")
    rule_verdicts = [c for c in found if c.section == "verdict" and not c.scope]
    assert rule_verdicts
    answer = html[html.index('<section id="findings">'):html.index('<details class="all-findings">')]
    items = re.findall(r'<li class="v-[a-z-]+"><strong>([^<]+)</strong> <span class="vs">vs ([^<]+)</span> — (.*?)</li>',
                       answer)
    assert len(items) == len(rule_verdicts)
    by_subject = {c.subject: c.text for c in rule_verdicts}
    for b, a, text in items:   # each sentence is the checked claim's, word for word
        assert by_subject[f"{b} (vs {a})"] == html_text.unescape(text)
    assert answer.index('class="verdicts"') < answer.index('class="scorecard"')
    card = analysis.read_tables(ds.path / "analysis")["scorecard"]
    rows = re.findall(r'<tr><th scope="row"><span class="rule">([^<]+)</span>', answer)
    assert sorted(rows) == sorted(set(card["b"].to_list()))
    assert answer.count('<svg class="strip"') == card.select("a", "b", "measure").unique().height
    # the long list is folded below the answer, grouped by rule in the verdicts' order
    folded = html[html.index('<details class="all-findings">'):]
    groups = re.findall(r'<details class="group"><summary>([^<]+) <span', folded)
    assert groups[:len(items)] == [f"{b} (vs {a})" for b, a, _ in items]


def test_a_rule_no_lineup_met_says_which_players_would(house_rule_dataset, tmp_path):  # noqa: F811
    """force_play_drawn changes no game of players who always play a playable drawn card: the report says so,
    and names the players who would meet it (those who sometimes keep one)."""
    html = html_text.unescape(write_report(analyzed(house_rule_dataset), tmp_path / "r.html").read_text())
    notes = re.findall(r'<p class="note unexercised">(.*?)</p>', html)
    assert len(notes) == 1, notes
    assert notes[0].startswith("force_play_drawn: no lineup of this study (random) met the rule")
    assert "keep a playable card they drew would: a lineup such as random(p_keep_drawn=0.3)" in notes[0]
