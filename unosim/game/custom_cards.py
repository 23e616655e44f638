"""Cards as data: new cards declared by name, colour class, effects, points and count (docs/rules.md §2.7).

The ``cards`` rule holds a tuple of :class:`CardDecl`, read from a spec's ``[cards.NAME]`` tables or
from ``--card`` on the command line, one syntax for both (a rule key prints it the same way)::

    NAME:coloured,effects=EFFECT+EFFECT,points=P,count=C[,challengeable][,same_effect=false]
    NAME:wild,effects=wild+others_draw:1,points=40,count=4

* ``coloured``: ``count`` copies in each of the four colours; ``wild``: ``count`` copies in all, no colour
  (its effects must name the colour: ``wild`` first).
* ``effects`` are applied in order; each is a word of :mod:`unosim.game.card_effects`.
* ``points`` (default 20 coloured, 50 wild) score against the holder (§1.12).
* ``challengeable`` (wild draw cards only): legal only without the colour in play, and the victim may
  challenge it as a Wild Draw Four (§1.8).
* ``same_effect`` (default true): a coloured card may be played on the same card of another colour.

Rulings (docs/rules.md §2.7): a declaration equal in everything but its name to a card class the family
already plays (``effects = ["skip"]``, coloured, 20 points) **is** that card: its copies are added to
the class, so the game is the built-in one card for card (:data:`BUILTIN`). Any other declared card
takes ids beyond the built-in ones (:func:`card_ids`), at most :data:`MAX_CUSTOM` of them per rule set.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import numpy as np

from . import card_effects as E
from . import cards
from .card_effects import CARD_ROW, MAX_EFFECTS, N_CARD_SLOTS, ROW_LEGALITY
from .cards import MAX_CARDS
from .checks import is_int

MAX_CUSTOM = N_CARD_SLOTS            # declared cards per rule set that are not a built-in class
ID_CUSTOM0 = cards.N_CARD_IDS        # the first declared card's id: slot s, colour c is ID_CUSTOM0 + 5 s + c
N_ALL_IDS = ID_CUSTOM0 + 5 * MAX_CUSTOM
CUSTOM_KIND0 = cards.N_KINDS         # a declared card's kind: its own, so a Skip-like card matches only itself
_NAME = re.compile(r"[a-z][a-z0-9_]{0,23}")
_FIELDS = ("coloured", "wild", "effects", "points", "count", "challengeable", "same_effect")
SYNTAX = "NAME:coloured|wild,effects=EFFECT+EFFECT,points=P,count=C[,challengeable][,same_effect=false]"


@dataclass(frozen=True)
class CardDecl:
    """One declared card (module docstring)."""

    name: str
    wild: bool
    effects: tuple[tuple[int, int], ...]   # (code, N) in order
    points: int
    count: int                             # per colour (coloured) or in all (wild)
    challengeable: bool = False
    same_effect: bool = True

    def __str__(self) -> str:
        parts = [f"{self.name}:{'wild' if self.wild else 'coloured'}",
                 "effects=" + "+".join(E.written(c, n) for c, n in self.effects),
                 f"points={self.points}", f"count={self.count}"]
        if self.challengeable:
            parts.append("challengeable")
        if not self.same_effect:
            parts.append("same_effect=false")
        return ",".join(parts)

    @property
    def copies(self) -> int:
        return self.count if self.wild else 4 * self.count

    def draw_value(self) -> int:
        return sum(n for c, n in self.effects if c == E.BY_NAME["draw"].code)

    def has(self, name: str) -> bool:
        return any(c == E.BY_NAME[name].code for c, _ in self.effects)

    def shape(self) -> tuple:
        """Everything but name and count: what makes two declarations the same card."""
        return (self.wild, self.effects, self.points, self.challengeable, self.same_effect)


def _e(*written: str) -> tuple[tuple[int, int], ...]:
    return tuple(E.parse(w) for w in written)


#: the built-in card classes that are entries of the same table (designer_deck's class names); the
#: ones not listed (numbers, blanks, Dumb Fu, Roulette, UNO Flip's faces) carry rules no effect list says
BUILTIN: dict[str, CardDecl] = {d.name: d for d in (
    CardDecl("skip", False, _e("skip"), 20, 2, same_effect=True),
    CardDecl("reverse", False, _e("reverse"), 20, 2),
    CardDecl("draw_two", False, _e("draw:2"), 20, 2),
    CardDecl("draw_four", False, _e("draw:4"), 20, 2),
    CardDecl("discard_all", False, _e("discard_colour"), 20, 3),
    CardDecl("skip_everyone", False, _e("skip_everyone"), 20, 2),
    CardDecl("wild", True, _e("wild"), 50, 4),
    CardDecl("wd4", True, _e("wild", "draw:4"), 50, 4, challengeable=True),
    CardDecl("wrd4", True, _e("wild", "reverse", "draw:4"), 50, 8),
    CardDecl("wd6", True, _e("wild", "draw:6"), 50, 4),
    CardDecl("wd10", True, _e("wild", "draw:10"), 50, 4),
)}


# ---- parsing -----------------------------------------------------------------------------------------
def _bad(rule: str, value: Any, why: str) -> ValueError:
    return ValueError(f"rule {rule}: card {value!r} is invalid: {why}")


def _from_string(rule: str, text: str) -> tuple[str, dict[str, Any]]:
    """``NAME:CLASS,key=value,...`` as (name, fields)."""
    head, _, rest = text.strip().partition(",")
    name, colon, klass = head.partition(":")
    if not colon or klass.strip() not in ("coloured", "wild"):
        raise _bad(rule, text, f"write {SYNTAX}")
    fields: dict[str, Any] = {klass.strip(): True}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, raw = (s.strip() for s in part.partition("="))
        if not eq:
            fields[key] = True
        elif key == "effects":
            fields[key] = [x for x in raw.split("+") if x]
        else:
            fields[key] = {"true": True, "false": False}.get(raw, int(raw) if raw.lstrip("-").isdigit() else raw)
    return name.strip(), fields


def _decl(rule: str, name: Any, fields: Any) -> CardDecl:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValueError(f"rule {rule}: card name {name!r} is invalid: valid is a lower-case word "
                         f"(a-z, 0-9, _; at most 24 characters), e.g. draw_three")
    if isinstance(fields, CardDecl):
        return replace(fields, name=name)
    if not isinstance(fields, dict):
        raise ValueError(f"rule {rule}: card {name!r} is invalid: valid is a table such as "
                         f"{{coloured = true, effects = [\"draw:3\"], points = 20, count = 2}}")
    unknown = [k for k in fields if k not in _FIELDS]
    if unknown:
        raise ValueError(f"rule {rule}: card {name!r} has unknown field {unknown[0]!r}: valid are {list(_FIELDS)}")
    wild, coloured = fields.get("wild", False), fields.get("coloured", False)
    if not isinstance(wild, bool) or not isinstance(coloured, bool) or wild == coloured:
        raise ValueError(f"rule {rule}: card {name!r} must be either coloured = true (one per colour) or "
                         f"wild = true")
    effects = fields.get("effects", [])
    if isinstance(effects, str):
        effects = [effects]
    if not isinstance(effects, (list, tuple)):
        raise ValueError(f"rule {rule}: card {name!r}: effects={effects!r} is invalid: valid is a list of "
                         f"{E.valid_forms()}")
    try:
        parsed = tuple(E.parse(e, name) for e in effects)
    except ValueError as exc:
        raise ValueError(f"rule {rule}: {exc}") from None
    points = fields.get("points", 50 if wild else 20)
    count = fields.get("count", 1)
    for key, value, hi in (("points", points, 1000), ("count", count, MAX_CARDS)):
        if not is_int(value) or not 0 <= value <= hi:
            raise ValueError(f"rule {rule}: card {name!r}: {key}={value!r} is invalid: valid is an integer "
                             f"in 0..{hi}")
    flags = {k: fields.get(k, d) for k, d in (("challengeable", False), ("same_effect", True))}
    for key, value in flags.items():
        if not isinstance(value, bool):
            raise ValueError(f"rule {rule}: card {name!r}: {key}={value!r} is invalid: valid is true or false")
    return CardDecl(name, wild, parsed, int(points), int(count), **flags)


def normalise(rule: str, value: Any, reserved: tuple[str, ...] = ()) -> tuple[CardDecl, ...]:
    """``value`` (a table ``{name: {field: value}}``, or a list of ``--card`` strings) as declarations
    in the order given, each checked on its own (:func:`contradiction`); a ValueError names the bad one.
    ``reserved``: the rule names, which a card may not take."""
    if value is None or value == "none" or value == ():
        return ()
    if isinstance(value, (str, CardDecl)):
        value = [value]
    items: list[tuple[str, Any]] = []
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, (list, tuple)):
        for item in value:
            if isinstance(item, CardDecl):
                items.append((item.name, item))
            elif isinstance(item, str):
                items.append(_from_string(rule, item))
            else:
                raise ValueError(f"rule {rule}: card {item!r} is invalid: write {SYNTAX}")
    else:
        raise ValueError(f"rule {rule}={value!r} is invalid: valid is a table of card name → card, or "
                         f"strings {SYNTAX}")
    decls = tuple(_decl(rule, name, fields) for name, fields in items)
    seen: set[str] = set()
    for d in decls:
        if d.name in seen:
            raise ValueError(f"rule {rule}: card {d.name!r} is declared twice; give each card once")
        seen.add(d.name)
        why = contradiction(d)
        if why:
            raise ValueError(f"rule {rule}: card {d.name!r} is contradictory: {why}")
        clash = name_clash(d.name, reserved)
        if clash:
            raise ValueError(f"rule {rule}: card name {d.name!r} clashes with {clash}; choose another name")
        if d.count == 0:
            raise ValueError(f"rule {rule}: card {d.name!r} has count 0: no seat could ever play it; "
                             f"leave it out (or give count ≥ 1)")
    return decls


def contradiction(d: CardDecl) -> str:
    """Why a declaration cannot be played as written ('' when it can)."""
    codes = [c for c, _ in d.effects]
    names = [E.BY_CODE[c].name for c in codes]
    if len(codes) > MAX_EFFECTS:
        return f"{len(codes)} effects: at most {MAX_EFFECTS}"
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice:
        return f"effect {twice!r} appears twice (write one with its total: e.g. draw:4, not draw:2 twice)"
    if d.wild and names[:1] != ["wild"]:
        return "a wild card names the colour first: its effects start with 'wild'"
    if not d.wild and "wild" in names:
        return "a coloured card cannot name a colour ('wild'): declare it wild = true"
    if "draw" in names and names[-1] != "draw":
        return "'draw:N' must be the last effect (the next seat's answer to it, a stack or a challenge, " \
               "ends the card's action)"
    for a, b in (("draw", "skip"), ("draw", "skip_everyone"), ("draw", "draw_until_colour"),
                 ("skip", "skip_everyone"), ("draw_until_colour", "skip"),
                 ("draw_until_colour", "skip_everyone"), ("swap_hands", "pass_hands")):
        if a in names and b in names:
            return f"{a!r} and {b!r} both decide who plays next (or whose hand is whose); keep one"
    if d.challengeable and not (d.wild and "draw" in names):
        return "only a wild draw card may be challengeable (docs/rules.md §1.8)"
    if d.wild and not d.same_effect:
        return "same_effect concerns coloured cards (a wild goes on any card): leave it out"
    return ""


def name_clash(name: str, rule_names: tuple[str, ...]) -> str:
    """What existing name ``name`` would shadow ('' if none): a card class, a rule, an effect."""
    if name in cards.HAND_CLASSES or name == "blank":
        return f"the built-in card class {name!r}"
    if name in rule_names:
        return f"the rule {name!r}"
    if name in E.NAMES:
        return f"the effect {name!r}"
    return ""


# ---- the deck ----------------------------------------------------------------------------------------
def builtin_class(d: CardDecl, family_classes: list[str]) -> str | None:
    """The built-in class a declaration is (same shape), if the family plays it."""
    for cls, ref in BUILTIN.items():
        if cls in family_classes and ref.shape() == d.shape():
            return cls
    return None


def split(decls: tuple[CardDecl, ...], family_classes: list[str]) -> tuple[list[tuple[str, CardDecl]],
                                                                           tuple[CardDecl, ...]]:
    """(declarations that are built-in classes, with the class; the others, which take custom slots)."""
    same, new = [], []
    for d in decls:
        cls = builtin_class(d, family_classes)
        if cls:
            same.append((cls, d))
        else:
            new.append(d)
    return same, tuple(new)


def card_ids(slot: int, d: CardDecl) -> list[int]:
    """The ids of a custom slot's copies: one per colour (coloured) or the one wild id."""
    base = ID_CUSTOM0 + 5 * slot
    return [base + cards.NO_COLOUR] if d.wild else [base + c for c in range(4)]


