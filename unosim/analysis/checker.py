"""The claim checker: every finding re-verified against the analysis tables it cites.

:func:`check_claims` takes the tables as ``unosim analyze`` wrote them (read back from CSV, so what is
checked is what a reader of the files sees) and the claims, and returns every violation it finds:

* each row a claim cites exists, exactly once;
* the direction equals the sign of every cited row's estimate (minus its centre: ½ for head-to-head);
* every printed number equals its row's value formatted at the printed precision, and appears in the
  sentence;
* "supported" holds after the stated adjustment: each table's ``p_holm`` is Holm's adjustment of its
  p-values (recomputed), and a claim said supported has every row below 0.05, one said unsupported none;
* "of practical size" / "negligible" / "inconclusive" hold on the rows' intervals against the measure's
  minimum effect (:mod:`.practical`), and the effects table's ``class`` and ``games_to_decide`` columns
  are those the rows give;
* the sentence is what its rows say: the claim is re-rendered from the tables (and the profile, for a
  verdict) and must equal, word for word and field for field, the claim the findings make of those rows;
  independently of that, a direction word of the other sign, or a table size, lineup or variant that
  none of its rows has, is an error;
* the verdicts (:mod:`.verdicts`) are re-derived from the effects and the profile: the ``verdicts`` and
  ``scorecard`` tables, when given, must equal them, and every rule's verdict is stated by a claim;
* coverage: every Holm-supported row of a table that findings speak for (effects, skill, skill changes, fairness,
  card values, head-to-head — where the row (a, b) also covers its mirror (b, a)) is cited by some claim, so a sentence never says "no change" while a
  table holds a supported effect that no sentence states.

``unosim analyze`` runs it and fails on any violation (:class:`ClaimError`).
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from .claims import ALPHA, CLAIM_TABLES, Claim, key_text, render_number
from .inference import holm
from .practical import IDENTICAL, INCONCLUSIVE, NEGLIGIBLE, PRACTICAL, classify, games_to_decide
from .profile import Profile
from .sentence_check import check_words, variants_of

_HOLM_TOLERANCE = 1e-9


class ClaimError(ValueError):
    """A finding that its tables do not support (the message lists every violation)."""


def check_claims(tables: dict[str, pl.DataFrame], claims: list[Claim], profile: Profile | None = None) -> list[str]:
    """Every violation of ``claims`` against ``tables`` under ``profile`` (default: the default profile;
    empty when all hold)."""
    from .findings import claims as render  # the findings are the renderer the checker re-runs
    profile = profile or Profile.default()
    problems = []
    indexed = {name: _index(name, tables[name]) for name in CLAIM_TABLES if name in tables and not tables[name].is_empty()}
    for name in indexed:
        problems += _check_family(name, tables[name]) if CLAIM_TABLES[name].p_column else []
    if "effects" in indexed:
        problems += _check_classes(tables["effects"])
    if "skill_changes" in indexed and "games_to_decide" in tables["skill_changes"].columns:
        problems += _check_classes(tables["skill_changes"], "skill_edge")
    rendered = {_identity(c): c for c in render(tables, profile)}
    problems += _check_verdicts(tables, claims, rendered, profile)
    cited: dict[str, set] = {name: set() for name in indexed}
    lineups = {name: {str(v) for c in ("lineup", "policy", "a", "b") if c in tables[name].columns
                      for v in tables[name][c].drop_nulls().to_list()} for name in indexed}
    variants = {name: {v for r in tables[name].iter_rows(named=True) for v in variants_of(r)}
                for name in indexed if name != "head_to_head"}
    for claim in claims:
        found = [] if claim.table == "verdicts" else _check_claim(claim, indexed, cited)
        found += check_words(claim, [r for key in claim.rows for r in indexed.get(claim.table, {}).get(tuple(key), [])],
                             lineups.get(claim.table, set()), variants.get(claim.table, set()))
        if rendered.get(_identity(claim)) != claim:
            found.append("is not what its rows say: re-rendered from them it reads "
                         f"{getattr(rendered.get(_identity(claim)), 'text', '(no such claim)')!r}")
        problems += [f"{claim.subject}: {p} — {claim.text!r}" for p in found]
    for name, index in indexed.items():
        covered = {_pair(name, k) for k in cited[name]}
        for key, row in index.items():
            if _supported(row) and _pair(name, key) not in covered:
                problems.append(f"{name}: the Holm-supported row {dict(key)} is stated by no finding")
    return problems


def assert_claims(tables: dict[str, pl.DataFrame], claims: list[Claim], profile: Profile | None = None) -> None:
    problems = check_claims(tables, claims, profile)
    if problems:
        raise ClaimError(f"{len(problems)} finding(s) contradict the analysis tables:\n" + "\n".join(problems))


def _pair(name: str, key: tuple) -> tuple:
    """A head-to-head row covers its mirror (b, a): both state the same comparison."""
    return tuple(sorted(v for _, v in key)) if name == "head_to_head" else key


def _index(name: str, table: pl.DataFrame) -> dict:
    index: dict = {}
    for row in table.iter_rows(named=True):
        key = tuple((c, key_text(row[c])) for c in CLAIM_TABLES[name].keys)
        index.setdefault(key, []).append(row)
    return index


def _supported(rows) -> bool:
    row = rows[0] if isinstance(rows, list) else rows
    p = row.get("p_holm")
    return p is not None and not (isinstance(p, float) and math.isnan(p)) and p < ALPHA


def _check_family(name: str, table: pl.DataFrame) -> list[str]:
    column = CLAIM_TABLES[name].p_column
    if column not in table.columns or "p_holm" not in table.columns:
        return [f"{name}: no {column} / p_holm columns"]
    p = table[column].to_numpy().astype(np.float64)  # a null reads as NaN
    # each test once: a cell listed twice repeats its tests (twin_cells); tables from before say nothing
    tests = [t or None for t in table["holm_test"].to_list()] if "holm_test" in table.columns else None
    expected = holm(p, tests)
    stated = table["p_holm"].to_numpy().astype(np.float64)
    bad = ~((np.isnan(expected) & np.isnan(stated))
            | (np.abs(expected - stated) <= _HOLM_TOLERANCE * np.maximum(1.0, np.abs(expected))))
    return [f"{name}: p_holm of {int(bad.sum())} row(s) is not Holm's adjustment of {column} over the table"] \
        if bad.any() else []


def _check_claim(claim: Claim, indexed: dict, cited: dict) -> list[str]:
    if claim.table not in indexed:
        return [f"cites the table {claim.table}, which is absent or empty"]
    problems, rows = [], []
    for key in claim.rows:
        found = indexed[claim.table].get(tuple(key))
        if not found or len(found) != 1:
            problems.append(f"row {dict(key)} of {claim.table} is {'ambiguous' if found else 'missing'}")
            continue
        cited[claim.table].add(tuple(key))
        rows.append(found[0])
    if problems:
        return problems
    centre = CLAIM_TABLES[claim.table].centre
    if claim.direction:
        wrong = [r for r in rows if not _sign(r.get("estimate"), centre) == claim.direction]
        if wrong:
            problems.append(f"says direction {claim.direction:+d} but {len(wrong)} row(s) have the other sign "
                            f"or none")
    if claim.supported is True and not all(_supported(r) for r in rows):
        problems.append("says supported after Holm's adjustment, but a row has p_holm ≥ 0.05")
    if claim.supported is False and any(_supported(r) for r in rows):
        problems.append("says no detectable change, but a row it covers is Holm-supported")
    measure = CLAIM_TABLES[claim.table].measure
    judged = claim.practical is not None or claim.kind == "inconclusive"   # a class to check (none: a note)
    classes = [classify(measure if measure else r["measure"], r) for r in rows] if judged else []
    if claim.practical and not all(c == PRACTICAL for c in classes):
        problems.append("states an effect of practical size whose interval reaches within the minimum effect")
    if claim.practical is False and not all(c in (NEGLIGIBLE, IDENTICAL) for c in classes):
        problems.append("calls an effect negligible whose interval reaches the minimum effect")
    if claim.kind == "inconclusive" and not all(c == INCONCLUSIVE for c in classes):
        problems.append("calls inconclusive an effect whose interval decides it")
    if claim.kind == "identical" and not all(bool(r.get("identical")) for r in rows):
        problems.append("says identical games, but a row's cells differ")
    for number in claim.numbers:
        if not 0 <= number.row < len(rows) or number.column not in rows[number.row]:
            problems.append(f"prints {number.text!r} from a column or row it does not cite")
            continue
        value = rows[number.row][number.column]
        if value is None or (isinstance(value, float) and math.isnan(value)):
            problems.append(f"prints {number.text!r} for {number.column}, which is empty in the table")
            continue
        expected = render_number(value, number.spec, number.scale, number.absolute)
        if expected != number.text:
            problems.append(f"prints {number.text!r} for {number.column}, the table says {expected!r}")
        if number.text not in claim.text:
            problems.append(f"the number {number.text!r} is not in its sentence")
    return problems


def _sign(value, centre: float) -> int:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return 0
    diff = float(value) - centre
    return (diff > 0) - (diff < 0)


def _identity(claim: Claim) -> tuple:
    """What a claim is about, whatever it says: the rows it rests on, its table, kind and scope."""
    return (claim.table, claim.section, claim.kind, claim.subject, claim.scope, claim.measure, claim.rows)


def _check_classes(table: pl.DataFrame, measure: str | None = None) -> list[str]:
    """The ``class`` (effects) and ``games_to_decide`` of a table are those its rows give (:mod:`.practical`);
    ``measure``: every row's (None: each row's own ``measure``)."""
    if "games_to_decide" not in table.columns:
        return []
    bad = 0
    for row in table.iter_rows(named=True):
        games = row.get("games_to_decide")
        games = None if games is None or (isinstance(games, float) and math.isnan(games)) else int(games)
        which = measure or row["measure"]
        if ("class" in row and row["class"] != classify(which, row)) or games != games_to_decide(which, row):
            bad += 1
    name = "skill_changes" if measure else "effects"
    return [f"{name}: the class or games_to_decide of {bad} row(s) is not what their intervals give"] if bad else []


def _check_verdicts(tables: dict[str, pl.DataFrame], claims: list[Claim], rendered: dict, profile: Profile) -> list[str]:
    """The verdicts and scorecard tables as the rows and the profile give them; every rule's verdict stated."""
    from .verdicts import scorecard, verdicts
    problems = []
    for name, derive, columns in (("verdicts", verdicts, ("level", "a", "b", "verdict", "reason")),
                                  ("scorecard", scorecard, ("a", "b", "measure", "class", "judgement"))):
        given = tables.get(name)
        if given is None:
            continue
        expected = derive(tables, profile)
        if given.height != expected.height or any(
                [str(v) for v in given[c].to_list()] != [str(v) for v in expected[c].to_list()] for c in columns):
            problems.append(f"{name}: the table is not what the effects and the profile ({profile.describe()}) give")
    stated = {_identity(c) for c in claims}
    for identity, claim in rendered.items():
        if claim.table == "verdicts" and not claim.scope and identity not in stated:
            problems.append(f"verdicts: the verdict on {claim.subject} ({claim.verdict}) is stated by no finding")
    return problems
