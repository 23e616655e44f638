"""Duplicate evaluation: one policy in every seat against a field, on the same deals.

A **table** is the field's ``players - 1`` policies in play order after the evaluated seat. A policy is
evaluated on deal ``g`` (game ``g`` of a seed) once per seat position ``s = 0 .. N-1``: it sits at
seat ``s`` and the field fills seats ``s+1, s+2, …`` (mod N) in its order, so the seat after the
evaluated one is always the field's first policy (whom its Skips and Draw Twos hit) and only the
seat — its distance from the dealer, who is drawn from the deck stream and so the same in every
position — changes. Game ``g``'s cards depend only on the seed and ``g`` (``unosim.simulate``), so
every position, and every policy evaluated on the same games, sees the same shuffles: seat luck
averages out within a deal and card luck cancels in a comparison of two policies (common random
numbers). Every deal is a single round (docs/rules.md §1.13: a round without a winner is a loss for
every seat).

A policy's **score on a deal** is its win share over the N positions (0, 1/N, …, 1); the win rate is
the mean over deals, its 95 % interval the Student t interval of the per-deal scores (clustered by
deal: the positions of a deal share its cards, so they are not independent games).
"""

from __future__ import annotations

import contextlib
import math
import os
from dataclasses import dataclass

import numpy as np

from ...game import protocol as L
from ...game.policies import PolicySpec
from ...game.rules import RuleSet
from ...play.simulate import run_compiled

CONFIDENCE = 0.95
BLOCK = 50_000   # games per engine call


@dataclass(frozen=True)
class Table:
    """The rules, the player count and the field (the other seats, in play order after the tuned one)."""

    rules: RuleSet
    players: int
    field: tuple[PolicySpec, ...]

    def lineup(self, policy: PolicySpec, seat: int) -> tuple[PolicySpec, ...]:
        """``policy`` at ``seat``, the field after it round the table."""
        seats = [policy] * self.players
        for j, other in enumerate(self.field):
            seats[(seat + 1 + j) % self.players] = other
        return tuple(seats)


def seat_wins(table: Table, policy: PolicySpec, seat: int, seed: int, first_game: int, deals: int) -> np.ndarray:
    """1.0 where ``policy`` at ``seat`` won game ``first_game + i`` (i < deals), else 0.0. Played in
    blocks of ``BLOCK`` games, so that the rows of a call stay small whatever ``deals`` is (game ``g``
    depends only on the seed and ``g``, so the blocks change nothing)."""
    lineup = table.lineup(policy, seat)
    out = np.empty(deals, np.float64)
    for start in range(0, deals, BLOCK):
        games = min(BLOCK, deals - start)
        raw = run_compiled(table.rules, table.players, lineup, seed, first_game + start, games)
        out[start:start + games] = (raw.matches[:, L.MC_WINNERS_MASK] >> seat) & 1
    return out


def deal_scores(table: Table, policy: PolicySpec, seed: int, first_game: int, deals: int) -> np.ndarray:
    """``policy``'s win share on each deal over every seat position (one task of an evaluation)."""
    return np.mean([seat_wins(table, policy, seat, seed, first_game, deals) for seat in range(table.players)],
                   axis=0)


class Evaluator:
    """Plays evaluations on a table, in this process (one job) or in joblib workers kept for its whole
    life (a ``with`` block). The results do not depend on ``n_jobs``: each task's games depend only on
    its seed and game numbers, and the results come back in the order of the policies."""

    def __init__(self, table: Table, n_jobs: int):
        self.table = table
        self.n_jobs = n_jobs
        self._stack = contextlib.ExitStack()
        self._parallel = False

    def __enter__(self) -> Evaluator:
        from joblib import effective_n_jobs, parallel_config

        from ...pipeline.worker import init_local_worker
        if effective_n_jobs(self.n_jobs) > 1:
            self._stack.enter_context(parallel_config(backend="loky", initializer=init_local_worker,
                                                      initargs=(os.getpid(),)))
            self._parallel = True
        return self

    def __exit__(self, *exc) -> None:
        self._parallel = False
        self._stack.close()

    def scores(self, policies: list[PolicySpec], seed: int, first_game: int, deals: int) -> np.ndarray:
        """Each policy's win share per deal on games ``first_game .. first_game + deals - 1``:
        [policy, deal]."""
        from joblib import Parallel, delayed
        if not self._parallel:
            results = [deal_scores(self.table, policy, seed, first_game, deals) for policy in policies]
        else:
            # one Parallel call per evaluation, not one managed Parallel for the Evaluator's life: loky's
            # reusable executor keeps the workers between calls all the same, and an interrupted call of
            # a managed Parallel starts a fresh pool before the interrupt reaches the caller (joblib keeps
            # a managed backend ready), whose teardown at exit could leak a semaphore that loky's resource
            # tracker then reported on stderr after "unosim: interrupted" (1 run in 25 here)
            results = Parallel(n_jobs=self.n_jobs)(
                delayed(deal_scores)(self.table, policy, seed, first_game, deals) for policy in policies)
        return np.stack(results)


@dataclass(frozen=True)
class Estimate:
    """A mean over deals with its 95 % interval (clustered by deal)."""

    mean: float
    ci_low: float
    ci_high: float
    deals: int

    @classmethod
    def of(cls, scores: np.ndarray) -> Estimate:
        from scipy import stats
        deals = len(scores)
        mean = float(scores.mean())
        if deals < 2:
            return cls(mean, mean, mean, deals)
        half = (float(stats.t.ppf(0.5 + CONFIDENCE / 2, deals - 1)) * float(scores.std(ddof=1))
                / math.sqrt(deals))
        return cls(mean, mean - half, mean + half, deals)

    def text(self) -> str:
        return f"{self.mean:.4f} [{self.ci_low:.4f}, {self.ci_high:.4f}]"

    def as_dict(self) -> dict[str, float | int]:
        return {"estimate": self.mean, "ci_low": self.ci_low, "ci_high": self.ci_high, "deals": self.deals}
