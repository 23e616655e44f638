"""Plain-language findings: claims built from the analysis tables, rendered as sentences.

``tables → claims (this module) → checked claims (:mod:`.checker`) → sentences / HTML`` is the one code
path of the report and of anything else that shows findings (for a pair of cells: pass the tables of
that pair). Rules the sentences follow (docs/rules.md §8):

* every row is classed on its raw 95 % interval against its measure's minimum effect (:mod:`.practical`):
  stated as an effect only when Holm's adjusted p-value (its table is one family) is below 0.05 *and* the
  whole interval lies beyond the minimum; negligible only when the whole interval lies within it; else
  inconclusive at this size, with the games that would decide;
* every Holm-supported row is stated: rows of different signs are different sentences, every lineup is
  its own scope ("with all-random players: …; with lineup greedy_first: …");
* intervals are the rows' raw 95 % intervals and are labelled so; an unbounded relative interval is
  never printed (the absolute difference is); numbers carry enough digits that a nonzero effect never
  prints as 0;
* truncation is said (:mod:`.effect_findings`); the effects table's claims are there, the verdicts of a
  designer's profile in :mod:`.verdicts`;
* findings are ranked: verdicts, then effects by their size in multiples of the minimum effect.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import polars as pl

from ..game import rules
from .card_prices import price_claims
from .claims import Claim, Sentence, decimals_for, effect_size
from .design_findings import design_claims
from .effect_findings import effect_claims
from .effects import same_games, with_same_games
from .measures import MEASURES
from .phrasing import claim_of, interval, p_holm_text, span, supported
from .practical import INCONCLUSIVE, NEGLIGIBLE, PRACTICAL, classify
from .profile import Profile
from .skill_findings import skill_change_claims, skill_lead_claims
from .verdicts import verdict_claims

_RANK = {"verdict": 0, "effect": 1, "inconclusive": 2, "negligible": 3, "note": 3, "no_effect": 4, "identical": 5}


@dataclass(frozen=True)
class Finding:
    """What the report lists: one claim's sentence under its subject."""

    subject: str
    text: str
    size: float
    section: str
    kind: str


def claims(tables: dict[str, pl.DataFrame], profile: Profile | None = None) -> list[Claim]:
    """Every claim of the tables (effects, skill, fairness, card values, a tournament) and the verdicts of
    the comparisons under ``profile`` (default: :meth:`Profile.default`), ranked."""
    out: list[Claim] = []
    tables = _with_twins(tables)
    for name, build in _BUILDERS:
        if name in tables and not tables[name].is_empty():
            out += build(tables[name])
    if any(name in tables and not tables[name].is_empty() for name in ("effects", "skill_changes")):
        out += verdict_claims(tables, profile)
    out += design_claims(tables)
    return sorted(out, key=lambda c: (_RANK[c.kind], -c.size))


def _with_twins(tables: dict[str, pl.DataFrame]) -> dict[str, pl.DataFrame]:
    """The per-cell tables with ``same_games_as`` from the effects table's ``identical`` rows (a cell that
    played another's very games is counted with it), unless they already have it."""
    effects = tables.get("effects")
    if effects is None or effects.is_empty() or "identical" not in effects.columns:
        return tables
    same = same_games(effects)
    return {name: with_same_games(t, same) if name in ("skill", "fairness") and not t.is_empty()
            and "same_games_as" not in t.columns else t for name, t in tables.items()}


def findings(tables: dict[str, pl.DataFrame], profile: Profile | None = None) -> list[Finding]:
    """The claims as the report lists them, most important first."""
    return [Finding(c.subject, c.text, c.size, c.section, c.kind) for c in claims(tables, profile)]


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


