"""The rule table: every rule parameter declared once (docs/rules.md §3, §4, §2.5).

One :class:`Rule` per parameter of a variant: its name, type, classic default, valid values (as one
check that validates and normalises), the mechanisms it belongs to (empty: every family), its one-line
description and its docs/rules.md section, its slot in the compiled rules (``IR_*`` / ``FR_*`` with the
encoder that fills it), and the facts about it that others act on: the engine mechanism it switches on,
the player's choice that exercises it, whether it matters only with two active seats, whether it takes
one value per seat. Everything else is generated from :data:`PARAMETERS`:

* :class:`unosim.game.rules.RuleSet`'s fields, defaults and validation;
* the kernels' rule records :data:`unosim.game.protocol.IRULES` / ``FRULES`` and ``RuleSet.compile``;
* the help of ``unosim rules`` (:func:`help_text`) and the explorer's rule toggles;
* the table of docs/rules.md §3.1 (:func:`markdown`; ``tests/game/test_rule_table.py`` keeps it in sync);
* the engine build a rule set needs (:func:`switched_on`), the house-rule study's cells and lineups
  (:mod:`unosim.pipeline.house_rules`) and the per-seat rules' player-count check.

The anchor is OpenSpiel's ``GameType.parameter_specification`` (typed parameters with defaults); this
table also carries what a person needs to read (descriptions, sections) and what the kernels need
(slots and encoders). Adding a rule parameter is one entry here, its implementation, and its tests.

Pure Python: this module is the ground the protocol stands on (its rules' vocabularies, the match modes,
the stacking rules, the blank effects and the wheel's outcomes, are numbered by the protocol for the
kernels: :func:`numbered`), so it imports nothing of unosim but :mod:`unosim.game.checks`, the card-effect vocabulary
(:mod:`unosim.game.card_effects`, pure too) and the pure :mod:`unosim.game.flip_pairing`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import flip_pairing
from .card_effects import CARD_ROW, N_CARD_SLOTS  # cards declared as data (docs/rules.md §2.7)
from .checks import bad_value, clip_message, is_int, is_real, scaled

# ---- the rule vocabulary (the rules below declare which of it the protocol numbers for the kernels) ----
MAX_PLAYERS = 10
MATCH_MODES = ("points", "lowest", "single_round")
STACKING = ("none", "same_kind", "any_draw", "escalating")
BLANK_EFFECTS = ("plain_wild", "swap_hands", "shuffle_hands", "others_draw_1", "discard_colour",
                 "draw_two_next")
N_BLANK_SLOTS = 3        # blank cards with their own effect (docs/rules.md §2.1)
SPIN_OUTCOMES = ("almost_uno", "discard_number", "discard_colour", "draw_red", "draw_blue",
                 "trade_hands", "show_hand", "war", "uno_spin")
N_SPIN_OUTCOMES = len(SPIN_OUTCOMES)
# A points/lowest target beyond any reachable total (100 000 rounds of at most a few thousand points)
MAX_TARGET = 10**9

#: the groups of the table, in the order ``unosim rules`` and the docs list them
GROUPS = {"deck": "deck and deal", "match": "match", "people": "people (docs/rules.md §3)",
          "house": "house rules (docs/rules.md §4)"}


@dataclass(frozen=True)
class Rule:
    """One rule parameter.

    ``check(name, value, values)`` returns the normalised value or raises ValueError naming the value
    and :attr:`valid`; ``values`` holds the rules checked before this one (table order), for the few
    rules whose range depends on another. ``encode(value, rules, players)`` gives the kernel slot's
    number (or ``size`` numbers); ``slot`` is ``"IR_NAME"`` / ``"FR_NAME"``, or None for a rule that
    reaches the kernel another way (the deck).

    ``switches_on``: the engine mechanism (``protocol.MECHANISMS``) the rule switches on whenever its
    value is not ``off``. ``behaviour``: the policy parameter of the player's choice the rule acts on (a
    rule no built-in policy exercises by default). ``two_active_seats``: the rule changes a game only with
    two active players. ``per_seat``: the rule takes one value or one per seat."""

    name: str
    type: Any
    default: Any
    check: Callable[[str, Any, dict], Any]
    valid: str
    doc: str
    section: str
    group: str
    slot: str | None = None
    size: int = 1
    encode: Callable[[Any, Any, int], Any] | None = None
    mechanisms: tuple[str, ...] = ()
    choices: tuple[Any, ...] = ()
    widget: str = "text"   # how a form edits it: bool, choice, int, float, text
    switches_on: str | None = None
    off: Any = False
    behaviour: str | None = None
    two_active_seats: bool = False
    per_seat: bool = False
    keys: tuple[str, ...] = ()
    numbered: str | None = None

    @property
    def vocabulary(self) -> tuple[str, ...]:
        """What the kernels number of the rule (:attr:`numbered`): its choices, else its keys."""
        return self.choices or self.keys

    @property
    def record(self) -> str | None:
        """``IR`` or ``FR``: the compiled record the rule's slot is in."""
        return self.slot.split("_", 1)[0] if self.slot else None

    @property
    def slot_name(self) -> str | None:
        return self.slot.split("_", 1)[1] if self.slot else None


