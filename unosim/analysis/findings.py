"""Plain-language findings: claims built from the analysis tables, rendered as sentences.

``tables → claims (this module) → checked claims (:mod:`.checker`) → sentences / HTML`` is the one code
path of the report and of anything else that shows findings (for a pair of cells: pass the tables of
that pair). Rules the sentences follow (docs/rules.md §8):

* a row is stated as an effect only when Holm's adjusted p-value (its table is one family) is below
  0.05 *and* the effect reaches its measure's minimum (:data:`.claims.MIN_EFFECT`); a supported effect
  below the minimum is listed as negligible, never headlined; a measure without support is "no
  detectable change" — stated only for the rows that have none;
* every Holm-supported row is stated: rows of different signs are different sentences, every lineup is
  its own scope ("with all-random players: …; with lineup greedy_first: …");
* intervals are the rows' raw 95 % intervals and are labelled so; an unbounded relative interval is
  never printed (the absolute difference is); numbers carry enough digits that a nonzero effect never
  prints as 0;
* truncation is said: a length from cells with rounds at the turn cap is the restricted mean, with the
  share of capped rounds; comebacks and lead changes are over the rounds with a winner, and the share
  of rounds with no winner is a measure of its own;
* findings are ranked on one scale: the effect in multiples of its measure's minimum effect.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import polars as pl

from ..game import rules
from .claims import (
    ALPHA,
    FAMILIES,
    MIN_EFFECT,
    Claim,
    Number,
    Sentence,
    decimals_for,
    effect_size,
    row_key,
)
from .skill_findings import skill_change_claims, skill_lead_claims

_PHRASES = {  # measure → (word when larger, word when smaller, what)
    "length": ("longer", "shorter", "rounds"),
    "lead_changes": ("more", "fewer", "lead changes per round with a winner"),
    "comebacks": ("more", "fewer", "comebacks (share of won rounds won from ≥ 3 cards behind)"),
    "no_winner": ("more", "fewer", "rounds with no winner (a stalemate or the turn cap)"),
    "max_hand": ("larger", "smaller", "the largest hand"),
    "penalty": ("larger", "smaller", "draw penalties"),
    "knockouts": ("more", "fewer", "knock-outs per round"),
}
_SUBJECT_FIRST = ("length", "max_hand", "penalty")  # "rounds 12% longer", not "12% longer rounds"
_ORDER = ("length", "no_winner", "lead_changes", "comebacks", "max_hand", "penalty", "knockouts", "fairness")
#: the measures that are shares of rounds: stated in percentage points, of which rounds
_SHARE_OF = {"comebacks": "of won rounds", "no_winner": "of rounds"}
_NAMES = {"fairness": "seat fairness", "length": "length",
          "lead_changes": "tension", "comebacks": "comebacks", "no_winner": "rounds with no winner",
          "max_hand": "hand sizes",
          "penalty": "penalties", "knockouts": "knock-outs"}
_RANK = {"effect": 0, "negligible": 2, "note": 2, "no_effect": 3, "identical": 4}


@dataclass(frozen=True)
class Finding:
    """What the report lists: one claim's sentence under its subject."""

    subject: str
    text: str
    size: float
    section: str
    kind: str


def claims(tables: dict[str, pl.DataFrame]) -> list[Claim]:
    """Every claim of the tables (effects, skill, fairness, card values, a tournament), ranked."""
    out: list[Claim] = []
    for name, build in _BUILDERS:
        if name in tables and not tables[name].is_empty():
            out += build(tables[name])
    return sorted(out, key=lambda c: (_RANK[c.kind], -c.size))


def findings(tables: dict[str, pl.DataFrame]) -> list[Finding]:
    """The claims as the report lists them, most important first."""
    return [Finding(c.subject, c.text, c.size, c.section, c.kind) for c in claims(tables)]