# ---- skill -----------------------------------------------------------------------------------------
def _skill_claims(skill: pl.DataFrame) -> list[Claim]:
    out = []
    for (lineup,), group in skill.group_by(["lineup"], maintain_order=True):
        rows = group.to_dicts()
        policy = rows[0]["policy"]
        scope = f"in one seat of lineup {lineup}" if lineup != policy else "in one seat"
        large = [r for r in rows if classify("skill", r) == PRACTICAL]
        small = [r for r in rows if supported(r) and classify("skill", r) == NEGLIGIBLE]
        unclear = [r for r in rows if supported(r) and classify("skill", r) == INCONCLUSIVE]
        for sign, word, most in ((1, "more", "most"), (-1, "less", "least")):
            these = [r for r in large if (r["estimate"] > 0) == (sign > 0)]
            if not these:
                continue
            best = max(range(len(these)), key=lambda i: abs(these[i]["estimate"]))
            b = these[best]
            s = Sentence().add(f"{scope} wins {word} than its fair share 1/N of the rounds with a winner in "
                               f"{_cells(these, rows)}, by ")
            span(s, these, "estimate", 100, " percentage points")
            s.add(f"; {most} in {b['variant']} at {b['players']} players (")
            s.num(these, best, "win_rate", f".{decimals_for(b['win_rate'] * 100, digits=3)}f", 100)
            s.add("% of won rounds against ").num(these, best, "fair_share", ".1f", 100).add("%, [")
            interval(s, these, best, 100)
            s.add("] percentage points, raw 95%; ")
            p_holm_text(s, these, best)
            s.add(").")
            out.append(claim_of("effect", policy, "skill", "skill", these, s, scope=scope, direction=sign,
                              estimate=b["estimate"], ci_low=b["ci_low"], ci_high=b["ci_high"],
                              interval="raw 95%", p=b["p_value"], p_holm=b["p_holm"], supported=True,
                              practical=True, size=max(effect_size("skill", r) for r in these), section="skill"))
        if small:
            s = Sentence().add(f"{scope}: its share of won rounds differs detectably from 1/N in "
                               f"{_cells(small, rows)}, but every raw 95% interval lies within ± "
                               f"{MEASURES['skill'].minimum_text}: negligible.")
            out.append(claim_of("negligible", policy, "skill", "skill", small, s, scope=scope, supported=True,
                              practical=False, section="skill"))
        if unclear:
            out.append(_unclear_claim(policy, "skill", "skill", unclear, rows, f"{scope}: its share of won "
                                      "rounds differs detectably from 1/N", scope=scope, section="skill"))
        quiet = [r for r in rows if not supported(r)]
        if quiet:
            s = Sentence().add(f"{scope} wins neither more nor less than its fair share of won rounds "
                               f"detectably in {_cells(quiet, rows)} (Holm-adjusted).")
            out.append(claim_of("no_effect", policy, "skill", "skill", quiet, s, scope=scope, supported=False,
                              section="skill"))
    return out


