"""The search of ``unosim tune``: CMA-ES (the ``cma`` package) over the weights, on common random numbers.

**Objective**: the tuned seat's win rate in the duplicate scheme of :mod:`.duplicate` (every seat
position on the same deals), maximised (CMA-ES minimises its negative).

**Budget**: ``budget`` games in all. One generation evaluates ``popsize`` candidates (CMA-ES's default
``4 + ⌊3 ln d⌋`` for ``d`` searched weights) on ``deals`` deals in each of the ``N`` seat positions,
``popsize × N × deals`` games. The deals per candidate grow with the square root of the budget,
``deals = ⌊√(budget / (popsize × N) × DEALS_PER_GENERATION)⌋`` with ``DEALS_PER_GENERATION = 20``
(so about ``deals / 20`` generations, and at least ``MIN_DEALS``): a larger budget buys both more
generations and less noise in each, which the later generations need since their candidates differ
less. A budget below one generation of ``MIN_DEALS`` deals is refused.

**Common random numbers**: every candidate of generation ``k`` plays the same games, numbers
``k × deals .. (k + 1) × deals − 1`` of the search seed (a candidate's rank within its generation then
reflects its play, not its cards); each generation sees new deals, so the search does not fit one
sample of deals.

**Seeds**: the user's seed ``S`` spawns (``numpy.random.SeedSequence(S)``) three independent streams:
the search's deals (child 0), the fresh evaluation's deals (child 1: games the search never played),
CMA-ES's own normal samples (child 2, a ``numpy.random.Generator`` passed as its ``randn``; no global
random state is read or changed) and the relevance probe's deals (child 3, :mod:`.relevance`).

**Result**: the mean of the final search distribution (CMA-ES's ``xfavorite``), not the best
candidate seen: under noise the best-looking candidate is mostly the luckiest one, while the mean
averages over the population that survived every generation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cma
import numpy as np
from tqdm import tqdm

from .duplicate import Evaluator
from .space import WeightSpace

MIN_DEALS = 50
DEALS_PER_GENERATION = 20
SEED_STREAMS = ("search", "fresh", "cma", "probe")


def seeds(seed: int) -> dict[str, int]:
    """The independent seed of each stream (SEED_STREAMS) spawned from the user's seed."""
    children = np.random.SeedSequence(seed).spawn(len(SEED_STREAMS))
    return {name: int(child.generate_state(1, np.uint64)[0] >> np.uint64(1))   # a seed ≤ 2**63 − 1
            for name, child in zip(SEED_STREAMS, children, strict=True)}


@dataclass(frozen=True)
class Plan:
    """How a budget is spent: ``generations`` × ``popsize`` candidates × ``players`` × ``deals`` games."""

    popsize: int
    deals: int
    generations: int
    players: int
    budget: int

    @property
    def games_per_generation(self) -> int:
        return self.popsize * self.players * self.deals

    @classmethod
    def for_budget(cls, budget: int, players: int, dims: int) -> Plan:
        popsize = 4 + int(3 * math.log(dims))
        per_deal = popsize * players
        least = per_deal * MIN_DEALS
        if budget < least:
            raise ValueError(f"budget={budget:,} games is too small: one generation of {popsize} candidates × "
                             f"{players} seats × {MIN_DEALS} deals needs {least:,}; valid is a budget of at "
                             f"least {least:,} games")
        deals = max(MIN_DEALS, math.isqrt(budget // per_deal * DEALS_PER_GENERATION))
        deals = min(deals, budget // per_deal)
        return cls(popsize, deals, budget // (per_deal * deals), players, budget)


@dataclass(frozen=True)
class Generation:
    """One generation's record: its number, the games played so far, the best and mean candidate win
    rates (on this generation's deals) and CMA-ES's step size after it."""

    generation: int
    games: int
    best: float
    mean: float
    sigma: float


def search(space: WeightSpace, evaluator: Evaluator, plan: Plan, seed_of: dict[str, int], sigma0: float,
           progress: bool) -> tuple[np.ndarray, list[Generation]]:
    """Run CMA-ES; returns the final distribution mean (coordinates) and the history."""
    rng = np.random.default_rng(seed_of["cma"])
    options = {"popsize": plan.popsize, "seed": float("nan"), "randn": lambda *shape: rng.standard_normal(shape),
               "verbose": -9, "verb_log": 0, "verb_disp": 0,
               # a noisy objective: stop only when the budget is spent (or the step size collapses)
               "tolfun": 0, "tolfunhist": 0, "tolflatfitness": plan.generations + 1,
               "tolstagnation": plan.generations + 1, "maxiter": plan.generations}
    es = cma.CMAEvolutionStrategy(space.start_point(), sigma0, options)
    history: list[Generation] = []
    with tqdm(total=plan.generations * plan.games_per_generation, unit="game", unit_scale=True,
              desc="tune", disable=not progress, smoothing=0.1) as bar:
        for k in range(plan.generations):
            candidates = es.ask()
            policies = [space.policy(x) for x in candidates]
            wins = evaluator.scores(policies, seed_of["search"], k * plan.deals, plan.deals).mean(axis=1)
            es.tell(candidates, list(-wins))
            history.append(Generation(k + 1, (k + 1) * plan.games_per_generation, float(wins.max()),
                                      float(wins.mean()), float(es.sigma)))
            bar.set_postfix_str(f"generation {k + 1}/{plan.generations}, win rate best {wins.max():.3f} "
                                f"mean {wins.mean():.3f}", refresh=False)
            bar.update(plan.games_per_generation)   # redraws the line, postfix included
            if es.stop():
                break
    return np.asarray(es.result.xfavorite), history