def bad(name: str, value: Any, valid: str) -> ValueError:
    return bad_value(f"rule {name}", value, valid)


# ---- checks ------------------------------------------------------------------------------------------
def _integer(lo: int, hi: int) -> Callable[[str, Any, dict], int]:
    def check(name: str, v: Any, values: dict) -> int:
        if not is_int(v) or not lo <= v <= hi:
            raise bad(name, v, f"an integer in {lo}..{hi}")
        return int(v)
    return check


def _boolean(name: str, v: Any, values: dict) -> bool:
    if not isinstance(v, bool) and type(v).__name__ != "bool_":   # numpy booleans too
        raise bad(name, v, "true or false")
    return bool(v)


def _choice(options: tuple[str, ...]) -> Callable[[str, Any, dict], str]:
    def check(name: str, v: Any, values: dict) -> str:
        if v not in options:
            raise bad(name, v, f"one of {list(options)}")
        return v
    return check


def _is_prob(v: Any) -> bool:
    return is_real(v) and 0 <= v <= 1


def _is_weight(v: Any) -> bool:
    return is_real(v) and math.isfinite(v) and v >= 0


def _is_positive_weight(v: Any) -> bool:
    return _is_weight(v) and v > 0


def _probability(name: str, v: Any, values: dict) -> float:
    if not _is_prob(v):
        raise bad(name, v, "a probability in [0, 1]")
    return float(v)


def _per_seat(test: Callable[[Any], bool], valid: str) -> Callable[[str, Any, dict], Any]:
    def check(name: str, v: Any, values: dict) -> float | tuple[float, ...]:
        if isinstance(v, (list, tuple)):
            if not 2 <= len(v) <= MAX_PLAYERS or not all(test(x) for x in v):
                wrong = next((x for x in v if not test(x)), None) if 2 <= len(v) <= MAX_PLAYERS \
                    else f"{len(v)} entries"
                raise ValueError(f"rule {name}={v!r} is invalid ({wrong!r}): valid is one number or a list "
                                 f"of 2-{MAX_PLAYERS} numbers, each {valid}")
            return tuple(float(x) for x in v)
        if not test(v):
            raise bad(name, v, valid)
        return float(v)
    return check


def _blank_effects(name: str, effects: Any, values: dict) -> tuple[str, ...]:
    if isinstance(effects, str):
        effects = (effects,) * N_BLANK_SLOTS
    if not isinstance(effects, (list, tuple)) or not 1 <= len(effects) <= N_BLANK_SLOTS:
        raise bad(name, effects, f"one effect or a list of up to {N_BLANK_SLOTS} of {list(BLANK_EFFECTS)}")
    for e in effects:
        if e not in BLANK_EFFECTS:
            raise bad(name, e, f"one of {list(BLANK_EFFECTS)}")
    return tuple(effects) + ("swap_hands",) * (N_BLANK_SLOTS - len(effects))


