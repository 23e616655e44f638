"""A designer's profile, the interval classes and the verdicts: validation, known answers on hand-made rows,
an independent re-derivation on adversarial tables (hypothesis), and a checker that rejects an edited verdict."""

from __future__ import annotations

import dataclasses
import math

import polars as pl
import pytest
from claim_tables import Rows, as_csv, effects_table, skill_changes_table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unosim.analysis.checker import check_claims
from unosim.analysis.effects import finish_effects
from unosim.analysis.findings import claims
from unosim.analysis.practical import classify, games_to_decide
from unosim.analysis.verdicts import Profile, ProfileError, ranked, scorecard, verdicts

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ---- the profile -----------------------------------------------------------------------------------
def test_the_default_profile_and_its_validation():
    default = Profile.default()
    assert default.as_mapping()["length"] == "shorter" and default.as_mapping()["skill"] == "any"
    assert set(default.judged()) == {"length", "fairness", "no_winner", "comebacks", "lead_changes"}
    with pytest.raises(ProfileError, match=r"unknown profile key 'lenght': valid keys are \['comebacks'"):
        Profile.from_mapping({"lenght": "shorter"})
    with pytest.raises(ProfileError, match=r"length = 'fairer' is not a wish for length: valid are"):
        Profile.from_mapping({"length": "fairer"})
    with pytest.raises(ProfileError, match="not a band"):
        Profile.from_mapping({"length": [30, 20]})
    with pytest.raises(ProfileError, match="not a wish for comebacks"):
        Profile.from_mapping({"comebacks": [1, 2]})   # a band only for length
    band = Profile.parse("length=20-30, skill=more")
    assert band.wish("length").band == (20.0, 30.0) and band.wish("skill").sign == 1
    assert "length 20–30 turns" in band.describe() and "a larger edge for the skilled player" in band.describe()
    assert Profile.parse("comebacks=any", base=band).wish("length").band == (20.0, 30.0)


# ---- classes on intervals --------------------------------------------------------------------------
def _row(estimate, low, high, p_holm=1e-9, **extra) -> dict:
    return {"measure": "comebacks", "estimate": estimate, "ci_low": low, "ci_high": high, "p_holm": p_holm,
            "n": 4000, "identical": False, **extra}


@pytest.mark.parametrize("estimate, low, high, p_holm, expected", [
    (0.004, 0.001, 0.007, 1e-6, "negligible"),       # supported, but the whole interval within ±1 point
    (0.004, -0.005, 0.009, 0.5, "negligible"),       # not supported, and still within: an equivalence
    (0.012, 0.006, 0.018, 1e-9, "inconclusive"),     # the point is past 1 point, the interval is not
    (0.008, -0.002, 0.018, 0.4, "inconclusive"),     # straddles the band and 0
    (0.025, 0.015, 0.035, 1e-9, "practical"),
    (-0.025, -0.035, -0.015, 1e-9, "practical"),
    (0.025, 0.015, 0.035, 0.06, "inconclusive"),     # clear of the band on its raw interval, not after Holm
])
def test_a_class_is_decided_on_the_whole_interval(estimate, low, high, p_holm, expected):
    assert classify("comebacks", _row(estimate, low, high, p_holm)) == expected


def test_games_to_decide_shrink_the_interval_as_one_over_root_n_to_clear_the_minimum():
    row = _row(0.012, 0.006, 0.018)          # half-width 0.006, 0.002 past the 0.01 minimum
    games = games_to_decide("comebacks", row)
    assert games == math.ceil(4000 * (0.006 / 0.002) ** 2)
    assert 0.006 * math.sqrt(4000 / games) <= 0.002 < 0.006 * math.sqrt(4000 / (games - 1))
    assert games_to_decide("comebacks", _row(0.01, 0.004, 0.016)) is None   # an estimate on the minimum
    assert games_to_decide("comebacks", _row(0.025, 0.015, 0.035)) is None  # already decided


# ---- verdicts: known answers -----------------------------------------------------------------------
def _effect(b: str, measure: str, rel: float, half: float, p: float = 1e-9, mean_a: float = 40.0, **extra) -> dict:
    estimate = rel * mean_a
    return {"axis": "variant", "a": "classic", "b": b, "variant": None, "players": 4, "lineup": "random",
            "paired": True, "identical": False, "measure": measure, "mean_a": mean_a, "mean_b": mean_a + estimate,
            "estimate": estimate, "ci_low": estimate - half * mean_a, "ci_high": estimate + half * mean_a,
            "p_value": p, "rel_change": rel, "rel_low": rel - half, "rel_high": rel + half, "n": 4000,
            "test": "paired t", **extra}


