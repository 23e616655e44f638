"""What a design search can ask for: its objectives and constraints, as data (docs/rules.md §8.8).

Each :class:`Objective` is one number per design, computed from the first rounds a design plays (single
rounds, the search's lineup): its name, the measure of :mod:`unosim.analysis.measures` it is (its plain
name, unit and docs/rules.md section come from there, never written twice), the designer's profile key
it maps to (:mod:`unosim.analysis.profile`: the confirmation study's verdicts judge by it), and how it is
computed. A spec asks for each objective a **direction** (``"less"``/``"more"``, or the profile's words
``"shorter"``, ``"fairer"`` …) or a **target** (a number, or a band ``[low, high]``: the distance to it is
minimised, 0 inside the band), and bounds each **constraint** (``{min = …, max = …}``) on any objective's
number or on ``deck_size``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
import polars as pl

from ..analysis.measures import COMEBACK_DEFICIT, MEASURES, MeasureInfo
from .errors import DesignSpecError


@dataclass(frozen=True)
class Played:
    """What one design played on a block of games: the first round of each game (``rounds``), and when
    the skill objective is asked, the rounds of the lineup with the skilled seat (``skilled``)."""

    rounds: pl.DataFrame
    players: int
    skilled: pl.DataFrame | None = None
    seats: pl.DataFrame | None = None
    declared: tuple = ()    # the design's declared cards (card_prices.DeclaredCard), named in the card values


def _won(rounds: pl.DataFrame) -> pl.DataFrame:
    return rounds.filter(pl.col("winner_seat") >= 0)


def _mean(values: pl.Series) -> float:
    return float(values.mean()) if len(values) else math.nan


def mean_turns(p: Played) -> float:
    return _mean(p.rounds["n_turns"].cast(pl.Float64))


def position_spread(p: Played) -> float:
    """Best minus worst position's share of rounds (position after the dealer), as docs/rules.md §8.4."""
    won = p.rounds["winner_seat"].to_numpy().astype(np.int64)
    dealer = p.rounds["dealer_seat"].to_numpy().astype(np.int64)
    positions = ((won - dealer) % p.players)[won >= 0]
    if not len(p.rounds):
        return math.nan
    rates = np.bincount(positions, minlength=p.players) / len(p.rounds)
    return float(rates.max() - rates.min())


def comeback_share(p: Played) -> float:
    return _mean((_won(p.rounds)["winner_max_deficit"] >= COMEBACK_DEFICIT).cast(pl.Float64))


def lead_changes(p: Played) -> float:
    return _mean(_won(p.rounds)["lead_changes"].cast(pl.Float64))


def winner_deficit(p: Played) -> float:
    return _mean(_won(p.rounds)["winner_max_deficit"].cast(pl.Float64))


def no_winner_share(p: Played) -> float:
    return _mean((p.rounds["winner_seat"] < 0).cast(pl.Float64))


def skill_edge(p: Played) -> float:
    """The skilled seat's (seat 0) share of the rounds with a winner minus the fair share 1/N."""
    won = _won(p.skilled)
    return _mean((won["winner_seat"] == 0).cast(pl.Float64)) - 1 / p.players


def card_imbalance(p: Played) -> float:
    """Root mean square over cards of the distance between a card's fitted value (change of win
    probability, :mod:`unosim.analysis.card_values`) and the line of its printed points
    (:mod:`unosim.analysis.card_balance`), weighted by how often the card is held. Each card's squared
    standard error is taken off its squared mismatch: noise alone would otherwise make a design measured
    on fewer games look less balanced (the estimate of the mean square is then unbiased; its root is
    floored at 0)."""
    from ..analysis.card_balance import card_balance
    from ..analysis.card_values import card_values
    from ..analysis.intervals import z_value
    values = card_values(p.seats.with_columns(variant=pl.lit("design"), lineup=pl.lit("design")),
                         declared={"design": p.declared})
    balance = card_balance(values)
    if balance.is_empty():
        return math.nan
    mismatch = balance["estimate"].to_numpy()
    se = (balance["ci_high"].to_numpy() - balance["ci_low"].to_numpy()) / (2 * z_value(0.95))
    weight = balance["n"].to_numpy().astype(np.float64)
    ok = np.isfinite(mismatch) & np.isfinite(se)
    if not ok.any():
        return math.nan
    return float(np.sqrt(max(np.average(mismatch[ok] ** 2 - se[ok] ** 2, weights=weight[ok]), 0.0)))


