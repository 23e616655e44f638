"""Plain-language findings from the analysis tables, ranked by effect size.

Only what a Holm-adjusted test supports (``p_holm`` < 0.05) is stated as an effect; a measure without
such support is "no detectable change", and a comparison whose cells played identical games says
that the rule never triggered under these policies. Each finding carries the size used to rank it:
the largest relative change it states (absolute change for shares near zero).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import polars as pl

from .. import rules

ALPHA = 0.05
_PHRASES = {  # measure → (word when larger, word when smaller, what)
    "length": ("longer", "shorter", "rounds"),
    "lead_changes": ("more", "fewer", "lead changes"),
    "comebacks": ("more", "fewer", "comebacks (rounds won from ≥ 3 cards behind)"),
    "max_hand": ("larger", "smaller", "the largest hand"),
    "penalty": ("larger", "smaller", "draw penalties"),
    "knockouts": ("more", "fewer", "knock-outs"),
}
_SUBJECT_FIRST = ("length", "max_hand", "penalty")  # "rounds 12% longer", not "12% longer rounds"
_ORDER = ("length", "lead_changes", "comebacks", "max_hand", "penalty", "knockouts", "fairness", "skill_edge")
_UNCHANGED = {"fairness": "seat fairness", "skill_edge": "skill edge", "length": "length",
              "lead_changes": "tension", "comebacks": "comebacks", "max_hand": "hand sizes",
              "penalty": "penalties", "knockouts": "knock-outs"}


@dataclass(frozen=True)
class Finding:
    subject: str     # what the sentence is about (a rule, a lineup, a variant)
    text: str        # the sentence after the subject
    size: float      # ranking key: larger = more important
    section: str     # id of the report section with the evidence
    kind: str        # "effect", "no_effect", "identical", "skill", "fairness", "cards"


def findings(tables: dict[str, pl.DataFrame]) -> list[Finding]:
    """Every finding of the study, most important first."""
    out: list[Finding] = []
    if "effects" in tables and not tables["effects"].is_empty():
        out += _effect_findings(tables["effects"])
    if "skill" in tables and not tables["skill"].is_empty():
        out += _skill_findings(tables["skill"])
    if "fairness" in tables and not tables["fairness"].is_empty():
        out += _fairness_findings(tables["fairness"])
    if "card_balance" in tables and not tables["card_balance"].is_empty():
        out += _card_findings(tables["card_balance"])
    rank = {"effect": 0, "skill": 1, "fairness": 1, "cards": 2, "no_effect": 3, "identical": 4}
    return sorted(out, key=lambda f: (rank[f.kind], -f.size))


def _setting(row: dict, axis: str) -> str:
    """Where one effect row was measured: players (and variant for lineup comparisons)."""
    if axis == "lineup":
        return f"{row['variant']} {row['players']}p"
    return f"{row['players']} players"


def _primary(group: pl.DataFrame, axis: str) -> pl.DataFrame:
    """Rows stated in the sentence: for a variant comparison the all-``random`` lineup when present
    (the other lineups are in the tables), else everything."""
    if axis == "variant" and "random" in set(group["lineup"]):
        return group.filter(pl.col("lineup") == "random")
    return group


def _effect_findings(effects: pl.DataFrame) -> list[Finding]:
    out = []
    for (axis, a, b), group in effects.group_by(["axis", "a", "b"], maintain_order=True):
        subject = f"{b} (vs {a})"
        if group["identical"].all():
            out.append(Finding(subject, "never triggered under these policies: every game was identical to "
                               "the baseline, so the rule had no effect.", 0.0, "effects", "identical"))
            continue
        rows = _primary(group, axis)
        settings = rows.select(pl.struct("variant", "players", "lineup").n_unique()).item()
        stated, sizes, unchanged = [], [], []
        for measure in _ORDER:
            measured = [r for r in rows.iter_rows(named=True) if r["measure"] == measure]
            if not measured:
                continue
            supported = [r for r in measured if r["significant"]]
            if not supported:
                unchanged.append(_UNCHANGED[measure])
                continue
            phrase, size = _measure_phrase(measure, supported, len(measured), axis, settings)
            stated.append(phrase)
            sizes.append(size)
        scope = "" if settings == 1 else f" ({settings} settings)"
        if stated:
            text = (f"at {_setting(rows.row(0, named=True), axis)}: " if settings == 1 else "") + "; ".join(stated)
            if unchanged:
                text += f"; no detectable change in {_join(unchanged)}"
            out.append(Finding(subject, text + ".", max(sizes), "effects", "effect"))
        else:
            n = int(rows["n"].min())
            out.append(Finding(subject, f"no detectable effect on {_join(unchanged)}{scope}, with "
                               f"{n:,} games per cell.", 0.0, "effects", "no_effect"))
    return out


def _measure_phrase(measure: str, supported: list[dict], measured: int, axis: str,
                    settings: int) -> tuple[str, float]:
    """One measure's clause: the effect at one setting with its interval, or the range over several."""
    if len(supported) == 1:
        phrase, size = _phrase(measure, supported[0])
        if settings == 1:
            return phrase, size
        where = _setting(supported[0], axis)
        return phrase + (f" at {where}" if measured == 1 else f" at {where} only"), size
    phrases = [_phrase(measure, r) for r in supported]
    size = max(s for _, s in phrases)
    best = max(supported, key=lambda r: _phrase(measure, r)[1])
    where = _join([_setting(r, axis) for r in supported], "and")
    rels = [r["rel_change"] for r in supported]
    same_sign = all(x is not None and math.isfinite(x) for x in rels) and len({x > 0 for x in rels}) == 1
    if measure not in _PHRASES or not same_sign:
        return f"{_phrase(measure, best)[0]} at {_setting(best, axis)} (supported at {where})", size
    more, less, what = _PHRASES[measure]
    word = more if rels[0] > 0 else less
    low, high = sorted((round(abs(x) * 100) for x in rels))[::len(rels) - 1]
    span = f"{low}%" if low == high else f"{low}–{high}%"
    head = f"{what} {span} {word}" if measure in _SUBJECT_FIRST else f"{span} {word} {what}"
    unit = " turns" if measure == "length" else ""
    detail = (f"{_setting(best, axis)}: [{best['rel_low']:+.0%}, {best['rel_high']:+.0%}], "
              f"{_num(best['mean_a'], measure)} → {_num(best['mean_b'], measure)}{unit}")
    return f"{head} at {where} ({detail})", size


