"""Policy registry and lineups.

A **policy** makes every choice the rules give a player. Built-in policies run inside the compiled
kernel, dispatched on an integer id; their behaviour is specified in :mod:`unosim.engine` §4. Each
takes numeric parameters (so sweeps need no recompilation), written ``name(param=value, ...)``:

============== ==================================================================================
random         docs/rules.md §5 exactly at the defaults; ``p_draw`` (voluntary draw), ``p_bluff`` (illegal
               WD4), ``p_challenge`` (challenge a WD4) turn it into a simple human model.
greedy_points  sheds the highest-point legal card first; names its most-held colour.
keep_wilds     plays coloured cards (its longest colour first), wilds only when nothing else fits.
lookahead      the expert: determinized flat Monte Carlo search at every play and stack decision
               (:mod:`unosim.engine.lookahead`); ``rollouts`` = sampled worlds per option (a whole
               number, default 128), ``horizon`` = turns each rollout plays before the position is
               scored (default 8; 0 plays the round out), ``rollout`` = the preset that plays the
               rollouts and the lookahead seat's other decisions, by name or index in
               ``protocol.ROLLOUT_PRESETS`` (default ``greedy_points``):
               ``lookahead(rollouts=64,horizon=12,rollout=keep_wilds)``.
============== ==================================================================================

Parameters are numbers: ``p_*`` probabilities in [0, 1]; ``rollouts`` a whole number in
``1..MAX_ROLLOUTS``; ``horizon`` a whole number in ``0..MAX_HORIZON``; ``rollout`` a preset name
(stored as its index).

A **lineup** gives one policy per seat: a single spec (every seat), a list, or a comma-separated string
where a trailing ``*`` fills the remaining seats: ``"greedy_points,random*"``. Plain Python policies
(any object or callable, see :mod:`unosim.reference`) run in the reference engine only.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from .checks import is_real
from .protocol import N_POLICY_PARAMS, POLICY_NAMES, POLICY_PARAMS, ROLLOUT_PRESETS

# lookahead's search budget: worlds sampled per option at a decision (engine/lookahead.py). The default
# makes a 4-player classic game with one lookahead seat run at >= 100 games/s per core (make bench).
DEFAULT_ROLLOUTS = 128
MAX_ROLLOUTS = 4096
DEFAULT_HORIZON = 8      # turns a rollout plays before the position is scored (0: to the round's end)
MAX_HORIZON = 10_000



@dataclass(frozen=True)
class PolicyInfo:
    name: str
    id: int
    doc: str
    params: tuple[str, ...]   # the parameters it honours (others are refused, never ignored)
    defaults: tuple[tuple[str, float], ...] = ()   # parameters whose default is not 0


# What each built-in policy does and which parameters it honours; its id (the kernel's dispatch key)
# is its position in protocol.POLICY_NAMES.
_POLICY_FACTS = {
    "random": ("docs/rules.md §5 reference policy: uniform over legal card instances",
               ("p_draw", "p_bluff", "p_challenge")),
    "greedy_points": ("shed the highest-point legal card first", ("p_challenge",)),
    "keep_wilds": ("play coloured cards of the longest colour; wilds last", ("p_challenge",)),
    "lookahead": ("expert: flat Monte Carlo search over sampled hidden cards, rollouts by a preset",
                  ("rollouts", "rollout", "horizon"),
                  (("rollouts", float(DEFAULT_ROLLOUTS)), ("rollout", 0.0), ("horizon", float(DEFAULT_HORIZON)))),
}
POLICIES = {name: PolicyInfo(name, POLICY_NAMES.index(name), *_POLICY_FACTS[name]) for name in POLICY_NAMES}
# Policies that search (thousands of rollouts per decision): the reference engine replays their recorded
# decisions instead of twinning them (unosim.reference.lookahead), and sweeps over every policy skip them.
SEARCH_POLICIES = ("lookahead",)
TWINNED_POLICIES = tuple(name for name in POLICIES if name not in SEARCH_POLICIES)


@dataclass(frozen=True)
class PolicySpec:
    """One seat's built-in policy and its parameters."""

    name: str
    params: tuple[tuple[str, float], ...] = ()

    @property
    def id(self) -> int:
        return POLICIES[self.name].id

    @property
    def label(self) -> str:
        if not self.params:
            return self.name
        return f"{self.name}({','.join(f'{k}={_shown(k, v)}' for k, v in self.params)})"

    def vector(self) -> np.ndarray:
        out = np.zeros(N_POLICY_PARAMS, np.float64)
        for k, v in (*POLICIES[self.name].defaults, *self.params):
            out[POLICY_PARAMS.index(k)] = v
        return out


def _shown(key: str, value: float) -> str:
    """A parameter as a lineup string writes it (a rollout preset by its name)."""
    return ROLLOUT_PRESETS[int(value)] if key == "rollout" else f"{value:g}"


def _valid(key: str) -> str:
    """What a parameter accepts, for error messages."""
    if key == "rollouts":
        return f"a whole number of rollouts in 1..{MAX_ROLLOUTS}"
    if key == "rollout":
        return f"a rollout preset, one of {list(ROLLOUT_PRESETS)} (or its index)"
    if key == "horizon":
        return f"a whole number of turns in 0..{MAX_HORIZON} (0: rollouts play the round out)"
    return "a probability in [0, 1]"