@dataclass(frozen=True)
class Objective:
    """One number per design. ``measure``: its record in :data:`unosim.analysis.measures.MEASURES`
    (plain name, unit, section); ``profile``: the designer's profile key it maps to (None: none);
    ``better``: the direction a bare ``"better"`` means; ``needs``: what must be played for it
    (``"skilled"``: a lineup with the skilled seat; ``"seats"``: the seat table)."""

    name: str
    measure: str
    compute: Callable[[Played], float]
    doc: str
    profile: str | None = None
    needs: str | None = None
    unit: str | None = None      # when the design's number is not in the measure's unit

    @property
    def info(self) -> MeasureInfo:
        return MEASURES[self.measure]

    @property
    def section(self) -> str:
        return self.info.rules.replace("docs/rules.md ", "")

    @property
    def shown_unit(self) -> str:
        return self.unit or self.info.unit


OBJECTIVES: dict[str, Objective] = {o.name: o for o in (
    Objective("length", "length", mean_turns, "mean turns per round", profile="length",
              unit="mean turns per round"),
    Objective("fairness", "spread", position_spread, "spread of win rates by position after the dealer "
              "(best − worst)", profile="fairness"),
    Objective("comebacks", "comebacks", comeback_share, f"share of won rounds won from ≥ {COMEBACK_DEFICIT} "
              "cards behind", profile="comebacks"),
    Objective("lead_changes", "lead_changes", lead_changes, "lead changes per round with a winner",
              profile="lead_changes"),
    Objective("deficit", "comebacks", winner_deficit, "the largest deficit the winner came back from (cards "
              "behind the smallest hand), mean over won rounds", unit="cards behind the smallest hand"),
    Objective("no_winner", "no_winner", no_winner_share, "share of rounds with no winner (a stalemate or the "
              "turn cap)", profile="no_winner"),
    Objective("skill", "skill", skill_edge, "the skilled seat's share of won rounds minus 1/N (the skilled "
              "seat plays `skill_policy`, the others the lineup)", profile="skill", needs="skilled"),
    Objective("card_balance", "card", card_imbalance, "how far cards' fitted values are from the line of "
              "their printed points (root mean square, in win probability)", needs="seats",
              unit="win probability (root mean square over cards)"),
)}

#: words a direction may be given in: the profile's words and plain less/more
WORDS = {"less": -1, "more": 1, "fewer": -1, "shorter": -1, "longer": 1, "fairer": -1, "smaller": -1,
         "larger": 1, "higher": 1, "lower": -1}
#: constraint-only quantities (not measures of play)
DECK_SIZE = "deck_size"


@dataclass(frozen=True)
class Goal:
    """What the spec asks of one objective: ``sign`` −1 minimise / +1 maximise, or a ``target`` band
    (low, high) whose distance is minimised."""

    objective: str
    sign: int = -1
    target: tuple[float, float] | None = None

    @property
    def direction(self) -> str:
        """Optuna's direction of the number the search optimises (:meth:`score`)."""
        return "maximize" if self.target is None and self.sign > 0 else "minimize"

    def score(self, value: float) -> float:
        """The number the search optimises: the value itself, or its distance to the target band."""
        if self.target is None:
            return value
        low, high = self.target
        return max(low - value, value - high, 0.0)

    def describe(self) -> str:
        o = OBJECTIVES[self.objective]
        if self.target is not None:
            low, high = self.target
            band = f"{low:g}" if low == high else f"{low:g}–{high:g}"
            return f"{self.objective} near {band} ({o.doc})"
        return f"{'more' if self.sign > 0 else 'less'} {self.objective} ({o.doc})"


@dataclass(frozen=True)
class Bound:
    """A constraint: ``low ≤ quantity ≤ high`` (either may be None)."""

    quantity: str
    low: float | None = None
    high: float | None = None

    def violation(self, value: float) -> float:
        """How far ``value`` is outside the bounds, in the quantity's unit (0 inside; ∞ when unknown)."""
        if not math.isfinite(value):
            return math.inf
        return max((self.low - value) if self.low is not None else 0.0,
                   (value - self.high) if self.high is not None else 0.0, 0.0)

    def describe(self) -> str:
        if self.low is not None and self.high is not None:
            return f"{self.low:g} ≤ {self.quantity} ≤ {self.high:g}"
        return f"{self.quantity} {'≥' if self.low is not None else '≤'} {self.low if self.low is not None else self.high:g}"


