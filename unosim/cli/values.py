"""Reading ``--set KEY=VALUE`` and ``--deck`` on the command line, and writing JSON for scripts.

A value is read as TOML first (``true``, ``3``, ``0.5``, ``"text"``, ``["plain_wild", "swap_hands"]``).
What is not valid TOML is read the way rule keys print values (``unosim rules`` and ``RuleSet.key``):
bare words (``any_draw``, ``random``), ``none``, and lists written ``[a;b;c]``, ``a;b;c`` or ``a,b,c``
— so a value copied from a rule key can be pasted back.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..game.rule_values import parse_set, parse_value  # noqa: F401  (the CLI reads --set with them)

SET_HELP = ("a rule override KEY=VALUE (repeatable). VALUE is TOML (true, 3, 0.5, \"text\", "
            "[\"plain_wild\", \"swap_hands\"]) or written as rule keys print it: plain words, none, and "
            "lists as a,b,c or [a;b;c]. `unosim rules VARIANT` lists the keys")


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
