"""Study specs: a TOML file → validated cells → jobs.

A **study** is a grid of **cells** (variant × players × lineup), each simulated for a number of games;
a **job** is a contiguous range of one cell's game indices. The spec format::

    [study]
    name = "demo"                    # the dataset directory: <out>/<name>
    seed = 20250101
    games = 2000                     # per cell (a [[grid]] table may override it)
    mode = "single_round"            # or a match mode: "points", "lowest"
    common_random_numbers = true     # default; see cell_seed
    description = "..."              # optional

    [variants]                       # optional: named variants = registry variant + rule overrides
    no_blank = { base = "classic", rules = { n_blank = 0 } }
    more_draws = { base = "classic", deck = { draw_two = 12 } }   # a designer deck (docs/rules.md §2.5)

    [lineups]                        # optional: named lineups, "*" fills the remaining seats
    greedy_first = "greedy_points,random*"

    [[grid]]                         # one or more grids; the study is the union of their cells
    variants = ["classic", "no_blank"]
    players = [2, 3, 4]
    lineups = ["random"]

    [[comparisons]]                  # optional: paired comparisons run by `unosim analyze`
    axis = "variant"                 # or "lineup": compare a with b at every shared other axis
    a = "classic"
    b = "no_blank"

    [profile]                        # optional: what "better" means to the designer (docs/rules.md §8.7)
    length = "shorter"               # the verdicts of `unosim analyze` judge by it; it changes no game

A grid names variants from ``[variants]`` or the registry (``unosim variants``), and lineups from
``[lineups]`` or a policy name (``random`` = every seat ``random``). Every mistake raises
:class:`SpecError` with one line naming the problem and the valid choices.
"""

from __future__ import annotations

import hashlib
import json
import numbers
import re
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine.compiler.builds import mechanisms_of
from ..game import cards, policies, rules
from ..game.checks import clip_message, is_int
from ..game.protocol import MECHANISMS
from ..store.layout import job_count, job_range

MODES = rules.MATCH_MODES
COMPARISON_AXES = ("variant", "lineup")
#: names become directory and file names: a lowercase identifier of at most 64 characters
_NAME_RE = re.compile(r"[a-z][a-z0-9_]{0,63}")
_NAME_RULE = "a lowercase identifier (letters, digits, _; at most 64 characters)"
_SPEC_KEYS = {"study", "variants", "lineups", "grid", "comparisons", "profile"}
_STUDY_KEYS = {"name", "seed", "games", "mode", "common_random_numbers", "description"}
_VARIANT_KEYS = {"base", "rules", "deck", "cards"}
_GRID_KEYS = {"variants", "players", "lineups", "games"}
_COMPARISON_KEYS = {"axis", "a", "b"}


class SpecError(ValueError):
    """An invalid study spec; the message is one line naming the problem and the valid choices."""


@dataclass(frozen=True)
class Cell:
    """One point of the grid: a named variant, a player count and a named lineup."""

    variant: str
    players: int
    lineup: str
    lineup_spec: str
    ruleset: rules.RuleSet
    games: int
    seed: int

    @property
    def name(self) -> str:
        return f"{self.variant}-p{self.players}-{self.lineup}"

    @property
    def lineup_label(self) -> str:
        return policies.lineup_label(policies.make_lineup(self.lineup_spec, self.players))

    @property
    def lineup_effective(self) -> str:
        return policies.effective_label(policies.make_lineup(self.lineup_spec, self.players))

    @property
    def mechanism_versions(self) -> dict[str, int]:
        """The version of each engine mechanism the cell's rules use (``protocol.Mechanism.version``), in the
        registry's order: its parts record them, and a resume adopts no part written under others."""
        used = mechanisms_of(self.ruleset)
        return {name: wing.version for name, wing in MECHANISMS.items() if name in used}

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "variant": self.variant, "players": self.players, "lineup": self.lineup,
                "lineup_spec": self.lineup_spec, "lineup_label": self.lineup_label,
                "lineup_effective": self.lineup_effective,
                "rules_key": self.ruleset.key, "games": self.games, "seed": self.seed}