def headline(found: list[Claim]) -> str:
    """How many comparisons show an effect of practical size, counted over the comparisons."""
    effects = [c for c in found if c.table == "effects"]
    subjects = list(dict.fromkeys(c.subject for c in effects))
    if not subjects:
        return ""
    strong = {c.subject for c in effects if c.kind == "effect"}
    identical = {c.subject for c in effects if c.kind == "identical"} - strong
    quiet = len(subjects) - len(strong)
    text = f"{len(strong)} of {len(subjects)} comparisons {_show(len(strong))} an effect of practical size in at least one setting"
    if quiet:
        text += f"; {quiet} {_show(quiet)} none"
        if identical:
            text += (" (it changed no game)" if quiet == 1 else " (none of them changed a game)"
                     if len(identical) == quiet else f" ({len(identical)} of them changed no game)")
    return text + "."


def _show(count: int) -> str:
    return "shows" if count == 1 else "show"


# ---- effects ---------------------------------------------------------------------------------------
def _scope(axis: str, lineup: str) -> str:
    if axis != "variant":
        return ""
    return "with all-random players" if lineup == "random" else f"with lineup {lineup}"


def _setting(row: dict) -> str:
    if row["axis"] == "lineup":
        return f"{row['variant']} {row['players']}p"
    return f"{row['players']}p"


def _settings(rows: list[dict]) -> str:
    return _join(list(dict.fromkeys(_setting(r) for r in rows)), "and")


def _lead(scope: str, rows: list[dict]) -> str:
    where = f"at {_settings(rows)}"
    return f"{scope} {where}: " if scope else f"{where}: "


def _effect_claims(effects: pl.DataFrame) -> list[Claim]:
    out = []
    for (axis, a, b), group in effects.group_by(["axis", "a", "b"], maintain_order=True):
        subject = f"{b} (vs {a})"
        scopes = group.group_by(["lineup"], maintain_order=True) if axis == "variant" else [(("",), group)]
        for (lineup,), scoped in scopes:
            out += _scope_claims(subject, _scope(axis, lineup), scoped.to_dicts())
    return out


def _supported(row: dict) -> bool:
    return row.get("p_holm") is not None and not math.isnan(row["p_holm"]) and row["p_holm"] < ALPHA


def _scope_claims(subject: str, scope: str, rows: list[dict]) -> list[Claim]:
    out = []
    identical = [r for r in rows if r["identical"]]
    if identical:
        out.append(_identical_claim(subject, scope, identical))
    live = [r for r in rows if not r["identical"]]
    quiet = []
    for measure in _ORDER:
        measured = [r for r in live if r["measure"] == measure]
        supported = [r for r in measured if _supported(r)]
        if measured and not supported:
            quiet += measured
            continue
        large = [r for r in supported if effect_size(measure, r) >= 1]
        small = [r for r in supported if not effect_size(measure, r) >= 1]
        groups = [large] if measure == "fairness" else [[r for r in large if r["estimate"] > 0],
                                                          [r for r in large if r["estimate"] < 0]]
        out += [_effect_claim(subject, scope, measure, g) for g in groups if g]
        if small:
            out.append(_negligible_claim(subject, scope, measure, small))
    if quiet:
        out.append(_quiet_claim(subject, scope, quiet))
    return out


def _claim(kind: str, subject: str, measure: str, table: str, rows: list[dict], sentence: Sentence,
           **fields) -> Claim:
    return Claim(kind=kind, subject=subject, measure=measure, table=table,
                 rows=tuple(row_key(table, r) for r in rows), text=sentence.text,
                 numbers=tuple(sentence.numbers), family=FAMILIES[table][1], **fields)


def _best(measure: str, rows: list[dict]) -> int:
    return max(range(len(rows)), key=lambda i: effect_size(measure, rows[i]))