def _number(value, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise DesignSpecError(f"{where} = {value!r} is invalid: valid is a finite number")
    return float(value)


def parse_goals(table) -> tuple[Goal, ...]:
    """``objectives = {length = [20, 30], fairness = "less", comebacks = "more"}`` (or a list of names:
    each in its ``better`` direction) → goals; one-line errors name the valid objectives and words."""
    if isinstance(table, str):
        table = [table]
    if isinstance(table, list):
        table = {name: "better" for name in table}
    if not isinstance(table, Mapping) or not table:
        raise DesignSpecError(f"[design] objectives = {table!r} is invalid: valid is a table such as "
                              f"{{length = [20, 30], fairness = \"less\"}} of objectives {sorted(OBJECTIVES)}")
    goals = []
    for name, wish in table.items():
        if name not in OBJECTIVES:
            raise DesignSpecError(f"unknown objective {name!r}: valid objectives are {sorted(OBJECTIVES)} "
                                  f"(`unosim design --help`)")
        goals.append(_goal(name, wish))
    return tuple(goals)


def _goal(name: str, wish) -> Goal:
    where = f"[design] objectives.{name}"
    if isinstance(wish, str):
        word = wish.strip().lower()
        if word == "better":
            better = MEASURES[OBJECTIVES[name].measure].better
            return Goal(name, 1 if better == "more" else -1)
        if word in WORDS:
            return Goal(name, WORDS[word])
        raise DesignSpecError(f"{where} = {wish!r} is invalid: valid are {sorted(WORDS)}, a target number or a "
                              f"band [low, high]")
    if isinstance(wish, Mapping) and set(wish) == {"target"}:
        wish = wish["target"]
    if isinstance(wish, (list, tuple)) and len(wish) == 2:
        low, high = (_number(v, where) for v in wish)
        if low > high:
            raise DesignSpecError(f"{where} = {list(wish)!r} is invalid: a band is [low, high] with low ≤ high")
        return Goal(name, -1, (low, high))
    if isinstance(wish, (int, float)) and not isinstance(wish, bool):
        value = _number(wish, where)
        return Goal(name, -1, (value, value))
    raise DesignSpecError(f"{where} = {wish!r} is invalid: valid are {sorted(WORDS)}, a target number or a band "
                          f"[low, high]")


def parse_bounds(table) -> tuple[Bound, ...]:
    """``constraints = {no_winner = {max = 0.01}, deck_size = [80, 140]}`` → bounds."""
    if table is None:
        return ()
    if not isinstance(table, Mapping):
        raise DesignSpecError(f"[design] constraints = {table!r} is invalid: valid is a table such as "
                              f"{{no_winner = {{max = 0.01}}, deck_size = [80, 140]}}")
    valid = sorted(OBJECTIVES) + [DECK_SIZE]
    bounds = []
    for name, value in table.items():
        where = f"[design] constraints.{name}"
        if name not in valid:
            raise DesignSpecError(f"unknown constraint {name!r}: valid are {valid}")
        if isinstance(value, (list, tuple)) and len(value) == 2:
            value = {"min": value[0], "max": value[1]}
        if not isinstance(value, Mapping) or not value or set(value) - {"min", "max"}:
            raise DesignSpecError(f"{where} = {value!r} is invalid: valid is {{min = …, max = …}} (either or "
                                  f"both) or [min, max]")
        low = _number(value["min"], where + ".min") if "min" in value else None
        high = _number(value["max"], where + ".max") if "max" in value else None
        if low is not None and high is not None and low > high:
            raise DesignSpecError(f"{where}: min {low:g} > max {high:g} is impossible: give min ≤ max")
        if name == "no_winner" or (name in OBJECTIVES and OBJECTIVES[name].info.share_of):
            for edge in (low, high):
                if edge is not None and not 0 <= edge <= 1:
                    raise DesignSpecError(f"{where}: {edge:g} is impossible for a share: valid is 0..1")
        if name == DECK_SIZE and high is not None and high < 1:
            raise DesignSpecError(f"{where}: max {high:g} is impossible: a deck holds at least 1 card")
        bounds.append(Bound(name, low, high))
    return tuple(bounds)


def help_text() -> str:
    """The objectives for ``unosim design --help``, each with its docs/rules.md section."""
    lines = ["objectives (a direction \"less\"/\"more\", a target number or a band [low, high]; constraints",
             "bound any of them, or deck_size, with {min = …, max = …}):"]
    for o in OBJECTIVES.values():
        lines.append(f"  {o.name}: {o.doc} (docs/rules.md {o.section})")
    lines.append("  deck_size (constraint only): cards in the deck")
    lines.append("selection and confirmation statistics: docs/rules.md §8.8")
    return "\n".join(lines)