@dataclass(frozen=True)
class Job:
    """Games ``first_game .. first_game + games - 1`` of one cell."""

    cell: Cell
    index: int
    first_game: int
    games: int


@dataclass(frozen=True)
class Comparison:
    axis: str
    a: str
    b: str


@dataclass(frozen=True)
class Study:
    name: str
    seed: int
    mode: str
    common_random_numbers: bool
    description: str
    variants: dict[str, rules.RuleSet]
    variant_overrides: dict[str, dict[str, Any]]
    lineups: dict[str, str]
    cells: tuple[Cell, ...]
    comparisons: tuple[Comparison, ...]
    profile: dict[str, Any] | None = None   # the designer's profile, as given (checked by the analysis layer)

    @property
    def total_games(self) -> int:
        return sum(c.games for c in self.cells)

    def jobs(self, chunk_size: int) -> Iterator[Job]:
        """Every cell cut into jobs of at most ``chunk_size`` (≥ 1) games (the last one may be shorter),
        generated lazily: a trillion-game cell costs no memory."""
        for cell in self.cells:
            for i in range(job_count(cell.games, chunk_size)):
                yield Job(cell, i, *job_range(cell.games, chunk_size, i))

    @property
    def mechanism_versions(self) -> dict[str, int]:
        """The version of each engine mechanism any cell uses, in the registry's order (the manifest's record)."""
        used = {name: version for cell in self.cells for name, version in cell.mechanism_versions.items()}
        return {name: used[name] for name in MECHANISMS if name in used}

    def resolved(self) -> dict[str, Any]:
        """The spec after resolution (JSON-friendly): what the dataset is a function of."""
        return {
            "name": self.name, "seed": self.seed, "mode": self.mode,
            "common_random_numbers": self.common_random_numbers, "description": self.description,
            "variants": {name: {"key": rs.key, "base": rs.name, "overrides": self.variant_overrides[name],
                                **({"deck_in_effect": rs.deck_in_effect()} if rs.deck or rs.cards else {})}
                         for name, rs in self.variants.items()},
            "lineups": dict(self.lineups),
            "cells": [c.describe() for c in self.cells],
            "comparisons": [{"axis": c.axis, "a": c.a, "b": c.b} for c in self.comparisons],
            **({"profile": self.profile} if self.profile else {}),
        }


def cell_seed(study_seed: int, ruleset: rules.RuleSet, players: int, cell_name: str,
              common_random_numbers: bool) -> int:
    """The simulate seed of a cell, a pure function of the study seed and the deck-sharing key.

    With common random numbers the key is (deck counts, players): cells that differ only in lineup or
    house rules get the same seed and so, game by game, the same shuffled decks (the engine draws decks
    from their own stream). Without, the key also holds the cell name, so every cell is independent.
    """
    key: dict[str, Any] = {"deck": cards.seed_counts(ruleset.deck_counts()), "players": players}
    if not common_random_numbers:
        key["cell"] = cell_name
    digest = hashlib.blake2b(json.dumps([study_seed, key], sort_keys=True).encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "little") >> 1


