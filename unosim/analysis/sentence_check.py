"""Reading a claim's sentence against its rows: the words a checker can verify without the renderer.

:func:`check_words` is the checker's independent reading of a sentence (:mod:`.checker` also re-renders
every claim and compares the text whole): the direction word agrees with the claim's direction (and the
word of the other sign is absent), every table size it names ("4p", "at 3 players") is one of its rows',
every lineup it names is one of its rows', and every variant of the table it names is one of its rows'
(their ``variant``, ``a`` or ``b``).
"""

from __future__ import annotations

import re

from .claims import CLAIM_TABLES, Claim
from .measures import MEASURES

_PLAYERS = re.compile(r"\b(\d+)p\b|\bat (\d+) players\b|\((\d+) players\b")
_LINEUP = re.compile(r"\blineup ([A-Za-z0-9_]+)")


def check_words(claim: Claim, rows: list[dict], known_lineups: set[str] = frozenset(),
                known_variants: set[str] = frozenset()) -> list[str]:
    """Every word of ``claim.text`` that contradicts ``rows`` (the rows it cites); ``known_lineups`` and
    ``known_variants``: the lineups and policies, and the variants, of the claim's whole table (one the
    text names must be one of its rows')."""
    if not rows:
        return []
    problems = []
    text = claim.text
    if claim.direction and claim.kind == "effect":
        words = _direction_words(claim)
        if words:
            said, other = (words[0], words[1]) if claim.direction > 0 else (words[1], words[0])
            if not _has(text, said) or _has(text, other):
                problems.append(f"says {'+' if claim.direction > 0 else '−'} but its words are not "
                                f"{said!r} (without {other!r})")
    players = {str(r["players"]) for r in rows if r.get("players") is not None}
    named = {next(g for g in m.groups() if g) for m in _PLAYERS.finditer(text)}
    if players and named - players:
        problems.append(f"names table sizes {sorted(named - players)} that none of its rows has")
    lineups = {str(v) for r in rows for k, v in r.items() if k in ("lineup", "policy") and v is not None}
    said_lineups = set(_LINEUP.findall(text)) & set(known_lineups)
    if lineups and said_lineups - lineups:
        problems.append(f"names lineups {sorted(said_lineups - lineups)} that none of its rows has")
    variants = {v for r in rows for v in variants_of(r)}
    said_variants = {v for v in known_variants if _has(text, v)}
    if variants and said_variants - variants:
        problems.append(f"names variants {sorted(said_variants - variants)} that none of its rows has")
    if "all-random players" in text and "random" not in lineups:
        problems.append("speaks of all-random players, but none of its rows has that lineup")
    return problems


def variants_of(row: dict) -> set[str]:
    """The variants a table row is about: its ``variant``, and ``a`` and ``b`` when they compare variants
    (not lineups: an effects row of axis ``lineup``)."""
    columns = ("variant", "a", "b") if row.get("axis", "variant") == "variant" else ("variant",)
    return {str(row[c]) for c in columns if row.get(c) is not None}


def _direction_words(claim: Claim) -> tuple[str, str] | None:
    table = CLAIM_TABLES.get(claim.table)
    if table is not None and table.direction_words:
        return table.direction_words
    info = MEASURES.get(claim.measure)
    if claim.table == "effects" and info is not None and info.more != info.less:
        return info.more, info.less
    return None


def _has(text: str, word: str) -> bool:
    return re.search(rf"\b{re.escape(word)}\b", text) is not None
