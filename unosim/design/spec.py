"""A design spec: the ``[design]`` table of a TOML file (or the arguments of :func:`unosim.design`)::

    [design]
    name = "shorter_no_mercy"        # the output directory: <out>/<name>
    variant = "no_mercy"             # the base game
    players = 4
    lineup = "random"                # the seats' policies (docs/rules.md §5)
    seed = 1
    objectives = { length = [20, 30], fairness = "less", comebacks = "more" }
    constraints = { no_winner = { max = 0.01 }, deck_size = [80, 140] }
    budget = { minutes = 10 }        # or { games = 5_000_000 }
    top = 5                          # designs confirmed on fresh games
    confirm_games = 20_000           # games per confirmed design (and for the base game)

    [design.space]                   # optional (unosim.design.space)
    rules = ["hand_size", "stacking", "jump_in"]
    fixed = { seven_o = false }
    ranges = { hand_size = [5, 9] }
    deck = { draw_two = [4, 12] }    # or false: the published deck
    cards = { draw_three = [0, 4] }  # the count of a card declared in fixed = { cards = {...} }

Every mistake raises :class:`~unosim.design.DesignSpecError`, one line naming the bad value and
the valid choices, before any game is played.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..game.policies import make_lineup
from ..game.rules import get_variant
from .errors import DesignSpecError
from .objectives import DECK_SIZE, OBJECTIVES, Bound, Goal, parse_bounds, parse_goals
from .space import CARDS_PREFIX, Space, derive, with_counts

DEFAULT_MINUTES = 10.0
DEFAULT_TOP = 5
DEFAULT_CONFIRM_GAMES = 20_000
#: the least confirmation games per design: fewer cannot give the intervals the report states a
#: minimum effect of 1 percentage point against (docs/rules.md §8.2)
MIN_CONFIRM_GAMES = 2_000
#: the skilled seat of the skill objective: a preset cheap enough for a search (the expert plays in the
#: confirmation only)
DEFAULT_SKILL_POLICY = "high_card_out"
_KEYS = {"name", "variant", "players", "lineup", "seed", "objectives", "constraints", "budget", "top",
         "confirm_games", "space", "skill_policy", "first_games", "batch"}
_NAME_RE = re.compile(r"[a-z][a-z0-9_]{0,63}")


@dataclass(frozen=True)
class Budget:
    """The search's budget: ``games`` played in all, or ``minutes`` of wall time (one of them)."""

    games: int | None = None
    minutes: float | None = None

    def describe(self) -> str:
        return f"{self.games:,} games" if self.games else f"{self.minutes:g} minutes"


@dataclass(frozen=True)
class DesignSpec:
    name: str
    variant: str
    players: int
    lineup: str
    seed: int
    goals: tuple[Goal, ...]
    bounds: tuple[Bound, ...]
    budget: Budget
    space: Space
    top: int = DEFAULT_TOP
    confirm_games: int = DEFAULT_CONFIRM_GAMES
    skill_policy: str = DEFAULT_SKILL_POLICY
    first_games: int = 0          # games of a design's first rung (0: the default of unosim.design.search)
    batch: int = 0                # designs per batch (0: the default)
    raw: dict = field(default_factory=dict, compare=False)

    @property
    def objectives(self) -> tuple[str, ...]:
        return tuple(g.objective for g in self.goals)

    @property
    def needs(self) -> set[str]:
        """What the designs must play beyond the lineup's rounds (``skilled``, ``seats``)."""
        names = {*self.objectives, *(b.quantity for b in self.bounds)}
        return {OBJECTIVES[n].needs for n in names if n in OBJECTIVES and OBJECTIVES[n].needs}

    def search_identity(self) -> dict[str, Any]:
        """What the trials of a search depend on: a resumed search must have the same."""
        return {k: v for k, v in self.raw.items() if k not in ("budget", "top", "confirm_games")}