def _first_dealer(name: str, fd: Any, values: dict) -> int | str:
    if fd != "random" and not (is_int(fd) and 0 <= fd < MAX_PLAYERS):
        raise bad(name, fd, f"'random' or a seat number 0..{MAX_PLAYERS - 1}")
    return fd if fd == "random" else int(fd)


_SPIN_VALID = (f"{N_SPIN_OUTCOMES} finite weights ≥ 0 with a positive sum, as a list in the order "
               f"{list(SPIN_OUTCOMES)} or a table keyed by those names")


def _spin_weights(name: str, w: Any, values: dict) -> tuple[float, ...]:
    """Relative weights as a list or a table keyed by outcome (outcomes it leaves out weigh 0)."""
    if isinstance(w, dict):
        for key, x in w.items():
            if key not in SPIN_OUTCOMES:
                raise ValueError(f"rule {name} has an unknown outcome {key!r}: valid are {list(SPIN_OUTCOMES)}")
            if not _is_weight(x):
                raise ValueError(f"rule {name} {key}={x!r} is invalid: valid is a finite weight ≥ 0")
        w = tuple(w.get(o, 0.0) for o in SPIN_OUTCOMES)
    if not isinstance(w, (list, tuple)) or len(w) != N_SPIN_OUTCOMES:
        raise bad(name, w, _SPIN_VALID)
    for outcome, x in zip(SPIN_OUTCOMES, w, strict=True):
        if not _is_weight(x):
            raise ValueError(f"rule {name} {outcome}={x!r} is invalid: valid is a finite weight ≥ 0 "
                             f"(all: {_SPIN_VALID})")
    if not any(x > 0 for x in w):
        raise bad(name, w, _SPIN_VALID)
    return tuple(float(x) for x in w)


def _mercy_limit(name: str, ml: Any, values: dict) -> int | None:
    if ml is None or ml == "none":
        return None
    # the limit is checked as cards are drawn, so a dealt hand must start below it
    return _integer(values["hand_size"] + 1, 200)(name, ml, values)


def _deck(name: str, value: Any, values: dict) -> tuple[tuple[str, int], ...]:
    """The designer deck's counts (docs/rules.md §2.5) as sorted (class, count) pairs; the classes and
    the family's support are checked by :mod:`unosim.game.designer_deck`."""
    from .designer_deck import normalise
    return normalise(name, value)


def _cards(name: str, value: Any, values: dict) -> tuple:
    """Cards declared as data (docs/rules.md §2.7), checked one by one by :mod:`unosim.game.custom_cards`
    (the family's support and the deck's size by ``RuleSet``)."""
    from .custom_cards import normalise
    return normalise(name, value, reserved=RULE_KEYS)


# ---- encoders ----------------------------------------------------------------------------------------
def _int(value: Any, rules: Any, players: int) -> int:
    return int(value)


def _index_of(options: tuple[str, ...]) -> Callable[[Any, Any, int], int]:
    return lambda value, rules, players: options.index(value)


def _seat_values(value: Any, players: int) -> tuple[float, ...]:
    return value if isinstance(value, tuple) else (value,) * players


# ---- the table ---------------------------------------------------------------------------------------
def _toggle(name: str, default: bool, doc: str, section: str, *, mechanisms: tuple[str, ...] = (),
            encode=None, **facts: Any) -> Rule:
    return Rule(name, bool, default, _boolean, "true or false", doc, section, "house", f"IR_{name.upper()}",
                encode=encode or _int, mechanisms=mechanisms, choices=(False, True), widget="bool", **facts)