# ---- parsing ----------------------------------------------------------------------------------------
def load_study(path: str | Path, profile_check: Callable[[dict[str, Any]], object] | None = None) -> Study:
    """Read and validate a spec file (``profile_check``: see :func:`parse_study`)."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise SpecError(f"cannot read study spec {str(path)!r}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise SpecError(f"{path}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start}); "
                        f"save the spec as UTF-8") from None
    text = text.removeprefix("\ufeff")   # a byte-order mark, as some editors save UTF-8
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:
        raise SpecError(f"{path}: arrays or tables nested too deeply to be a study spec") from None
    return parse_study(data, source=str(path), profile_check=profile_check)


def parse_study(data: dict[str, Any], source: str = "spec",
                profile_check: Callable[[dict[str, Any]], object] | None = None) -> Study:
    """Validate a parsed spec (a dict as read from TOML). ``profile_check`` validates the ``[profile]``
    table (it raises ValueError naming the problem; :meth:`unosim.analysis.profile.Profile.from_mapping`,
    which this layer cannot import, is what the command line passes)."""
    def fail(msg: str) -> SpecError:
        return SpecError(clip_message(f"{source}: {msg}"))

    _check_keys(data, _SPEC_KEYS, "top-level table", fail, required={"study", "grid"})
    head = data["study"]
    _check_table(head, "[study]", fail)
    _check_keys(head, _STUDY_KEYS, "[study]", fail, required={"name", "seed", "games", "mode"})
    name = _identifier(head["name"], "[study] name", fail)
    seed = _int(head["seed"], "[study] seed", 0, 2**63 - 1, fail)
    default_games = _int(head["games"], "[study] games", 1, 10**12, fail)
    mode = head["mode"]
    if mode not in MODES:
        raise fail(f"[study] mode={mode!r} is unknown: valid modes are {list(MODES)}")
    crn = head.get("common_random_numbers", True)
    if not isinstance(crn, bool):
        raise fail(f"[study] common_random_numbers={crn!r} must be true or false")
    description = head.get("description", "")
    if not isinstance(description, str):
        raise fail("[study] description must be a string")

    variants = _parse_variants(data.get("variants", {}), fail)
    for v, (base, overrides) in variants.items():  # every spec-defined variant, used or not, must be valid
        if v not in rules.variant_names():
            _resolve_variant(v, base, overrides, mode, fail)
    lineups = _parse_lineups(data.get("lineups", {}), fail)
    grids = data["grid"] if isinstance(data["grid"], list) else [data["grid"]]
    if not grids:
        raise fail("[[grid]] is empty: give at least one [[grid]] table with variants and players")
    cells: dict[str, Cell] = {}
    for i, grid in enumerate(grids):
        where = f"[[grid]] #{i + 1}"
        for cell in _grid_cells(grid, where, variants, lineups, mode, default_games, seed, crn, fail):
            if cell.name in cells:
                raise fail(f"{where} repeats cell {cell.name!r} (variant, players and lineup already "
                           f"in an earlier grid)")
            cells[cell.name] = cell
    used_variants = {c.variant for c in cells.values()}
    used_lineups = {c.lineup for c in cells.values()}
    comparisons = _parse_comparisons(data.get("comparisons", []), used_variants, used_lineups, fail)
    profile = data.get("profile")
    if profile is not None:
        _check_table(profile, "[profile]", fail)
        if profile_check is not None:
            try:
                profile_check(profile)
            except ValueError as exc:
                raise fail(f"[profile]: {exc}") from None
    return Study(name=name, seed=seed, mode=mode, common_random_numbers=crn, description=description,
                 variants={c.variant: c.ruleset for c in cells.values()},
                 variant_overrides={v: variants[v][1] for v in sorted(used_variants)},
                 lineups={lu: lineups[lu] for lu in sorted(used_lineups)},
                 cells=tuple(cells.values()), comparisons=comparisons, profile=profile or None)


def _check_table(value: Any, where: str, fail) -> None:
    if not isinstance(value, dict):
        raise fail(f"{where} must be a table")


def _check_keys(table: dict[str, Any], allowed: set[str], where: str, fail,
                required: set[str] = frozenset()) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise fail(f"unknown key {unknown[0]!r} in {where}: valid keys are {sorted(allowed)}")
    missing = sorted(required - set(table))
    if missing:
        raise fail(f"{where} is missing the required key {missing[0]!r}")


def _identifier(value: Any, where: str, fail) -> str:
    if not isinstance(value, str) or not _NAME_RE.fullmatch(value):
        raise fail(f"{where}={value!r} must be {_NAME_RULE}")
    return value


def _int(value: Any, where: str, lo: int, hi: int, fail) -> int:
    if not is_int(value) or not lo <= value <= hi:
        raise fail(f"{where}={value!r} must be an integer in {lo}..{hi}")
    return int(value)


def _parse_variants(table: Any, fail) -> dict[str, tuple[str, dict[str, Any]]]:
    """name → (registry base, rule overrides); registry names stand for themselves."""
    _check_table(table, "[variants]", fail)
    out = {name: (name, {}) for name in rules.variant_names()}
    for name, entry in sorted(table.items()):
        where = f"[variants] {name}"
        _identifier(name, "[variants] name", fail)
        if name in out:
            raise fail(f"{where} would redefine the built-in variant {name!r}; give your variant another "
                       f"name (built-in: {rules.variant_names()})")
        _check_table(entry, where, fail)
        _check_keys(entry, _VARIANT_KEYS, where, fail, required={"base"})
        base, extra = entry["base"], entry.get("rules", {})
        if base not in rules.variant_names():
            raise fail(f"{where}: unknown base variant {base!r}: valid are {rules.variant_names()}")
        if not isinstance(extra, dict):
            raise fail(f"{where} rules={extra!r} must be a table of rule overrides such as "
                       f"{{ n_blank = 0 }}")
        if "match_mode" in extra:
            raise fail(f"{where}: match_mode is set once for the study, by [study] mode")
        extra = dict(extra)
        for key in ("deck", "cards"):   # a designer deck (docs/rules.md §2.5), cards declared as data (§2.7)
            if key in entry:
                if key in extra:
                    raise fail(f"{where}: the {key} are given twice ({key} = … and rules = {{ {key} = … }}); "
                               f"give them once")
                extra[key] = entry[key]
        out[name] = (base, extra)
    return out


def _resolve_variant(name: str, base: str, overrides: dict[str, Any], mode: str, fail) -> rules.RuleSet:
    """The rule set of a spec variant; a rule error is a spec error naming the variant."""
    try:
        return rules.get_variant(base, {**overrides, "match_mode": mode})
    except ValueError as exc:
        raise fail(f"variant {name!r}: {exc}") from None


def _parse_lineups(table: Any, fail) -> dict[str, str]:
    _check_table(table, "[lineups]", fail)
    out = {p: f"{p}*" for p in policies.POLICIES}
    for name, spec in table.items():
        _identifier(name, "[lineups] name", fail)
        if isinstance(spec, list):
            spec = ",".join(map(str, spec))
        if not isinstance(spec, str):
            raise fail(f"[lineups] {name}={spec!r} must be a string such as 'greedy_points,random*' or a "
                       f"list of policies")
        try:
            policies.parse_lineup(spec, name=name)   # a policy's name may only mean that policy everywhere
        except ValueError as exc:
            raise fail(f"[lineups] {name}: {exc}") from None
        _check_lineup(name, spec, fail)
        out[name] = spec
    return out


def _too_large(ruleset: rules.RuleSet) -> str:
    """Name the rule values the kernel's 64-bit data cannot hold."""
    big = [f"{k}={v}" for k, v in vars(ruleset).items()
           if isinstance(v, int) and not isinstance(v, bool) and not -2**63 <= v < 2**63]
    return f"rule {', '.join(big) or 'value'} is too large for the engine (at most {2**63 - 1})"


