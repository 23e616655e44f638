"""Play a design on a block of games and measure it.

A job plays one design (rule overrides on the base variant, single rounds) on games ``first .. first +
games − 1`` of the search seed: the same game numbers as the base game and every other design of its
batch (common seeds: a design that keeps the deck's size deals the same shuffles). It returns only the
round columns the objectives read, so a job sent to a dask worker sends back little. Jobs run on the
study runner's joblib backend (:func:`unosim.pipeline.backends.backend`: threads here, or the dask
cluster of ``scheduler``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from ..game.rules import get_variant
from .objectives import DECK_SIZE, OBJECTIVES, Played

ROUND_COLUMNS = ("winner_seat", "dealer_seat", "n_turns", "lead_changes", "winner_max_deficit")


@dataclass(frozen=True)
class Job:
    """One design on one block of games."""

    key: Any                      # the caller's name for the design (trial number, or "base")
    variant: str
    overrides: dict[str, Any]
    players: int
    lineup: str
    seed: int
    first_game: int
    games: int
    needs: frozenset[str] = frozenset()
    skill_policy: str = "high_card_out"


def ruleset(variant: str, overrides: dict[str, Any]):
    """The design's rule set in single rounds (ValueError: the rules refuse the combination)."""
    return get_variant(variant, {**overrides, "match_mode": "single_round"})


def play(job: Job) -> tuple[Any, Played | str]:
    """(key, what the design played), or (key, the one-line reason the rules refuse it)."""
    from ..analysis.card_prices import declared_cards
    from ..play.simulate import simulate
    try:
        rs = ruleset(job.variant, job.overrides)
        rs.check_players(job.players)
    except ValueError as exc:
        return job.key, str(exc)
    result = simulate(rs, players=job.players, games=job.games, seed=job.seed, lineup=job.lineup,
                      first_game=job.first_game)
    rounds = result.rounds.select(ROUND_COLUMNS)
    skilled = seats = None
    if "skilled" in job.needs:
        skilled = simulate(rs, players=job.players, games=job.games, seed=job.seed,
                           lineup=f"{job.skill_policy},{job.lineup}*",
                           first_game=job.first_game).rounds.select(ROUND_COLUMNS)
    if "seats" in job.needs:
        seats = result.seats
    return job.key, Played(rounds, job.players, skilled, seats, declared_cards(rs))


def combine(parts: Sequence[Played]) -> Played:
    """One Played of several blocks of the same design (a design promoted to a larger budget)."""
    if len(parts) == 1:
        return parts[0]

    def cat(attr: str):
        frames = [getattr(p, attr) for p in parts]
        return None if frames[0] is None else pl.concat(frames)
    return Played(cat("rounds"), parts[0].players, cat("skilled"), cat("seats"), parts[0].declared)


def measure(played: Played, names: Sequence[str], deck_size: int) -> dict[str, float]:
    """The number of each objective (and ``deck_size``) named in ``names``."""
    out = {}
    for name in names:
        if name == DECK_SIZE:
            out[name] = float(deck_size)
        else:
            value = OBJECTIVES[name].compute(played)
            out[name] = float(value) if value is not None and math.isfinite(value) else math.nan
    return out


def games_of(job: Job) -> int:
    """Games a job plays (the skilled lineup's rounds are games too)."""
    return job.games * (2 if "skilled" in job.needs else 1)
