"""The claims of the ``skill_changes`` table (:mod:`.skill_rules`): how each house rule changes the expert's
edge over its all-random twin, as checked sentences ("… the rule cuts lookahead's edge over random players
by 4.1 percentage points [−6.0, −2.2] …"). A sentence names the policies its edge is about: it is a
verdict on the expert against random players, not on "the game", and never says "more skill" or "more
luck". The edge is measured on the rounds with a winner (docs/rules.md §8.3); a change in the rounds
without one is said beside it as an effect of its own.

One claim per row that is Holm-supported (within the table's own family) and at least the ``skill_edge``
minimum effect; the other rows of a rule are stated together as negligible, as no detectable change, or
as identical games. Every claim's section is ``skill``: the report's Skill section lists them ranked by
the change (:func:`ranked`), after the expert's own edge.
"""

from __future__ import annotations

import math

import polars as pl

from .claims import ALPHA, CLAIM_TABLES, Claim, Sentence, decimals_for, effect_size, row_key
from .measures import MEASURES
from .phrasing import count_span, p_holm_text
from .practical import INCONCLUSIVE, NEGLIGIBLE, PRACTICAL, classify, number

TABLE = "skill_changes"
MEASURE = "skill_edge"


def skill_change_claims(table: pl.DataFrame) -> list[Claim]:
    """Every claim of the skill-change table (module docstring)."""
    out = []
    for (a, b, lineup), group in table.group_by(["a", "b", "lineup"], maintain_order=True):
        rows = group.sort("players").to_dicts()
        subject, scope = f"{b} (vs {a})", f"with {rows[0]['policy']} in one seat (lineup {lineup})"
        live = [r for r in rows if not r["identical"]]
        out += [_change_claim(subject, scope, [r]) for r in live if classify(MEASURE, r) == PRACTICAL]
        small = [r for r in live if _supported(r) and classify(MEASURE, r) == NEGLIGIBLE]
        if small:
            s = Sentence().add(f"{scope} at {_players(small)}: {edge_name(rows[0]['policy'])} changes detectably, "
                               f"but every raw 95% interval lies within ± {MEASURES[MEASURE].minimum_text}: "
                               "negligible.")
            out.append(_claim("negligible", subject, small, s, scope=scope, supported=True, practical=False))
        unclear = [r for r in live if _supported(r) and classify(MEASURE, r) == INCONCLUSIVE]
        if unclear:
            s = Sentence().add(f"{scope} at {_players(unclear)}: {edge_name(rows[0]['policy'])} changes detectably, "
                               f"but whether by {MEASURES[MEASURE].minimum_text} or more is inconclusive at this "
                               "size (raw 95% intervals reach across it)")
            _games_to_decide(s, unclear)
            s.add(".")
            out.append(_claim("inconclusive", subject, unclear, s, scope=scope, supported=True))
        quiet = [r for r in live if not _supported(r)]
        if quiet:
            s = Sentence().add(f"{scope} at {_players(quiet)}: no detectable change in {edge_name(rows[0]['policy'])} "
                               "(Holm-adjusted within the skill changes; ")
            count_span(s, quiet, "n", " paired games")
            s.add(")")
            _games_to_decide(s, quiet)
            s.add(".")
            out.append(_claim("no_effect", subject, quiet, s, scope=scope, supported=False))
        same = [r for r in rows if r["identical"]]
        if same:
            s = Sentence().add(f"{scope} at {_players(same)}: the rule changed none of the ")
            count_span(s, same, "n", " games")
            s.add(" of that lineup or its all-random twin.")
            out.append(_claim("identical", subject, same, s, scope=scope))
    return out


def skill_lead_claims(skill: pl.DataFrame) -> list[Claim]:
    """"How much is skill", one note per skilled lineup of a published variant (``baseline`` rows of the
    skill table, :mod:`.skill`): the seat's share of won rounds against its fair share, the edge with its
    interval, and the rounds it needs for a 95 % chance of having won more than its fair share."""
    out = []
    for row in skill.to_dicts():
        if row.get("baseline") is False or "rounds_needed" not in row:
            continue
        rows = [row]
        s = Sentence().add(f"{row['policy']} in one seat (lineup {row['lineup']}) of {row['variant']} at "
                           f"{row['players']}p wins ")
        d = decimals_for(row["win_rate"] * 100, digits=3)
        s.num(rows, 0, "win_rate", f".{d}f", 100).add("% of the rounds with a winner against a fair share of ")
        s.num(rows, 0, "fair_share", ".1f", 100).add("%: ")
        e = decimals_for(row["estimate"] * 100)
        s.num(rows, 0, "estimate", f"+.{e}f", 100).add(" percentage points [")
        s.num(rows, 0, "ci_low", f"+.{e}f", 100).add(", ").num(rows, 0, "ci_high", f"+.{e}f", 100)
        s.add("] (raw 95%) from its fair share; ")
        _rounds_text(s, rows)
        out.append(Claim(kind="note", subject="how much is skill", measure="skill", table="skill",
                         rows=(row_key("skill", row),), text=s.text, numbers=tuple(s.numbers),
                         family=CLAIM_TABLES["skill"].family, section="skill", scope=f"lineup {row['lineup']}"))
    return out