def _check_lineup(name: str, spec: str, fail) -> None:
    """Every lineup, used or not, must name existing policies and parameters (for some table size)."""
    error = None
    for players in range(1, 11):
        try:
            policies.make_lineup(spec, players)
            return
        except ValueError as exc:
            error = exc
    raise fail(f"[lineups] {name}: {error}")


def _grid_cells(grid, where, variants, lineups, mode, default_games, seed, crn, fail):
    _check_table(grid, where, fail)
    _check_keys(grid, _GRID_KEYS, where, fail, required={"variants", "players"})
    games = _int(grid.get("games", default_games), f"{where} games", 1, 10**12, fail)
    axes = {}
    for axis in ("variants", "players", "lineups"):
        values = grid.get(axis, ["random"])
        if not isinstance(values, list) or not values:
            raise fail(f"{where} {axis} must be a non-empty list")
        kind = int if axis == "players" else str
        for value in values:
            if not isinstance(value, kind) or isinstance(value, bool):
                raise fail(f"{where} {axis}: {value!r} is not " + ("an integer player count (must be integers)"
                           if axis == "players" else f"a {axis[:-1]} name (a string)"))
        if len(set(map(str, values))) != len(values):
            raise fail(f"{where} {axis} lists a value twice: {values}")
        axes[axis] = values
    for v in axes["variants"]:
        if v not in variants:
            raise fail(f"{where}: unknown variant {v!r}: valid are {sorted(variants)}")
    for lu in axes["lineups"]:
        if lu not in lineups:
            raise fail(f"{where}: unknown lineup {lu!r}: valid are {sorted(lineups)}")
    for v in axes["variants"]:
        ruleset = _resolve_variant(v, *variants[v], mode, fail)
        for n in axes["players"]:
            if not isinstance(n, int) or isinstance(n, bool):
                raise fail(f"{where} players={n!r} must be integers")
            try:
                ruleset.compile(n)  # the kernel's data: checks the player count and that every value fits
            except OverflowError:
                raise fail(f"variant {v!r}: {_too_large(ruleset)}") from None
            except ValueError as exc:
                raise fail(str(exc)) from None
            for lu in axes["lineups"]:
                try:
                    policies.make_lineup(lineups[lu], n)
                except ValueError as exc:
                    raise fail(f"lineup {lu!r} with {n} players: {exc}") from None
                name = f"{v}-p{n}-{lu}"
                yield Cell(variant=v, players=n, lineup=lu, lineup_spec=lineups[lu], ruleset=ruleset,
                           games=games, seed=cell_seed(seed, ruleset, n, name, crn))


