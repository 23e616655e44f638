"""Verdicts and the scorecard: is rule B a better game than A for what the designer wants (docs/rules.md §8.7)?

The **scorecard** (:func:`scorecard`) has one row per comparison × measure: the comparisons of the
``effects`` table (rule × lineup × players; lineup comparisons too) and, for the key ``skill``, the rows of
``skill_changes`` (the skilled lineup's edge over its all-random twin). Each row carries the effect on a
common scale — in its own unit (``effect``: % for a relative change, percentage points for a share) and
in multiples of its minimum effect (``scaled``: ±1 is the minimum worth stating) — with its raw 95 %
interval, its class on that interval (:mod:`.practical`: practical / negligible / inconclusive /
identical) and its judgement under the :class:`~.profile.Profile`:

* ``good`` / ``bad`` — practical, in / against the wished direction (a band: B surely closer to / farther
  from the band than A);
* ``neutral`` — negligible or identical games;  ``unclear`` — inconclusive (or practical but straddling a
  band);  ``not judged`` — the profile says ``any``.

The **verdict** of a comparison (:func:`verdicts`, one row per setting and one rolled up per rule):
``mixed`` when a measure is good and one bad (for a rule: anywhere among its settings), ``better`` when
some are good and none bad, ``worse`` when some are bad and none good, ``same`` when every judged measure
is neutral, else ``too close to call``. The reasons are one plain sentence. Verdicts are claims
(:func:`verdict_claims`, section ``verdict``) that the checker re-derives from the rows and the profile.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import polars as pl

from .claims import Claim, decimals_for, render_number
from .effect_findings import mostly_capped
from .measures import EFFECT_MEASURES, MEASURES
from .practical import IDENTICAL, INCONCLUSIVE, NEGLIGIBLE, PRACTICAL, classify, games_to_decide, scaled
from .profile import Profile, ProfileError, Wish

__all__ = ["Profile", "ProfileError", "VERDICTS", "scorecard", "verdicts", "verdict_claims", "ranked"]

GOOD, BAD, NEUTRAL, UNCLEAR, NOT_JUDGED = "good", "bad", "neutral", "unclear", "not judged"
BETTER, WORSE, MIXED, SAME, CLOSE = "better", "worse", "mixed", "same", "too close to call"
VERDICTS = (BETTER, WORSE, MIXED, SAME, CLOSE)
SETTING = ("axis", "a", "b", "variant", "players", "lineup")
SCORECARD_SCHEMA = {
    "axis": pl.String, "a": pl.String, "b": pl.String, "variant": pl.String, "players": pl.Int64,
    "lineup": pl.String, "measure": pl.String, "plain": pl.String, "policy": pl.String, "unit": pl.String,
    "effect": pl.Float64, "effect_low": pl.Float64, "effect_high": pl.Float64, "minimum": pl.Float64,
    "scaled": pl.Float64, "scaled_low": pl.Float64, "scaled_high": pl.Float64, "class": pl.String,
    "wish": pl.String, "judgement": pl.String, "games_to_decide": pl.Int64, "n": pl.Int64, "p_holm": pl.Float64,
    "mostly_capped": pl.Boolean,
}
VERDICT_SCHEMA = {
    "level": pl.String, "axis": pl.String, "a": pl.String, "b": pl.String, "variant": pl.String,
    "players": pl.Int64, "lineup": pl.String, "verdict": pl.String, "better_in": pl.String, "worse_in": pl.String,
    "same_in": pl.String, "unclear_in": pl.String, "reason": pl.String, "profile": pl.String,
}


# ---- the scorecard ---------------------------------------------------------------------------------
def judge(measure: str, row: dict, wish: Wish) -> str:
    """The judgement of one row under one wish (module docstring)."""
    if not wish.judged:
        return NOT_JUDGED
    cls = classify(measure, row)
    if cls in (NEGLIGIBLE, IDENTICAL):
        return NEUTRAL
    if cls == INCONCLUSIVE:
        return UNCLEAR
    if wish.band is None:
        return GOOD if (scaled(measure, row).value > 0) == (wish.sign > 0) else BAD
    return _band_judgement(row, wish.band)


def _band_judgement(row: dict, band: tuple[float, float]) -> str:
    """B surely closer to the band than A (its mean's interval, A's mean plus the difference's interval,
    is nearer at both ends): good; surely farther: bad; else unclear."""
    low, high = band

    def distance(x: float) -> float:
        return max(low - x, 0.0, x - high)
    mean_a = float(row["mean_a"])
    ends = (mean_a + float(row["ci_low"]), mean_a + float(row["ci_high"]))
    nearest = 0.0 if ends[0] <= high and ends[1] >= low else min(map(distance, ends))
    farthest = max(map(distance, ends))
    if farthest < distance(mean_a):
        return GOOD
    if nearest > distance(mean_a):
        return BAD
    return UNCLEAR


def _display(measure: str, row: dict) -> tuple[str, float, float, float, float]:
    """(unit, effect, low, high, minimum) in the unit a reader sees: % for a relative change, percentage
    points for a share, the measure's count unit for an absolute difference."""
    s = scaled(measure, row)
    info = MEASURES[measure]
    if s.relative:
        unit, factor = "%", 100.0
    elif not info.relative:
        unit, factor = "points", 100.0
    else:
        unit, factor = info.count_unit, 1.0
    return unit, s.value * factor, s.low * factor, s.high * factor, s.minimum * factor