def load(path: str | Path) -> DesignSpec:
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8").removeprefix("\ufeff"))
    except OSError as exc:
        raise DesignSpecError(f"cannot read design spec {str(path)!r}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise DesignSpecError(f"{path}: not valid TOML: {exc}") from None
    if "design" not in data or not isinstance(data["design"], Mapping):
        raise DesignSpecError(f"{path} has no [design] table: valid is a spec with a [design] table (see "
                              f"`unosim design --help`)")
    return parse(data["design"])


def parse(table: Mapping[str, Any]) -> DesignSpec:
    unknown = sorted(set(table) - _KEYS)
    if unknown:
        raise DesignSpecError(f"unknown [design] key {unknown[0]!r}: valid keys are {sorted(_KEYS)}")
    for key in ("variant", "players", "objectives"):
        if key not in table:
            raise DesignSpecError(f"[design] needs {key!r} (keys: variant, players, objectives; optional "
                                  f"{sorted(_KEYS - {'variant', 'players', 'objectives'})})")
    name = table.get("name", f"design_{table['variant']}")
    if not isinstance(name, str) or not _NAME_RE.fullmatch(name):
        raise DesignSpecError(f"[design] name = {name!r} is invalid: valid is a lowercase identifier (letters, "
                              f"digits, _; at most 64 characters)")
    players = _int(table["players"], "players", 2, 10)
    lineup = table.get("lineup", "random")
    try:
        make_lineup(lineup, players)
    except ValueError as exc:
        raise DesignSpecError(f"[design] lineup: {exc}") from None
    skill_policy = table.get("skill_policy", DEFAULT_SKILL_POLICY)
    try:
        make_lineup(f"{skill_policy},random*", players)
    except ValueError as exc:
        raise DesignSpecError(f"[design] skill_policy: {exc}") from None
    space_table = table.get("space", {})
    if not isinstance(space_table, Mapping) or set(space_table) - {"rules", "fixed", "ranges", "deck", "cards"}:
        raise DesignSpecError(f"[design.space] = {space_table!r} is invalid: valid keys are rules, fixed, ranges, "
                              f"deck, cards")
    space = derive(table["variant"], rules=space_table.get("rules"), fixed=space_table.get("fixed"),
                   ranges=space_table.get("ranges"), deck=space_table.get("deck", True),
                   cards=space_table.get("cards"))
    try:
        get_variant(table["variant"], {**space.fixed, "match_mode": "single_round"}).check_players(players)
    except ValueError as exc:
        raise DesignSpecError(f"[design] players = {players}: {exc}") from None
    _check_card_counts(space, players)
    goals = parse_goals(table["objectives"])
    bounds = parse_bounds(table.get("constraints"))
    _check_deck_bounds(bounds, space)
    spec = DesignSpec(name=name, variant=table["variant"], players=players, lineup=lineup,
                      seed=_int(table.get("seed", 1), "seed", 0, 2**63 - 1), goals=goals, bounds=bounds,
                      budget=_budget(table.get("budget", {"minutes": DEFAULT_MINUTES})), space=space,
                      top=_int(table.get("top", DEFAULT_TOP), "top", 1, 20),
                      confirm_games=_int(table.get("confirm_games", DEFAULT_CONFIRM_GAMES), "confirm_games", 0,
                                         10**8),
                      skill_policy=skill_policy, first_games=_int(table.get("first_games", 0), "first_games", 0,
                                                                  10**7),
                      batch=_int(table.get("batch", 0), "batch", 0, 1000), raw=dict(table))
    if "skilled" in spec.needs and "," in lineup:
        raise DesignSpecError(f"[design] lineup = {lineup!r} with the skill objective: valid is one policy for "
                              f"every seat (the skilled seat, {skill_policy}, takes seat 0)")
    if 0 < spec.confirm_games < MIN_CONFIRM_GAMES:
        raise DesignSpecError(f"[design] confirm_games = {spec.confirm_games:,} is too small to confirm: valid is 0 "
                              f"(no confirmation) or at least {MIN_CONFIRM_GAMES:,}")
    return spec


def _int(value: Any, key: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise DesignSpecError(f"[design] {key} = {value!r} is invalid: valid is an integer in {lo}..{hi:,}")
    return int(value)


def _budget(value: Any) -> Budget:
    if isinstance(value, Mapping) and len(value) == 1 and "games" in value:
        return Budget(games=_int(value["games"], "budget.games", 1, 10**12))
    if isinstance(value, Mapping) and len(value) == 1 and "minutes" in value:
        m = value["minutes"]
        if isinstance(m, bool) or not isinstance(m, (int, float)) or not (math.isfinite(m) and m > 0):
            raise DesignSpecError(f"[design] budget.minutes = {m!r} is invalid: valid is a number of minutes > 0")
        return Budget(minutes=float(m))
    raise DesignSpecError(f"[design] budget = {value!r} is invalid: valid is {{minutes = 10}} or {{games = 5000000}}")


def _check_deck_bounds(bounds: tuple[Bound, ...], space: Space) -> None:
    """A deck-size bound no deck of the space can meet is impossible: said before any game."""
    from ..game.rules import get_variant
    for b in bounds:
        if b.quantity != DECK_SIZE:
            continue
        base = get_variant(space.variant, {**space.fixed, "match_mode": "single_round"}).deck_in_effect()
        deck_dims = [d for d in space.dimensions if d.is_deck]
        searched = {d.name.removeprefix("deck.") for d in deck_dims}
        copies = _copies_per_count(space)
        fixed_cards = sum(n for c, n in base.items() if c not in searched and c not in copies)
        least = fixed_cards + sum(d.low for d in deck_dims) + sum(d.low * copies[_card(d)] for d in _card_dims(space))
        most = fixed_cards + sum(d.high for d in deck_dims) + sum(d.high * copies[_card(d)] for d in _card_dims(space))
        if (b.high is not None and b.high < least) or (b.low is not None and b.low > most):
            raise DesignSpecError(f"[design] constraints.deck_size ({b.describe()}) is impossible: the decks of "
                                  f"this space hold {least}..{most} cards")


def _card_dims(space: Space) -> list:
    return [d for d in space.dimensions if d.is_card]


def _card(dimension) -> str:
    return dimension.name.removeprefix(CARDS_PREFIX)


def _copies_per_count(space: Space) -> dict[str, int]:
    """Cards in the deck per unit of count, of each declared card whose count is searched."""
    searched = {_card(d) for d in _card_dims(space)}
    cards = get_variant(space.variant, {**space.fixed, "match_mode": "single_round"}).cards
    return {d.name: 1 if d.wild else 4 for d in cards if d.name in searched}


def _check_card_counts(space: Space, players: int) -> None:
    """Each searched declared card's lowest and highest count, the rest of the base game kept, must make
    a deck the rules accept and that deals ``players`` hands: said before any game."""
    for d in _card_dims(space):
        for count in (d.low, d.high):
            rules = {**space.fixed, "match_mode": "single_round",
                     "cards": with_counts(space.fixed["cards"], {_card(d): count})}
            try:
                get_variant(space.variant, rules).check_players(players)
            except ValueError as exc:
                raise DesignSpecError(f"[design.space] cards.{_card(d)} = [{d.low}, {d.high}] is invalid: at count "
                                      f"{count}, {exc}") from None
