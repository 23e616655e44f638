"""Claims: a finding as data before it is a sentence.

A :class:`Claim` names what it is about (subject, measure, scope), the rows of one analysis table it
rests on (their key columns), what it asserts (direction, supported after Holm's adjustment or not,
of practical size or not) and every number its sentence prints (:class:`Number`: the column, the row,
the format). Sentences are rendered from claims only (:mod:`unosim.analysis.findings`), and
:mod:`unosim.analysis.checker` verifies each claim against the CSV tables that ``unosim analyze``
writes. The multiplicity story: each table is one Holm family (named in :data:`CLAIM_TABLES`); every
interval printed beside a Holm verdict is the raw 95 % interval of that row, and says so.

The minimum effect per measure (:data:`MIN_EFFECT`, documented in docs/rules.md §8) separates what a
designer should act on from what is merely detectable: a Holm-supported effect below it is listed as
negligible and never headlined.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

from .measures import MEASURES
from .practical import size

ALPHA = 0.05

@dataclass(frozen=True)
class ClaimTable:
    """An analysis table that claims rest on, declared once: ``keys``, the columns that identify one of its
    rows; ``p_column``, its p-value column, and ``family``, the name of its Holm family (the whole table);
    ``measure``, the measure whose minimum effect judges its rows (None: each row's own ``measure``),
    which also gives the value a direction is measured from (:attr:`centre`); ``direction_words``, the
    words of a positive and a negative direction in its sentences (None: each measure's own, or none)."""

    name: str
    keys: tuple[str, ...]
    p_column: str
    family: str
    measure: str | None = None
    direction_words: tuple[str, str] | None = None

    @property
    def centre(self) -> float:
        """The value a direction is measured from (estimate − centre): ½ for a head-to-head share."""
        return MEASURES[self.measure].centre if self.measure else 0.0


CLAIM_TABLES: dict[str, ClaimTable] = {t.name: t for t in (
    ClaimTable("effects", ("axis", "a", "b", "variant", "players", "lineup", "measure"), "p_value",
               "effects: every comparison × setting × measure of the study"),
    ClaimTable("skill", ("variant", "players", "lineup"), "p_value", "skill: every cell with one skilled seat",
               "skill", ("more", "less")),
    ClaimTable("skill_changes", ("a", "b", "players", "lineup"), "p_value",
               "skill changes: every house rule × skilled lineup, its change of the edge", "skill_edge",
               ("raises", "cuts")),
    ClaimTable("fairness", ("variant", "players", "lineup"), "range_p", "seat fairness: every cell", "spread"),
    ClaimTable("card_balance", ("variant", "players", "lineup", "card"), "p_value",
               "card values: every card of every cell", "card"),
    ClaimTable("head_to_head", ("a", "b"), "p_value", "tournament: every pair of entrants", "head_to_head"),
    ClaimTable("design_search", ("search",), "", ""),   # a design search (unosim.analysis.design): no p-value
)}
#: each table's p-value column and its Holm family's name, as the report lists them
FAMILIES = {t.name: (t.p_column, t.family) for t in CLAIM_TABLES.values() if t.p_column}

#: the minimum effect worth stating per measure (declared in :mod:`.measures`): ("relative", x) compares
#: |B/A − 1| with x; ("absolute", x) compares |B − A| with x (in the measure's unit: a share, a win
#: probability). A relative measure whose baseline is 0 (no relative change) uses its absolute
#: ``zero_baseline`` minimum instead.
MIN_EFFECT = {m.name: ("relative" if m.relative else "absolute", m.minimum) for m in MEASURES.values()}


def effect_size(measure: str, row: dict) -> float:
    """The row's effect in multiples of its measure's minimum effect (the one ranking scale of the
    findings: 1 = just worth stating). NaN when the row has no estimate."""
    return size(measure, row)


@dataclass(frozen=True)
class Number:
    """One number as printed: ``format(value · scale, spec)`` of ``column`` in row ``row`` of the claim
    (``absolute``: of |value|)."""

    text: str
    row: int
    column: str
    spec: str
    scale: float = 1.0
    absolute: bool = False

    @staticmethod
    def of(rows: list[dict], row: int, column: str, spec: str, scale: float = 1.0,
           absolute: bool = False) -> Number:
        return Number(render_number(rows[row][column], spec, scale, absolute), row, column, spec, scale, absolute)


def render_number(value, spec: str, scale: float = 1.0, absolute: bool = False) -> str:
    """``value`` as printed. ``spec`` is a format spec, or ``upper95``: for a count ``n`` of games none of
    which changed, the 95 % upper bound on the share of games changed, 1 − 0.05^(1/n), in %."""
    if spec == "upper95":
        return format(100 * (1 - 0.05 ** (1 / float(value))), ".2g")
    value = float(value) * scale
    text = format(abs(value) if absolute else value, spec)
    return text.replace("-", "−")  # a minus sign, not a hyphen


@dataclass(frozen=True)
class Claim:
    """One finding as data. ``kind``: ``effect`` (supported and of practical size), ``negligible``
    (supported, below the minimum effect), ``no_effect`` (not supported in any of its rows),
    ``identical`` (the cells played identical games), ``note`` (rows stated without a verdict, such as
    the settings where a card's mismatch recurs)."""

    kind: str
    subject: str
    measure: str
    table: str
    rows: tuple[tuple[tuple[str, str], ...], ...]   # the key columns of each row it rests on, as text
    text: str
    scope: str = ""              # the lineup (or other setting) the sentence is limited to, as printed
    direction: int = 0           # +1 / −1: every row's estimate (minus its centre) has this sign; 0: none
    estimate: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    interval: str = ""           # "raw 95%" when an interval is printed beside a Holm verdict
    p: float | None = None
    p_holm: float | None = None
    family: str = ""
    supported: bool | None = None   # True: every row p_holm < α; False: none is; None: not claimed
    practical: bool | None = None   # True: every row ≥ its minimum effect; False: every row below it
    numbers: tuple[Number, ...] = ()
    size: float = 0.0            # ranking: the largest effect in multiples of the minimum effect
    section: str = "effects"
    verdict: str = ""            # a verdict claim's verdict (:mod:`.verdicts`)

    def as_dict(self) -> dict:
        out = asdict(self)
        out["rows"] = [dict(r) for r in self.rows]
        return out

    @staticmethod
    def from_dict(data: dict) -> Claim:
        data = dict(data)
        data["rows"] = tuple(tuple((str(k), str(v)) for k, v in r.items()) for r in data["rows"])
        data["numbers"] = tuple(Number(**n) for n in data["numbers"])
        return Claim(**data)


def row_key(table: str, row: dict) -> tuple[tuple[str, str], ...]:
    """The key of ``row`` of ``table`` as (column, text) pairs."""
    return tuple((c, key_text(row[c])) for c in CLAIM_TABLES[table].keys)


def key_text(value) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


@dataclass
class Sentence:
    """A sentence under construction: text and the numbers it prints, appended together."""

    parts: list[str] = field(default_factory=list)
    numbers: list[Number] = field(default_factory=list)

    def add(self, text: str) -> Sentence:
        self.parts.append(text)
        return self

    def num(self, rows: list[dict], row: int, column: str, spec: str, scale: float = 1.0,
            absolute: bool = False) -> Sentence:
        number = Number.of(rows, row, column, spec, scale, absolute)
        self.numbers.append(number)
        self.parts.append(number.text)
        return self

    @property
    def text(self) -> str:
        return "".join(self.parts)


def decimals_for(*values: float, digits: int = 2, most: int = 12) -> int:
    """Decimals that show the smallest nonzero of ``values`` with ``digits`` significant digits (capped at
    ``most``), so that a nonzero effect never prints as 0."""
    finite = [abs(v) for v in values if v is not None and math.isfinite(v) and v != 0]
    if not finite:
        return 0
    return int(min(max(digits - 1 - math.floor(math.log10(min(finite))), 0), most))
