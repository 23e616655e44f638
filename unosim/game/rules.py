"""Rule sets: one frozen, strictly validated description of a variant (docs/rules.md §1-§4).

A :class:`RuleSet` holds the variant family, the deck options, every common rule and human-behaviour
parameter of docs/rules.md §3, and every house-rule toggle of docs/rules.md §4, each as a typed field. The variants are
the families of :data:`unosim.game.families.REGISTRY` (one ``FamilySpec`` each: deck, defaults, fixed and
family-only rules); a field left out takes its family's default. ``RuleSet.key`` is a canonical string (``classic(n_blank=0)``) that
:func:`from_key` parses back. Invalid values raise ``ValueError`` naming the field, the bad value and
the valid choices — at construction (``RuleSet.__post_init__``), however the rule set is built; nothing
is silently ignored or corrected.

``RuleSet.compile`` turns a rule set plus a player count into plain numeric arrays for the kernels
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

import re
from dataclasses import field, fields, make_dataclass
from typing import Any

import numpy as np

from . import custom_cards, designer_deck, families, rule_table
from . import protocol as L
from .checks import is_int
from .protocol import FAMILIES
from .rule_table import COMMON_DEFAULTS, MATCH_MODES, MAX_TARGET, PARAMETERS  # noqa: F401  (MAX_TARGET: public name)

# The snapshot of the registered family names (families.names() reads the live registry).
FAMILY_NAMES = families.names()


class _FamilyDefault:
    """The default of a RuleSet field: the value its family gives it (families.FamilySpec.defaults,
    else the rule table's default)."""

    def __repr__(self) -> str:
        return "<family default>"


FAMILY_DEFAULT: Any = _FamilyDefault()


def _defaults(family: str) -> dict[str, Any]:
    return {**COMMON_DEFAULTS, **families.get(family).defaults}


class _RuleSetMethods:
    """Every rule of one variant, validated at construction.

    ``RuleSet(family="no_mercy", jump_in=True)`` is the family's defaults with the given fields; any bad
    value raises a ValueError naming the field and its valid values, exactly as :func:`get_variant`.
    The fields are the family and one per rule of :data:`unosim.game.rule_table.PARAMETERS`.
    """

    def __post_init__(self):
        if not isinstance(self.family, str) or self.family not in families.names():
            raise ValueError(f"unknown variant family {self.family!r}: valid are {list(families.names())}")
        defaults = _defaults(self.family)
        given = {k: rule_table.plain(getattr(self, k)) for k in RULE_KEYS if getattr(self, k) is not FAMILY_DEFAULT}
        _check_family(self.family, given, defaults)
        for k, v in rule_table.validate({**defaults, **given}).items():
            object.__setattr__(self, k, v)
        designer_deck.check(self.family, self.spec.kinds, self.deck, self.deck_counts())
        custom_cards.check(self.family, self.new_cards, self.mechanics)
        if self.deck_size > L.MAX_CARDS:
            raise ValueError(f"the deck with the declared cards holds {self.deck_size} cards: valid is at most "
                             f"{L.MAX_CARDS} (protocol.MAX_CARDS)")

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
        """The deck as a count vector over the built-in card ids: the family's, with the designer ``deck``
        applied and the declared cards that are built-in classes added (docs/rules.md §2.7)."""
        counts = designer_deck.apply(self.spec.deck_counts(**{k: getattr(self, k) for k in self.spec.deck_rules}),
                                     self.deck)
        same, _ = custom_cards.split(self.cards, designer_deck.valid_classes(self.spec.kinds))
        for cls, decl in same:
            counts = designer_deck.apply(counts, ((cls, int(counts[designer_deck.ids(cls)].sum()) + decl.copies),))
        return counts

    @property
    def new_cards(self) -> tuple:
        """The declared cards that are not a built-in class: each takes a custom slot (docs/rules.md §2.7)."""
        return custom_cards.split(self.cards, designer_deck.valid_classes(self.spec.kinds))[1]

    def custom_counts(self) -> np.ndarray:
        """Count vector over the custom ids (``custom_cards.ID_CUSTOM0`` on)."""
        return custom_cards.custom_counts(self.new_cards)

    def card_rows(self) -> list[int]:
        """The declared cards' rows of the compiled rules (``custom_cards.rows``)."""
        return custom_cards.rows(self.new_cards)

    def all_counts(self) -> np.ndarray:
        """Count vector over every id, built-in then custom (``custom_cards.N_ALL_IDS``)."""
        return np.concatenate([self.deck_counts(), self.custom_counts()])

    def deck_in_effect(self) -> dict[str, int]:
        """The deck as card class → count (``unosim rules``, dataset manifests); a declared card by its name."""
        described = designer_deck.describe(self.deck_counts())
        return {**described, **{d.name: d.copies for d in self.new_cards}}

    def first_card_excluded(self) -> int:
        """``k`` of docs/rules.md §3: the cards of the deck that cannot stay as the first card (a
        challengeable declared card goes back like a Wild Draw Four, §2.7)."""
        declared = sum(d.copies for d in self.new_cards if d.challengeable)
        return self.spec.first_card_excluded(self.deck_counts()) + declared

    @property
    def deck_size(self) -> int:
        return int(self.deck_counts().sum() + self.custom_counts().sum())

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
        out["deck"] = dict(self.deck)
        out["cards"] = [str(d) for d in self.cards]
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
                f"{self.deck_size}-card {self.family} deck can deal ({max(spare, 0)}, docs/rules.md §3); "
                f"{self._deal_advice(players, spare)}")
        for name in (r.name for r in PARAMETERS if r.per_seat):
            value = getattr(self, name)
            if isinstance(value, tuple) and len(value) != players:
                raise ValueError(f"{name} has {len(value)} entries but players={players}; give one "
                                 f"number or exactly one per seat")

    def _deal_advice(self, players: int, spare: int) -> str:
        """What would deal: fewer players, a smaller hand, or (neither can) a bigger deck."""
        most_players, most_hand = spare // self.hand_size, spare // players
        options = []
        if most_players >= self.player_range[0]:
            options.append(f"use at most {most_players} players")
        if most_hand >= 1:
            options.append(f"use a hand_size of at most {most_hand}")
        return " or ".join(options) if options else (
            f"the deck is too small to deal even one card to each of {players} players: add cards "
            f"(docs/rules.md §2.5)")

    def compile(self, players: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(int rules, float rules, deck ids) for the kernels; layout in :mod:`unosim.game.protocol`."""
        self.check_players(players)
        players = int(players)
        ir = np.zeros(L.IR_SIZE, np.int64)
        fr = np.zeros(L.FR_SIZE, np.float64)
        ir[L.IR_FAMILY] = FAMILIES.index(self.mechanics)
        ir[L.IR_PLAYERS] = players
        records = {"IR": ir, "FR": fr}
        for rule in PARAMETERS:   # each rule's slot, filled by its encoder (unosim.rule_table)
            if rule.slot is not None:
                offset = L.GENERATED[rule.slot]
                value = rule.encode(getattr(self, rule.name), self, players)
                if rule.size == 1:
                    records[rule.record][offset] = value
                else:
                    records[rule.record][offset:offset + len(value)] = value
        return ir, fr, np.repeat(np.arange(custom_cards.N_ALL_IDS, dtype=np.int64), self.all_counts())


_format = rule_table.format_value

RuleSet = make_dataclass(
    "RuleSet",
    [("family", str, field(default="classic")),
     *((rule.name, rule.type, field(default=FAMILY_DEFAULT)) for rule in PARAMETERS),
     ("_name", str, field(default="", compare=False, repr=False))],
    bases=(_RuleSetMethods,), frozen=True,
    namespace={"__module__": __name__, "__qualname__": "RuleSet", "__doc__": _RuleSetMethods.__doc__})

RULE_KEYS = rule_table.RULE_KEYS


def _base_ruleset(family: str) -> RuleSet:
    return RuleSet(family=family)


def make_rules(family: str, overrides: dict[str, Any] | None = None, *, base: RuleSet | None = None,
               name: str = "") -> RuleSet:
    """A validated RuleSet of ``family`` with ``overrides`` (a dict of field → value) on top of ``base``
    (default: the family's defaults). Validation itself is ``RuleSet.__post_init__``'s."""
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
# a comma outside [...]: a declared card's own commas stay inside its list (cards=[a:wild,effects=…])
_TOP_LEVEL_COMMA = re.compile(r",(?![^\[]*\])")



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
    for part in filter(None, (p.strip() for p in _TOP_LEVEL_COMMA.split(body))):
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
           "FAMILY_NAMES", "FAMILIES", "MATCH_MODES"]