def _relative(row: dict) -> bool:
    """The row's relative change and both Fieller bounds are finite (a bounded ratio interval)."""
    return all(row.get(c) is not None and math.isfinite(row[c]) for c in ("rel_change", "rel_low", "rel_high")) \
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
    s.add("; p (Holm) ")
    s.add("< 1e−300" if r["p_holm"] == 0 else "= ")
    if r["p_holm"] != 0:
        s.num(rows, best, "p_holm", ".2g")
    if len(rows) > 1:
        s.add(" at the largest")
    s.add(".")
    return _claim("effect", subject, measure, "effects", rows, s, scope=scope, direction=direction,
                  estimate=r["estimate"], ci_low=r["ci_low"], ci_high=r["ci_high"],
                  interval="raw 95%" if r["ci_low"] is not None else "", p=r["p_value"], p_holm=r["p_holm"],
                  supported=True, practical=True, size=max(effect_size(measure, x) for x in rows))


def _measure_text(s: Sentence, measure: str, rows: list[dict], best: int, direction: int) -> None:
    """"rounds 12–18% longer, largest at 4p 18% [+15%, +21%], raw 95% (41 → 48 turns)"; the absolute
    difference instead when a row has no bounded relative interval (a zero baseline, Fieller unbounded)."""
    more, less, what = _PHRASES[measure]
    word = more if direction > 0 else less
    truncated = measure == "length" and any((r.get("truncated_a") or 0) > 0 or (r.get("truncated_b") or 0) > 0
                                            for r in rows)
    if truncated:
        what = "rounds (restricted mean up to the turn cap)"
    share = measure in _SHARE_OF
    relative = not share and all(_relative(r) for r in rows)
    column, scale, unit = ("rel_change", 100, "%") if relative else \
        ("estimate", 100, " points") if share else ("estimate", 1, " turns" if measure == "length" else "")
    low, high = ("rel_low", "rel_high") if relative else ("ci_low", "ci_high")
    if relative and (measure in _SUBJECT_FIRST or truncated):
        s.add(f"{what} ")
        _span(s, rows, column, scale, unit)
        s.add(f" {word}")
    elif relative:
        _span(s, rows, column, scale, unit)
        s.add(f" {word} {what}")
    else:
        s.add(f"{word} {what}: ")
        _span(s, rows, column, scale, unit)
    r = rows[best]
    d = decimals_for(*(x[column] * scale for x in rows))  # the span's precision
    if len(rows) > 1:
        s.add(f", largest at {_setting(r)} ").num(rows, best, column, f".{d}f", scale, absolute=True).add(unit)
    percent = "%" if relative else ""
    s.add(" [").num(rows, best, low, f"+.{d}f", scale).add(f"{percent}, ")
    s.num(rows, best, high, f"+.{d}f", scale).add(f"{percent}], raw 95% (")
    _means(s, measure, rows, best)
    if truncated:  # the setting with the most capped rounds
        t = max(range(len(rows)), key=lambda i: max(rows[i]["truncated_a"] or 0, rows[i]["truncated_b"] or 0))
        d = decimals_for(rows[t]["truncated_a"] * 100, rows[t]["truncated_b"] * 100, digits=2)
        s.add("; " + (f"at {_setting(rows[t])} " if len(rows) > 1 else ""))
        s.num(rows, t, "truncated_b", f".{d}f", 100).add("% of rounds hit the ")
        s.num(rows, t, "cap", ",.0f").add("-turn cap with the rule, ")
        s.num(rows, t, "truncated_a", f".{d}f", 100).add("% without")
    s.add(")")


def _means(s: Sentence, measure: str, rows: list[dict], best: int) -> None:
    r = rows[best]
    if measure in _SHARE_OF:
        d = decimals_for(r["mean_a"] * 100, r["mean_b"] * 100, digits=3)
        s.num(rows, best, "mean_a", f".{d}f", 100).add("% → ").num(rows, best, "mean_b", f".{d}f", 100)
        s.add(f"% {_SHARE_OF[measure]}")
        return
    d = decimals_for(r["mean_a"], r["mean_b"], abs(r["mean_b"] - r["mean_a"]), digits=2)
    s.num(rows, best, "mean_a", f",.{d}f").add(" → ").num(rows, best, "mean_b", f",.{d}f")
    s.add(" turns" if measure == "length" else "")