PARAMETERS: tuple[Rule, ...] = (
    # deck and deal
    Rule("hand_size", int, 7, _integer(1, 15), "an integer in 1..15", "cards dealt to each player", "3",
         "deck", "IR_HAND_SIZE", encode=_int, widget="int"),
    Rule("n_blank", int, 3, _integer(0, N_BLANK_SLOTS), f"an integer in 0..{N_BLANK_SLOTS}",
         "blank (Wild Customizable) cards in the classic deck", "2.1", "deck", mechanisms=("classic",),
         widget="int", switches_on="blank", off=0),
    Rule("blank_effects", tuple[str, ...], ("swap_hands",) * N_BLANK_SLOTS, _blank_effects,
         f"one effect or a list of up to {N_BLANK_SLOTS} of {list(BLANK_EFFECTS)}",
         "the effect of each blank card", "2.1.3", "deck", "IR_BLANK_EFFECT", N_BLANK_SLOTS,
         encode=lambda value, rules, players: [BLANK_EFFECTS.index(e) for e in value],
         mechanisms=("classic",), choices=BLANK_EFFECTS, numbered="BLANK"),
    Rule("deck", tuple[tuple[str, int], ...], (), _deck,
         "a table of card class → count, e.g. {draw_two = 12, wild = 8}",
         "designer deck: the count of each card class that differs from the published deck", "2.5", "deck"),
    Rule("cards", tuple, (), _cards,
         "a table of card name → card, or NAME:coloured|wild,effects=E+E,points=P,count=C strings",
         "cards declared as data: a colour class, effects in order, points and count", "2.7", "deck",
         "IR_CARDS", N_CARD_SLOTS * CARD_ROW, encode=lambda value, rules, players: rules.card_rows()),
    Rule("flip_pairing", str, flip_pairing.DEFAULT, _choice(flip_pairing.names()),
         f"one of {list(flip_pairing.names())}", "which dark face is on the back of which light face",
         "6", "deck", mechanisms=("flip",), choices=flip_pairing.names(), widget="choice"),
    # match
    Rule("match_mode", str, "points", _choice(MATCH_MODES), f"one of {list(MATCH_MODES)}",
         "what a game is: a match to a points target, lowest total, or a single round", "1.12", "match",
         "IR_MATCH_MODE", encode=_index_of(MATCH_MODES), choices=MATCH_MODES, widget="choice",
         numbered="MODE"),
    Rule("target", int, 500, _integer(1, MAX_TARGET), f"an integer in 1..{MAX_TARGET}",
         "the points that end a match", "1.12", "match", "IR_TARGET", encode=_int, widget="int"),
    Rule("first_dealer", int | str, "random", _first_dealer, f"'random' or a seat number 0..{MAX_PLAYERS - 1}",
         "dealer of round 1", "3", "match", "IR_FIRST_DEALER",
         encode=lambda value, rules, players: -1 if value == "random" else int(value)),
    Rule("max_turns_per_round", int, 10_000, _integer(1, 1_000_000), "an integer in 1..1000000",
         "turn cap: a round that reaches it ends truncated", "1.6", "match", "IR_MAX_TURNS", encode=_int,
         widget="int"),
    Rule("max_rounds_per_match", int, 1_000, _integer(1, 100_000), "an integer in 1..100000",
         "a match without a winner after this many rounds ends truncated", "6", "match", "IR_MAX_ROUNDS",
         encode=_int, widget="int"),
    # people
    Rule("p_forget_uno", float | tuple[float, ...], 0.0, _per_seat(_is_prob, "a probability in [0, 1]"),
         "a probability in [0, 1], or one per seat", "probability of not calling UNO at a checkpoint",
         "1.10", "people", "FR_P_FORGET_UNO", MAX_PLAYERS,
         encode=lambda value, rules, players: _seat_values(value, players), widget="float", per_seat=True),
    Rule("p_catch", float, 0.5, _probability, "a probability in [0, 1]",
         "probability that a missed UNO is caught", "1.10", "people", "FR_P_CATCH",
         encode=lambda value, rules, players: float(value),
         widget="float"),
    Rule("uno_penalty", int, 2, _integer(0, 20), "an integer in 0..20", "cards drawn when caught", "1.10",
         "people", "IR_UNO_PENALTY", encode=_int, widget="int"),
    Rule("p_dumbfu_fail", float, 0.10, _probability, "a probability in [0, 1]",
         "probability that the Dumb Fu target breaks the pose", "2.2", "people", "FR_P_DUMBFU_FAIL",
         encode=lambda value, rules, players: float(value), mechanisms=("minions",), widget="float"),
    Rule("dumbfu_penalty", int, 4, _integer(0, 20), "an integer in 0..20", "cards drawn for breaking the pose",
         "2.2", "people", "IR_DUMBFU_PENALTY", encode=_int, mechanisms=("minions",), widget="int"),
    Rule("spin_weights", tuple[float, ...], (1.0,) * N_SPIN_OUTCOMES, _spin_weights, _SPIN_VALID,
         "relative weight of each wheel outcome", "2.3.3", "people", "FR_SPIN_WEIGHT", N_SPIN_OUTCOMES,
         encode=lambda value, rules, players: scaled(value), mechanisms=("spin",),   # the draw normalises
         keys=SPIN_OUTCOMES, numbered=""),
    Rule("shout_weight", float | tuple[float, ...], 1.0, _per_seat(_is_positive_weight, "a finite number > 0"),
         "a finite number > 0, or one per seat", "relative speed at shouting \"UNO Spin\"", "2.3", "people",
         "FR_SHOUT_WEIGHT", MAX_PLAYERS, encode=lambda value, rules, players: scaled(_seat_values(value, players)),
         mechanisms=("spin",), widget="float", per_seat=True),
    # house rules
    Rule("stacking", str, "none", _choice(STACKING), f"one of {list(STACKING)}",
         "whether and how draw cards stack", "4", "house", "IR_STACKING", encode=_index_of(STACKING),
         choices=STACKING, widget="choice", switches_on="stacking", off="none", numbered="STACKING"),
    _toggle("jump_in", False, "play an identical card out of turn", "4", switches_on="jump_in"),
    _toggle("seven_o", False, "a 7 swaps hands, a 0 passes every hand on", "4", switches_on="seven_o"),
    _toggle("draw_until_playable", False, "keep drawing until a card can be played", "4"),
    _toggle("force_play_drawn", False, "a playable drawn card must be played", "4", behaviour="p_keep_drawn"),
    _toggle("voluntary_draw", True, "a player may draw although it could play", "4", behaviour="p_draw"),
    # no_bluffing switches the challenge off: a challenge could never succeed
    _toggle("wd4_challenge", True, "a Wild Draw Four may be challenged", "1.8",
            encode=lambda value, rules, players: int(value and not rules.no_bluffing), behaviour="p_challenge"),
    _toggle("no_bluffing", False, "an illegal Wild Draw Four cannot be played", "1.8", behaviour="p_bluff"),
    _toggle("two_player_reverse_skip", True, "with two players a Reverse acts as a Skip", "4",
            two_active_seats=True),
    _toggle("final_card_effects", True, "a round's final card still takes effect", "1.11"),
    Rule("mercy_limit", int | None, None, _mercy_limit, "none or an integer from hand_size + 1 to 200",
         "a player holding this many cards is knocked out", "2.4.6", "house", "IR_MERCY_LIMIT",
         encode=lambda value, rules, players: 0 if value is None else int(value), widget="int",
         switches_on="mercy", off=None),
    _toggle("spin_first_card_spins", False, "a spin card turned up first makes the first player spin", "2.3",
            mechanisms=("spin",)),
    _toggle("spin_continue_after_winner", True, "the round goes on after a wheel outcome's winner", "2.3",
            mechanisms=("spin",)),
)