def _share(b: str, measure: str, estimate: float, half: float, p: float = 1e-9) -> dict:
    return {**_effect(b, measure, 0.0, 0.0, p, mean_a=0.5), "estimate": estimate, "mean_b": 0.5 + estimate,
            "ci_low": estimate - half, "ci_high": estimate + half, "rel_change": estimate / 0.5,
            "rel_low": math.nan, "rel_high": math.nan}


def test_verdicts_on_hand_made_rules():
    rows = [_effect("better", "length", -0.10, 0.02), _share("better", "comebacks", 0.05, 0.01),
            _effect("worse", "length", 0.10, 0.02), _effect("mixed", "length", 0.10, 0.02),
            _share("mixed", "comebacks", 0.05, 0.01), _effect("same", "length", 0.001, 0.005),
            _effect("close", "length", 0.02, 0.01, p=0.001), _effect("close", "lead_changes", 0.0, 0.05, p=0.9)]
    tables = as_csv({"effects": finish_effects(rows)})
    rules = {r["b"]: r for r in verdicts(tables, Profile.default()).filter(pl.col("level") == "rule").to_dicts()}
    assert {b: r["verdict"] for b, r in rules.items()} == {
        "better": "better", "worse": "worse", "mixed": "mixed", "same": "same", "close": "too close to call"}
    assert rules["better"]["reason"] == "better: shorter rounds (−10%), more comebacks (+5.0 points)."
    assert rules["same"]["reason"] == "same: same round length."
    assert rules["close"]["reason"] == "too close to call: too few games to tell round length and lead changes."
    # another profile, no new games: longer rounds are what this designer wants
    longer = verdicts(tables, Profile.from_mapping({"length": "longer", "comebacks": "any"}))
    assert longer.filter(pl.col("level") == "rule", pl.col("b") == "worse")["verdict"].item() == "better"
    # a band: 40 turns → 36 comes closer to [20, 30]; → 44 goes away from it
    band = verdicts(tables, Profile.from_mapping({"length": [20, 30], "comebacks": "any"}))
    by = {r["b"]: r["verdict"] for r in band.filter(pl.col("level") == "rule").to_dicts()}
    assert by["better"] == "better" and by["worse"] == "worse"
    found = claims(tables)
    assert check_claims(tables, found) == []
    assert [c.subject for c in ranked(found)[:2]] == ["better (vs classic)", "worse (vs classic)"]


def test_the_scorecard_puts_every_measure_on_one_scale():
    tables = as_csv({"effects": finish_effects([_effect("r", "length", -0.10, 0.02),
                                                _share("r", "comebacks", 0.05, 0.01)])})
    card = {r["measure"]: r for r in scorecard(tables).to_dicts()}
    assert card["length"]["unit"] == "%" and card["length"]["effect"] == pytest.approx(-10.0)
    assert card["length"]["scaled"] == pytest.approx(-5.0) and card["length"]["minimum"] == pytest.approx(2.0)
    assert card["comebacks"]["unit"] == "points" and card["comebacks"]["scaled"] == pytest.approx(5.0)
    assert card["comebacks"]["judgement"] == "good" and card["length"]["judgement"] == "good"


def test_a_length_where_most_rounds_hit_the_cap_is_no_percentage_in_a_verdict():
    """mercy_limit_off: "longer rounds (+31298%)" from a restricted mean with 80 % of rounds at the cap."""
    capped = dict(truncated_a=0.0, truncated_b=0.8, cap=10_000)
    tables = as_csv({"effects": finish_effects([_effect("off", "length", 313.0, 10.0, **capped),
                                                {**_effect("off", "length", 0.5, 0.02, truncated_a=0.0,
                                                           truncated_b=0.1, cap=10_000), "players": 2}])})
    rule = verdicts(tables).filter(pl.col("level") == "rule").row(0, named=True)
    assert rule["reason"] == "worse: longer rounds (+50%; most rounds hit the turn cap in some settings)."
    at_4p = verdicts(tables).filter(pl.col("level") == "setting", pl.col("players") == 4).row(0, named=True)
    assert at_4p["reason"] == "worse: longer rounds (most rounds hit the turn cap)." and "%" not in at_4p["reason"]
    assert check_claims(tables, claims(tables)) == []


# ---- verdicts on adversarial tables, re-derived independently --------------------------------------
_WORDS = {"length": ("longer", "shorter"), "no_winner": ("more", "fewer"), "comebacks": ("more", "fewer"),
          "lead_changes": ("more", "fewer"), "fairness": (None, "fairer"), "skill_edge": ("more", "less"),
          "max_hand": ("larger", "smaller"), "penalty": ("larger", "smaller"), "knockouts": ("more", "fewer")}
_KEY = {"skill_edge": "skill"}
_RELATIVE = {"length": 1.0, "lead_changes": 0.05, "max_hand": 0.1, "penalty": 0.1, "knockouts": 0.01}
_MINIMUM = {"comebacks": 0.01, "no_winner": 0.01, "fairness": 0.01, "skill_edge": 0.01}