def _spec(value: float, absolute: bool) -> str:
    return f".{decimals_for(value)}f" if absolute else f"+.{decimals_for(value)}f"


def _span(s: Sentence, rows: list[dict], column: str, scale: float, unit: str) -> None:
    """``x%`` for one row, ``lo–hi%`` (absolute values, one precision) for several."""
    order = sorted(range(len(rows)), key=lambda i: abs(rows[i][column]))
    lo, hi = order[0], order[-1]
    d = decimals_for(*(rows[i][column] * scale for i in (lo, hi)))
    s.num(rows, lo, column, f".{d}f", scale, absolute=True)
    low_text = s.numbers[-1].text
    if len(rows) > 1 and lo != hi and Number.of(rows, hi, column, f".{d}f", scale, True).text != low_text:
        s.add("–").num(rows, hi, column, f".{d}f", scale, absolute=True)
    s.add(unit)


def _interval(s: Sentence, rows: list[dict], i: int, scale: float) -> None:
    d = decimals_for(rows[i]["estimate"] * scale)
    s.num(rows, i, "ci_low", f"+.{d}f", scale).add(", ").num(rows, i, "ci_high", f"+.{d}f", scale)


def _fairness_change_text(s: Sentence, rows: list[dict], best: int) -> None:
    r = rows[best]
    s.add("the split of wins by position after the dealer changes (")
    s.add(str(r["test"]))
    s.add(f"; largest at {_setting(r)}: " if len(rows) > 1 else ": ")
    s.add("the spread of win rates by position goes from ")
    d = decimals_for(r["mean_a"] * 100, r["mean_b"] * 100, digits=2)
    s.num(rows, best, "mean_a", f".{d}f", 100).add(" to ").num(rows, best, "mean_b", f".{d}f", 100)
    s.add(" points)")


def _negligible_claim(subject: str, scope: str, measure: str, rows: list[dict]) -> Claim:
    best = _best(measure, rows)
    kind, minimum = MIN_EFFECT[measure]
    s = Sentence().add(_lead(scope, rows))
    s.add(f"{_NAMES[measure]}: a detectable change, but below the minimum effect worth stating ("
          + (f"{minimum:.0%} relative" if kind == "relative" else f"{minimum * 100:g} points") + ")")
    r = rows[best]
    if measure != "fairness" and _relative(r) and kind == "relative":
        s.add("; largest ").num(rows, best, "rel_change", _spec(r["rel_change"] * 100, False), 100).add("%")
    elif measure != "fairness":
        scale = 100 if kind == "absolute" else 1
        s.add("; largest ").num(rows, best, "estimate", _spec(r["estimate"] * scale, False), scale)
        s.add(" points" if kind == "absolute" else "")
    s.add(": negligible.")
    return _claim("negligible", subject, measure, "effects", rows, s, scope=scope, supported=True,
                  practical=False, size=max(effect_size(measure, x) for x in rows), p_holm=r["p_holm"])


def _quiet_claim(subject: str, scope: str, rows: list[dict]) -> Claim:
    measures = list(dict.fromkeys(r["measure"] for r in rows))
    s = Sentence().add(_lead(scope, rows))
    s.add(f"no detectable change in {_join([_NAMES[m] for m in measures])} (Holm-adjusted; ")
    smallest = min(range(len(rows)), key=lambda i: rows[i]["n"])
    s.num(rows, smallest, "n", ",.0f").add(" games or more per cell).")
    return _claim("no_effect", subject, ",".join(measures), "effects", rows, s, scope=scope, supported=False)


