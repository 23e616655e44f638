"""Your own strategy in a duplicate tournament: Python policies played by the reference engine.

``unosim.tournament("classic", players=2, policies=[my_policy, "random", "colour_counter"], games=500,
seed=1)``: an entry that is not a spec string — a :class:`unosim.reference.PythonPolicy`, an object with a
``play(view)`` method or a plain callable ``f(view)`` (:mod:`unosim.reference.policy`) — makes the whole
tournament play in the reference engine (:mod:`unosim.reference`), the compiled engine's pure-Python
twin. The deals, arrangements, standings and ratings are those of the compiled tournament: game ``g``'s
deck stream depends only on ``(seed, g)`` in both engines, and the built-in opponents are the same
policies drawing from the same play stream, so a Python copy of a built-in policy gets the compiled
one's results exactly (tests/strategies/test_tournament.py checks it).

Its opponents can be ``random``, ``greedy_points``, ``keep_wilds``, ``weighted`` and every ``weighted``
preset (``colour_counter`` …), never ``lookahead``: the search runs inside the compiled engine and has
no Python twin (the reference engine only replays its recorded decisions), so it cannot sit at a table
the reference engine deals. The reference engine plays one game at a time in Python: classic with
``n_blank = 0`` at 2 players, about 790 games per CPU-second against about 290,000 compiled (some 370
times slower; docs/tutorials/strategies.md), plus whatever the Python policy itself costs; the tournament runs in this process (``n_jobs`` must be 1)
and writes no dataset (``out`` must be None).
"""

from __future__ import annotations

import time
from collections import Counter

import numpy as np
import polars as pl

from ...game import protocol as L
from ...game import seating
from ...game.policies import PolicySpec
from ...game.seating import Entrant, is_python_policy

#: the built-in policy a Python policy cannot meet: it has no reference twin
SEARCH_ONLY = "lookahead"


def has_python_policy(entries: tuple) -> bool:
    """Whether the parsed entries (:func:`unosim.game.seating.parse_entries`) hold a Python policy: an object
    with a ``play`` method or a callable."""
    return any(is_python_policy(p) for p in entries)


def python_entrants(policies: tuple, players: int, scheme: str) -> tuple[tuple[Entrant, ...], list]:
    """(entrants, one policy per entrant as the reference engine takes it) of the parsed entries; bad input
    raises ValueError naming it (a ``lookahead`` entry: its reason and the valid opponents)."""
    from ...reference.policies import policy_name, resolve_lineup
    if len(policies) < 2:
        raise ValueError(f"policies={list(policies)!r} names {len(policies)} policy: a tournament needs at least 2")
    count = seating.arrangement_count(len(policies), players, scheme)
    if count > seating.MAX_ARRANGEMENTS:
        raise ValueError(f"{len(policies)} policies at {players} seats would replay every deal {count:,} times; "
                         f"valid is at most {seating.MAX_ARRANGEMENTS:,} arrangements")
    labels, seats = [], []
    for item in policies:
        if isinstance(item, PolicySpec):
            spec = item
            if spec.name == SEARCH_ONLY:
                raise ValueError(f"policy {spec.label!r} cannot play against a Python policy: a Python policy plays in "
                                 "the reference engine, which has no lookahead twin (it only replays the compiled "
                                 "search's recorded decisions); valid opponents are random, greedy_points, "
                                 "keep_wilds, weighted and its presets")
            labels.append(spec.label)
        else:
            labels.append(policy_name(resolve_lineup([item], 1)[0].policy))
        seats.append(item)
    resolve_lineup(seats, len(seats))   # every entry checked here, naming the one it cannot use
    totals, seen, out = Counter(labels), Counter(), []
    for label in labels:
        seen[label] += 1
        out.append(Entrant(f"{label}#{seen[label]}" if totals[label] > 1 else label, label))
    return tuple(out), seats


#: games played between progress updates and timeout checks
_CHUNK = 50