def _card_row(setting: dict, measure: str, row: dict, profile: Profile, policy: str | None) -> dict:
    wish = profile.wish_for_measure(measure)
    out = {**setting, "measure": measure, "plain": MEASURES[measure].plain, "policy": policy,
           "class": classify(measure, row), "wish": "band" if wish.band else wish.word,
           "judgement": judge(measure, row, wish), "games_to_decide": games_to_decide(measure, row),
           "n": row.get("n"), "p_holm": row.get("p_holm"),
           "mostly_capped": mostly_capped(row) if measure == "length" else None}
    if scaled(measure, row) is not None:
        unit, effect, low, high, minimum = _display(measure, row)
        s = scaled(measure, row)
        out.update(unit=unit, effect=effect, effect_low=_finite(low), effect_high=_finite(high), minimum=minimum,
                   scaled=s.value / s.minimum, scaled_low=_finite(s.low / s.minimum),
                   scaled_high=_finite(s.high / s.minimum))
    return out


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def scorecard(tables: dict[str, pl.DataFrame], profile: Profile | None = None) -> pl.DataFrame:
    """One row per comparison × measure (module docstring); empty without an effects table."""
    profile = profile or Profile.default()
    rows = []
    effects = tables.get("effects")
    if effects is not None and not effects.is_empty():
        for row in effects.to_dicts():
            if row["measure"] in EFFECT_MEASURES:
                rows.append(_card_row({k: row[k] for k in SETTING}, row["measure"], row, profile, None))
    changes = tables.get("skill_changes")
    if changes is not None and not changes.is_empty():
        for row in changes.to_dicts():
            setting = {"axis": "variant", "a": row["a"], "b": row["b"], "variant": None, "players": row["players"],
                       "lineup": row["lineup"]}
            rows.append(_card_row(setting, "skill_edge", row, profile, row["policy"]))
    table = pl.DataFrame([{k: r.get(k) for k in SCORECARD_SCHEMA} for r in rows], schema=SCORECARD_SCHEMA)
    order = {m: i for i, m in enumerate((*EFFECT_MEASURES, "skill_edge"))}
    return (table.with_columns(_o=pl.col("measure").replace_strict(order, default=len(order)))
            .with_row_index("_i").sort(["a", "b", "_o", "_i"], maintain_order=True).drop("_o", "_i")
            if not table.is_empty() else table)


