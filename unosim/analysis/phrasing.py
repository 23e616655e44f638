"""The pieces every sentence of the findings is built from: a claim of its rows, spans and intervals.

Shared by :mod:`.effect_findings`, :mod:`.findings` and :mod:`.skill_findings`: a number always enters a
sentence through :class:`~.claims.Sentence` (so the claim records it for the checker), and a claim cites
its rows by key (:func:`~.claims.row_key`).
"""

from __future__ import annotations

from .claims import CLAIM_TABLES, Claim, Number, Sentence, decimals_for, row_key
from .practical import supported

__all__ = ["claim_of", "count_span", "interval", "join", "p_holm_text", "span", "spec", "supported"]


def claim_of(kind: str, subject: str, measure: str, table: str, rows: list[dict], sentence: Sentence,
             **fields) -> Claim:
    """A claim of ``rows`` of ``table`` whose sentence is ``sentence``."""
    return Claim(kind=kind, subject=subject, measure=measure, table=table,
                 rows=tuple(row_key(table, r) for r in rows), text=sentence.text,
                 numbers=tuple(sentence.numbers), family=CLAIM_TABLES[table].family, **fields)


def spec(value: float, absolute: bool) -> str:
    return f".{decimals_for(value)}f" if absolute else f"+.{decimals_for(value)}f"


def span(s: Sentence, rows: list[dict], column: str, scale: float, unit: str) -> None:
    """``x%`` for one row, ``lo–hi%`` (absolute values, one precision) for several."""
    order = sorted(range(len(rows)), key=lambda i: abs(rows[i][column]))
    lo, hi = order[0], order[-1]
    d = decimals_for(*(rows[i][column] * scale for i in (lo, hi)))
    s.num(rows, lo, column, f".{d}f", scale, absolute=True)
    low_text = s.numbers[-1].text
    if len(rows) > 1 and lo != hi and Number.of(rows, hi, column, f".{d}f", scale, True).text != low_text:
        s.add("–").num(rows, hi, column, f".{d}f", scale, absolute=True)
    s.add(unit)


def count_span(s: Sentence, rows: list[dict], column: str, unit: str) -> None:
    """A count as it is: "3,000 games" when every row has it, "600 to 3,000 games" when they differ."""
    order = sorted(range(len(rows)), key=lambda i: rows[i][column])
    s.num(rows, order[0], column, ",.0f")
    if rows[order[-1]][column] != rows[order[0]][column]:
        s.add(" to ").num(rows, order[-1], column, ",.0f")
    s.add(unit)


def interval(s: Sentence, rows: list[dict], i: int, scale: float, low: str = "ci_low", high: str = "ci_high",
             value: str = "estimate") -> None:
    """``+lo, +hi`` of row ``i`` at the precision of its value."""
    d = decimals_for(rows[i][value] * scale)
    s.num(rows, i, low, f"+.{d}f", scale).add(", ").num(rows, i, high, f"+.{d}f", scale)


def p_holm_text(s: Sentence, rows: list[dict], i: int) -> None:
    """"p (Holm) = 1.2e−5" (or "< 1e−300" for an underflow)."""
    s.add("p (Holm) ")
    s.add("< 1e−300" if rows[i]["p_holm"] == 0 else "= ")
    if rows[i]["p_holm"] != 0:
        s.num(rows, i, "p_holm", ".2g")


def join(items: list[str], word: str = "or") -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]