# ---- seat fairness ---------------------------------------------------------------------------------
def _fairness_claims(fairness: pl.DataFrame) -> list[Claim]:
    rows = fairness.to_dicts()
    large = sorted([r for r in rows if classify("spread", r) == PRACTICAL], key=lambda r: -r["estimate"])
    small = [r for r in rows if supported(r) and classify("spread", r) == NEGLIGIBLE]
    unclear = [r for r in rows if supported(r) and classify("spread", r) == INCONCLUSIVE]
    quiet = [r for r in rows if not supported(r)]
    out = []
    if large:
        r = large[0]
        cells = ", ".join(f"{x['variant']} {x['players']}p ({x['lineup']})" for x in large[:4])
        more = f" and {len(large) - 4} more (see the fairness table)" if len(large) > 4 else ""
        s = Sentence().add(f"the position after the dealer matters in {_cells(large, rows)}: "
                           f"{cells}{more}. Largest: {r['variant']} at {r['players']} players, lineup "
                           f"{r['lineup']}: position {r['best']} wins most and {r['worst']} least, a spread of ")
        d = decimals_for(r["estimate"] * 100, r["ci_low"] * 100, r["ci_high"] * 100, digits=2)
        s.num(large, 0, "estimate", f".{d}f", 100).add(" percentage points [").num(large, 0, "ci_low", f".{d}f", 100)
        s.add(", ").num(large, 0, "ci_high", f".{d}f", 100).add("], raw 95%, Tukey; range test ")
        p_holm_text(s, large, 0)
        s.add(").")
        out.append(claim_of("effect", "Seat fairness", "spread", "fairness", large, s, direction=1,
                          estimate=r["estimate"], ci_low=r["ci_low"], ci_high=r["ci_high"], interval="raw 95%",
                          p=r["range_p"], p_holm=r["p_holm"], supported=True, practical=True,
                          size=effect_size("spread", r), section="fairness"))
    if small:
        s = Sentence().add(f"in {_cells(small, rows)} the positions differ detectably, but every "
                           f"raw 95% interval of the spread lies within {MEASURES['spread'].minimum_text}: negligible.")
        out.append(claim_of("negligible", "Seat fairness", "spread", "fairness", small, s, supported=True,
                          practical=False, section="fairness"))
    if unclear:
        out.append(_unclear_claim("Seat fairness", "spread", "fairness", unclear, rows,
                                  "the positions after the dealer differ detectably", section="fairness"))
    if quiet:
        s = Sentence().add(f"no position after the dealer wins detectably more often than another in "
                           f"{_cells(quiet, rows)} (range test, Holm-adjusted).")
        out.append(claim_of("no_effect", "Seat fairness", "spread", "fairness", quiet, s, supported=False,
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
            s = Sentence().add(f"({players} players, lineup {lineup}) worth {word} than their printed card points "
                               "say, in change of win probability against the line through the card points (raw 95%): ")
            for i, r in enumerate(these):
                s.add(", " if i else "").add(f"{r['card']} (printed ").num(these, i, "points", ".0f")
                s.add(" card points: ")
                d = decimals_for(r["estimate"] * 100, r["ci_low"] * 100, r["ci_high"] * 100, digits=2)
                s.num(these, i, "estimate", f"+.{d}f", 100).add(" percentage points of win probability [")
                s.num(these, i, "ci_low", f"+.{d}f", 100).add(", ").num(these, i, "ci_high", f"+.{d}f", 100)
                s.add("]")
                if r["suggested_points"] != r["points"]:
                    s.add("; suggested ").num(these, i, "suggested_points", ".0f").add(" card points")
                s.add(")")
            s.add(".")
            out.append(claim_of("effect", f"Cards in {variant}", "card", "card_balance", these, s,
                              scope=f"{players} players, lineup {lineup}", direction=sign, supported=True,
                              practical=True, size=max(effect_size("card", r) for r in these), section="cards"))
    rest = [r for i, r in enumerate(rows) if i not in stated and supported(r)]
    notes: dict[tuple[str, int], list[dict]] = {}
    for r in rest:
        cls = classify("card", r)
        key = (r["card"], 1 if r["estimate"] > 0 else -1) if cls == PRACTICAL else ("", 0 if cls == NEGLIGIBLE else 2)
        notes.setdefault(key, []).append(r)
    for (card, sign), these in notes.items():
        where = ", ".join(f"{r['variant']} {r['players']}p ({r['lineup']})" for r in these)
        if sign == 0:
            s = Sentence().add(f"{len(these)} more card mismatches are supported, but each raw 95% interval lies "
                               f"within {MEASURES['card'].minimum_text} of win probability (negligible): {where}.")
            out.append(claim_of("negligible", "Card points", "card", "card_balance", these, s, supported=True,
                              practical=False, section="cards"))
            continue
        if sign == 2:
            out.append(_unclear_claim("Card points", "card", "card_balance", these, None,
                                      f"{len(these)} more card mismatches are supported ({where})", section="cards"))
            continue
        s = Sentence().add(f"{card} is worth {'more' if sign > 0 else 'less'} than its printed card points say also "
                           f"in {where} (see the card table).")
        out.append(claim_of("note", f"Cards: {card}", "card", "card_balance", these, s, direction=sign,
                          supported=True, practical=True, size=max(effect_size("card", r) for r in these),
                          section="cards"))
    return out + price_claims(balance)


def _card_large(row: dict) -> bool:
    return classify("card", row) == PRACTICAL


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
        s.num(one, 0, "ci_high", ".1f", 100).add("] of seat comparisons (raw 95%, clustered by deal; ")
        p_holm_text(s, one, 0)
        size, cls = effect_size("head_to_head", r), classify("head_to_head", r)
        if cls == PRACTICAL:
            s.add(f"): {r['a']} plays better than {r['b']} here.")
            kind, fields = "effect", {"direction": 1, "supported": True, "practical": True}
        elif supported(r) and cls == NEGLIGIBLE:
            s.add("): a detectable difference, its interval within 1 point of 50%: negligible.")
            kind, fields = "negligible", {"supported": True, "practical": False}
        elif supported(r):
            s.add("): a detectable difference, not clearly of 1 point or more: inconclusive at this size.")
            kind, fields = "inconclusive", {"supported": True}
        else:
            s.add("): no clear difference.")
            kind, fields = "no_effect", {"supported": False}
        out.append(claim_of(kind, f"{r['a']} vs {r['b']}", "head_to_head", "head_to_head", one, s,
                          estimate=r["estimate"], ci_low=r["ci_low"], ci_high=r["ci_high"], interval="raw 95%",
                          p=r["p_value"], p_holm=r["p_holm"], size=size, section="tournament", **fields))
    return out


def _unclear_claim(subject: str, measure: str, table: str, rows: list[dict], among: list[dict] | None, what: str,
                  **fields) -> Claim:
    """Supported rows whose intervals reach across the minimum effect: not clearly of practical size
    (``among``: the rows they are counted among, as cells; None: not counted)."""
    where = f" in {_cells(rows, among)}" if among is not None else ""
    s = Sentence().add(f"{what}{where}, but whether by {MEASURES[measure].minimum_text} "
                       "or more is inconclusive at this size (raw 95% intervals reach across it).")
    return claim_of("inconclusive", subject, measure, table, rows, s, supported=True, **fields)


def _cells(these: list[dict], rows: list[dict]) -> str:
    """"2 of 4 cells", each cell that played another's games (``same_games_as``) counted once, and said."""
    def own(group: list[dict]) -> int:
        return sum(1 for r in group if not r.get("same_games_as"))
    twins = len(rows) - own(rows)
    note = "" if not twins else (f" (and {twins} that played another cell's very games, counted with it)"
                                 if twins > 1 else " (and 1 that played another cell's very games, counted with it)")
    return f"{own(these)} of {own(rows)} cells{note}"


_BUILDERS: tuple[tuple[str, Callable[[pl.DataFrame], list[Claim]]], ...] = (
    ("effects", effect_claims), ("skill", skill_lead_claims), ("skill", _skill_claims),
    ("skill_changes", skill_change_claims),
    ("fairness", _fairness_claims),
    ("card_balance", _card_claims), ("head_to_head", _tournament_claims))