# ---- verdicts --------------------------------------------------------------------------------------
def verdict_of(judgements: Iterable[str]) -> str:
    seen = set(judgements)
    if GOOD in seen and BAD in seen:
        return MIXED
    if GOOD in seen:
        return BETTER
    if BAD in seen:
        return WORSE
    return CLOSE if UNCLEAR in seen else SAME


def verdicts(tables: dict[str, pl.DataFrame], profile: Profile | None = None) -> pl.DataFrame:
    """One row per rule (``level`` = ``rule``, rolled up over its settings) and per setting (``setting``);
    a rule none of whose measures the profile judges has none."""
    profile = profile or Profile.default()
    card = scorecard(tables, profile)
    rows = []
    if card.is_empty():
        return pl.DataFrame(schema=VERDICT_SCHEMA)
    described = profile.describe()
    for (axis, a, b), rule in card.group_by(["axis", "a", "b"], maintain_order=True):
        rule_rows = [r for r in rule.to_dicts() if r["judgement"] != NOT_JUDGED]
        if not rule_rows:
            continue   # the profile judges nothing this rule was measured on
        rows.append({"level": "rule", "axis": axis, "a": a, "b": b, **_verdict(rule_rows, profile),
                     "profile": described})
        settings: dict[tuple, list[dict]] = {}
        for r in rule_rows:
            settings.setdefault((r["variant"], r["players"], r["lineup"]), []).append(r)
        for (variant, players, lineup), these in sorted(settings.items(), key=_setting_order):
            rows.append({"level": "setting", "axis": axis, "a": a, "b": b, "variant": variant, "players": players,
                         "lineup": lineup, **_verdict(these, profile), "profile": described})
    return pl.DataFrame([{k: r.get(k) for k in VERDICT_SCHEMA} for r in rows], schema=VERDICT_SCHEMA)


def _setting_order(item) -> tuple:
    (variant, players, lineup), _ = item
    return (str(variant), players or 0, str(lineup))


def _verdict(rows: list[dict], profile: Profile) -> dict:
    """The verdict of card rows (one setting, or every setting of a rule) with its reasons."""
    by_measure: dict[str, list[dict]] = {}
    for r in rows:
        by_measure.setdefault(r["measure"], []).append(r)
    summary = {m: _measure_summary(these) for m, these in by_measure.items()}
    verdict = verdict_of(j for s in summary.values() for j in ((GOOD, BAD) if s == MIXED else (s,)))
    names = {k: [MEASURES[m].plain for m, s in summary.items() if s in v]
             for k, v in (("better_in", (GOOD, MIXED)), ("worse_in", (BAD, MIXED)), ("same_in", (NEUTRAL,)),
                          ("unclear_in", (UNCLEAR,)))}
    return {"verdict": verdict, **{k: "; ".join(v) for k, v in names.items()},
            "reason": _reason(verdict, by_measure, summary)}


def _measure_summary(rows: list[dict]) -> str:
    judgements = {r["judgement"] for r in rows}
    if GOOD in judgements and BAD in judgements:
        return MIXED
    for j in (GOOD, BAD, UNCLEAR):
        if j in judgements:
            return j
    return NEUTRAL


def _reason(verdict: str, by_measure: dict[str, list[dict]], summary: dict[str, str]) -> str:
    """"better: more lead changes (+38% to +45%), more comebacks (+2.1 points); same round length; too
    few games to tell: seat fairness." — the judged measures in profile order."""
    changed, same, unclear = [], [], []
    for measure, rows in by_measure.items():
        state = summary[measure]
        if state == NEUTRAL:
            same.append(MEASURES[measure].plain)
        elif state == UNCLEAR:
            unclear.append(MEASURES[measure].plain)
        else:
            changed.append(_change_text(measure, rows))
    parts = []
    if changed:
        parts.append(", ".join(changed))
    if same:
        parts.append("same " + _join(same))
    if unclear:
        parts.append("too few games to tell " + _join(unclear))
    return f"{verdict}: " + "; ".join(parts) + "."