def reference_tournament(variant: str, players: int, policies, games: int, seed: int, rules: dict | None,
                         scheme: str, *, progress: bool = False, timeout: float | None = None):
    """Every deal under every arrangement in the reference engine: (the tournament's result, its games as
    arrays, :class:`unosim.analysis.standings.Games`). ``progress``: a progress bar of the games played;
    ``timeout``: seconds after which the tournament stops with a TimeoutError (checked at every event of
    play, so a policy that answers slowly is stopped too; one that never answers is not)."""
    from ...analysis import standings as st
    from ...analysis.tournament import TournamentResult
    entrant_list, arrangement_map, seats, rounds = _play(variant, players, policies, games, seed, rules, scheme,
                                                         progress, timeout)
    played = st.games_from_tables(seats, rounds, arrangement_map)
    ahead, comparisons = st.pairwise(played, len(entrant_list))
    result = TournamentResult(variant=variant, players=players, games=games, seed=seed, seating=scheme,
                              entrants=entrant_list, arrangements=arrangement_map,
                              standings=st.standings(played, ahead, entrant_list, seed),
                              head_to_head=st.head_to_head(ahead, comparisons, entrant_list), path=None)
    return result, played


class _OutOfTime(Exception):
    pass


def _play(variant: str, players: int, policies, games: int, seed: int, rules: dict | None, scheme: str,
          progress: bool = False, timeout: float | None = None):
    """(entrants, arrangement map, the seats and rounds tables as standings.games_from_tables reads them)."""
    from tqdm.auto import tqdm

    from ... import reference
    from ...pipeline.study import cell_seed
    players, games, seed, _, ruleset = seating.check_tournament(variant, players, games, seed, rules, scheme)
    entrant_list, items = python_entrants(list(policies), players, scheme)
    arrangement_map = seating.arrangement_names(seating.arrangements(len(entrant_list), players, scheme))
    deals_seed = cell_seed(seed, ruleset, players, "", common_random_numbers=True)   # the compiled tournament's
    if timeout is not None and not (isinstance(timeout, (int, float)) and timeout > 0):
        raise ValueError(f"timeout={timeout!r} is invalid: valid is a number of seconds > 0, or None")
    deadline = None if timeout is None else time.monotonic() + timeout

    def in_time(table, event) -> None:
        if time.monotonic() > deadline:
            raise _OutOfTime

    total = games * len(arrangement_map)
    bar = tqdm(total=total, unit="game", desc="tournament (reference engine)", disable=not progress)
    seats, rounds = [], []
    try:
        for name, arrangement in arrangement_map.items():
            for first in range(0, games, _CHUNK):   # game g depends on (seed, g) only: chunks change nothing
                n = min(_CHUNK, games - first)
                raw = reference.run_games(ruleset, players, [items[e] for e in arrangement], deals_seed, first, n,
                                          None, False, in_time if deadline is not None else None)
                _add(raw, name, players, seats, rounds)
                bar.update(n)
    except _OutOfTime:
        raise TimeoutError(f"the tournament stopped at its timeout of {timeout:g} s after {bar.n:,} of {total:,} "
                           f"games (the reference engine plays about 790 games per CPU-second, plus the Python "
                           f"policy's own time): give fewer games or a longer timeout") from None
    finally:
        bar.close()
    return entrant_list, arrangement_map, pl.concat(seats), pl.concat(rounds)


def _add(raw, name: str, players: int, seats: list, rounds: list) -> None:
    """The seats and rounds of ``raw`` (games of the arrangement ``name``) as frames."""
    game = raw.rounds[:, L.RC_GAME].astype(np.int64)
    rounds.append(pl.DataFrame({"lineup": name, "game": game, "points": raw.rounds[:, L.RC_POINTS]}))
    seats.append(pl.DataFrame({
        "lineup": name, "game": np.repeat(game, players),
        "seat": np.tile(np.arange(players, dtype=np.int8), len(game)),
        "won": raw.seats[:, L.SC_WON].astype(bool), "points_left": raw.seats[:, L.SC_POINTS_LEFT],
        "knocked_out": raw.seats[:, L.SC_KNOCKED_OUT].astype(bool),
        "knockout_turn": raw.seats[:, L.SC_KNOCKOUT_TURN]}))