def _identical_claim(subject: str, scope: str, rows: list[dict]) -> Claim:
    smallest = min(range(len(rows)), key=lambda i: rows[i]["n"])
    s = Sentence().add(_lead(scope, rows)).add("changed none of the ")
    several = len({_setting(r) for r in rows}) > 1
    s.num(rows, smallest, "n", ",.0f").add(" games" + (" per setting" if several else "")
                                          + " (every round identical to the baseline): if it acts at all "
                                            "under these policies, it changes at most ")
    s.num(rows, smallest, "n", "upper95").add("% of games (95% upper bound).")
    return _claim("identical", subject, "all", "effects", rows, s, scope=scope)


# ---- skill -----------------------------------------------------------------------------------------
def _skill_claims(skill: pl.DataFrame) -> list[Claim]:
    out = []
    for (lineup,), group in skill.group_by(["lineup"], maintain_order=True):
        rows = group.to_dicts()
        policy = rows[0]["policy"]
        scope = f"in one seat of lineup {lineup}" if lineup != policy else "in one seat"
        supported = [r for r in rows if _supported(r)]
        large = [r for r in supported if effect_size("skill", r) >= 1]
        small = [r for r in supported if not effect_size("skill", r) >= 1]
        for sign, word, most in ((1, "more", "most"), (-1, "less", "least")):
            these = [r for r in large if (r["estimate"] > 0) == (sign > 0)]
            if not these:
                continue
            best = max(range(len(these)), key=lambda i: abs(these[i]["estimate"]))
            b = these[best]
            s = Sentence().add(f"{scope} wins {word} than its fair share 1/N of the rounds with a winner in "
                               f"{len(these)} of {len(rows)} cells, by ")
            _span(s, these, "estimate", 100, " points")
            s.add(f"; {most} in {b['variant']} at {b['players']} players (")
            s.num(these, best, "win_rate", f".{decimals_for(b['win_rate'] * 100, digits=3)}f", 100)
            s.add("% of won rounds against ").num(these, best, "fair_share", ".1f", 100).add("%, [")
            _interval(s, these, best, 100)
            s.add("] points, raw 95%; p (Holm) ")
            s.add("< 1e−300" if b["p_holm"] == 0 else "= ")
            if b["p_holm"] != 0:
                s.num(these, best, "p_holm", ".2g")
            s.add(").")
            out.append(_claim("effect", policy, "skill", "skill", these, s, scope=scope, direction=sign,
                              estimate=b["estimate"], ci_low=b["ci_low"], ci_high=b["ci_high"],
                              interval="raw 95%", p=b["p_value"], p_holm=b["p_holm"], supported=True,
                              practical=True, size=max(effect_size("skill", r) for r in these), section="skill"))
        if small:
            s = Sentence().add(f"{scope}: its share of won rounds differs detectably from 1/N in {len(small)} "
                               f"of {len(rows)} cells, but by less than {MIN_EFFECT['skill'][1] * 100:g} "
                               "point: negligible.")
            out.append(_claim("negligible", policy, "skill", "skill", small, s, scope=scope, supported=True,
                              practical=False, section="skill"))
        quiet = [r for r in rows if not _supported(r)]
        if quiet:
            s = Sentence().add(f"{scope} wins neither more nor less than its fair share of won rounds "
                               f"detectably in {len(quiet)} of {len(rows)} cells (Holm-adjusted).")
            out.append(_claim("no_effect", policy, "skill", "skill", quiet, s, scope=scope, supported=False,
                              section="skill"))
    return out