#: the seat table's opening count of each custom slot's card (slot order: the rule set's ``new_cards``);
#: every table has them, zero where a slot is unused, so that cells with and without declared cards
#: share one dataset
OPEN_DECLARED = tuple(f"open_declared_{slot + 1}" for slot in range(MAX_CUSTOM))


def custom_counts(new: tuple[CardDecl, ...]) -> np.ndarray:
    """Count vector over the custom ids (length ``N_ALL_IDS - ID_CUSTOM0``)."""
    counts = np.zeros(N_ALL_IDS - ID_CUSTOM0, np.int64)
    for slot, d in enumerate(new):
        for i in card_ids(slot, d):
            counts[i - ID_CUSTOM0] = d.count
    return counts


# a declared card's legality bits (the last number of its row, ``card_effects.ROW_LEGALITY``)
CHALLENGEABLE = 1   # legal only without the colour in play, and challengeable (docs/rules.md §1.8)
OWN_COLOUR_ONLY = 2   # same_effect = false: it goes only on its own colour (and its own colour on it)


def legality_bits(d: CardDecl) -> int:
    """The bits of :data:`CHALLENGEABLE` and :data:`OWN_COLOUR_ONLY` that ``d`` declares."""
    return CHALLENGEABLE * d.challengeable + OWN_COLOUR_ONLY * (not d.same_effect)