def _param_value(name: str, key: str, value) -> float | None:
    """The parameter's number, or None when ``value`` (a number, or for ``rollout`` a preset name) is
    not valid for ``key``."""
    if key == "rollout" and isinstance(value, str) and value.strip() in ROLLOUT_PRESETS:
        return float(ROLLOUT_PRESETS.index(value.strip()))
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            return None
    if not is_real(value) or not math.isfinite(value):
        return None
    if key == "rollouts":
        return float(value) if value == int(value) and 1 <= value <= MAX_ROLLOUTS else None
    if key == "rollout":
        return float(value) if value == int(value) and 0 <= value < len(ROLLOUT_PRESETS) else None
    if key == "horizon":
        return float(value) if value == int(value) and 0 <= value <= MAX_HORIZON else None
    return float(value) if 0.0 <= value <= 1.0 else None


_SPEC_RE = re.compile(r"\s*([a-z_][a-z0-9_]*)\s*(?:\((.*)\))?\s*")


def parse_policy(spec: str | PolicySpec) -> PolicySpec:
    """``"random"`` or ``"random(p_bluff=0.2)"`` → PolicySpec; unknown names/params are errors."""
    if isinstance(spec, PolicySpec):
        return _checked(spec)
    if not isinstance(spec, str):
        raise ValueError(f"policy {spec!r} must be a name such as 'random'; valid policies are "
                         f"{list(POLICIES)} (Python policies run in unosim.reference)")
    m = _SPEC_RE.fullmatch(spec)
    if not m:
        raise ValueError(f"cannot parse policy {spec!r}: expected name or name(param=value,...)")
    name, body = m.group(1), m.group(2)
    if name not in POLICIES:
        raise ValueError(f"unknown policy {name!r}: valid policies are {list(POLICIES)}")
    params = []
    for part in filter(None, (p.strip() for p in (body or "").split(","))):
        key, equals, raw = part.partition("=")
        key = key.strip()
        valid = POLICIES[name].params
        if key not in valid:
            raise ValueError(f"unknown parameter {key!r} of policy {name!r}: valid are {list(valid)}")
        if any(key == k for k, _ in params):
            raise ValueError(f"policy {spec!r} gives parameter {key} twice: give each of {list(valid)} "
                             f"at most once")
        value = _param_value(name, key, raw) if equals else None
        if value is None:
            raise ValueError(f"policy parameter {key}={raw.strip()!r} of {name!r} is invalid: valid is "
                             f"{_valid(key)}")
        params.append((key, value))
    return PolicySpec(name, tuple(sorted(params)))


def _checked(spec: PolicySpec) -> PolicySpec:
    """A PolicySpec built directly (not parsed) passes the same checks as a parsed one."""
    if spec.name not in POLICIES:
        raise ValueError(f"unknown policy {spec.name!r}: valid policies are {list(POLICIES)}")
    valid = POLICIES[spec.name].params
    keys = [k for k, _ in spec.params]
    for key, value in spec.params:
        if key not in valid or keys.count(key) > 1:
            raise ValueError(f"policy {spec.name!r} parameter {key!r} is invalid: valid are each of "
                             f"{list(valid)} at most once")
        if _param_value(spec.name, key, value) is None:
            raise ValueError(f"policy parameter {key}={value!r} of {spec.name!r} is invalid: valid is "
                             f"{_valid(key)}")
    return spec


def _split_top_level(text: str) -> list[str]:
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p.strip() for p in parts if p.strip()]


def make_lineup(lineup, players: int) -> tuple[PolicySpec, ...]:
    """Resolve a lineup spec to exactly ``players`` PolicySpecs (errors name the problem)."""
    if isinstance(lineup, str):
        items = _split_top_level(lineup)
    elif isinstance(lineup, (list, tuple)):
        items = list(lineup)
    else:
        raise ValueError(f"lineup {lineup!r} must be a policy name, a list of names or a "
                         f"comma-separated string")
    if not items:
        raise ValueError("lineup is empty")
    fill = [i for i, it in enumerate(items) if isinstance(it, str) and it.endswith("*")]
    if len(fill) > 1 or (fill and fill[0] != len(items) - 1):
        raise ValueError(f"lineup {lineup!r}: only the last entry may end with '*' (fill)")
    if fill:
        head = [parse_policy(it) for it in items[:-1]]
        if len(head) > players:
            raise ValueError(f"lineup {lineup!r} names {len(head)} seats before the fill but "
                             f"players={players}")
        return tuple(head) + (parse_policy(items[-1][:-1]),) * (players - len(head))
    specs = [parse_policy(it) for it in items]
    if len(specs) == 1:
        return tuple(specs) * players
    if len(specs) != players:
        raise ValueError(f"lineup has {len(specs)} policies but players={players}: give one per seat, "
                         f"one for all, or end with '*' to fill")
    return tuple(specs)


def lineup_arrays(lineup: tuple[PolicySpec, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(policy ids int64[n], params float64[n, N_POLICY_PARAMS]) for the kernel."""
    ids = np.array([p.id for p in lineup], np.int64)
    params = np.stack([p.vector() for p in lineup]) if lineup else np.zeros((0, N_POLICY_PARAMS))
    return ids, params


def lineup_label(lineup: tuple[PolicySpec, ...]) -> str:
    return ",".join(p.label for p in lineup)