def _parse_comparisons(entries: Any, used_variants: set[str], used_lineups: set[str], fail):
    if not isinstance(entries, list):
        raise fail("comparisons must be an array of tables: [[comparisons]]")
    out = []
    for i, entry in enumerate(entries):
        where = f"[[comparisons]] #{i + 1}"
        _check_table(entry, where, fail)
        _check_keys(entry, _COMPARISON_KEYS, where, fail, required=_COMPARISON_KEYS)
        axis = entry["axis"]
        if axis not in COMPARISON_AXES:
            raise fail(f"{where}: unknown axis {axis!r}: valid are {list(COMPARISON_AXES)}")
        valid = used_variants if axis == "variant" else used_lineups
        for side in ("a", "b"):
            if not isinstance(entry[side], str):
                raise fail(f"{where}: {side}={entry[side]!r} must be a {axis} name (a string): valid are "
                           f"{sorted(valid)}")
            if entry[side] not in valid:
                raise fail(f"{where}: {side}={entry[side]!r} is not a {axis} of the grid: valid are "
                           f"{sorted(valid)}")
        if entry["a"] == entry["b"]:
            raise fail(f"{where}: a and b are both {entry['a']!r}")
        out.append(Comparison(axis, entry["a"], entry["b"]))
    return tuple(out)


def toml_value(value: Any) -> str:
    """A spec value written as TOML (inline tables and arrays; None as the rule word ``none``), as the
    generated specs (house rules, the explorer's, a design's confirmation) write their values."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return '"none"'
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return repr(float(value))
    if isinstance(value, str):
        return json.dumps(value)   # a JSON string is a TOML basic string
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise ValueError(f"value {value!r} cannot be written to a study spec")
