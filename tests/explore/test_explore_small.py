"""Small studies: any games ≥ 1 gives an answer in the explorer and in `unosim analyze`/`report`, and says
what the games were too few for (an interval, card values, a chart) instead of failing."""

from __future__ import annotations

import math

import pytest

from unosim.analysis.inference import paired_difference, unpaired_difference
from unosim.explore.comparison import Comparison, run


@pytest.mark.parametrize("games", [1, 2, 10])
def test_the_explorer_answers_any_number_of_games(games, tmp_path):
    result = run(Comparison(games=games, players=3, what_if={"stacking": "any_draw"}), tmp_path)
    assert result["findings"] and result["charts"]["house_rule_effects"].startswith("<?xml")
    effects = result["tables"]["effects"]
    assert effects and all(row["n"] == games for row in effects)
    notes = " | ".join(result["notes"])
    assert ("turn_survival: too few games for the chart" in notes) == ("turn_survival" not in result["charts"])
    if games == 1:
        assert "compare_wins: 3 of 3 estimates have no interval" in notes
        assert "card_values: too few games" in notes
        assert all(row["ci_low"] is None for row in result["tables"]["compare_wins"])


def test_one_pair_has_an_estimate_but_no_interval():
    one = paired_difference([3.0], [5.0])
    assert one["estimate"] == 2.0 and one["n"] == 1
    assert all(math.isnan(one[k]) for k in ("ci_low", "ci_high", "p_value", "rel_low", "rel_high"))
    assert math.isnan(unpaired_difference([1.0], [2.0, 4.0])["ci_low"])
    with pytest.raises(ValueError, match="at least 1 pair"):
        paired_difference([], [])


def test_analyze_and_report_of_a_one_game_study(tmp_path, capsys, monkeypatch):
    from unosim.cli.main import main
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.toml").write_text(Comparison(games=1, players=3, what_if={"stacking": "any_draw"}).spec())
    assert main(["study", "run", "s.toml", "--out", str(tmp_path / "data"), "--n-jobs", "1", "--quiet"]) == 0
    dataset = str(tmp_path / "data" / "what_if")
    capsys.readouterr()
    assert main(["analyze", dataset]) == 0
    out = capsys.readouterr().out
    assert "note: card_values: too few games" in out and "note: turn_survival: too few games" in out
    assert main(["report", dataset]) == 0
    assert "Too few games to tell the cards" in (tmp_path / "data" / "what_if" / "report.html").read_text()
