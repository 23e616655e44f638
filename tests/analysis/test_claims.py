"""Claims and their checker: the checker passes on whatever the findings say about adversarial tables
(hypothesis), and it fails on a sentence that contradicts its rows (mutations of honest claims)."""

from __future__ import annotations

import dataclasses
import json
import math
import os

import polars as pl
import pytest
from claim_tables import as_csv, table_sets
from hypothesis import HealthCheck, given, settings

from unosim.analysis.checker import check_claims
from unosim.analysis.claims import Claim, Number
from unosim.analysis.effects import finish_effects
from unosim.analysis.findings import claims

FAST = settings(max_examples=150, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
# many generated table sets, about 25 ms of CPU each, where the checker (check_claims) is under a tenth: the
# findings, the CSV round trip and Claim.as_dict take the rest. 500 in every run of the suite: measured with
# coverage.py (--branch), 500, 1,000 and 2,500 table sets execute the very same lines and branches of
# unosim/analysis (findings, skill_findings, claims, checker); UNOSIM_CLAIM_CASES=10000 runs the issue's
# target of 10,000 (it passes: see CONTRIBUTING.md). Marked long so that xdist starts it first
MANY = int(os.environ.get("UNOSIM_CLAIM_CASES", "500"))
FULL = settings(max_examples=MANY, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _check(tables: dict[str, pl.DataFrame]) -> list[Claim]:
    written = as_csv(tables)
    found = claims(written)
    assert check_claims(written, found) == [], "\n".join(c.text for c in found)
    for claim in found:  # JSON round trip: what findings.json holds is the claim itself
        assert Claim.from_dict(json.loads(json.dumps(claim.as_dict()))) == claim
    return found


@FAST
@given(table_sets())
def test_the_checker_passes_on_every_generated_table_set(tables):
    _check(tables)


@pytest.mark.slow
@pytest.mark.long
@FULL
@given(table_sets())
def test_the_checker_passes_on_many_generated_table_sets(tables):
    _check(tables)


# ---- the checker can fail --------------------------------------------------------------------------
def _rows(**overrides) -> list[dict]:
    base = {"axis": "variant", "a": "classic", "b": "rule_x", "variant": "classic", "players": 4,
            "lineup": "random", "paired": True, "identical": False, "measure": "max_hand", "mean_a": 10.0,
            "mean_b": 11.0, "estimate": 1.0, "ci_low": 0.5, "ci_high": 1.5, "p_value": 1e-6, "rel_change": 0.1,
            "rel_low": 0.05, "rel_high": 0.15, "n": 1000, "test": "paired t"}
    return [{**base, **overrides}]


def _tables(rows: list[dict]) -> dict[str, pl.DataFrame]:
    return as_csv({"effects": finish_effects(rows)})


def _sentences(tables: dict[str, pl.DataFrame]) -> list[Claim]:
    """The claims of the tables' rows, without the verdicts (tests/analysis/test_verdicts.py has those)."""
    return [c for c in claims(tables) if c.section != "verdict"]


def test_a_claim_whose_direction_or_number_or_coverage_is_wrong_is_rejected():
    tables = _tables(_rows() + _rows(lineup="greedy_first", estimate=-1.0, mean_b=9.0, ci_low=-1.5, ci_high=-0.5,
                                     rel_change=-0.1, rel_low=-0.15, rel_high=-0.05))
    honest = claims(tables)
    assert check_claims(tables, honest) == []
    effect = next(c for c in honest if c.kind == "effect" and c.direction > 0)
    flipped = dataclasses.replace(effect, direction=-1)
    assert any("direction" in p for p in check_claims(tables, [flipped if c is effect else c for c in honest]))
    number = effect.numbers[0]
    wrong = dataclasses.replace(number, text="99")
    changed = dataclasses.replace(effect, numbers=(wrong, *effect.numbers[1:]), text=effect.text + " 99")
    assert any("the table says" in p for p in check_claims(tables, [changed if c is effect else c for c in honest]))
    dropped = [c for c in honest if c is not effect]
    assert any("stated by no finding" in p for p in check_claims(tables, dropped))
    quiet = dataclasses.replace(effect, kind="no_effect", supported=False, practical=None)
    assert any("no detectable change" in p for p in check_claims(tables, [quiet if c is effect else c for c in honest]))
    bad_holm = tables["effects"].with_columns(p_holm=pl.col("p_value"))
    assert any("Holm" in p for p in check_claims({"effects": bad_holm}, honest))
    missing = dataclasses.replace(effect, numbers=(*effect.numbers, Number("1.5", 0, "ci_high", ".1f")),
                                  text=effect.text.replace("1.5", ""))
    assert check_claims(tables, [missing if c is effect else c for c in honest])


# ---- regressions of the defects in issue #23 -------------------------------------------------------
def test_rows_of_opposite_sign_are_never_one_sentence():
    """greedy_first made "the largest hand 2% smaller … (supported at …)" where those cells were larger."""
    up = dict(estimate=1.0, mean_b=11.0, rel_change=0.1, rel_low=0.05, rel_high=0.15)
    down = dict(estimate=-1.0, mean_b=9.0, ci_low=-1.5, ci_high=-0.5, rel_change=-0.1, rel_low=-0.15, rel_high=-0.05)
    rows = [r for p, kw in ((2, up), (3, down), (4, down)) for r in _rows(axis="lineup", a="random",
                                                                              b="greedy_first", players=p, **kw)]
    found = [c for c in _sentences(_tables(rows)) if c.kind == "effect"]
    assert sorted(c.direction for c in found) == [-1, 1]
    larger = next(c for c in found if c.direction > 0)
    assert "larger" in larger.text and "smaller" not in larger.text and "classic 2p" in larger.text


def test_no_detectable_change_is_never_said_beside_a_supported_effect_of_another_lineup():
    """stacking_any_draw: "no detectable change in length" (random) while greedy showed +5.2 %."""
    rows = _rows(measure="length", estimate=0.1, mean_b=10.1, ci_low=-0.5, ci_high=0.7, p_value=0.7,
                 rel_change=0.01, rel_low=-0.05, rel_high=0.07)
    rows += _rows(measure="length", lineup="greedy_first", estimate=0.52, mean_b=10.52, ci_low=0.31, ci_high=0.72,
                  p_value=1e-6, rel_change=0.052, rel_low=0.031, rel_high=0.072)
    found = _sentences(_tables(rows))
    quiet = next(c for c in found if c.kind == "no_effect")
    effect = next(c for c in found if c.kind == "effect")
    assert quiet.text.startswith("with all-random players") and effect.text.startswith("with lineup greedy_first")
    assert "5.2%" in effect.text


def test_small_supported_effects_are_negligible_and_a_nonzero_effect_never_prints_as_zero():
    """"The largest hand 0% smaller [-0%, -0%]" was a headline."""
    rows = _rows(estimate=-0.002, mean_b=9.998, ci_low=-0.003, ci_high=-0.001, rel_change=-0.0002,
                 rel_low=-0.0003, rel_high=-0.0001)
    rows += _rows(b="rule_y", estimate=-0.25, mean_b=9.75, ci_low=-0.3, ci_high=-0.2, rel_change=-0.025,
                  rel_low=-0.03, rel_high=-0.02)
    found = _sentences(_tables(rows))
    small = next(c for c in found if c.subject.startswith("rule_x"))
    assert small.kind == "negligible" and "[−0.030%, −0.010%]" in small.text
    big = next(c for c in found if c.subject.startswith("rule_y"))
    assert big.kind == "effect" and "2.5% smaller" in big.text and found.index(big) < found.index(small)


def test_an_unbounded_relative_interval_is_never_printed_and_a_zero_baseline_is_absolute():
    rows = _rows(measure="knockouts", mean_a=0.0, mean_b=0.12, estimate=0.12, ci_low=0.1, ci_high=0.14,
                 rel_change=math.nan, rel_low=math.nan, rel_high=math.nan)
    rows += _rows(b="rule_y", measure="length", mean_a=2.0, mean_b=40.0, estimate=38.0, ci_low=30.0, ci_high=46.0,
                  rel_change=19.0, rel_low=math.nan, rel_high=math.nan)
    found = {c.subject.split()[0]: c for c in _sentences(_tables(rows))}
    assert "more knock-outs per round: 0.12 [+0.10, +0.14]" in found["rule_x"].text
    assert "longer rounds: 38 turns [+30, +46], raw 95%" in found["rule_y"].text
    assert "%" not in found["rule_y"].text.split(", raw 95%")[0]


def test_truncation_is_said_and_the_length_is_a_restricted_mean():
    rows = _rows(measure="length", mean_a=45.0, mean_b=3000.0, estimate=2955.0, ci_low=2900.0, ci_high=3010.0,
                 rel_change=65.7, rel_low=64.0, rel_high=67.0, truncated_a=0.0, truncated_b=0.3, cap=10_000)
    (claim,) = _sentences(_tables(rows))
    assert "restricted mean" in claim.text and "30% of rounds hit the 10,000-turn cap" in claim.text


def test_the_headline_counts_comparisons_not_sentences():
    from unosim.analysis.findings import headline
    rows = _rows() + _rows(b="rule_y", p_value=0.9) + _rows(b="rule_z", identical=True)
    text = headline(claims(_tables(rows)))
    assert text == ("1 of 3 comparisons shows an effect of practical size in at least one setting; 2 show none (1 of "
                    "them changed no game).")


@pytest.mark.parametrize("quiet, expected", [
    ([], "2 of 2 comparisons show an effect of practical size in at least one setting."),
    ([{"p_value": 0.9}], "2 of 3 comparisons show an effect of practical size in at least one setting; 1 shows none."),
    ([{"identical": True}], "2 of 3 comparisons show an effect of practical size in at least one setting; 1 shows "
                            "none (it changed no game)."),
    ([{"identical": True}, {"identical": True}], "2 of 4 comparisons show an effect of practical size in at least "
                                                 "one setting; 2 show none (none of them changed a game)."),
])
def test_the_headline_agrees_in_number(quiet, expected):
    """The report's first sentence, with one and with several comparisons in each part."""
    from unosim.analysis.findings import headline
    rows = _rows() + _rows(b="rule_w") + [row for i, q in enumerate(quiet) for row in _rows(b=f"rule_{i}", **q)]
    assert headline(claims(_tables(rows))) == expected


def test_identical_games_give_an_upper_bound_not_no_effect():
    (claim,) = _sentences(_tables(_rows(identical=True, n=3000)))
    assert "changed none of the 3,000 games" in claim.text and "at most 0.1% of games" in claim.text
    assert "no effect" not in claim.text


def test_skill_sentences_split_by_sign():
    """"by_colour beats its fair share in 9 of 14 cells, by −14.2 to +2.9 points" (7 were below)."""
    rows = [{"variant": v, "players": 4, "lineup": "by_colour_first", "seat": 0, "policy": "by_colour",
             "win_rate": 0.25 + e, "fair_share": 0.25, "estimate": e, "ci_low": e - 0.01, "ci_high": e + 0.01,
             "p_value": 1e-9, "n": 5000, "rounds": 5000, "random_rate": None}
            for v, e in (("classic", -0.142), ("minions", -0.05), ("spin", 0.029))]
    from unosim.analysis.inference import holm
    table = pl.DataFrame(rows)
    table = table.with_columns(p_holm=pl.Series(holm(table["p_value"].to_numpy())))
    found = claims(as_csv({"skill": table}))
    more = next(c for c in found if c.direction > 0)
    less = next(c for c in found if c.direction < 0)
    assert "wins more" in more.text and "1 of 3 cells" in more.text
    assert "wins less" in less.text and "2 of 3 cells" in less.text and "5.0–14" in less.text


def test_analyze_writes_checked_findings_and_fails_loudly_on_a_contradiction(house_rule_dataset, tmp_path,
                                                                              monkeypatch, capsys):  # noqa: F811
    from unosim.analysis import standard
    from unosim.cli import main
    out = tmp_path / "analysis"
    assert main(["analyze", str(house_rule_dataset), "--out", str(out)]) == 0
    assert "findings, each checked against the tables" in capsys.readouterr().out
    found = standard.read_findings(out)
    assert found and any(c.kind == "effect" for c in found) and any(c.kind == "identical" for c in found)
    honest = standard.claims

    def lying(tables, profile=None):  # every stated direction flipped
        return [dataclasses.replace(c, direction=-c.direction) for c in honest(tables, profile)]
    monkeypatch.setattr(standard, "claims", lying)
    again = tmp_path / "again"
    assert main(["analyze", str(house_rule_dataset), "--out", str(again)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("unosim: error: ") and "contradict the analysis tables" in err and "direction" in err
    assert not (again / "findings.json").exists() and not (again / "effects.csv").exists()


# ---- skill: how much, and how each house rule changes it -------------------------------------------
def _skill_changes(estimate: float = -0.041, p_value: float = 1e-6) -> pl.DataFrame:
    from unosim.analysis.inference import holm
    from unosim.analysis.practical import games_to_decide
    rows = [{"a": "classic", "b": "stacking_any_draw", "players": 4, "lineup": "expert", "policy": "lookahead",
             "seat": 0, "identical": False, "edge_a": 0.183, "edge_b": 0.183 + estimate, "estimate": estimate,
             "ci_low": estimate - 0.019, "ci_high": estimate + 0.019, "p_value": p_value, "n": 5000},
            {"a": "classic", "b": "jump_in", "players": 4, "lineup": "expert", "policy": "lookahead", "seat": 0,
             "identical": False, "edge_a": 0.183, "edge_b": 0.19, "estimate": 0.007, "ci_low": -0.01,
             "ci_high": 0.024, "p_value": 0.4, "n": 5000}]
    table = pl.DataFrame(rows).with_columns(p_holm=pl.Series(holm([r["p_value"] for r in rows])))
    return table.with_columns(games_to_decide=pl.Series([games_to_decide("skill_edge", r) for r in table.to_dicts()],
                                                        dtype=pl.Int64))


def test_an_inconclusive_skill_change_says_the_games_that_would_decide_and_they_are_checked():
    from unosim.analysis.practical import games_to_decide
    tables = as_csv({"skill_changes": _skill_changes()})
    quiet = next(c for c in claims(tables) if c.subject == "jump_in (vs classic)" and c.section == "skill")
    expected = games_to_decide("skill_edge", tables["skill_changes"].row(1, named=True))
    assert expected and f"about {expected:,} paired games would decide" in quiet.text
    tampered = {"skill_changes": tables["skill_changes"].with_columns(games_to_decide=pl.lit(7, pl.Int64))}
    assert any("games_to_decide" in p for p in check_claims(tampered, claims(tables)))


def test_a_skill_change_is_stated_with_its_interval_and_the_checker_rejects_a_mutated_one():
    """"stacking_any_draw cuts lookahead's edge over random players by 4.1 percentage points [−6.0, −2.2] …"
    (the policies named, never "more luck"); a flipped direction, a changed number or a verdict the
    p-values do not give is caught."""
    tables = as_csv({"skill_changes": _skill_changes()})
    found = claims(tables)
    assert check_claims(tables, found) == []
    cut = next(c for c in found if c.kind == "effect")
    assert cut.subject == "stacking_any_draw (vs classic)" and cut.section == "skill" and cut.direction == -1
    assert "cuts lookahead's edge over random players by 4.1 percentage points [−6.0, −2.2], raw 95%" in cut.text
    assert "luck" not in cut.text and "more skill" not in cut.text and cut.family.startswith("skill changes")
    quiet = next(c for c in found if c.subject == "jump_in (vs classic)" and c.section != "verdict")
    assert quiet.kind == "no_effect" and "no detectable change in lookahead's edge over random players" in quiet.text
    flipped = dataclasses.replace(cut, direction=1)
    assert any("direction" in p for p in check_claims(tables, [flipped, quiet]))
    number = next(n for n in cut.numbers if n.column == "estimate")
    lying = dataclasses.replace(cut, text=cut.text.replace("by 4.1", "by 5.1"),
                                numbers=tuple(dataclasses.replace(n, text="5.1") if n is number else n
                                              for n in cut.numbers))
    assert any("the table says '4.1'" in p for p in check_claims(tables, [lying, quiet]))
    weak = as_csv({"skill_changes": _skill_changes(p_value=0.3)})
    assert any("supported" in p for p in check_claims(weak, [cut, quiet]))
    assert any("stated by no finding" in p for p in check_claims(tables, [quiet]))


def test_how_much_is_skill_states_the_edge_and_the_rounds_needed_and_is_checked():
    from unosim.analysis.inference import holm
    from unosim.analysis.luck import rounds_needed_row
    rate, low, high = 0.412, 0.39, 0.434
    row = {"variant": "classic", "players": 4, "lineup": "expert", "seat": 0, "policy": "lookahead",
           "win_rate": rate, "fair_share": 0.25, "estimate": rate - 0.25, "ci_low": low - 0.25,
           "ci_high": high - 0.25, "p_value": 1e-30, "n": 4000, "rounds": 4100, "random_rate": 0.25,
           "baseline": True, **rounds_needed_row(rate, low, high, share=0.25)}
    table = pl.DataFrame([row, {**row, "variant": "jump_in", "baseline": False}])
    tables = as_csv({"skill": table.with_columns(p_holm=pl.Series(holm(table["p_value"].to_numpy())))})
    found = claims(tables)
    (note,) = [c for c in found if c.subject == "how much is skill"]
    needed = row["rounds_needed"]
    assert f"it needs {needed} rounds [{row['rounds_needed_ci_low']}, {row['rounds_needed_ci_high']}]" in note.text
    assert "lookahead in one seat (lineup expert) of classic at 4p wins 41.2% of the rounds" in note.text
    assert check_claims(tables, found) == []
    mutated = dataclasses.replace(note, text=note.text.replace(f"needs {needed} ", f"needs {needed - 2} "),
                                  numbers=tuple(dataclasses.replace(n, text=str(needed - 2))
                                                if n.column == "rounds_needed" else n for n in note.numbers))
    assert any("rounds_needed" in p for p in check_claims(tables, [c if c is not note else mutated for c in found]))


def test_no_rounds_needed_is_printed_when_the_edge_interval_reaches_no_edge():
    """216,671 rounds printed for a share whose interval included the fair share: only the low end now."""
    from unosim.analysis.inference import holm
    from unosim.analysis.luck import rounds_needed, rounds_needed_row
    rate, low, high = 0.5016, 0.49, 0.513
    row = {"variant": "classic", "players": 2, "lineup": "expert", "seat": 0, "policy": "lookahead",
           "win_rate": rate, "fair_share": 0.5, "estimate": rate - 0.5, "ci_low": low - 0.5,
           "ci_high": high - 0.5, "p_value": 0.6, "n": 4000, "rounds": 4000, "random_rate": 0.5,
           "baseline": True, **rounds_needed_row(rate, low, high)}
    tables = as_csv({"skill": pl.DataFrame([row]).with_columns(p_holm=pl.Series(holm([0.6])))})
    found = claims(tables)
    (note,) = [c for c in found if c.subject == "how much is skill"]
    low_end = f"{rounds_needed(high):,}"
    assert f"at least {low_end} rounds, with no upper bound" in note.text and "it needs " + low_end not in note.text
    assert f"{rounds_needed(rate):,}" not in note.text and check_claims(tables, found) == []


def test_a_cell_that_played_another_cells_games_counts_once():
    """A rule that never acted under these policies played the baseline's games: "in 2 of 2 cells" was one
    result told twice."""
    from unosim.analysis.effects import same_games
    from unosim.analysis.inference import holm
    rows = [{"variant": v, "players": 2, "lineup": "greedy_first", "seat": 0, "policy": "greedy_points",
             "win_rate": 0.56, "fair_share": 0.5, "estimate": 0.06, "ci_low": 0.04, "ci_high": 0.08, "p_value": 1e-9,
             "n": 3000, "rounds": 3000, "random_rate": 0.5, "baseline": v == "classic"} for v in ("classic", "idle")]
    effects = finish_effects([{"axis": "variant", "a": "classic", "b": "idle", "variant": None, "players": 2,
                               "lineup": "greedy_first", "paired": True, "identical": True, "measure": "length",
                               "mean_a": 40.0, "mean_b": 40.0, "n": 3000, "test": "identical games"}])
    same = same_games(effects)
    assert same == {("idle", 2, "greedy_first"): "classic 2p greedy_first"}
    skill = pl.DataFrame(rows).with_columns(p_holm=pl.Series(holm([1e-9, 1e-9])))
    tables = as_csv({"skill": skill, "effects": effects})   # the findings read the twins from the effects table
    found = claims(tables)
    (effect,) = [c for c in found if c.kind == "effect" and c.table == "skill"]
    assert "in 1 of 1 cells (and 1 that played another cell's very games, counted with it)" in effect.text
    assert check_claims(tables, found) == []
