"""Reading ``--set KEY=VALUE`` on the command line, and writing numbers and JSON for people and scripts.

A value is read as TOML first (``true``, ``3``, ``0.5``, ``"text"``, ``["plain_wild", "swap_hands"]``).
What is not valid TOML is read the way rule keys print values (``unosim rules`` and ``RuleSet.key``):
bare words (``any_draw``, ``random``), ``none``, and lists written ``[a;b;c]``, ``a;b;c`` or ``a,b,c``
— so a value copied from a rule key can be pasted back.
"""

from __future__ import annotations

import json
import tomllib
from typing import Any

SET_HELP = ("a rule override KEY=VALUE (repeatable). VALUE is TOML (true, 3, 0.5, \"text\", "
            "[\"plain_wild\", \"swap_hands\"]) or written as rule keys print it: plain words, none, and "
            "lists as a,b,c or [a;b;c]. `unosim rules VARIANT` lists the keys")


def _toml(text: str) -> tuple[bool, Any]:
    try:
        return True, tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return False, None


def _scalar(text: str) -> Any:
    text = text.strip()
    if text == "none":
        return None
    ok, value = _toml(text)
    return value if ok else text


def parse_value(raw: str) -> Any:
    """One ``--set`` value: TOML, else the rule-key format (see the module docstring)."""
    text = raw.strip()
    ok, value = _toml(text)
    if ok:
        return value
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
        if not text.strip():
            return []
    for separator in (";", ","):
        if separator in text:
            return [_scalar(item) for item in text.split(separator) if item.strip()]
    return _scalar(text)


def parse_set(items: list[str] | None) -> dict[str, Any]:
    """``--set key=value`` pairs as a dict of rule overrides; a malformed pair is a ValueError."""
    out: dict[str, Any] = {}
    for item in items or []:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--set {item!r}: expected key=value, e.g. --set stacking=any_draw")
        out[key.strip()] = parse_value(raw)
    return out


def parse_deck(items: list[str]) -> dict[str, Any]:
    """``--deck class=count`` (repeatable, or comma-separated) as the ``deck`` rule's table; the classes
    and counts are checked by the rule (docs/rules.md §2.5)."""
    out: dict[str, Any] = {}
    for item in items:
        for part in filter(None, (p.strip() for p in item.split(","))):
            key, sep, raw = part.partition("=")
            if not sep or not key.strip():
                raise ValueError(f"--deck {part!r}: expected class=count, e.g. --deck draw_two=12")
            out[key.strip()] = parse_value(raw)
    return out


def format_value(value: Any) -> str:
    """A rule value as rule keys print it (and as ``--set`` reads it back): ``[a;b]``, ``true``, ``none``;
    a table (the designer deck) as TOML ``{draw_two = 12}``."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {format_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ";".join(format_value(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return str(value)


def print_json(value: Any) -> None:
    """``value`` as indented JSON on stdout (tuples become lists)."""
    print(json.dumps(value, indent=2, ensure_ascii=False))
