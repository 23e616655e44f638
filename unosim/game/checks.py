"""Validation of user-given numbers, with one error style (:func:`bad_value`): what counts as an integer or
a real number, and counts in a range. A rule's probabilities and weights are checked by the rule table
(:mod:`unosim.game.rule_table`), in the same style.

:func:`as_int` returns the value as a plain Python ``int`` (a numpy integer such as ``np.int16(10)`` is
accepted and converted *before* any arithmetic, so no fixed-width overflow can reach a size
computation), or raises ``ValueError`` naming the field, the bad value and what is valid.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np


def is_int(value: Any) -> bool:
    """A Python or numpy integer (bools are not counts)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def is_real(value: Any) -> bool:
    """A Python or numpy real number (bools are not numbers here)."""
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def bad_value(field: str, value: Any, valid: str) -> ValueError:
    return ValueError(f"{field}={value!r} is invalid: valid is {valid}")


def as_int(field: str, value: Any, lo: int, hi: int | None = None) -> int:
    """``value`` as a Python int in ``lo..hi`` (``hi`` None: no upper limit)."""
    if not is_int(value) or value < lo or (hi is not None and value > hi):
        span = f"{lo}..{hi}" if hi is not None else f"≥ {lo}"
        raise bad_value(field, value, f"an integer {span}")
    return int(value)


def scaled(weights: Sequence[float]) -> tuple[float, ...]:
    """Non-negative finite weights times the power of two that puts the largest in [0.5, 1).

    Multiplying by a power of two is exact, so every draw ``u * sum(w)`` against the running sums picks
    exactly what it picks with the weights as given, but the sum can no longer overflow (``[1e308] * 9``)
    — the kernels and the reference engine both draw from these scaled weights.
    """
    top = max(weights)
    if top <= 0:
        return tuple(float(w) for w in weights)
    exponent = math.frexp(top)[1]
    return tuple(math.ldexp(float(w), -exponent) for w in weights)


def clip_message(message: str, limit: int = 600) -> str:
    """``message`` as one line of at most about ``limit`` characters: a value pasted into an error (a
    300 kB list, a whole file) is cut in the middle, keeping the start (what is wrong) and the end (what
    is valid)."""
    message = message.replace("\n", " ")
    if len(message) <= limit:
        return message
    keep = limit // 2 - 20
    return f"{message[:keep]} … ({len(message) - 2 * keep:,} characters cut) … {message[-keep:]}"
