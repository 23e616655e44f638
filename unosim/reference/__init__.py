"""The reference engine: a slow, readable pure-Python twin of the compiled engine.

It follows RULES.md and the protocol in :mod:`unosim.engine` literally — Python lists for hands and
piles, one function per rule verb — so that, for the same inputs, it emits the same trace events and
the same output tables as the compiled kernels. It also runs Python policies (see
:mod:`unosim.reference.policies`), which lets a user prototype a strategy without numba.

Modules: :mod:`.table` (round state and primitive verbs), :mod:`.effects` (card effects),
:mod:`.round` (the round procedure and ``TURN(p)``), :mod:`.match` (matches, scoring, output tables),
:mod:`.policies` (views, Python policies, the built-in policies in Python), :mod:`.card_tables` (the
card tables as tuples). The random streams live in :mod:`unosim.reference_rng`.

Implemented now: the ``classic`` family (blank cards with all six effects) and ``minions`` (Dumb Fu),
with the toggles voluntary_draw, wd4_challenge, no_bluffing, two_player_reverse_skip,
final_card_effects, draw_until_playable and force_play_drawn. Other families and house rules raise
``NotImplementedError``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..rules import RuleSet
from .match import RawResults, run_games
from .policies import (
    GreedyPointsPolicy,
    KeepWildsPolicy,
    PolicyView,
    PythonPolicy,
    RandomPolicy,
    resolve_lineup,
)


def play(rules: RuleSet, players: int, lineup: Any, seed: int, first_game: int = 0, n_games: int = 1, *,
         deck_order: Sequence[int] | None = None, trace: bool = False) -> RawResults:
    """Play games ``first_game .. first_game + n_games - 1`` and return their tables.

    ``lineup``: anything :func:`unosim.policies.make_lineup` accepts, Python policies (objects with a
    ``play(view)`` method or plain callables), or a mix, one per seat or one for all seats.
    Game ``g`` uses the random streams seeded from ``(seed, g)``, so results never depend on chunking.
    ``deck_order`` (testing hook): a full deck as card ids, last element = top of the draw pile, used
    instead of the shuffle in round 0 of every game. ``trace``: record the events in ``.events``.
    """
    return run_games(rules, players, lineup, seed, first_game, n_games, deck_order, trace, observer=None)


__all__ = [
    "GreedyPointsPolicy",
    "KeepWildsPolicy",
    "PolicyView",
    "PythonPolicy",
    "RandomPolicy",
    "RawResults",
    "play",
    "resolve_lineup",
    "run_games",
]