BY_NAME: dict[str, Rule] = {r.name: r for r in PARAMETERS}
RULE_KEYS: tuple[str, ...] = tuple(BY_NAME)
#: every rule's default in the classic game; a FamilySpec's ``defaults`` change some of them
COMMON_DEFAULTS: dict[str, Any] = {r.name: r.default for r in PARAMETERS}


def kernel_slots(record: str) -> tuple[tuple[str, int, str], ...]:
    """(slot name, size, description) of every rule slot in the ``IR`` or ``FR`` record, in table order."""
    return tuple((r.slot_name, r.size, r.doc) for r in PARAMETERS if r.record == record)


def numbered() -> tuple[Rule, ...]:
    """The rules whose vocabulary the kernels number (:attr:`Rule.numbered`), in table order."""
    return tuple(r for r in PARAMETERS if r.numbered is not None)


def switched_on(rules: Any) -> frozenset[str]:
    """The engine mechanisms the rule values of ``rules`` (a ``RuleSet``, or anything with the rules as
    attributes) switch on."""
    return frozenset(r.switches_on for r in PARAMETERS if r.switches_on and getattr(rules, r.name) != r.off)


def own_rules(mechanism: str) -> tuple[str, ...]:
    """The rules that belong to ``mechanism`` only."""
    return tuple(r.name for r in PARAMETERS if mechanism in r.mechanisms)


