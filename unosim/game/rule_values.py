"""Rule values as text: ``key=value`` overrides read as TOML first (``true``, ``3``, ``0.5``, ``"text"``,
``["plain_wild", "swap_hands"]``), else the way rule keys print values (``unosim rules`` and
``RuleSet.key``): bare words (``any_draw``, ``random``), ``none``, and lists written ``[a;b;c]``,
``a;b;c`` or ``a,b,c`` — so a value copied from a rule key can be pasted back. The CLI's ``--set`` and a
ladder's ``classic:n_blank=0`` read them alike.
"""

from __future__ import annotations

import tomllib
from typing import Any


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
    """``--set key=value`` pairs as a dict of rule overrides; a malformed pair, or a key given twice, is a
    ValueError."""
    out: dict[str, Any] = {}
    for item in items or []:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--set {item!r}: expected key=value, e.g. --set stacking=any_draw")
        key, value = key.strip(), parse_value(raw)
        if key in out:
            raise ValueError(f"--set {key} is given twice ({key}={out[key]!r} and {key}={value!r}): give each "
                             f"rule once")
        out[key] = value
    return out