def rows(new: tuple[CardDecl, ...]) -> list[int]:
    """The compiled rules' ``IR_CARDS`` block: per slot, points, draw value, effect count, then (code, N)
    per effect, and at ``ROW_LEGALITY`` its :func:`legality_bits` (``card_effects.CARD_ROW`` numbers;
    unused slots are zero). The kernels read a declared card's effects and legality from here: data, so
    a new card compiles nothing."""
    out = [0] * (N_CARD_SLOTS * CARD_ROW)
    for slot, d in enumerate(new):
        row = [d.points, d.draw_value(), len(d.effects)] + [x for effect in d.effects for x in effect]
        out[slot * CARD_ROW:slot * CARD_ROW + len(row)] = row
        out[slot * CARD_ROW + ROW_LEGALITY] = legality_bits(d)
    return out


# ---- what a policy sees of a declared card (docs/rules.md §2.7, §5) --------------------------------------
DRAW_TWO_SIZE = 2   # a declared card's draw features are its draw size over a Draw Two's


@dataclass(frozen=True)
class PolicyFeatures:
    """A declared card's policy-relevant features, derived from its effects: ``points`` (greedy_points,
    keep_wilds, the weighted ``points`` feature), ``draw`` (the weighted ``draw`` feature) and ``attack``
    (``attack``, ``attack_close``), both scaled by the cards it makes others draw over a Draw Two's
    (a Draw Three is 1.5 Draw Twos; a card that makes the next seat draw until a colour counts 1, a
    Skip-like card attacks at 1), and ``reverse`` (``reverse_close``). Colour and action-ness follow
    from the card's id (a wild is a wild for colour choice, keep_wilds and save_wilds)."""

    points: float
    draw: float
    attack: float
    reverse: float


