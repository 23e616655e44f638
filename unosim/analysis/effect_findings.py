"""The claims of the ``effects`` table: what each rule (or lineup) does to the game, as checked sentences.

Per comparison and lineup, each measure's rows are classed on their intervals (:mod:`.practical`,
docs/rules.md §8.2) and stated by class:

* **effect** — Holm-supported and the whole raw 95 % interval beyond the minimum effect: "rounds 12–18 %
  longer, largest at 4p 18 % [+15 %, +21 %] …", one sentence per sign;
* **negligible** — the whole interval within ± the minimum effect (supported or not);
* **inconclusive** — supported but the interval reaches across the minimum ("a detectable change, not
  clearly of practical size"), with the games per cell that would decide;
* **no effect** — not supported and not negligible: "no detectable change", with the games that would
  decide;
* **identical** — the cells played identical games (an upper bound on the share of games changed).

A length from cells where most rounds hit the turn cap is not stated as a relative change: the
restricted mean there is mostly the cap itself, so the sentence gives the capped shares instead.
"""

from __future__ import annotations

import polars as pl

from .claims import Claim, Sentence, decimals_for, effect_size
from .measures import EFFECT_MEASURES, MEASURES
from .phrasing import claim_of, count_span, join, p_holm_text, span, supported
from .practical import INCONCLUSIVE, NEGLIGIBLE, PRACTICAL, classify, number

TABLE = "effects"
#: a length whose cells have more than this share of rounds at the turn cap is not a length (§8.3)
MOSTLY_CAPPED = 0.5
#: the measures whose sentences give each cell's share of rounds stopped by the turn cap: the length (a
#: restricted mean) and the measures of each cell's own won rounds (a capped round is not among them)
CAPPED_MEASURES = ("length", "lead_changes", "comebacks")


def effect_claims(effects: pl.DataFrame) -> list[Claim]:
    """Every claim of the effects table (module docstring)."""
    out = []
    for (axis, a, b), group in effects.group_by(["axis", "a", "b"], maintain_order=True):
        subject = f"{b} (vs {a})"
        scopes = group.group_by(["lineup"], maintain_order=True) if axis == "variant" else [(("",), group)]
        for (lineup,), scoped in scopes:
            out += _scope_claims(subject, _scope(axis, lineup), scoped.to_dicts())
    return out


def _scope(axis: str, lineup: str) -> str:
    if axis != "variant":
        return ""
    return "with all-random players" if lineup == "random" else f"with lineup {lineup}"


def setting(row: dict) -> str:
    if row["axis"] == "lineup":
        return f"{row['variant']} {row['players']}p"
    return f"{row['players']}p"


def _lead(scope: str, rows: list[dict]) -> str:
    where = "at " + join(list(dict.fromkeys(setting(r) for r in rows)), "and")
    return f"{scope} {where}: " if scope else f"{where}: "


def mostly_capped(row: dict) -> bool:
    return row["measure"] == "length" and max(number(row.get("truncated_a")) or 0,
                                               number(row.get("truncated_b")) or 0) > MOSTLY_CAPPED


def _scope_claims(subject: str, scope: str, rows: list[dict]) -> list[Claim]:
    out = []
    identical = [r for r in rows if r["identical"]]
    if identical:
        out.append(_identical_claim(subject, scope, identical))
    live = [r for r in rows if not r["identical"]]
    quiet = []
    for measure in EFFECT_MEASURES:
        measured = [r for r in live if r["measure"] == measure]
        capped = [r for r in measured if mostly_capped(r)]
        if capped:
            out.append(_capped_claim(subject, scope, capped))
        classes = [(r, classify(measure, r)) for r in measured if not mostly_capped(r)]
        large = [r for r, c in classes if c == PRACTICAL]
        groups = [large] if measure == "fairness" else [[r for r in large if r["estimate"] > 0],
                                                          [r for r in large if r["estimate"] < 0]]
        out += [_effect_claim(subject, scope, measure, g) for g in groups if g]
        small = [r for r, c in classes if c == NEGLIGIBLE]
        if small:
            out.append(_negligible_claim(subject, scope, measure, small))
        unclear = [r for r, c in classes if c == INCONCLUSIVE and supported(r)]
        if unclear:
            out.append(_inconclusive_claim(subject, scope, measure, unclear))
        quiet += [r for r, c in classes if c == INCONCLUSIVE and not supported(r)]
    if quiet:
        out.append(_quiet_claim(subject, scope, quiet))
    return out


def _best(measure: str, rows: list[dict]) -> int:
    return max(range(len(rows)), key=lambda i: effect_size(measure, rows[i]))


def relative(row: dict) -> bool:
    """The row's relative change and both Fieller bounds are finite (a bounded ratio interval)."""
    return all(number(row.get(c)) is not None for c in ("rel_change", "rel_low", "rel_high")) \
        and row.get("mean_a") not in (None, 0.0)


