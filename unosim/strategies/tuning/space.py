"""The search space of ``unosim tune``: the ``weighted`` policy's weights, scaled to comparable units.

The ``weighted`` policy takes, at every decision, the option with the highest Σ weight × feature
(``unosim.engine.policies.weighted_features``). The features live on very different scales (card points 0..50,
a yes/no feature 0 or 1, the cards of a colour in the discard pile 0..100), so a step of the same size
in every weight would be a huge change for one and nothing for another. The search therefore moves in
**score units**: coordinate ``x = w × SCALE[w]``, where ``SCALE[w]`` is a typical size of the
feature's variation between two options (the spread, not the maximum). A step of 1 in any coordinate
then shifts a typical score difference by about 1 point.

A **tuned policy** is the start's full parameter vector with the searched weights replaced, each rounded
to ``SIGNIFICANT_DIGITS`` significant digits: the printed lineup string is exactly the policy that is
evaluated (``PolicySpec.label`` prints up to six significant digits, so a rounded weight prints
unchanged and parses back to the same float).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...game.policies import POLICIES, PolicySpec, parse_policy
from ...game.protocol import WEIGHT_PARAMS

#: the typical spread of each feature between two options (score units per unit of weight)
SCALE = {
    "w_points": 10.0,          # number cards 0..9, actions 20, wilds 50
    "w_action": 1.0, "w_wild": 1.0, "w_draw": 1.0,
    "w_colour_left": 3.0,      # cards of a colour in a hand of about seven
    "w_keeps_colour": 1.0, "w_number_match": 1.0, "w_attack": 1.0, "w_attack_close": 1.0,
    "w_reverse_close": 1.0,
    "w_own_hand": 5.0,         # own hand size (weighs the cards against the options that are not a card)
    "w_seen": 10.0,            # cards of a colour in the discard pile
    "w_order": 3.0,            # hand positions
    "w_voluntary_draw": 1.0, "w_bluff": 1.0, "w_accept": 1.0, "w_keep": 1.0,
    "w_colour_held": 3.0, "w_colour_seen": 10.0, "w_colour_shown": 2.0, "w_colour_order": 2.0,
    "w_target_hand": 5.0, "w_target_order": 2.0,
    "w_challenge": 1.0, "w_challenge_hand": 5.0,
}
SIGNIFICANT_DIGITS = 3
#: the default start: the preset that won most against random seats in classic at 4 players (docs/tutorials/tuning.md)
DEFAULT_START = "save_wilds"


def start_spec(start: str | PolicySpec) -> PolicySpec:
    """The start policy: a ``weighted`` preset or ``weighted(...)`` spec; raises ValueError otherwise."""
    weighted = [name for name, info in POLICIES.items() if info.id == POLICIES["weighted"].id]
    name = start.name if isinstance(start, PolicySpec) else str(start).partition("(")[0].strip()
    if name not in weighted:
        raise ValueError(f"start={start!r} is invalid: valid starts are the weighted presets {weighted}, "
                         f"with or without parameters (by_colour(w_wild=-5))")
    return parse_policy(start)


def searched_weights(weights) -> tuple[str, ...]:
    """The weights to search (None: every weight), validated, in WEIGHT_PARAMS order."""
    if weights is None:
        return WEIGHT_PARAMS
    if isinstance(weights, str):
        weights = [w.strip() for w in weights.split(",") if w.strip()]
    unknown = [w for w in weights if w not in WEIGHT_PARAMS]
    if unknown or not weights:
        raise ValueError(f"weights={list(weights)!r} is invalid: valid is a non-empty subset of "
                         f"{list(WEIGHT_PARAMS)}")
    return tuple(w for w in WEIGHT_PARAMS if w in weights)


@dataclass(frozen=True)
class WeightSpace:
    """Maps search coordinates (score units) to ``weighted`` policies, starting from ``start``."""

    start: PolicySpec
    names: tuple[str, ...]

    @property
    def scales(self) -> np.ndarray:
        return np.array([SCALE[n] for n in self.names])

    def start_point(self) -> np.ndarray:
        """The start's searched weights as coordinates."""
        values = dict(self._start_params())
        return np.array([values.get(n, 0.0) for n in self.names]) * self.scales

    def weights(self, x: np.ndarray) -> dict[str, float]:
        """Coordinates → the searched weights, rounded (the values the policy plays with)."""
        return {n: _round(v) for n, v in zip(self.names, np.asarray(x) / self.scales, strict=True)}

    def policy(self, x: np.ndarray) -> PolicySpec:
        """Coordinates → the ``weighted`` policy: the start's parameters with the searched weights
        replaced. The spec lists every parameter that differs from plain ``weighted``'s default (its
        base weights, else 0), so the printed string is short and still fixes every value."""
        params = {**dict(self._start_params()), **self.weights(x)}
        defaults = dict(POLICIES["weighted"].defaults)
        return PolicySpec("weighted", tuple(sorted((k, v) for k, v in params.items()
                                                   if v != defaults.get(k, 0.0))))

    def _start_params(self) -> tuple[tuple[str, float], ...]:
        """Every parameter of the start: a preset's weights, then those its spec gives."""
        return tuple({**dict(POLICIES[self.start.name].defaults), **dict(self.start.params)}.items())


def _round(value: float) -> float:
    """``value`` to SIGNIFICANT_DIGITS significant digits (0.0 for a negative zero)."""
    return float(f"{value:.{SIGNIFICANT_DIGITS}g}") + 0.0