def _rounds_text(s: Sentence, rows: list[dict]) -> None:
    """"it needs 19 rounds [15, 25] for a 95% chance …" (the count from which that chance stays, §8.6); an
    unbounded end is said, never printed; no count when the edge's interval reaches no edge, only its low
    end."""
    r = rows[0]
    goal = "for a 95% chance of having won more than its fair share of them"
    if _empty(r["rounds_needed"]) and _empty(r["rounds_needed_ci_low"]):
        s.add(f"no number of rounds (up to ten million) is enough {goal}.")
        return
    if _empty(r["rounds_needed"]):
        s.add(f"the rounds it needs {goal} cannot be named, as the interval of its share reaches its fair "
              "share: at least ").num(rows, 0, "rounds_needed_ci_low", ",.0f").add(" rounds, with no upper bound.")
        return
    s.add("it needs ").num(rows, 0, "rounds_needed", ",.0f").add(" rounds [")
    s.num(rows, 0, "rounds_needed_ci_low", ",.0f").add(", ")
    if _empty(r["rounds_needed_ci_high"]):
        s.add("no bound]")
    else:
        s.num(rows, 0, "rounds_needed_ci_high", ",.0f").add("]")
    s.add(f" {goal} (and keeps it with more rounds).")


def _empty(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def ranked(found: list[Claim]) -> list[Claim]:
    """The skill-change claims of ``found``, the rules that most raise the expert's edge first, those that
    most cut it last (stated effects, then the rest in their usual order)."""
    changes = [c for c in found if c.table == TABLE]
    effects = sorted((c for c in changes if c.kind == "effect"), key=lambda c: -(c.estimate or 0.0))
    return effects + [c for c in changes if c.kind != "effect"]


def edge_name(policy: str) -> str:
    """The one "edge" of the Skill section: the skilled seat's share of won rounds minus the same seat's
    share with all-random players (a skill change's ``edge_a``/``edge_b``)."""
    return f"{policy}'s edge over random players"


def _change_claim(subject: str, scope: str, rows: list[dict]) -> Claim:
    r = rows[0]
    direction = 1 if r["estimate"] > 0 else -1
    d = decimals_for(r["estimate"] * 100)
    s = Sentence().add(f"{scope} at {r['players']}p: the rule {'raises' if direction > 0 else 'cuts'} "
                       f"{edge_name(r['policy'])} by ")
    s.num(rows, 0, "estimate", f".{d}f", 100, absolute=True).add(" percentage points [")
    s.num(rows, 0, "ci_low", f"+.{d}f", 100).add(", ").num(rows, 0, "ci_high", f"+.{d}f", 100)
    e = decimals_for(r["edge_a"] * 100, r["edge_b"] * 100, digits=3)
    s.add("], raw 95%, from ").num(rows, 0, "edge_a", f"+.{e}f", 100).add(" to ")
    s.num(rows, 0, "edge_b", f"+.{e}f", 100).add(" percentage points of the rounds with a winner; ")
    p_holm_text(s, rows, 0)
    s.add(".")
    _no_winner_text(s, rows)
    return _claim("effect", subject, rows, s, scope=scope, direction=direction, estimate=r["estimate"],
                  ci_low=r["ci_low"], ci_high=r["ci_high"], interval="raw 95%", p=r["p_value"], p_holm=r["p_holm"],
                  supported=True, practical=True, size=effect_size(MEASURE, r))


def _games_to_decide(s: Sentence, rows: list[dict]) -> None:
    """": about 12,000 paired games would decide" (the most of the rows), when every row can say."""
    games = [number(r.get("games_to_decide")) for r in rows]
    if rows and all(g is not None for g in games):
        most = max(range(len(rows)), key=lambda i: games[i])
        s.add(": about ").num(rows, most, "games_to_decide", ",.0f").add(" paired games would decide")


def _no_winner_text(s: Sentence, rows: list[dict]) -> None:
    """" Rounds with no winner in this lineup: 81% without the rule, 2.0% with it (an effect of its own, not
    of skill)." when either cell has some (the largest change among ``rows``)."""
    def change(r: dict) -> float:
        return abs((number(r.get("no_winner_b")) or 0.0) - (number(r.get("no_winner_a")) or 0.0))
    if not any((number(r.get("no_winner_a")) or 0) > 0 or (number(r.get("no_winner_b")) or 0) > 0 for r in rows):
        return
    i = max(range(len(rows)), key=lambda k: change(rows[k]))
    d = decimals_for(rows[i]["no_winner_a"] * 100, rows[i]["no_winner_b"] * 100, digits=2)
    s.add(" Rounds with no winner in this lineup" + (f" at {rows[i]['players']}p" if len(rows) > 1 else "") + ": ")
    s.num(rows, i, "no_winner_a", f".{d}f", 100).add("% without the rule, ")
    s.num(rows, i, "no_winner_b", f".{d}f", 100).add("% with it (an effect of its own, not of skill).")


def _claim(kind: str, subject: str, rows: list[dict], sentence: Sentence, **fields) -> Claim:
    return Claim(kind=kind, subject=subject, measure=MEASURE, table=TABLE,
                 rows=tuple(row_key(TABLE, r) for r in rows), text=sentence.text, numbers=tuple(sentence.numbers),
                 family=CLAIM_TABLES[TABLE].family, section="skill", **fields)


def _supported(row: dict) -> bool:
    p = row.get("p_holm")
    return p is not None and not math.isnan(p) and p < ALPHA


def _players(rows: list[dict]) -> str:
    sizes = [f"{r['players']}p" for r in rows]
    return sizes[0] if len(sizes) == 1 else ", ".join(sizes[:-1]) + " and " + sizes[-1]