def _phrase(measure: str, row: dict) -> tuple[str, float]:
    if measure in _PHRASES:
        more, less, what = _PHRASES[measure]
        rel, low, high = row["rel_change"], row["rel_low"], row["rel_high"]
        before, after = _num(row["mean_a"], measure), _num(row["mean_b"], measure)
        if rel is not None and math.isfinite(rel) and low is not None and math.isfinite(low):
            word = more if rel > 0 else less
            unit = " turns" if measure == "length" else ""
            head = f"{what} {abs(rel):.0%} {word}" if measure in _SUBJECT_FIRST else f"{abs(rel):.0%} {word} {what}"
            return f"{head} [{low:+.0%}, {high:+.0%}] ({before} → {after}{unit})", abs(rel)
        word = more if row["estimate"] > 0 else less
        return (f"{word} {what}: {row['estimate']:+.2g} [{row['ci_low']:+.2g}, {row['ci_high']:+.2g}] "
                f"({before} → {after})", abs(row["estimate"]))
    points = 100 * row["estimate"]
    low, high = 100 * row["ci_low"], 100 * row["ci_high"]
    if measure == "fairness":
        word = "wider" if points > 0 else "narrower"
        return (f"the spread of win rates by seat position is {abs(points):.1f} points {word} "
                f"[{low:+.1f}, {high:+.1f}]", abs(row["estimate"]))
    word = "grows" if points > 0 else "shrinks"
    return (f"the skilled seat's edge {word} by {abs(points):.1f} points [{low:+.1f}, {high:+.1f}]",
            abs(row["estimate"]))


def _num(value: float, measure: str) -> str:
    if measure == "comebacks":
        return f"{value:.1%}"
    return f"{value:.3g}"


def _join(items: list[str], word: str = "or") -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]