def _effect_claim(subject: str, scope: str, measure: str, rows: list[dict]) -> Claim:
    best = _best(measure, rows)
    s = Sentence().add(_lead(scope, rows))
    if measure == "fairness":
        _fairness_change_text(s, rows, best)
        direction = 0
    else:
        direction = 1 if rows[0]["estimate"] > 0 else -1
        _measure_text(s, measure, rows, best, direction)
    r = rows[best]
    s.add("; ")
    p_holm_text(s, rows, best)
    if len(rows) > 1:
        s.add(" at the largest")
    s.add(".")
    return claim_of("effect", subject, measure, TABLE, rows, s, scope=scope, direction=direction,
                    estimate=r["estimate"], ci_low=r["ci_low"], ci_high=r["ci_high"], interval="raw 95%",
                    p=r["p_value"], p_holm=r["p_holm"], supported=True, practical=True,
                    size=max(effect_size(measure, x) for x in rows))


def _scale(measure: str, rows: list[dict]) -> tuple[str, float, str, str, str]:
    """(column, scale, unit, low column, high column) every row of a sentence is printed in."""
    info = MEASURES[measure]
    if info.relative and all(relative(r) for r in rows):
        return "rel_change", 100, "%", "rel_low", "rel_high"
    if not info.relative:
        return "estimate", 100, " points", "ci_low", "ci_high"
    return "estimate", 1, " turns" if measure == "length" else "", "ci_low", "ci_high"   # "what" names the rest


def _measure_text(s: Sentence, measure: str, rows: list[dict], best: int, direction: int) -> None:
    """"rounds 12–18% longer, largest at 4p 18% [+15%, +21%], raw 95% (41 → 48 turns)"; the absolute
    difference instead when a row has no bounded relative interval (a zero baseline, Fieller unbounded)."""
    info = MEASURES[measure]
    word, what = (info.more if direction > 0 else info.less), info.what
    capped = measure in CAPPED_MEASURES and any((r.get("truncated_a") or 0) > 0 or (r.get("truncated_b") or 0) > 0
                                                for r in rows)
    truncated = capped and measure == "length"
    if truncated:
        what = "rounds (restricted mean up to the turn cap)"
    column, scale, unit, low, high = _scale(measure, rows)
    if column == "rel_change" and (info.subject_first or truncated):
        s.add(f"{what} ")
        span(s, rows, column, scale, unit)
        s.add(f" {word}")
    elif column == "rel_change":
        span(s, rows, column, scale, unit)
        s.add(f" {word} {what}")
    else:
        s.add(f"{word} {what}: ")
        span(s, rows, column, scale, unit)
    r = rows[best]
    d = decimals_for(*(x[column] * scale for x in rows))  # the span's precision
    if len(rows) > 1:
        s.add(f", largest at {setting(r)} ").num(rows, best, column, f".{d}f", scale, absolute=True).add(unit)
    percent = "%" if column == "rel_change" else ""
    s.add(" [").num(rows, best, low, f"+.{d}f", scale).add(f"{percent}, ")
    s.num(rows, best, high, f"+.{d}f", scale).add(f"{percent}], raw 95% (")
    _means(s, measure, rows, best)
    if capped:  # the setting with the most capped rounds
        t = max(range(len(rows)), key=lambda i: max(rows[i]["truncated_a"] or 0, rows[i]["truncated_b"] or 0))
        s.add("; " + (f"at {setting(rows[t])} " if len(rows) > 1 else ""))
        _capped_shares(s, rows, t)
    s.add(")")


def _capped_shares(s: Sentence, rows: list[dict], t: int) -> None:
    d = decimals_for(rows[t]["truncated_a"] * 100, rows[t]["truncated_b"] * 100, digits=2)
    s.num(rows, t, "truncated_b", f".{d}f", 100).add("% of rounds hit the ")
    s.num(rows, t, "cap", ",.0f").add("-turn cap with the rule, ")
    s.num(rows, t, "truncated_a", f".{d}f", 100).add("% without")


def _means(s: Sentence, measure: str, rows: list[dict], best: int) -> None:
    r, info = rows[best], MEASURES[measure]
    if info.share_of:
        d = decimals_for(r["mean_a"] * 100, r["mean_b"] * 100, digits=3)
        s.num(rows, best, "mean_a", f".{d}f", 100).add("% → ").num(rows, best, "mean_b", f".{d}f", 100)
        s.add(f"% {info.share_of}")
        return
    d = decimals_for(r["mean_a"], r["mean_b"], abs(r["mean_b"] - r["mean_a"]), digits=2)
    s.num(rows, best, "mean_a", f",.{d}f").add(" → ").num(rows, best, "mean_b", f",.{d}f")
    s.add(" turns" if measure == "length" else "")


def _fairness_change_text(s: Sentence, rows: list[dict], best: int) -> None:
    r = rows[best]
    s.add("the split of wins by position after the dealer changes (")
    s.add(str(r["test"]))
    s.add(f"; largest at {setting(r)}: " if len(rows) > 1 else ": ")
    s.add("the spread of win rates by position goes from ")
    d = decimals_for(r["mean_a"] * 100, r["mean_b"] * 100, digits=2)
    s.num(rows, best, "mean_a", f".{d}f", 100).add(" to ").num(rows, best, "mean_b", f".{d}f", 100)
    e = decimals_for(r["estimate"] * 100)
    s.add(" points, a change of [").num(rows, best, "ci_low", f"+.{e}f", 100).add(", ")
    s.num(rows, best, "ci_high", f"+.{e}f", 100).add("] points, bootstrap 95%)")