def validate(values: dict[str, Any]) -> dict[str, Any]:
    """Every rule checked and normalised, in table order (a rule's range may depend on an earlier one).
    A numpy value is read as the plain value it holds (an array as its list): numpy's own truth and
    comparisons would otherwise answer for the check, or fail with a message naming no rule."""
    out: dict[str, Any] = {}
    for r in PARAMETERS:
        value = plain(values[r.name])
        try:
            out[r.name] = r.check(r.name, value, out)
        except (TypeError, ValueError) as exc:
            if f"{r.name}" in str(exc):
                raise
            raise ValueError(f"rule {r.name}={clip_message(repr(value), 120)} is invalid: {exc}") from None
    return out


def plain(value: Any) -> Any:
    """A numpy value as the plain Python value it holds (an array as its list), inside tables and lists too."""
    if isinstance(value, (np.ndarray, np.generic)):
        return value.tolist()
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(plain(v) for v in value)
    return value


def format_value(value: Any) -> str:
    """A value as rule keys print it (and as ``--set`` reads it back): ``[a;b]``, ``true``, ``none``; a deck
    as a rule key holds it (pairs) as ``[draw_two:12;wild:8]``, as a table (``RuleSet.as_dict``, ``unosim
    rules``) as TOML ``{draw_two = 12}``."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {format_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):
        return "[" + ";".join(f"{k}:{v}" for k, v in value) + "]"
    if isinstance(value, (list, tuple)):
        return "[" + ";".join(format_value(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return str(value)


def help_text() -> str:
    """The rules part of ``unosim rules --help``: each rule, its valid values and what it does."""
    lines = ["rules (set with --set KEY=VALUE; docs/rules.md §3.1 has the same table):"]
    for group, title in GROUPS.items():
        lines.append(f"  {title}:")
        for r in PARAMETERS:
            if r.group == group:
                only = f" [{'/'.join(r.mechanisms)} only]" if r.mechanisms else ""
                lines.append(f"    {r.name}: {r.doc}{only} (§{r.section}); {r.valid}")
    return "\n".join(lines)


def markdown() -> str:
    """The table of docs/rules.md §3.1, generated from :data:`PARAMETERS`."""
    rows = ["| rule | what it does | classic default | valid values | only in | § |",
            "|---|---|---|---|---|---|"]
    for r in PARAMETERS:
        valid = r.valid.replace("|", "\\|")
        rows.append(f"| `{r.name}` | {r.doc} | `{format_value(r.default)}` | {valid} | "
                    f"{', '.join(r.mechanisms) or 'all'} | §{r.section} |")
    return "\n".join(rows)


def as_json() -> list[dict[str, Any]]:
    """The table for the explorer's page: each rule's name, description, section, widget and choices."""
    return [{"name": r.name, "doc": r.doc, "section": r.section, "group": r.group, "widget": r.widget,
             "valid": r.valid, "choices": list(r.choices), "mechanisms": list(r.mechanisms)} for r in PARAMETERS]


def write_docs(path: str) -> None:
    """Replace the generated table between the ``rule-table`` markers of ``path`` (docs/rules.md)."""
    import os
    import re
    import tempfile
    from pathlib import Path

    text = Path(path).read_text()
    block = re.compile(r"(<!-- rule-table:start -->\n).*?(\n<!-- rule-table:end -->)", re.S)
    if not block.search(text):
        raise ValueError(f"{path} has no <!-- rule-table:start --> … <!-- rule-table:end --> markers")
    new = block.sub(lambda m: m.group(1) + markdown() + m.group(2), text)
    fd, temporary = tempfile.mkstemp(dir=Path(path).parent, prefix=".rules.md.")   # atomic: a whole file or the old
    with os.fdopen(fd, "w") as out:
        out.write(new)
    os.replace(temporary, path)