# ---- seat fairness ---------------------------------------------------------------------------------
def _fairness_claims(fairness: pl.DataFrame) -> list[Claim]:
    rows = fairness.to_dicts()
    supported = [r for r in rows if _supported(r)]
    large = sorted([r for r in supported if effect_size("spread", r) >= 1], key=lambda r: -r["estimate"])
    small = [r for r in supported if not effect_size("spread", r) >= 1]
    quiet = [r for r in rows if not _supported(r)]
    out = []
    if large:
        r = large[0]
        cells = ", ".join(f"{x['variant']} {x['players']}p ({x['lineup']})" for x in large[:4])
        more = f" and {len(large) - 4} more (see the fairness table)" if len(large) > 4 else ""
        s = Sentence().add(f"the position after the dealer matters in {len(large)} of {len(rows)} cells: "
                           f"{cells}{more}. Largest: {r['variant']} at {r['players']} players, lineup "
                           f"{r['lineup']}: position {r['best']} wins most and {r['worst']} least, a spread of ")
        d = decimals_for(r["estimate"] * 100, r["ci_low"] * 100, r["ci_high"] * 100, digits=2)
        s.num(large, 0, "estimate", f".{d}f", 100).add(" points [").num(large, 0, "ci_low", f".{d}f", 100)
        s.add(", ").num(large, 0, "ci_high", f".{d}f", 100).add("], raw 95%, Tukey; range test p (Holm) ")
        s.add("< 1e−300" if r["p_holm"] == 0 else "= ")
        if r["p_holm"] != 0:
            s.num(large, 0, "p_holm", ".2g")
        s.add(").")
        out.append(_claim("effect", "Seat fairness", "spread", "fairness", large, s, direction=1,
                          estimate=r["estimate"], ci_low=r["ci_low"], ci_high=r["ci_high"], interval="raw 95%",
                          p=r["range_p"], p_holm=r["p_holm"], supported=True, practical=True,
                          size=effect_size("spread", r), section="fairness"))
    if small:
        s = Sentence().add(f"in {len(small)} of {len(rows)} cells the positions differ detectably, by less "
                           f"than {MIN_EFFECT['spread'][1] * 100:g} point of spread: negligible.")
        out.append(_claim("negligible", "Seat fairness", "spread", "fairness", small, s, supported=True,
                          practical=False, section="fairness"))
    if quiet:
        s = Sentence().add(f"no position after the dealer wins detectably more often than another in "
                           f"{len(quiet)} of {len(rows)} cells (range test, Holm-adjusted).")
        out.append(_claim("no_effect", "Seat fairness", "spread", "fairness", quiet, s, supported=False,
                          section="fairness"))
    return out


# ---- card values -----------------------------------------------------------------------------------
def _card_claims(balance: pl.DataFrame) -> list[Claim]:
    """Per published variant, the cards of its largest table with the all-random lineup (else the first
    lineup) in one sentence per direction; every other supported row in a note per card and direction."""
    out = []
    rows = balance.to_dicts()
    lineups = list(dict.fromkeys(r["lineup"] for r in rows))
    lineup = "random" if "random" in lineups else lineups[0]
    published = set(rules.variant_names())
    stated: set[int] = set()
    for variant in dict.fromkeys(r["variant"] for r in rows if r["lineup"] == lineup and r["variant"] in published):
        players = max(r["players"] for r in rows if r["variant"] == variant and r["lineup"] == lineup)
        cell = [i for i, r in enumerate(rows) if (r["variant"], r["players"], r["lineup"]) == (variant, players, lineup)]
        for sign, word in ((1, "more"), (-1, "less")):
            these = sorted([rows[i] for i in cell if _card_large(rows[i]) and (rows[i]["estimate"] > 0) == (sign > 0)],
                           key=lambda r: -abs(r["estimate"]))
            if not these:
                continue
            stated |= {i for i in cell if rows[i] in these}
            s = Sentence().add(f"({players} players, lineup {lineup}) worth {word} than their printed points "
                               "say, in change of win probability against the points line (raw 95%): ")
            for i, r in enumerate(these):
                s.add(", " if i else "").add(f"{r['card']} (printed ").num(these, i, "points", ".0f")
                s.add(" points: ")
                d = decimals_for(r["estimate"] * 100, r["ci_low"] * 100, r["ci_high"] * 100, digits=2)
                s.num(these, i, "estimate", f"+.{d}f", 100).add(" points [")
                s.num(these, i, "ci_low", f"+.{d}f", 100).add(", ").num(these, i, "ci_high", f"+.{d}f", 100)
                s.add("]")
                if r["suggested_points"] != r["points"]:
                    s.add("; suggested ").num(these, i, "suggested_points", ".0f")
                s.add(")")
            s.add(".")
            out.append(_claim("effect", f"Cards in {variant}", "card", "card_balance", these, s,
                              scope=f"{players} players, lineup {lineup}", direction=sign, supported=True,
                              practical=True, size=max(effect_size("card", r) for r in these), section="cards"))
    rest = [r for i, r in enumerate(rows) if i not in stated and _supported(r)]
    notes: dict[tuple[str, int], list[dict]] = {}
    for r in rest:
        key = (r["card"], 1 if r["estimate"] > 0 else -1) if _card_large(r) else ("", 0)
        notes.setdefault(key, []).append(r)
    for (card, sign), these in notes.items():
        where = ", ".join(f"{r['variant']} {r['players']}p ({r['lineup']})" for r in these)
        if sign == 0:
            s = Sentence().add(f"{len(these)} more card mismatches are supported but smaller than "
                               f"{MIN_EFFECT['card'][1] * 100:g} point of win probability (negligible): {where}.")
            out.append(_claim("negligible", "Card points", "card", "card_balance", these, s, supported=True,
                              practical=False, section="cards"))
            continue
        s = Sentence().add(f"{card} is worth {'more' if sign > 0 else 'less'} than its printed points say also "
                           f"in {where} (see the card table).")
        out.append(_claim("note", f"Cards: {card}", "card", "card_balance", these, s, direction=sign,
                          supported=True, practical=True, size=max(effect_size("card", r) for r in these),
                          section="cards"))
    return out


