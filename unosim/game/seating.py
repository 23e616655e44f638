"""Who sits where in a duplicate tournament: entrants and their seat arrangements.

An **entrant** is one entry of the tournament's policy list (a built-in policy spec such as
``random(p_draw=0.3)``); the same spec given twice makes two entrants, labelled ``spec#1``, ``spec#2``
(a policy against copies of itself: the exchangeability check). An **arrangement** gives every seat
an entrant; every deal is played once under every arrangement.

With ``k`` entrants at ``N`` seats and ``k <= N`` every entrant takes ``N // k`` seats and ``N % k``
of them one more; every choice of which entrants take the extra seat is used, so no entrant is
favoured. With ``k > N`` (say four policies at a two-player table) every ``N``-subset of the entrants
sits at the table, one seat each, in turn. For each resulting seat multiset:

* ``N <= 4``: every distinct permutation of it (at most 4! = 24). This balances the seat and also
  who sits directly after whom (whom a Skip or a Draw Two hits).
* ``N > 4``: the ``N`` cyclic rotations of an interleaved lineup (entrant copies spread round the
  table) and the ``N`` rotations of its reverse, so every seat sees every entrant and each neighbour
  relation appears in both directions (2N arrangements per seat multiset; repeats are dropped
  when that keeps every seat balanced).

That default is the ``"permutations"`` **scheme**. The ``"rotations"`` scheme uses the rotations and
their reverse at every table size. It is the cheaper choice when a policy is slow: two policies at four
seats play ``ABAB`` and ``BABA`` (2 arrangements instead of the 6 orders of ``AABB``), so each policy
always sits between two of the other's seats. Seats stay balanced; which copies sit side by side does not.

In both schemes every entrant sits in every seat equally often (:func:`seat_counts`), so within a
deal the seat and the dealer position (the dealer is drawn from the deck stream, so it is the same
under every arrangement) are the same for all: only the policies differ. A tournament of more than
``MAX_ARRANGEMENTS`` arrangements is refused (each one replays every deal).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass

import numpy as np

from . import policies

#: up to this many players every permutation of the seat multiset is played
ALL_PERMUTATIONS_UP_TO = 4
#: every deal is played this many times at most
MAX_ARRANGEMENTS = 1000
#: the seating schemes, the default first
SCHEMES = ("permutations", "rotations")


@dataclass(frozen=True)
class Entrant:
    """One entry of the tournament: its unique ``name`` and the policy ``spec`` it plays."""

    name: str
    spec: str


def check_scheme(scheme) -> str:
    if scheme not in SCHEMES:
        raise ValueError(f"seating={scheme!r} is unknown: valid schemes are {list(SCHEMES)}")
    return scheme


def is_python_policy(item) -> bool:
    """An entry played by the reference engine: an object with a ``play`` method, or a callable."""
    return not isinstance(item, (str, policies.PolicySpec)) and (callable(item) or hasattr(item, "play"))


def parse_entries(policy_list) -> tuple:
    """A tournament's or ladder's policy list parsed at its door (:func:`unosim.game.policies.parse_policies`):
    a list, or one comma-separated string → a PolicySpec per spec; with a Python policy among them, every
    entry that is not a spec stays as given, for the reference engine to use or refuse by name."""
    python = isinstance(policy_list, (list, tuple)) and any(is_python_policy(p) for p in policy_list)
    return policies.parse_policies(policy_list, keep=lambda p: python and not isinstance(p, (str, policies.PolicySpec)))


def entrants(specs: tuple[policies.PolicySpec, ...], players: int, scheme: str = SCHEMES[0]) -> tuple[Entrant, ...]:
    """The entrants of the parsed policy list ``specs`` (:func:`parse_entries`) at ``players`` seats; raises
    ValueError naming the bad value."""
    labels = [spec.label for spec in specs]
    if len(labels) < 2:
        raise ValueError(f"policies={labels!r} names {len(labels)} polic"
                         f"{'y' if len(labels) == 1 else 'ies'}: a tournament needs at least 2 (give a "
                         f"policy twice to play it against a copy of itself)")
    count = arrangement_count(len(labels), players, scheme)
    if count > MAX_ARRANGEMENTS:
        raise ValueError(f"policies={labels!r}: {len(labels)} policies at {players} seats "
                         f"would replay every deal {count:,} times; valid is at most {MAX_ARRANGEMENTS:,} "
                         f"arrangements (fewer policies, or one tournament per group)")
    specs = labels
    totals = Counter(specs)
    seen: Counter = Counter()
    out = []
    for spec in specs:
        seen[spec] += 1
        out.append(Entrant(f"{spec}#{seen[spec]}" if totals[spec] > 1 else spec, spec))
    return tuple(out)


def arrangement_count(n_entrants: int, players: int, scheme: str = SCHEMES[0]) -> int:
    """How many arrangements :func:`arrangements` makes (an upper bound for rotations), by arithmetic."""
    if n_entrants > players:
        return math.comb(n_entrants, players) * arrangement_count(players, players, scheme)
    if players <= ALL_PERMUTATIONS_UP_TO and check_scheme(scheme) == "permutations":
        return len(arrangements(n_entrants, players))   # at most 3 compositions of at most 24
    return math.comb(n_entrants, players % n_entrants) * 2 * players


def arrangements(n_entrants: int, players: int, scheme: str = SCHEMES[0]) -> tuple[tuple[int, ...], ...]:
    """Every arrangement of ``scheme`` as a tuple of entrant indices, one per seat, in a fixed order."""
    check_scheme(scheme)
    if n_entrants < 2:
        raise ValueError(f"{n_entrants} entrants cannot make a tournament: valid is at least 2")
    if n_entrants > players:
        one_table = arrangements(players, players, scheme)
        return tuple(tuple(table[i] for i in a)
                     for table in itertools.combinations(range(n_entrants), players) for a in one_table)
    base, extra = divmod(players, n_entrants)
    out: list[tuple[int, ...]] = []
    for favoured in itertools.combinations(range(n_entrants), extra):
        counts = [base + (e in favoured) for e in range(n_entrants)]
        if players <= ALL_PERMUTATIONS_UP_TO and scheme == "permutations":
            seats = [e for e in range(n_entrants) for _ in range(counts[e])]
            out.extend(sorted(set(itertools.permutations(seats))))
        else:
            out.extend(_rotations_and_reverse(counts))
    distinct = list(dict.fromkeys(out))
    # a symmetric lineup repeats some of its rotations: dropping the repeats must not unbalance the seats
    return tuple(distinct if _balanced(distinct, n_entrants) else out)


def _rotations_and_reverse(counts: list[int]) -> list[tuple[int, ...]]:
    lineup = [e for r in range(max(counts)) for e, c in enumerate(counts) if c > r]  # copies spread out
    n = len(lineup)
    return [tuple(seq[i:] + seq[:i]) for seq in (lineup, lineup[::-1]) for i in range(n)]


def seat_counts(arrangement_list, n_entrants: int) -> np.ndarray:
    """``counts[e, s]``: how many arrangements put entrant ``e`` in seat ``s``."""
    players = len(arrangement_list[0])
    counts = np.zeros((n_entrants, players), np.int64)
    for arrangement in arrangement_list:
        for seat, e in enumerate(arrangement):
            counts[e, seat] += 1
    return counts


def _balanced(arrangement_list, n_entrants: int) -> bool:
    counts = seat_counts(arrangement_list, n_entrants)
    return bool((counts == counts[0, 0]).all())   # every entrant in every seat equally often


def check_tournament(variant, players, games, seed, rules, scheme: str):
    """A tournament's arguments, checked as every tournament entry point checks them: (players, games,
    seed, the rule overrides, the single-round rule set); a ValueError names a bad value."""
    from . import rules as rules_module
    from .checks import as_int
    if not isinstance(variant, str) or variant not in rules_module.variant_names():
        raise ValueError(f"variant={variant!r} is unknown: valid variants are {rules_module.variant_names()}")
    players = as_int("players", players, 2)
    games = as_int("games", games, 1, 10**12)
    seed = as_int("seed", seed, 0, 2**63 - 1)
    overrides, ruleset = rules_module.single_round_variant(variant, rules, "a tournament")
    ruleset.check_players(players)
    check_scheme(scheme)
    return players, games, seed, overrides, ruleset


def arrangement_names(order: list) -> dict[str, tuple]:
    """Each arrangement under its lineup name (``s00``, ``s01`` … zero-padded to sort in order)."""
    width = max(len(str(len(order) - 1)), 2)
    return {f"s{i:0{width}d}": a for i, a in enumerate(order)}


def played_by(arrangement_map: dict[str, tuple[int, ...]], entrant_list) -> dict[str, str]:
    """Each arrangement's name -> the name of the arrangement whose games are its games: the first one
    that puts the same policy spec in every seat. A compiled tournament deals every arrangement from one
    seed and draws every random number from (seed, game), so two arrangements that differ only in which
    copy of a policy sits where play the same games, the copies relabelled; each distinct order of specs
    is played once. A policy against three copies of another at 4 seats is 4 games per deal, not the 8
    arrangements of the rotations or the 24 of the permutations."""
    first: dict[tuple[str, ...], str] = {}
    return {name: first.setdefault(tuple(entrant_list[e].spec for e in arrangement), name)
            for name, arrangement in arrangement_map.items()}
