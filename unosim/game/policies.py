"""Policy registry and lineups.

A **policy** makes every choice the rules give a player. Built-in policies run inside the compiled
kernel, dispatched on an integer id; their behaviour is specified in docs/protocol.md §4. Each
takes numeric parameters (so sweeps need no recompilation), written ``name(param=value, ...)``:

============== ==================================================================================
random         docs/rules.md §5 exactly at the defaults; ``p_draw`` (voluntary draw), ``p_bluff`` (illegal
               WD4), ``p_challenge`` (challenge a WD4) turn it into a simple human model.
greedy_points  sheds the highest-point legal card first; names its most-held colour.
keep_wilds     plays coloured cards (its longest colour first), wilds only when nothing else fits.
weighted       strategies as data: scores every option by Σ weight × feature and takes the best
               (``unosim.engine.policies.weighted_features`` defines each feature; its weights ``w_<feature>``
               are parameters, ``PRESET_BASE`` by default and 0 where it sets none, so plain
               ``weighted`` plays a uniformly random legal card and names its most-held colour).
lookahead      the expert: determinized flat Monte Carlo search at every play and stack decision
               (:mod:`unosim.engine.core.lookahead`); ``rollouts`` = sampled worlds per option (a whole
               number, default 128), ``horizon`` = turns each rollout plays before the position is
               scored (default 16; 0 plays the round out), ``rollout`` = the preset that plays the
               rollouts and the lookahead seat's other decisions, by name (or index) among
               ``protocol.ROLLOUT_PRESETS`` — greedy_points (default), keep_wilds, random or a
               ``weighted`` preset: ``lookahead(rollouts=64,horizon=12,rollout=by_colour)``; at
               3+ players it plays ``anchor``'s card (a preset of that list, default keep_wilds;
               at most one of rollout and anchor a weighted preset) unless an option beats it by
               ``z`` standard errors (default 1.5); ``prune`` (default 1) stops searching an option
               that trails the anchor's by that many standard errors (0: every option in every
               world; 2-player searches never prune).
============== ==================================================================================

Every probability parameter is in [0, 1]; a weight is any finite number; ``rollouts`` is a whole number
in ``1..MAX_ROLLOUTS``, ``horizon`` in ``0..MAX_HORIZON``, ``rollout`` and ``anchor`` a preset name (kept as its
index), ``z`` and ``prune`` numbers in ``0..MAX_Z``. ``p_keep_drawn`` (every
built-in) keeps a playable drawn card with that probability (``force_play_drawn`` overrides it).

**Presets** are named weight vectors of ``weighted``, usable wherever a policy name is
(``"by_colour,random*"``), with any parameter overridden (``punisher(p_challenge=0.3, w_attack=-5)``).
Each, like plain ``weighted``, starts from ``PRESET_BASE`` (never draw voluntarily or bluff, always stack, play a drawn card,
name the colour held most, swap with the smallest hand) and adds:

============== ==================================================================================
by_colour      plays the colour in play first (``w_keeps_colour``), then its longest colour; wilds last
by_number      changes colour by matching the number first (``w_number_match``); wilds last
high_card_out  sheds the most points first (``w_points``)
save_wilds     a wild only when no coloured card fits; otherwise its longest colour
punisher       holds draw cards and skips while another card fits until next(seat) holds ≤ 2
               cards, then plays them first
colour_counter counts cards: plays the colour with the fewest unseen cards (the most held + seen in
               the discard pile: the colour the others most likely lack), the most points first
               among equals; names the colour with the most held + 0.2 × seen; wilds last
============== ==================================================================================

``greedy_points`` and ``keep_wilds`` stay their own implementations: their tie rules (the first card in
hand order on ties) can be written as weights (``w_order``), but their spin-wheel choices (keep_wilds's
colour tie-break by a shown hand only among the colours held, its group and UNO Spin rules) are not
weighted sums of these features, so a preset would not replay the same games in the spin variant.

A **lineup** gives one policy per seat: a single spec (every seat), a list, or a comma-separated string
where a trailing ``*`` fills the remaining seats: ``"greedy_points,random*"``. Plain Python policies
(any object or callable, see :mod:`unosim.reference`) run in the reference engine only.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .checks import is_real
from .protocol import (
    MAX_CARDS,
    N_POLICY_PARAMS,
    POLICY_NAMES,
    POLICY_PARAMS,
    PROBABILITY_PARAMS,
    ROLLOUT_PRESETS,
    SEARCH_PARAMS,
    WEIGHT_PARAMS,
)

# lookahead's search budget: worlds sampled per option at a decision (engine/core/lookahead.py). The default
# with pruning (DEFAULT_PRUNE) makes a 4-player classic game with one lookahead seat run at >= 350 games per
# CPU-second (make bench).
DEFAULT_ROLLOUTS = 128
MAX_ROLLOUTS = 4096
DEFAULT_HORIZON = 16     # turns a rollout plays before the position is scored (0: to the round's end)
MAX_HORIZON = 10_000
DEFAULT_ANCHOR = "keep_wilds"   # the preset whose choice the search must beat significantly
DEFAULT_Z = 1.5       # screened 1, 1.5 and 2 at 4 players (engine/core/lookahead.py)
MAX_Z = 100.0
DEFAULT_PRUNE = 1.0   # an option trailing by this many standard errors is dropped (engine/core/lookahead.py)
# the whole-number range of each search parameter (z: any number in [0, MAX_Z])
SEARCH_RANGES = {"rollouts": (1, MAX_ROLLOUTS), "rollout": (0, len(ROLLOUT_PRESETS) - 1),
                 "horizon": (0, MAX_HORIZON), "anchor": (0, len(ROLLOUT_PRESETS) - 1)}



@dataclass(frozen=True)
class PolicyInfo:
    name: str
    id: int
    doc: str
    params: tuple[str, ...]   # the parameters it honours (others are refused, never ignored)
    defaults: tuple[tuple[str, float], ...] = ()   # a preset's weights, lookahead's budget (a parameter
                                                   # given overrides)


# What each built-in policy does and which parameters it honours; its id (the kernel's dispatch key)
# is its position in protocol.POLICY_NAMES.
_WEIGHTED_PARAMS = ("p_challenge", "p_keep_drawn") + WEIGHT_PARAMS
_POLICY_FACTS = {
    "random": ("docs/rules.md §5 reference policy: uniform over legal card instances", PROBABILITY_PARAMS),
    "greedy_points": ("shed the highest-point legal card first", ("p_challenge", "p_keep_drawn")),
    "keep_wilds": ("play coloured cards of the longest colour; wilds last", ("p_challenge", "p_keep_drawn")),
    "weighted": ("score every option by a weighted sum of named features (w_* parameters)", _WEIGHTED_PARAMS),
    "lookahead": ("expert: flat Monte Carlo search over sampled hidden cards, rollouts by a preset",
                  SEARCH_PARAMS,
                  (("anchor", float(ROLLOUT_PRESETS.index(DEFAULT_ANCHOR))), ("horizon", float(DEFAULT_HORIZON)),
                   ("prune", DEFAULT_PRUNE), ("rollout", 0.0), ("rollouts", float(DEFAULT_ROLLOUTS)),
                   ("z", DEFAULT_Z))),
}

# The presets' shared part: the options that are not a card lose to any card (never draw voluntarily
# or bluff, always stack, play a legal drawn card, jump in), name the colour held most, swap with the
# smallest hand. Ties left over are broken by the play stream (engine/policies/weighted.py).
PRESET_BASE = {"w_voluntary_draw": -100.0, "w_bluff": -100.0, "w_accept": -100.0, "w_keep": -100.0,
               "w_colour_held": 1.0, "w_target_hand": -1.0}
# A card scores more than -100 under every preset (wild −50 in save_wilds, attack −10 in punisher), so
# the −100 options above lose to any card. punisher holds its attack cards only while another card fits:
# drawing instead (a voluntary draw) made tables of four punishers draw for thousands of turns.
PRESETS = {
    "by_colour": ("play the colour in play first, then the longest colour; wilds last",
                  {"w_keeps_colour": 10.0, "w_colour_left": 1.0, "w_wild": -20.0}),
    "by_number": ("change colour by matching the number first; wilds last",
                  {"w_number_match": 10.0, "w_colour_left": 1.0, "w_wild": -20.0}),
    "high_card_out": ("shed the most points first", {"w_points": 1.0}),
    "save_wilds": ("a wild only when no coloured card fits; else the longest colour",
                   {"w_wild": -50.0, "w_colour_left": 1.0, "w_points": 0.01}),
    "punisher": ("hold draw cards and skips until the next seat holds 2 cards or fewer",
                 {"w_attack": -10.0, "w_attack_close": 20.0, "w_colour_left": 0.1, "w_points": 0.01}),
    # held + seen = the colour's cards minus those still unseen (in other hands or the draw pile), so
    # equal weights play the colour the others are most likely to lack; points break its ties (< 1)
    "colour_counter": ("play the colour with the fewest unseen cards (held + seen in the discard pile), "
                       "the most points first among equals; name the most held + 0.2 × seen; wilds last",
                       {"w_colour_left": 1.0, "w_seen": 1.0, "w_points": 0.01, "w_wild": -20.0,
                        "w_colour_seen": 0.2}),
}
#: the skill ladder's default field (:mod:`unosim.strategies.tournaments.ladder`): random, the two
#: heuristics, every weighted preset and the expert
LADDER_POLICIES = ("random", "greedy_points", "keep_wilds", *PRESETS, "lookahead")
POLICIES = {name: PolicyInfo(name, POLICY_NAMES.index(name), *_POLICY_FACTS[name]) for name in POLICY_NAMES}
# plain ``weighted`` starts from the base too: with every weight 0 the voluntary draw, the bluff and
# accepting a penalty would tie with every card (long games of random draws; 10-player spin hit the
# turn cap)
POLICIES["weighted"] = PolicyInfo("weighted", POLICY_NAMES.index("weighted"), *_POLICY_FACTS["weighted"],
                                  tuple(sorted(PRESET_BASE.items())))
POLICIES.update({name: PolicyInfo(name, POLICY_NAMES.index("weighted"), f"weighted preset: {doc}",
                                  _WEIGHTED_PARAMS, tuple(sorted({**PRESET_BASE, **weights}.items())))
                 for name, (doc, weights) in PRESETS.items()})
# Policies that search (thousands of rollouts per decision): the reference engine replays their recorded
# decisions instead of twinning them (unosim.reference.lookahead), and sweeps over every policy skip them.
SEARCH_POLICIES = ("lookahead",)
TWINNED_POLICIES = tuple(name for name in POLICIES if name not in SEARCH_POLICIES)
assert set(ROLLOUT_PRESETS) <= set(TWINNED_POLICIES), "a rollout preset must be a twinned policy"


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
        """Its kernel parameter vector: a preset's weights, then the parameters given. A search
        policy's vector also carries its rollout preset's weights (engine/core/lookahead.py reads them)."""
        out = np.zeros(N_POLICY_PARAMS, np.float64)
        entries = POLICIES[self.name].defaults + self.params
        if self.name in SEARCH_POLICIES:
            rollout, anchor = (ROLLOUT_PRESETS[int(dict(entries)[key])] for key in ("rollout", "anchor"))
            weights = {name for name in (rollout, anchor) if POLICIES[name].defaults}
            if len(weights) > 1:   # one seat's vector carries one preset's weights
                raise ValueError(f"policy {self.label!r}: its rollout preset {rollout!r} and anchor {anchor!r} "
                                 f"are two weighted presets; valid is at most one (or both the same)")
            entries = sum((POLICIES[name].defaults for name in weights), ()) + entries
        for k, v in entries:
            out[POLICY_PARAMS.index(k)] = v
        return scale_safe(out, self.name)


#: where the weights of one seat may lie so that no score can overflow or lose bits to underflow: every
#: score is a sum of at most 2 × MAX_CARDS weight × feature terms (a group of the spin wheel sums the
#: scores of up to MAX_CARDS cards), each feature a whole number of magnitude at most MAX_CARDS
_LOG_CEILING = 1000    # log2 of the largest score bound
_LOG_FLOOR = -1000     # log2 of the smallest non-zero weight
_WEIGHT_INDICES = np.array([POLICY_PARAMS.index(k) for k in WEIGHT_PARAMS])


def scale_safe(vector: np.ndarray, name: str) -> np.ndarray:
    """``vector`` with its weights multiplied by the power of two that keeps every score finite and every
    weight a normal float, or as it is when they already are (every sane vector, so no game changes).

    The ``weighted`` policy compares scores (Σ weight × feature) with each other, with other
    weighted sums and with 0 (a challenge's sign). Multiplying every weight by the same power of two
    multiplies each term, each rounded sum and so each score by it exactly, as long as nothing
    overflows or becomes subnormal: every comparison, every tie and so every game stays the same,
    while ``w_points=1e307`` no longer overflows to inf (scores from about 3.6e306 did) and ``1e-320``
    no longer loses bits. The kernel's ``card_floor`` is computed from the scaled weights, so it stays
    a bound of the scaled scores. Weights whose largest and smallest non-zero magnitude are too far
    apart for any one scale raise ValueError naming both. (A weight raised far above the others, beyond
    2**53 of them, makes their terms vanish in the rounding of its own, as in any float sum: the games
    are then those of the same vector at any scale, not those of the vector before the raise.)
    """
    weights = vector[_WEIGHT_INDICES]
    magnitudes = np.abs(weights[weights != 0.0])
    if not len(magnitudes):
        return vector
    top = math.frexp(float(magnitudes.max()))[1]   # in log2, so that the bound itself cannot overflow
    log_bound = top + math.log2(sum(math.ldexp(float(m), -top) for m in magnitudes) * MAX_CARDS * MAX_CARDS * 2)
    log_smallest = math.log2(float(magnitudes.min()))
    if log_bound <= _LOG_CEILING and log_smallest >= _LOG_FLOOR:
        return vector
    shift = (_LOG_CEILING - math.ceil(log_bound) if log_bound > _LOG_CEILING
             else _LOG_FLOOR - math.floor(log_smallest))
    if not (log_bound + shift <= _LOG_CEILING and log_smallest + shift >= _LOG_FLOOR):
        low = WEIGHT_PARAMS[int(np.argmin(np.where(weights != 0.0, np.abs(weights), np.inf)))]
        high = WEIGHT_PARAMS[int(np.argmax(np.abs(weights)))]
        raise ValueError(f"the weights of policy {name!r} span too wide a range to score exactly: "
                         f"{high}={float(vector[POLICY_PARAMS.index(high)]):g} and "
                         f"{low}={float(vector[POLICY_PARAMS.index(low)]):g}; valid are weights whose largest "
                         f"and smallest non-zero magnitudes lie within a factor of about 1e590")
    out = vector.copy()
    out[_WEIGHT_INDICES] = [math.ldexp(float(w), shift) for w in weights]
    return out


def _shown(key: str, value: float) -> str:
    """A parameter as a lineup string writes it (a rollout preset by its name)."""
    if key in ("rollout", "anchor") and value == int(value) and 0 <= value < len(ROLLOUT_PRESETS):
        return ROLLOUT_PRESETS[int(value)]
    return f"{value:g}"   # an out-of-range preset is shown as given; validation names it


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
        try:
            value = _number(key, raw) if equals else None
        except ValueError:
            value = None
        if value is None or not _valid_value(key, value):
            raise ValueError(f"policy parameter {key}={raw.strip()!r} of {name!r} is invalid: valid is "
                             f"{_valid_range(key)}")
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
        if not is_real(value) or not _valid_value(key, value):
            raise ValueError(f"policy parameter {key}={value!r} of {spec.name!r} is invalid: valid is "
                             f"{_valid_range(key)}")
    return spec


def _number(key: str, raw: str) -> float:
    """A parameter's text as its number: a rollout preset's name gives its index."""
    if key in ("rollout", "anchor") and raw.strip() in ROLLOUT_PRESETS:
        return float(ROLLOUT_PRESETS.index(raw.strip()))
    return float(raw)


def _valid_value(key: str, value: float) -> bool:
    """A probability lies in [0, 1]; a weight is any finite number; a search parameter is a whole
    number in its SEARCH_RANGES."""
    if not math.isfinite(value):
        return False
    if key in WEIGHT_PARAMS:
        return True
    if key in ("z", "prune"):
        return 0.0 <= value <= MAX_Z
    if key in SEARCH_RANGES:
        low, high = SEARCH_RANGES[key]
        return value == int(value) and low <= value <= high
    return 0.0 <= value <= 1.0


def _valid_range(key: str) -> str:
    if key == "rollouts":
        return f"a whole number of rollouts in 1..{MAX_ROLLOUTS}"
    if key in ("rollout", "anchor"):
        return f"a rollout preset, one of {list(ROLLOUT_PRESETS)} (or its index)"
    if key == "z":
        return f"a number of standard errors in 0..{MAX_Z:g}"
    if key == "prune":
        return f"a number of standard errors in 0..{MAX_Z:g} (0: every option searched in every world)"
    if key == "horizon":
        return f"a whole number of turns in 0..{MAX_HORIZON} (0: rollouts play the round out)"
    return "a finite number (a weight)" if key in WEIGHT_PARAMS else "a probability in [0, 1]"


def parse_policies(policy_list, keep: Callable[[Any], bool] = lambda item: False) -> tuple:
    """The one parser of a list of policies (a tournament's or ladder's entrants, a tuning's comparisons;
    a lineup is :func:`parse_lineup`'s): a list of specs or PolicySpecs, or one comma-separated string (a
    comma inside a spec's parentheses does not split) → one PolicySpec each; an item ``keep`` accepts (a
    tournament's Python policy) stays as given. Bad input raises ValueError naming it and what is valid."""
    if isinstance(policy_list, str):
        policy_list = _split_top_level(policy_list)
    if not isinstance(policy_list, (list, tuple)) or not all(
            isinstance(item, (str, PolicySpec)) or keep(item) for item in policy_list):
        raise ValueError(f"policies={policy_list!r} is invalid: valid is a list of policy specs such as "
                         f"['random', 'greedy_points'] (policies: {list(POLICIES)})")
    return tuple(item if keep(item) else parse_policy(item.strip() if isinstance(item, str) else item)
                 for item in policy_list)


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


_NAMED_RE = re.compile(r"([a-z][a-z0-9_]*)\s*=\s*(.+)", re.DOTALL)


@dataclass(frozen=True)
class Lineup:
    """A lineup as written: ``name`` (how a study calls it), ``text`` (its seats: one policy for every
    seat, one per seat, or ``greedy_points,random*`` where ``*`` fills the rest) and ``items`` (the seats
    named, the fill last)."""

    name: str
    text: str
    items: tuple[PolicySpec, ...]
    fill: bool

    @property
    def builtin(self) -> bool:
        """One plain policy at every seat (``lookahead``, ``random*``): the lineup every study already
        knows under the policy's name, so a spec needs no ``[lineups]`` entry for it."""
        return len(self.items) == 1 and not self.items[0].params and self.name == self.items[0].name

    def seats(self, players: int) -> tuple[PolicySpec, ...]:
        """Exactly ``players`` PolicySpecs (an error names the mismatch)."""
        if self.fill:
            head = self.items[:-1]
            if len(head) > players:
                raise ValueError(f"lineup {self.text!r} names {len(head)} seats before the fill but "
                                 f"players={players}")
            return head + (self.items[-1],) * (players - len(head))
        if len(self.items) == 1:
            return self.items * players
        if len(self.items) != players:
            raise ValueError(f"lineup {self.text!r} has {len(self.items)} policies but players={players}: "
                             f"give one per seat, one for all, or end with '*' to fill")
        return self.items


def parse_lineup(lineup, name: str | None = None) -> Lineup:
    """The one lineup parser: ``"greedy_points,random*"``, ``"lookahead"``, ``"NAME=LINEUP"``, or a
    list of policy names / PolicySpecs. The name is ``NAME``, else the policy's own name for one plain
    policy at every seat, else the text made an identifier (``greedy_points,random*`` →
    ``greedy_points_random``). A name that is a policy's must mean that policy at every seat."""
    if isinstance(lineup, Lineup):
        return lineup
    if isinstance(lineup, str):
        named = _NAMED_RE.fullmatch(lineup.strip())
        if named and name is None:
            name, lineup = named.group(1), named.group(2)
        text, items = lineup.strip(), _split_top_level(lineup)
    elif isinstance(lineup, (list, tuple)):
        items = list(lineup)
        text = ",".join(it.label if isinstance(it, PolicySpec) else str(it) for it in items)
    else:
        raise ValueError(f"lineup {lineup!r} must be a policy name, a list of names or a "
                         f"comma-separated string such as 'greedy_points,random*'")
    if not items:
        raise ValueError("lineup is empty: valid is a policy name such as 'random', one per seat, or "
                         "'greedy_points,random*'")
    stars = [i for i, it in enumerate(items) if isinstance(it, str) and it.endswith("*")]
    if len(stars) > 1 or (stars and stars[0] != len(items) - 1):
        raise ValueError(f"lineup {text!r}: only the last entry may end with '*' (fill)")
    if stars:
        items[-1] = items[-1][:-1]
    specs = tuple(parse_policy(it) for it in items)
    one_policy = len(specs) == 1 and not specs[0].params
    if name is None:
        name = specs[0].name if one_policy else re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")
        name = name if re.match(r"[a-z]", name) else f"lineup_{name}"
    elif name in POLICIES and not (one_policy and specs[0].name == name):
        raise ValueError(f"lineup name {name!r} would redefine the policy {name!r} (which as a lineup "
                         f"means {name!r} at every seat); give your lineup another name")
    return Lineup(name, text, specs, bool(stars))


def make_lineup(lineup, players: int) -> tuple[PolicySpec, ...]:
    """Resolve a lineup (anything :func:`parse_lineup` reads) to exactly ``players`` PolicySpecs."""
    return parse_lineup(lineup).seats(players)


def lineup_arrays(lineup: tuple[PolicySpec, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(policy ids int64[n], params float64[n, N_POLICY_PARAMS]) for the kernel."""
    ids = np.array([p.id for p in lineup], np.int64)
    params = np.stack([p.vector() for p in lineup]) if lineup else np.zeros((0, N_POLICY_PARAMS))
    return ids, params


def lineup_label(lineup: tuple[PolicySpec, ...]) -> str:
    return ",".join(p.label for p in lineup)


def effective_label(lineup: tuple[PolicySpec, ...]) -> str:
    """The lineup with every parameter each seat plays by written out (a preset's weights, a search's
    rollout weights; exact floats, zeros left out): what its games are a function of. A study records
    it per cell, so resuming under a unosim whose preset weights differ is refused, not mixed."""
    seats = []
    for p in lineup:
        params = ",".join(f"{k}={float(x)!r}" for k, x in zip(POLICY_PARAMS, p.vector(), strict=True) if x != 0.0)
        seats.append(f"{p.name}({params})" if params else p.name)
    return ",".join(seats)