def _card_large(row: dict) -> bool:
    return _supported(row) and effect_size("card", row) >= 1


# ---- tournaments -----------------------------------------------------------------------------------
def _tournament_claims(h2h: pl.DataFrame) -> list[Claim]:
    out = []
    rows = h2h.to_dicts()
    seen = set()
    for r in sorted(rows, key=lambda x: -x["estimate"]):
        pair = frozenset((r["a"], r["b"]))
        if pair in seen:
            continue
        seen.add(pair)
        one = [r]
        s = Sentence().add(f"{r['a']} finishes ahead of {r['b']} in ")
        s.num(one, 0, "estimate", ".1f", 100).add("% [").num(one, 0, "ci_low", ".1f", 100).add(", ")
        s.num(one, 0, "ci_high", ".1f", 100).add("] of seat comparisons (raw 95%, clustered by deal; p (Holm) ")
        s.add("< 1e−300" if r["p_holm"] == 0 else "= ")
        if r["p_holm"] != 0:
            s.num(one, 0, "p_holm", ".2g")
        size = effect_size("head_to_head", r)
        if _supported(r) and size >= 1:
            s.add(f"): {r['a']} plays better than {r['b']} here.")
            kind, fields = "effect", {"direction": 1, "supported": True, "practical": True}
        elif _supported(r):
            s.add("): a detectable difference below 1 point: negligible.")
            kind, fields = "negligible", {"supported": True, "practical": False}
        else:
            s.add("): no clear difference.")
            kind, fields = "no_effect", {"supported": False}
        out.append(_claim(kind, f"{r['a']} vs {r['b']}", "head_to_head", "head_to_head", one, s,
                          estimate=r["estimate"], ci_low=r["ci_low"], ci_high=r["ci_high"], interval="raw 95%",
                          p=r["p_value"], p_holm=r["p_holm"], size=size, section="tournament", **fields))
    return out


def _join(items: list[str], word: str = "or") -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]


_BUILDERS: tuple[tuple[str, Callable[[pl.DataFrame], list[Claim]]], ...] = (
    ("effects", _effect_claims), ("skill", skill_lead_claims), ("skill", _skill_claims),
    ("skill_changes", skill_change_claims),
    ("fairness", _fairness_claims),
    ("card_balance", _card_claims), ("head_to_head", _tournament_claims))