def _f(x):
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)


def _reference_judgement(measure: str, row: dict, wish) -> str:
    """The judgement of one row, written again from docs/rules.md §8.2 and §8.7 (not from the module)."""
    if row.get("identical"):
        return "neutral"
    value = low = high = None
    if measure in _RELATIVE:
        rel = [_f(row.get(c)) for c in ("rel_change", "rel_low", "rel_high")]
        if _f(row.get("mean_a")) not in (None, 0.0) and None not in rel:
            (value, low, high), minimum = rel, 0.02
        else:
            minimum = _RELATIVE[measure]
    else:
        minimum = _MINIMUM[measure]
    if value is None:
        value, low, high = _f(row["estimate"]), _f(row.get("ci_low")), _f(row.get("ci_high"))
        low = -math.inf if low is None else low
        high = math.inf if high is None else high
    if value is None:
        return "unclear"
    if low > -minimum and high < minimum:
        return "neutral"
    p = _f(row.get("p_holm"))
    if not (p is not None and p < 0.05 and (low >= minimum or high <= -minimum)):
        return "unclear"
    if wish.band is not None:
        lo, hi = wish.band

        def d(x):
            return max(lo - x, 0, x - hi)
        ends = [row["mean_a"] + row["ci_low"], row["mean_a"] + row["ci_high"]]
        near = 0 if ends[0] <= hi and ends[1] >= lo else min(map(d, ends))
        return "good" if max(map(d, ends)) < d(row["mean_a"]) else "bad" if near > d(row["mean_a"]) else "unclear"
    return "good" if (value > 0) == (wish.sign > 0) else "bad"


def _reference_verdict(judgements: list[str]) -> str:
    if "good" in judgements and "bad" in judgements:
        return "mixed"
    if "good" in judgements:
        return "better"
    if "bad" in judgements:
        return "worse"
    return "too close to call" if "unclear" in judgements else "same"


@st.composite
def _profiles(draw) -> Profile:
    data = {}
    for measure, (up, down) in _WORDS.items():
        key = _KEY.get(measure, measure)
        choices = ["any", down] + ([up] if up else []) + ([[20, 45], [30, 60]] if key == "length" else [])
        data[key] = draw(st.sampled_from(choices))
    return Profile.from_mapping(data)


@SETTINGS
@given(st.integers(0, 2**63 - 1), _profiles())
def test_every_setting_verdict_is_what_its_rows_give(seed, profile):
    r = Rows(seed)
    tables = as_csv({"effects": effects_table(r), "skill_changes": skill_changes_table(r)})
    table = verdicts(tables, profile)
    rows: dict[tuple, list[str]] = {}
    for row in tables["effects"].to_dicts():
        wish = profile.wish(row["measure"])
        if wish.judged:
            key = (row["axis"], row["a"], row["b"], row["variant"], row["players"], row["lineup"])
            rows.setdefault(key, []).append(_reference_judgement(row["measure"], row, wish))
    if profile.wish("skill").judged:
        for row in tables["skill_changes"].to_dicts():
            key = ("variant", row["a"], row["b"], None, row["players"], row["lineup"])
            rows.setdefault(key, []).append(_reference_judgement("skill_edge", row, profile.wish("skill")))
    # a setting's verdict: the effects' settings have a variant only on the lineup axis
    settings_ = {}
    for key, judgements in rows.items():
        settings_.setdefault(key, []).extend(judgements)
    got = {(v["axis"], v["a"], v["b"], v["variant"], v["players"], v["lineup"]): v["verdict"]
           for v in table.filter(pl.col("level") == "setting").to_dicts()}
    assert got == {k: _reference_verdict(j) for k, j in settings_.items()}
    found = claims(tables, profile)
    assert check_claims(tables, found, profile) == []


@SETTINGS
@given(st.integers(0, 2**63 - 1))
def test_an_edited_verdict_is_rejected(seed):
    r = Rows(seed)
    tables = as_csv({"effects": effects_table(r)})
    profile = Profile.default()
    found = claims(tables, profile)
    table = verdicts(tables, profile)
    for i, claim in enumerate(found):
        if claim.section != "verdict":
            continue
        other = next(v for v in ("better", "worse", "mixed", "same", "too close to call") if v != claim.verdict)
        edited = dataclasses.replace(claim, text=claim.text.replace(claim.verdict, other, 1), verdict=other)
        assert check_claims(tables, found[:i] + [edited] + found[i + 1:], profile), edited.text
    if not table.is_empty():
        wrong = table.with_columns(verdict=pl.when(pl.col("verdict") == "better").then(pl.lit("worse"))
                                   .otherwise(pl.lit("better")))
        assert any("verdicts: the table" in p for p in check_claims({**tables, "verdicts": wrong}, found, profile))
        assert not check_claims({**tables, "verdicts": table}, found, profile)
