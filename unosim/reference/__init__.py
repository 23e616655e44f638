"""The reference engine: a slow, readable pure-Python twin of the compiled engine.

It follows docs/rules.md and the protocol in :mod:`unosim.engine` literally — Python lists for hands and
piles, one function per rule verb — so that, for the same inputs, it emits the same trace events and
the same output tables as the compiled kernels. It also runs Python policies (see
:mod:`unosim.reference.policies`), which lets a user prototype a strategy without numba.

Implemented: every variant — ``classic`` (blank cards with all six effects), ``minions`` (Dumb Fu),
``spin`` (the wheel), ``no_mercy`` (stacking, mercy knock-outs, 7-swap and 0-pass, Discard All, Skip
Everyone, Wild Color Roulette) and ``flip`` (UNO Flip's two sides) — each with every house rule of
docs/rules.md §4 that applies to it.

Modules: :mod:`.table` (round state and primitive verbs), :mod:`.penalties` (skips, draw cards, the WD4
challenge), :mod:`.effects` (the other card effects), :mod:`.turn` (the round procedure, ``TURN(p)`` and
jump-ins), :mod:`.mechanics` (one wing per mechanism: ``blank``, ``minions``, ``spin``, ``no_mercy``,
``stacking``, ``seven_o``, ``flip``) reached through :mod:`.hooks`, :mod:`.round` (matches,
scoring, output tables; the compiled engine's ``core.round``), :mod:`.policies` (views, Python policies, the built-in policies in Python),
:mod:`.lookahead` (replays the compiled engine's recorded ``lookahead`` decisions), :mod:`.card_tables`
(the card tables as tuples). The random streams live in :mod:`unosim.reference.rng`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..game.rules import RuleSet
from .policies import (
    GreedyPointsPolicy,
    KeepWildsPolicy,
    RandomPolicy,
    resolve_lineup,
)
from .policy import PolicyView, PythonPolicy
from .round import RawResults, run_games


def play(rules: RuleSet, players: int, lineup: Any, seed: int, first_game: int = 0, n_games: int = 1, *,
         deck_order: Sequence[int] | None = None, trace: bool = False) -> RawResults:
    """Play games ``first_game .. first_game + n_games - 1`` and return their tables.

    ``lineup``: anything :func:`unosim.game.policies.make_lineup` accepts, Python policies (objects with a
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