def _change_text(measure: str, rows: list[dict]) -> str:
    """"more lead changes (+38% to +45%)" over the practical rows of one sign; both signs: each said,
    with "in some settings"."""
    info = MEASURES[measure]
    practical = [r for r in rows if r["class"] == PRACTICAL]
    policies = sorted({r["policy"] for r in practical if r["policy"]})
    policy = policies[0] if len(policies) == 1 else "the skilled player"
    texts = []
    for sign in (1, -1):
        these = [r for r in practical if (r["effect"] > 0) == (sign > 0)]
        if not these:
            continue
        words = info.changes[0 if sign > 0 else 1].format(policy=policy)
        some = " in some settings" if len(these) < len(rows) else ""
        # a length where most rounds hit the turn cap is a restricted mean, mostly the cap: no percentage
        measured = [r for r in these if not r.get("mostly_capped")]
        capped = "most rounds hit the turn cap" + (" in some settings" if measured else "")
        if not measured:
            texts.append(f"{words} ({capped}){some}")
            continue
        units = sorted({r["unit"] for r in measured})
        span = _span([r["effect"] for r in measured if r["unit"] == units[0]], units[0])
        texts.append(f"{words} ({span}{'; ' + capped if len(measured) < len(these) else ''}){some}")
    return ", ".join(texts)


def _span(values: list[float], unit: str) -> str:
    """"+38% to +45%", "+2.1 points": the smallest and largest effect of one sign, one precision."""
    lo, hi = min(values, key=abs), max(values, key=abs)
    d = decimals_for(lo, hi)
    low, high = render_number(lo, f"+.{d}f"), render_number(hi, f"+.{d}f")
    suffix = "%" if unit == "%" else f" {unit}"
    return f"{low}{suffix}" if low == high else f"{low}{suffix} to {high}{suffix}"


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# ---- as claims -------------------------------------------------------------------------------------
def verdict_claims(tables: dict[str, pl.DataFrame], profile: Profile | None = None) -> list[Claim]:
    """Each verdict of :func:`verdicts` as a claim (section ``verdict``): the rule's first, then its settings."""
    profile = profile or Profile.default()
    out = []
    for row in verdicts(tables, profile).to_dicts():
        subject = f"{row['b']} (vs {row['a']})"
        scope = "" if row["level"] == "rule" else _scope_text(row)
        text = f"{scope}: {row['reason']}" if scope else row["reason"]
        key = tuple((c, str(row[c])) for c in ("level", *SETTING))
        out.append(Claim(kind="verdict", subject=subject, measure="verdict", table="verdicts", rows=(key,),
                         text=text, scope=scope, section="verdict", verdict=row["verdict"],
                         family=f"verdict under the profile: {row['profile']}"))
    return out


def _scope_text(row: dict) -> str:
    where = [f"{row['players']}p" if row["players"] is not None else "", row["variant"] or "",
             f"lineup {row['lineup']}" if row["lineup"] else ""]
    return "at " + " ".join(w for w in where if w)


def ranked(found: list[Claim], profile: Profile | None = None) -> list[Claim]:
    """``found`` ordered by what ``profile`` cares about: the rules' verdicts (better and worse before mixed,
    too close to call and same), then the effects of the measures it judges (largest in multiples of the
    minimum effect first), then every other claim in its usual order."""
    profile = profile or Profile.default()
    judged = set(profile.judged())
    order = {v: i for i, v in enumerate((BETTER, WORSE, MIXED, CLOSE, SAME))}

    def key(item: tuple[int, Claim]) -> tuple:
        i, c = item
        if c.section == "verdict":
            return (0, 0 if not c.scope else 1, order.get(c.verdict, 9), i)
        if c.kind == "effect" and (c.measure in judged):
            return (1, 0, -c.size, i)
        return (2, 0, 0, i)
    return [c for _, c in sorted(enumerate(found), key=key)]