def policy_features(points: int, effects: tuple[tuple[int, int], ...]) -> PolicyFeatures:
    """:class:`PolicyFeatures` of a card with these points and effects (both engines call this)."""
    names = {E.BY_CODE[c].name: n for c, n in effects}
    size = names.get("draw", 0) + names.get("others_draw", 0)
    draw = size / DRAW_TWO_SIZE if size else (1.0 if "draw_until_colour" in names else 0.0)
    attack = draw if draw else (1.0 if "skip" in names or "skip_everyone" in names else 0.0)
    return PolicyFeatures(float(points), draw, attack, 1.0 if "reverse" in names else 0.0)


def row_policy_features(row) -> PolicyFeatures:
    """:func:`policy_features` of one ``IR_CARDS`` row (:func:`rows`) as the compiled engine holds it."""
    n = int(row[2])
    return policy_features(int(row[0]), tuple((int(row[3 + 2 * k]), int(row[4 + 2 * k])) for k in range(n)))


def check(family: str, new: tuple[CardDecl, ...], mechanics: str) -> None:
    """The family can play the declared cards (the custom slots fit; UNO Flip's two-faced cards cannot
    take a one-faced card)."""
    if new and mechanics == "flip":
        raise ValueError("rule cards: UNO Flip's cards are two-faced; declared cards are one-faced and "
                         "cannot join its deck (docs/rules.md §2.7)")
    if len(new) > MAX_CUSTOM:
        raise ValueError(f"rule cards: {len(new)} new cards: valid is at most {MAX_CUSTOM} per rule set "
                         f"(cards equal to a built-in class do not count)")


