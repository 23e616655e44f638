"""Reading a variant's rule changes on the command line, and writing JSON for scripts.

Every command that plays or shows a variant takes its rule changes the same three ways
(:func:`rule_arguments`, read by :func:`rule_overrides`): ``--set KEY=VALUE``, a designer deck
``--deck CLASS=COUNT`` (the ``deck`` rule) and cards declared as data ``--card NAME:CLASS,…`` (the
``cards`` rule), each mistake a one-line error naming the value.

A value is read as TOML first (``true``, ``3``, ``0.5``, ``"text"``, ``["plain_wild", "swap_hands"]``).
What is not valid TOML is read the way rule keys print values (``unosim rules`` and ``RuleSet.key``):
bare words (``any_draw``, ``random``), ``none``, and lists written ``[a;b;c]``, ``a;b;c`` or ``a,b,c``
— so a value copied from a rule key can be pasted back.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..game.rule_values import parse_set, parse_value

SET_HELP = ("a rule override KEY=VALUE (repeatable). VALUE is TOML (true, 3, 0.5, \"text\", "
            "[\"plain_wild\", \"swap_hands\"]) or written as rule keys print it: plain words, none, and "
            "lists as a,b,c or [a;b;c]. `unosim rules VARIANT` lists the keys")


def rule_arguments(p: argparse.ArgumentParser, *set_flags: str) -> None:
    """``--set`` (or ``set_flags``, e.g. ``--rule``, ``--set``), ``--deck`` and ``--card``, read by
    :func:`rule_overrides`."""
    p.add_argument(*(set_flags or ("--set",)), action="append", dest="set", metavar="KEY=VALUE", help=SET_HELP)
    p.add_argument("--deck", action="append", metavar="CLASS=COUNT",
                   help="a designer deck: the count of a card class (repeatable, or comma-separated), e.g. "
                        "--deck draw_two=12,wild=8; docs/rules.md §2.5")
    p.add_argument("--card", action="append", metavar="NAME:CLASS,effects=…",
                   help="a card declared as data (repeatable), e.g. --card "
                        "'draw_three:coloured,effects=draw:3,points=20,count=2'; docs/rules.md §2.7")


def rule_overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The rule changes of :func:`rule_arguments`: ``--set`` overrides, with ``--deck`` as the ``deck`` rule
    (docs/rules.md §2.5) and ``--card`` as the ``cards`` rule (§2.7)."""
    overrides = parse_set(args.set)
    if args.deck:
        if "deck" in overrides:
            raise ValueError("the designer deck is given twice (--deck and --set deck=…): give it once")
        overrides["deck"] = parse_deck(args.deck)
    if args.card:
        if "cards" in overrides:
            raise ValueError("the declared cards are given twice (--card and --set cards=…): give them once")
        overrides["cards"] = list(args.card)
    return overrides


def parse_deck(items: list[str]) -> dict[str, Any]:
    """``--deck class=count`` (repeatable, or comma-separated) as the ``deck`` rule's table; the classes
    and counts are checked by the rule (docs/rules.md §2.5). A class given twice is an error (which count
    was meant cannot be told)."""
    out: dict[str, Any] = {}
    for item in items:
        for part in filter(None, (p.strip() for p in item.split(","))):
            key, sep, raw = part.partition("=")
            if not sep or not key.strip():
                raise ValueError(f"--deck {part!r}: expected class=count, e.g. --deck draw_two=12")
            key, value = key.strip(), parse_value(raw)
            if key in out:
                raise ValueError(f"--deck {key} is given twice ({key}={out[key]} and {key}={value}): give each "
                                 f"card class once")
            out[key] = value
    return out


def print_json(value: Any) -> None:
    """``value`` as indented JSON on stdout (tuples become lists)."""
    print(json.dumps(value, indent=2, ensure_ascii=False))


def json_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print JSON instead of a table (for scripts)")
