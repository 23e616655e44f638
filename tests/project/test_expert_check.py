"""analyses/expert_check.py: the expert against each opponent, stored pair by pair, rebuilt into a results page."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from unosim.game import seating

ROOT = Path(__file__).resolve().parents[2]


def load_script():
    spec = importlib.util.spec_from_file_location("expert_check", ROOT / "analyses" / "expert_check.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_pairs_are_stored_resumed_and_rendered_with_their_setting(tmp_path, capsys):
    script = load_script()
    pairs, out = tmp_path / "pairs", tmp_path / "expert.json"
    args = ["--variant", "classic:n_blank=0", "--players", "3", "--deals", "12", "--opponents", "random,greedy_points",
            "--pairs", str(pairs), "--out", str(out), "--n-jobs", "1"]
    assert script.main(args) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2
    stored = {p.name: json.loads(p.read_text()) for p in pairs.glob("*.json")}
    assert sorted(stored) == ["classic_n_blank0__p3__greedy_points__12.json", "classic_n_blank0__p3__random__12.json"]
    for pair in stored.values():
        assert pair["deals"] == 12 and pair["players"] == 3 and pair["commit"] and pair["machine"]
        # a field of two copies: the share is the smallest against either copy, over every arrangement
        assert pair["comparisons"] == 12 * len(seating.arrangements(3, 3, "rotations")) and pair["ci_low"] <= pair["estimate"] <= pair["ci_high"]
    # a second run with the same pairs plays nothing and prints nothing
    assert script.main(args) == 0 and capsys.readouterr().out == ""
    page = json.loads(out.read_text())
    (table,) = page["tables"]
    assert table["caption"] == "classic:n_blank=0, 3 players"
    assert "108-card deck" in table["setting"] and "n_blank=0" in table["setting"] and "2 copies" in table["setting"]
    lows = [float(row[3].strip("[]").split(",")[0]) for row in table["rows"]]
    assert lows == sorted(lows)   # the closest opponent first
    for row, pair in zip(table["rows"], sorted(stored.values(), key=lambda p: p["ci_low"]), strict=True):
        assert row[0] == pair["opponent"] and row[4] == ("yes" if pair["ci_low"] > 0.5 else
                                                         "no (it loses)" if pair["ci_high"] < 0.5 else "not shown")


def test_the_shipped_results_page_is_rebuilt_from_the_shipped_pairs():
    script = load_script()
    shipped = json.loads(script.RESULTS.read_text())
    assert shipped["tables"] == script.results_page(script.PAIRS)["tables"]


def test_the_verdict_says_yes_no_or_not_shown_from_the_interval():
    verdict = load_script().verdict
    assert verdict({"ci_low": 0.51, "ci_high": 0.53}) == "yes"
    assert verdict({"ci_low": 0.480, "ci_high": 0.485}) == "no (it loses)"
    assert verdict({"ci_low": 0.49, "ci_high": 0.51}) == "not shown"


def test_a_table_played_on_two_hosts_names_both_its_dates_and_its_commits():
    from unosim.game.version import measured_over as measured  # the stamp both result scripts use
    pairs = [{"date": "2026-12-01 23:37 UTC", "commit": "7f524011633aa7", "machine": "Intel Xeon, 2 cores"},
             {"date": "2026-11-28 06:37 UTC", "commit": "6a0024893d0b1c", "machine": "AMD EPYC, 2 cores"},
             {"date": "2026-12-01 22:04 UTC", "commit": "1acd974821ffff", "machine": "Intel Xeon, 2 cores"}]
    assert measured(pairs) == {"date": "2026-11-28 06:37 UTC to 2026-12-01 23:37 UTC",
                               "commit": "6a0024893d to 7f52401163",
                               "machine": "AMD EPYC, 2 cores and Intel Xeon, 2 cores"}
    assert measured(pairs[:1]) == {"date": "2026-12-01 23:37 UTC", "commit": "7f52401163",
                                   "machine": "Intel Xeon, 2 cores"}


def test_a_figure_measured_since_a_start_is_stamped_from_then_to_now_with_this_checkout():
    import re

    from unosim.game.version import commit, measured_since
    stamp = measured_since("2026-12-07 19:00 UTC")
    assert re.fullmatch(r"2026-12-07 19:00 UTC to \d{4}-\d\d-\d\d \d\d:\d\d UTC", stamp["date"]), stamp
    assert stamp["commit"] == (commit() or "unknown")[:10] and "cores" in stamp["machine"]