# ---- per-id tables, built-in ids and declared ones ----------------------------------------------------
@dataclass(frozen=True)
class CardBook:
    """The card tables of one rule set over every id (built-in then custom), as tuples for the reference
    engine; ``effects[id]`` is the declared effect list of a custom id (empty for built-in ids)."""

    names: tuple[str, ...]
    colour: tuple[int, ...]
    kind: tuple[int, ...]
    points: tuple[int, ...]
    draw_value: tuple[int, ...]
    restricted: tuple[bool, ...]
    same_effect: tuple[bool, ...]
    effects: tuple[tuple[tuple[int, int], ...], ...]

    def is_custom(self, card: int) -> bool:
        return card >= ID_CUSTOM0


def _default_colour(card: int) -> int:
    return (card - ID_CUSTOM0) % 5


@lru_cache(maxsize=64)
def book(new: tuple[CardDecl, ...]) -> CardBook:
    """The tables of the built-in ids plus the custom slots of ``new`` (declaration order)."""
    n_builtin = cards.N_CARD_IDS
    names = [cards.card_name(i) for i in range(n_builtin)]
    colour = [int(x) for x in cards.COLOUR]
    kind = [int(x) for x in cards.KIND]
    points = [int(x) for x in cards.POINTS]
    draw = [int(x) for x in cards.DRAW_VALUE]
    restricted = [bool(x) for x in cards.RESTRICTED]
    same = [True] * n_builtin
    effects: list[tuple] = [()] * n_builtin
    for card in range(ID_CUSTOM0, N_ALL_IDS):
        slot, c = divmod(card - ID_CUSTOM0, 5)
        d = new[slot] if slot < len(new) else None
        names.append(f"{cards.COLOUR_NAMES[c] if c < 4 else ''}{d.name if d else f'CUSTOM{slot}'}")
        colour.append(c)
        kind.append(CUSTOM_KIND0 + slot)
        points.append(d.points if d else (50 if c == cards.NO_COLOUR else 20))
        draw.append(d.draw_value() if d else 0)
        restricted.append(bool(d and d.challengeable))
        same.append(bool(d.same_effect) if d else True)
        effects.append(d.effects if d else ())
    return CardBook(tuple(names), tuple(colour), tuple(kind), tuple(points), tuple(draw), tuple(restricted),
                    tuple(same), tuple(effects))


def default_tables() -> tuple[tuple[int, ...], ...]:
    """(COLOUR, KIND, POINTS) defaults of the custom ids for tables indexed by id outside a rule set."""
    ids = range(ID_CUSTOM0, N_ALL_IDS)
    colour = tuple(_default_colour(i) for i in ids)
    kind = tuple(CUSTOM_KIND0 + (i - ID_CUSTOM0) // 5 for i in ids)
    points = tuple(50 if c == cards.NO_COLOUR else 20 for c in colour)
    return colour, kind, points


def over_all_ids(table: np.ndarray, custom=None) -> np.ndarray:
    """A per-id table of :mod:`unosim.game.cards` over every id, ``custom`` the custom ids' values (default
    0: a flag no declared card carries); read-only."""
    custom = np.zeros(N_ALL_IDS - ID_CUSTOM0, np.int64) if custom is None else custom
    out = np.concatenate([np.asarray(table, np.int64), np.asarray(custom, np.int64)])
    out.setflags(write=False)
    return out


# The per-id tables of unosim.game.cards over every id, the custom ids with their defaults (colour by
# id, a kind per slot, class-default points — what a policy sees; the declared points score —, no draw
# value, no number, the opening-hand class of their slot, after the built-in classes: the opening
# counts price each declared card on its own): what the compiled engine freezes into its code.
_COLOURS, _KINDS, _POINTS = default_tables()
_N = N_ALL_IDS - ID_CUSTOM0
ALL_COLOUR = over_all_ids(cards.COLOUR, _COLOURS)
ALL_KIND = over_all_ids(cards.KIND, _KINDS)
ALL_NUMBER_OF = over_all_ids(cards.NUMBER_OF, [-1] * _N)
ALL_POINTS = over_all_ids(cards.POINTS, _POINTS)
ALL_HAND_CLASS = over_all_ids(cards.HAND_CLASS, [cards.N_HAND_CLASSES + i // 5 for i in range(_N)])
ALL_DRAW_VALUE = over_all_ids(cards.DRAW_VALUE)
ALL_RESTRICTED = over_all_ids(cards.RESTRICTED)
ALL_BASE_FACE = over_all_ids(cards.BASE_FACE, range(ID_CUSTOM0, N_ALL_IDS))   # a declared card shows itself
