"""Rule sets: one frozen, strictly validated description of a variant (docs/rules.md §1-§4).

A :class:`RuleSet` holds the variant family, the deck options, every common rule and human-behaviour
parameter of docs/rules.md §3, and every house-rule toggle of docs/rules.md §4, each as a typed field. The variants are
the families of :data:`unosim.game.families.REGISTRY` (one ``FamilySpec`` each: deck, defaults, fixed and
family-only rules); a field left out takes its family's default. ``RuleSet.key`` is a canonical string (``classic(n_blank=0)``) that
:func:`from_key` parses back. Invalid values raise ``ValueError`` naming the field, the bad value and
the valid choices — at construction (``RuleSet.__post_init__``), however the rule set is built; nothing
is silently ignored or corrected.

:meth:`RuleSet.compile` turns a rule set plus a player count into plain numeric arrays for the kernels
(rule switches are data, never module globals).

Decisions where docs/rules.md is silent (written here and in docs/rules.md §6):

* ``max_rounds_per_match`` (default 1000): a points/lowest match that has not reached its target after
  this many rounds ends without a winner (``end = truncated`` in ``.matches``); the rules cap only turns.
* ``p_forget_uno`` and ``shout_weight`` accept one number (every seat) or one number per seat.
* Weights (docs/rules.md §2.3.3, §3): ``spin_weights`` are relative, each finite and ≥ 0 with a positive
  sum (a zero removes an outcome from the wheel); ``shout_weight`` entries are finite and > 0. The kernels
  get them scaled by a power of two so the largest lies in [0.5, 1) (:func:`unosim.game.checks.scaled`): the
  draw is exactly the normalised distribution and no sum can overflow, whatever the magnitudes.
* Counts may be Python or numpy integers; they are stored as Python ints. ``target`` is at most 10**9.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from . import cards, families
from .checks import is_int, is_real, scaled
from . import protocol as L
from .protocol import BLANK_EFFECTS, FAMILIES, MATCH_MODES, N_BLANK_SLOTS, N_SPIN_OUTCOMES, SPIN_OUTCOMES, STACKING

# A points/lowest target beyond any reachable total (100 000 rounds of at most a few thousand points)
MAX_TARGET = 10**9
# The snapshot of the registered family names (families.names() reads the live registry).
FAMILY_NAMES = families.names()


class _FamilyDefault:
    """The default of a RuleSet field: the value its family gives it (families.FamilySpec.defaults,
    else COMMON_DEFAULTS)."""

    def __repr__(self) -> str:
        return "<family default>"


FAMILY_DEFAULT: Any = _FamilyDefault()

# Every rule's default in the classic game; a FamilySpec's `defaults` change some of them (docs/rules.md §3, §4).
COMMON_DEFAULTS: dict[str, Any] = dict(
    hand_size=7, n_blank=3, blank_effects=("swap_hands",) * N_BLANK_SLOTS, match_mode="points",
    target=500, first_dealer="random", max_turns_per_round=10_000, max_rounds_per_match=1_000,
    p_forget_uno=0.0, p_catch=0.5, uno_penalty=2, p_dumbfu_fail=0.10, dumbfu_penalty=4,
    spin_weights=(1.0,) * N_SPIN_OUTCOMES, shout_weight=1.0, stacking="none", jump_in=False,
    seven_o=False, draw_until_playable=False, force_play_drawn=False, voluntary_draw=True,
    wd4_challenge=True, no_bluffing=False, two_player_reverse_skip=True, final_card_effects=True,
    mercy_limit=None, spin_first_card_spins=False, spin_continue_after_winner=True)


def _defaults(family: str) -> dict[str, Any]:
    return {**COMMON_DEFAULTS, **families.get(family).defaults}


@dataclass(frozen=True)
class RuleSet:
    """Every rule of one variant, validated at construction.

    ``RuleSet(family="no_mercy", jump_in=True)`` is the family's defaults with the given fields; any bad
    value raises a ValueError naming the field and its valid values, exactly as :func:`get_variant`.
    """

    family: str = "classic"
    # deck and deal
    hand_size: int = FAMILY_DEFAULT
    n_blank: int = FAMILY_DEFAULT
    blank_effects: tuple[str, ...] = FAMILY_DEFAULT
    # match
    match_mode: str = FAMILY_DEFAULT
    target: int = FAMILY_DEFAULT
    first_dealer: int | str = FAMILY_DEFAULT
    max_turns_per_round: int = FAMILY_DEFAULT
    max_rounds_per_match: int = FAMILY_DEFAULT
    # people (docs/rules.md §3)
    p_forget_uno: float | tuple[float, ...] = FAMILY_DEFAULT
    p_catch: float = FAMILY_DEFAULT
    uno_penalty: int = FAMILY_DEFAULT
    p_dumbfu_fail: float = FAMILY_DEFAULT
    dumbfu_penalty: int = FAMILY_DEFAULT
    spin_weights: tuple[float, ...] = FAMILY_DEFAULT
    shout_weight: float | tuple[float, ...] = FAMILY_DEFAULT
    # house-rule toggles (docs/rules.md §4)
    stacking: str = FAMILY_DEFAULT
    jump_in: bool = FAMILY_DEFAULT
    seven_o: bool = FAMILY_DEFAULT
    draw_until_playable: bool = FAMILY_DEFAULT
    force_play_drawn: bool = FAMILY_DEFAULT
    voluntary_draw: bool = FAMILY_DEFAULT
    wd4_challenge: bool = FAMILY_DEFAULT
    no_bluffing: bool = FAMILY_DEFAULT
    two_player_reverse_skip: bool = FAMILY_DEFAULT
    final_card_effects: bool = FAMILY_DEFAULT
    mercy_limit: int | None = FAMILY_DEFAULT
    spin_first_card_spins: bool = FAMILY_DEFAULT
    spin_continue_after_winner: bool = FAMILY_DEFAULT
    _name: str = field(default="", compare=False, repr=False)

    def __post_init__(self):
        if not isinstance(self.family, str) or self.family not in families.names():
            raise ValueError(f"unknown variant family {self.family!r}: valid are {list(families.names())}")
        defaults = _defaults(self.family)
        given = {k: getattr(self, k) for k in RULE_KEYS if getattr(self, k) is not FAMILY_DEFAULT}
        _check_family(self.family, given, defaults)
        for k, v in _validate(self.family, {**defaults, **given}).items():
            object.__setattr__(self, k, v)

    # ---- derived -----------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        """The registry name this rule set was built from (``classic``, ``minions`` …)."""
        return self._name or self.family

    @property
    def spec(self) -> families.FamilySpec:
        """The family's record (deck, player range, defaults …)."""
        return families.get(self.family)

    @property
    def mechanics(self) -> str:
        """The rule mechanism the engines apply (``protocol.FAMILIES``); the family itself unless it is a
        variant family without a mechanism of its own."""
        return self.spec.mechanics

    @property
    def player_range(self) -> tuple[int, int]:
        return self.spec.players

    def deck_counts(self) -> np.ndarray:
        """The deck as a count vector over card ids."""
        return self.spec.deck_counts(self.n_blank)

    def first_card_excluded(self) -> int:
        """``k`` of docs/rules.md §3: the cards of the deck that cannot stay as the first card."""
        return self.spec.first_card_excluded(self.deck_counts())

    @property
    def deck_size(self) -> int:
        return int(self.deck_counts().sum())

    def max_players(self) -> int:
        """Most players the deck can deal to (docs/rules.md §3: hand_size × n ≤ deck − k − 1)."""
        spare = self.deck_size - self.first_card_excluded() - 1
        return min(self.player_range[1], spare // self.hand_size)

    @property
    def key(self) -> str:
        """Canonical string: the family and every field that differs from the family default."""
        base = _base_ruleset(self.family)
        parts = []
        for f in fields(self):
            if f.name in ("family", "_name"):
                continue
            value = getattr(self, f.name)
            if value != getattr(base, f.name):
                parts.append(f"{f.name}={_format(value)}")
        return f"{self.family}({','.join(parts)})" if parts else self.family

    def as_dict(self) -> dict[str, Any]:
        """Every field (JSON-friendly), for manifests and ``unosim rules``."""
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "_name"}
        return {k: list(v) if isinstance(v, tuple) else v for k, v in out.items()}

    def replace(self, **overrides: Any) -> RuleSet:
        """A new validated rule set with ``overrides`` applied (unknown keys are errors)."""
        return make_rules(self.family, overrides, base=self)

    # ---- compile to kernel data --------------------------------------------------------------------
    def check_players(self, players: int) -> None:
        lo, hi = self.player_range
        if not is_int(players) or not lo <= players <= hi:
            raise ValueError(f"players={players!r} is out of range for variant {self.name!r}: "
                             f"valid is an integer {lo}..{hi}")
        players = int(players)
        if self.first_dealer != "random" and self.first_dealer >= players:
            raise ValueError(f"first_dealer={self.first_dealer} is not a seat of a {players}-player table "
                             f"(valid: 'random' or 0..{players - 1})")
        need = self.hand_size * players
        spare = self.deck_size - self.first_card_excluded() - 1
        if need > spare:
            raise ValueError(
                f"hand_size={self.hand_size} × players={players} = {need} cards exceeds what the "
                f"{self.deck_size}-card {self.family} deck can deal ({spare}, docs/rules.md §3); "
                f"use at most {spare // self.hand_size} players or a smaller hand_size")
        for name in ("p_forget_uno", "shout_weight"):
            value = getattr(self, name)
            if isinstance(value, tuple) and len(value) != players:
                raise ValueError(f"{name} has {len(value)} entries but players={players}; give one "
                                 f"number or exactly one per seat")

    def compile(self, players: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(int rules, float rules, deck ids) for the kernels; layout in :mod:`unosim.game.protocol`."""
        self.check_players(players)
        players = int(players)
        ir = np.zeros(L.IR_SIZE, np.int64)
        fr = np.zeros(L.FR_SIZE, np.float64)
        ir[L.IR_FAMILY] = FAMILIES.index(self.mechanics)
        ir[L.IR_PLAYERS] = players
        ir[L.IR_HAND_SIZE] = self.hand_size
        ir[L.IR_MATCH_MODE] = MATCH_MODES.index(self.match_mode)
        ir[L.IR_TARGET] = self.target
        ir[L.IR_FIRST_DEALER] = -1 if self.first_dealer == "random" else int(self.first_dealer)
        ir[L.IR_MAX_TURNS] = self.max_turns_per_round
        ir[L.IR_MAX_ROUNDS] = self.max_rounds_per_match
        ir[L.IR_UNO_PENALTY] = self.uno_penalty
        ir[L.IR_DUMBFU_PENALTY] = self.dumbfu_penalty
        ir[L.IR_STACKING] = STACKING.index(self.stacking)
        ir[L.IR_JUMP_IN] = self.jump_in
        ir[L.IR_SEVEN_O] = self.seven_o
        ir[L.IR_DRAW_UNTIL_PLAYABLE] = self.draw_until_playable
        ir[L.IR_FORCE_PLAY_DRAWN] = self.force_play_drawn
        ir[L.IR_VOLUNTARY_DRAW] = self.voluntary_draw
        ir[L.IR_WD4_CHALLENGE] = self.wd4_challenge and not self.no_bluffing
        ir[L.IR_NO_BLUFFING] = self.no_bluffing
        ir[L.IR_TWO_PLAYER_REVERSE_SKIP] = self.two_player_reverse_skip
        ir[L.IR_FINAL_CARD_EFFECTS] = self.final_card_effects
        ir[L.IR_MERCY_LIMIT] = 0 if self.mercy_limit is None else self.mercy_limit
        ir[L.IR_SPIN_FIRST_CARD_SPINS] = self.spin_first_card_spins
        ir[L.IR_SPIN_CONTINUE_AFTER_WINNER] = self.spin_continue_after_winner
        for i, effect in enumerate(self.blank_effects):
            ir[L.IR_BLANK_EFFECT + i] = BLANK_EFFECTS.index(effect)
        fr[L.FR_P_CATCH] = self.p_catch
        fr[L.FR_P_DUMBFU_FAIL] = self.p_dumbfu_fail
        forget = self.p_forget_uno if isinstance(self.p_forget_uno, tuple) else (self.p_forget_uno,) * players
        shout = self.shout_weight if isinstance(self.shout_weight, tuple) else (self.shout_weight,) * players
        fr[L.FR_P_FORGET_UNO:L.FR_P_FORGET_UNO + players] = forget
        fr[L.FR_SHOUT_WEIGHT:L.FR_SHOUT_WEIGHT + players] = scaled(shout)
        fr[L.FR_SPIN_WEIGHT:L.FR_SPIN_WEIGHT + N_SPIN_OUTCOMES] = scaled(self.spin_weights)   # the draw normalises
        return ir, fr, cards.deck_ids(self.deck_counts())


def _format(value: Any) -> str:
    if isinstance(value, tuple):
        return "[" + ";".join(_format(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return str(value)


RULE_KEYS = tuple(f.name for f in fields(RuleSet) if f.name not in ("family", "_name"))


# ---- validation -------------------------------------------------------------------------------------


def _is_prob(v: Any) -> bool:
    return is_real(v) and 0 <= v <= 1


def _is_weight(v: Any) -> bool:
    return is_real(v) and math.isfinite(v) and v >= 0


def _is_positive_weight(v: Any) -> bool:
    return _is_weight(v) and v > 0


def _bad(name: str, value: Any, valid: str) -> ValueError:
    return ValueError(f"rule {name}={value!r} is invalid: valid is {valid}")


def _check_int(name: str, v: Any, lo: int, hi: int | None = None) -> int:
    if not is_int(v) or v < lo or (hi is not None and v > hi):
        raise _bad(name, v, f"an integer in {lo}..{hi if hi is not None else 'inf'}")
    return int(v)


def _check_bool(name: str, v: Any) -> bool:
    if not isinstance(v, (bool, np.bool_)):
        raise _bad(name, v, "true or false")
    return bool(v)


def _check_per_seat(name: str, v: Any, check, valid: str) -> float | tuple[float, ...]:
    if isinstance(v, (list, tuple)):
        if not 2 <= len(v) <= 10 or not all(check(x) for x in v):
            wrong = next((x for x in v if not check(x)), None) if 2 <= len(v) <= 10 else f"{len(v)} entries"
            raise ValueError(f"rule {name}={v!r} is invalid ({wrong!r}): valid is one number or a list of "
                             f"2-10 numbers, each {valid}")
        return tuple(float(x) for x in v)
    if not check(v):
        raise _bad(name, v, valid)
    return float(v)


def _validate(family: str, values: dict[str, Any]) -> dict[str, Any]:
    """Check and normalise every field; returns the normalised values."""
    v = dict(values)
    v["hand_size"] = _check_int("hand_size", v["hand_size"], 1, 15)
    v["n_blank"] = _check_int("n_blank", v["n_blank"], 0, N_BLANK_SLOTS)
    effects = v["blank_effects"]
    if isinstance(effects, str):
        effects = (effects,) * N_BLANK_SLOTS
    if not isinstance(effects, (list, tuple)) or not 1 <= len(effects) <= N_BLANK_SLOTS:
        raise _bad("blank_effects", effects, f"one effect or a list of up to {N_BLANK_SLOTS} of {list(BLANK_EFFECTS)}")
    for e in effects:
        if e not in BLANK_EFFECTS:
            raise _bad("blank_effects", e, f"one of {list(BLANK_EFFECTS)}")
    v["blank_effects"] = tuple(effects) + ("swap_hands",) * (N_BLANK_SLOTS - len(effects))
    if v["match_mode"] not in MATCH_MODES:
        raise _bad("match_mode", v["match_mode"], f"one of {list(MATCH_MODES)}")
    v["target"] = _check_int("target", v["target"], 1, MAX_TARGET)
    fd = v["first_dealer"]
    if fd != "random" and not (is_int(fd) and 0 <= fd <= 9):
        raise _bad("first_dealer", fd, "'random' or a seat number 0..9")
    v["first_dealer"] = fd if fd == "random" else int(fd)
    v["max_turns_per_round"] = _check_int("max_turns_per_round", v["max_turns_per_round"], 1, 1_000_000)
    v["max_rounds_per_match"] = _check_int("max_rounds_per_match", v["max_rounds_per_match"], 1, 100_000)
    v["p_forget_uno"] = _check_per_seat("p_forget_uno", v["p_forget_uno"], _is_prob, "a probability in [0, 1]")
    for name in ("p_catch", "p_dumbfu_fail"):
        if not _is_prob(v[name]):
            raise _bad(name, v[name], "a probability in [0, 1]")
        v[name] = float(v[name])
    v["uno_penalty"] = _check_int("uno_penalty", v["uno_penalty"], 0, 20)
    v["dumbfu_penalty"] = _check_int("dumbfu_penalty", v["dumbfu_penalty"], 0, 20)
    v["spin_weights"] = _check_spin_weights(v["spin_weights"])
    v["shout_weight"] = _check_per_seat("shout_weight", v["shout_weight"], _is_positive_weight,
                                        "a finite number > 0")
    if v["stacking"] not in STACKING:
        raise _bad("stacking", v["stacking"], f"one of {list(STACKING)}")
    for name in ("jump_in", "seven_o", "draw_until_playable", "force_play_drawn", "voluntary_draw",
                 "wd4_challenge", "no_bluffing", "two_player_reverse_skip", "final_card_effects",
                 "spin_first_card_spins", "spin_continue_after_winner"):
        v[name] = _check_bool(name, v[name])
    ml = v["mercy_limit"]
    if ml is not None and ml != "none":
        # the limit is checked as cards are drawn, so a dealt hand must start below it
        v["mercy_limit"] = _check_int("mercy_limit", ml, v["hand_size"] + 1, 200)
    else:
        v["mercy_limit"] = None
    return v


def _check_spin_weights(w: Any) -> tuple[float, ...]:
    """N_SPIN_OUTCOMES relative weights, finite and ≥ 0 with a positive sum, as a list or a table keyed by outcome
    (outcomes it leaves out weigh 0)."""
    valid = (f"{N_SPIN_OUTCOMES} finite weights ≥ 0 with a positive sum, as a list in the order {list(SPIN_OUTCOMES)} or "
             f"a table keyed by those names")
    if isinstance(w, dict):
        for key, x in w.items():
            if key not in SPIN_OUTCOMES:
                raise ValueError(f"rule spin_weights has an unknown outcome {key!r}: valid are "
                                 f"{list(SPIN_OUTCOMES)}")
            if not _is_weight(x):
                raise ValueError(f"rule spin_weights {key}={x!r} is invalid: valid is a finite weight ≥ 0")
        w = tuple(w.get(o, 0.0) for o in SPIN_OUTCOMES)
    if not isinstance(w, (list, tuple)) or len(w) != N_SPIN_OUTCOMES:
        raise _bad("spin_weights", w, valid)
    for outcome, x in zip(SPIN_OUTCOMES, w, strict=True):
        if not _is_weight(x):
            raise ValueError(f"rule spin_weights {outcome}={x!r} is invalid: valid is a finite weight ≥ 0 "
                             f"(all: {valid})")
    if not any(x > 0 for x in w):
        raise _bad("spin_weights", w, valid)
    return tuple(float(x) for x in w)


def _base_ruleset(family: str) -> RuleSet:
    return RuleSet(family=family)


def make_rules(family: str, overrides: dict[str, Any] | None = None, *, base: RuleSet | None = None,
               name: str = "") -> RuleSet:
    """A validated RuleSet of ``family`` with ``overrides`` (a dict of field → value) on top of ``base``
    (default: the family's defaults). Validation itself is :meth:`RuleSet.__post_init__`'s."""
    if not isinstance(family, str) or family not in families.names():
        raise ValueError(f"unknown variant family {family!r}: valid are {list(families.names())}")
    if overrides is not None and not isinstance(overrides, dict):
        raise ValueError(f"rules={overrides!r} is invalid: valid is a table of rule name → value "
                         f"(such as {{'n_blank': 0}}), with names from {sorted(RULE_KEYS)}")
    overrides = dict(overrides or {})
    unknown = [k for k in overrides if k not in RULE_KEYS]
    if unknown:
        raise ValueError(f"unknown rule key {unknown[0]!r}: valid keys are {sorted(RULE_KEYS)}")
    values = {k: getattr(base, k) for k in RULE_KEYS} if base is not None else {}
    values.update(overrides)
    return RuleSet(family=family, _name=name or (base._name if base is not None else ""), **values)


def _check_family(family: str, given: dict[str, Any], defaults: dict[str, Any]) -> None:
    """The family's own constraints (docs/rules.md §4): fixed rules, rules it does not have, other families'
    rules. A value equal to the family default is always accepted."""
    spec = families.get(family)
    for k, value in given.items():
        if value == defaults[k]:
            continue
        if k in spec.fixed:
            raise ValueError(f"rule {k} is fixed to {_format(defaults[k])} in {family} "
                             f"(docs/rules.md §4); it cannot be set to {value!r}")
        if k in spec.not_applicable:
            raise ValueError(f"rule {k}={value!r} does not apply to {family} (docs/rules.md §4: n/a); leave it out")
        owners = _owners(k)
        if owners and family not in owners:
            raise ValueError(f"rule {k}={value!r} applies only to the {' / '.join(owners)} family, not to "
                             f"{family}; leave it out")


def _owners(key: str) -> tuple[str, ...]:
    """The families that own a family-only rule (empty for a rule every family has)."""
    return tuple(spec.name for spec in families.REGISTRY if key in spec.own_rules)


# ---- registry ---------------------------------------------------------------------------------------
def applies(key: str, family: str) -> bool:
    """Whether rule ``key`` means anything in ``family`` (not n/a there, not another family's own)."""
    owners = _owners(key)
    return key not in families.get(family).not_applicable and (not owners or family in owners)


def variant_names() -> list[str]:
    """Every registered variant: one per family of :data:`unosim.game.families.REGISTRY`."""
    return list(families.names())


def variant_description(name: str) -> str:
    return families.get(name).description


def get_variant(name: str, overrides: dict[str, Any] | None = None) -> RuleSet:
    """The registered variant ``name`` with optional rule overrides (``{"n_blank": 0}``)."""
    if isinstance(name, RuleSet):
        if overrides is not None and not isinstance(overrides, dict):
            make_rules(name.family, overrides)   # raises the error naming the bad value
        return name.replace(**(overrides or {})) if overrides else name
    if not isinstance(name, str) or name not in variant_names():
        raise ValueError(f"unknown variant {name!r}: valid variants are {variant_names()}")
    return make_rules(name, overrides, name=name)


_KEY_RE = re.compile(r"\s*([a-z_]+)\s*(?:\((.*)\))?\s*")



def single_round_variant(variant: str, rules, purpose: str) -> tuple[dict, RuleSet]:
    """The rule overrides and rule set of ``variant`` played in single rounds, as tournaments and
    tuning play it (a deal is one round): ``rules`` must be None or a dict, and may set ``match_mode``
    only to ``single_round``. ``purpose`` names the caller in the error (``a tournament``, ``tuning``)."""
    if rules is not None and not isinstance(rules, dict):
        raise ValueError(f"rules={rules!r} is invalid: valid is None or a dict of rule overrides such as "
                         f"{{'stacking': 'any_draw'}} (see `unosim rules {variant}`)")
    overrides = dict(rules or {})
    mode = overrides.pop("match_mode", "single_round")
    if mode != "single_round":
        raise ValueError(f"match_mode={mode!r} is invalid for {purpose}: valid is 'single_round' (a deal is "
                         f"one round)")
    return overrides, get_variant(variant, {**overrides, "match_mode": "single_round"})

def from_key(key: str) -> RuleSet:
    """Parse a canonical key such as ``classic(n_blank=0,match_mode=single_round)``."""
    m = _KEY_RE.fullmatch(key) if isinstance(key, str) else None
    if not m:
        raise ValueError(f"cannot parse rule key {key!r}: expected family(name=value,...)")
    family, body = m.group(1), m.group(2) or ""
    overrides: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in body.split(","))):
        if "=" not in part:
            raise ValueError(f"cannot parse {part!r} in rule key {key!r}: expected name=value")
        k, raw = (s.strip() for s in part.split("=", 1))
        overrides[k] = _parse_value(raw)
    return make_rules(family, overrides)


def _parse_value(raw: str) -> Any:
    if raw.startswith("[") and raw.endswith("]"):
        return tuple(_parse_value(x) for x in raw[1:-1].split(";") if x)
    if raw in ("true", "false"):
        return raw == "true"
    if raw == "none":
        return None
    for cast in (int, float):
        try:
            return cast(raw)
        except ValueError:
            pass
    return raw


__all__ = ["RuleSet", "get_variant", "make_rules", "from_key", "variant_names", "RULE_KEYS",
           "FAMILY_NAMES", "FAMILIES", "MATCH_MODES", "STACKING", "BLANK_EFFECTS", "SPIN_OUTCOMES"]