def _negligible_claim(subject: str, scope: str, measure: str, rows: list[dict]) -> Claim:
    info = MEASURES[measure]
    column, scale, unit, low, high = _scale(measure, rows)
    s = Sentence().add(_lead(scope, rows))
    s.add(f"{info.plain}: negligible — every raw 95% interval lies within the minimum effect worth stating (± "
          f"{info.minimum_text}")
    if info.relative and column == "estimate":
        s.add(f"; ± {info.zero_baseline:g}{unit} from a zero baseline")
    s.add(")")
    widest = max(range(len(rows)), key=lambda i: max(abs(rows[i][low] * scale), abs(rows[i][high] * scale)))
    s.add("; widest [")
    d = decimals_for(rows[widest][column] * scale, rows[widest][low] * scale, rows[widest][high] * scale)
    percent = "%" if unit == "%" else ""
    s.num(rows, widest, low, f"+.{d}f", scale).add(f"{percent}, ").num(rows, widest, high, f"+.{d}f", scale)
    s.add(f"{percent}]{'' if percent else unit}.")
    return claim_of("negligible", subject, measure, TABLE, rows, s, scope=scope, practical=False,
                    size=max(effect_size(measure, x) for x in rows))


def _inconclusive_claim(subject: str, scope: str, measure: str, rows: list[dict]) -> Claim:
    info = MEASURES[measure]
    column, scale, unit, low, high = _scale(measure, rows)
    best = _best(measure, rows)
    s = Sentence().add(_lead(scope, rows))
    s.add(f"{info.plain}: a detectable change, but not clearly of practical size (± {info.minimum_text}): ")
    r = rows[best]
    d = decimals_for(r[column] * scale)
    s.num(rows, best, column, f"+.{d}f", scale).add(unit)
    percent = "%" if unit == "%" else ""
    if number(r.get(low)) is not None and number(r.get(high)) is not None:
        s.add(" [").num(rows, best, low, f"+.{d}f", scale).add(f"{percent}, ").num(rows, best, high, f"+.{d}f", scale)
        s.add(f"{percent}], raw 95%")
    else:
        s.add(" (no interval)")
    s.add(f" at {setting(r)}" if len(rows) > 1 else "")
    s.add("; inconclusive at this size")
    _games_to_decide(s, rows)
    s.add(".")
    return claim_of("inconclusive", subject, measure, TABLE, rows, s, scope=scope, supported=True,
                    size=max(effect_size(measure, x) for x in rows))


def _games_to_decide(s: Sentence, rows: list[dict]) -> None:
    """"; about 12,000 games per cell would decide" (the largest of the rows), when every row can say."""
    games = [number(r.get("games_to_decide")) for r in rows]
    if rows and all(g is not None for g in games):
        most = max(range(len(rows)), key=lambda i: games[i])
        s.add(": about ").num(rows, most, "games_to_decide", ",.0f").add(" games per cell would decide")


def _quiet_claim(subject: str, scope: str, rows: list[dict]) -> Claim:
    measures = list(dict.fromkeys(r["measure"] for r in rows))
    s = Sentence().add(_lead(scope, rows))
    s.add(f"no detectable change in {join([MEASURES[m].plain for m in measures])} (Holm-adjusted; ")
    count_span(s, rows, "n", " games per cell")
    s.add("), but no change worth stating is ruled out either: inconclusive at this size")
    _games_to_decide(s, rows)
    s.add(".")
    return claim_of("no_effect", subject, ",".join(measures), TABLE, rows, s, scope=scope, supported=False)


def _capped_claim(subject: str, scope: str, rows: list[dict]) -> Claim:
    """A length where most rounds hit the cap: the capped shares, not a relative change of a restricted mean."""
    t = max(range(len(rows)), key=lambda i: max(rows[i]["truncated_a"] or 0, rows[i]["truncated_b"] or 0))
    s = Sentence().add(_lead(scope, rows)).add("round length is not measurable here: ")
    _capped_shares(s, rows, t)
    s.add(" (a mean up to the cap would mostly be the cap; see rounds with no winner).")
    return claim_of("note", subject, "length", TABLE, rows, s, scope=scope)


def _identical_claim(subject: str, scope: str, rows: list[dict]) -> Claim:
    smallest = min(range(len(rows)), key=lambda i: rows[i]["n"])
    s = Sentence().add(_lead(scope, rows)).add("changed none of the ")
    several = len({setting(r) for r in rows}) > 1
    s.num(rows, smallest, "n", ",.0f").add(" games" + (" per setting" if several else "")
                                          + " (every round identical to the baseline): if it acts at all "
                                            "under these policies, it changes at most ")
    s.num(rows, smallest, "n", "upper95").add("% of games (95% upper bound).")
    return claim_of("identical", subject, "all", TABLE, rows, s, scope=scope)