def _skill_findings(skill: pl.DataFrame) -> list[Finding]:
    out = []
    for (policy,), rows in skill.group_by(["policy"], maintain_order=True):
        supported = rows.filter(pl.col("p_holm") < ALPHA)
        if supported.is_empty():
            out.append(Finding(policy, f"wins no more than its fair share in any of {rows.height} cells "
                               "(Holm-adjusted).", 0.0, "skill", "no_effect"))
            continue
        top = supported.sort("estimate", descending=True).row(0, named=True)
        low, high = supported["estimate"].min() * 100, supported["estimate"].max() * 100
        text = (f"in one seat beats its fair share 1/N in {supported.height} of {rows.height} cells, by "
                f"{low:+.1f} to {high:+.1f} points; most in {top['variant']} at {top['players']} players "
                f"({top['win_rate']:.1%} against {top['fair_share']:.1%}, "
                f"[{top['ci_low'] * 100:+.1f}, {top['ci_high'] * 100:+.1f}]).")
        out.append(Finding(policy, text, float(top["estimate"] / top["fair_share"]), "skill", "skill"))
    return out


def _fairness_findings(fairness: pl.DataFrame) -> list[Finding]:
    unfair = [(row, row["chi2_p_holm"]) for row in fairness.iter_rows(named=True)
              if row["chi2_p_holm"] is not None and row["chi2_p_holm"] < ALPHA]
    if not unfair:
        return [Finding("Seat fairness", f"no position after the dealer wins detectably more often in any of "
                        f"{fairness.height} cells (χ² tests, Holm-adjusted).", 0.0, "fairness", "no_effect")]
    unfair.sort(key=lambda x: -x[0]["estimate"])
    row, p = unfair[0]
    cells = ", ".join(f"{r['variant']} {r['players']}p ({r['lineup']})" for r, _ in unfair[:4])
    more = f" and {len(unfair) - 4} more" if len(unfair) > 4 else ""
    return [Finding("Seat fairness", f"the position after the dealer matters in {len(unfair)} of "
                    f"{fairness.height} cells: {cells}{more}. Largest: {row['variant']} at {row['players']} "
                    f"players, position {row['best']} wins most and {row['worst']} least, a spread of "
                    f"{row['estimate'] * 100:.1f} points [{row['ci_low'] * 100:.1f}, {row['ci_high'] * 100:.1f}] "
                    f"(χ² p = {p:.2g}, Holm).", float(row["estimate"]), "fairness", "fairness")]


def _card_findings(balance: pl.DataFrame) -> list[Finding]:
    """One sentence per variant, at its largest table of the all-random lineup (else the first lineup)."""
    out = []
    lineups = balance["lineup"].unique(maintain_order=True).to_list()
    lineup = "random" if "random" in lineups else lineups[0]
    chosen = balance.filter(pl.col("lineup") == lineup)
    published = chosen.filter(pl.col("variant").is_in(rules.variant_names()))
    chosen = published if not published.is_empty() else chosen  # house-rule variants repeat their base
    for (variant,), cell in chosen.group_by(["variant"], maintain_order=True):
        players = cell["players"].max()
        supported = cell.filter(pl.col("players") == players, pl.col("p_holm") < ALPHA)
        if supported.is_empty():
            continue
        under = supported.filter(pl.col("estimate") > 0).sort("estimate", descending=True)
        over = supported.filter(pl.col("estimate") < 0).sort("estimate")
        parts = []
        if not under.is_empty():
            parts.append(f"under-valued by the printed points: {_cards(under)}")
        if not over.is_empty():
            parts.append(f"over-valued: {_cards(over)}")
        out.append(Finding(f"Card points in {variant}", f"({players} players): " + "; ".join(parts)
                           + ". See the suggested monotone point table.",
                           float(supported["estimate"].abs().max()), "cards", "cards"))
    return out


def _cards(rows: pl.DataFrame) -> str:
    return ", ".join(f"{r['card']} (printed {r['points']}, " + (
        f"suggested {r['suggested_points']})" if r["suggested_points"] != r["points"]
        else "kept: the printed points already rank it in value order)")
        for r in rows.head(3).iter_rows(named=True))
