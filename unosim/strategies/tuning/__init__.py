"""``unosim.tune``: search the ``weighted`` policy's weights for one seat against a field of policies.

The tuned seat plays every seat position on the same deals (:mod:`.duplicate`); a probe drops the weights
the rules give nothing to decide (:mod:`.relevance`); CMA-ES searches the others in score units
(:mod:`.space`) on common random numbers (:mod:`.search`). After the search the
tuned policy — its weights rounded as printed — and the start are evaluated on fresh deals the search
never played, so the figure reported is not inflated by the winner's curse (the search keeps what
looked best on its own deals, which is partly luck); the paired difference on those deals says whether
tuning beat the start.
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from ...game.checks import as_int, is_real
from ...game.policies import PolicySpec, lineup_label, make_lineup, parse_policies
from ...game.rules import single_round_variant
from ...play.simulate import MAX_SEED
from .duplicate import Estimate, Evaluator, Table
from .space import DEFAULT_START, WeightSpace, searched_weights, start_spec

if TYPE_CHECKING:
    from .search import Generation, Plan

DEFAULT_EVAL_DEALS = 20_000
#: CMA-ES's default first step size, in score units (:mod:`.space`): it changes a typical score
#: difference by about 3 points, enough to reorder the start's close calls but not its clear ones (the
#: presets separate their first choices from their last by 10 points or more)
SIGMA0 = 3.0


@dataclass(frozen=True)
class Comparison:
    """Another policy in the tuned seat's place on the same fresh deals, and tuned − it (paired)."""

    policy: str
    estimate: Estimate
    difference: Estimate

    def text(self) -> str:
        return f"vs {self.policy} {self.estimate.text()}: tuned − it {_signed(self.difference)}"


def _signed(est: Estimate) -> str:
    return f"{est.mean:+.4f} [{est.ci_low:+.4f}, {est.ci_high:+.4f}]"


@dataclass(frozen=True)
class TuneResult:
    """What ``tune`` found: the tuned policy and its fresh-deal evaluation beside the start's."""

    variant: str                 # the rules key
    players: int
    field: str                   # the other seats, in play order after the tuned one
    start: str
    searched: tuple[str, ...]    # the weights the search moved
    fixed: tuple[str, ...]       # weights asked for that changed no probe game: kept at the start's values
    seed: int
    seeds: dict[str, int]        # the spawned streams (search, fresh, cma)
    plan: Plan
    policy: PolicySpec           # the tuned policy (rounded weights: what was evaluated)
    history: tuple[Generation, ...]
    tuned: Estimate              # win rates on fresh deals, clustered by deal
    start_estimate: Estimate
    difference: Estimate         # tuned − start, paired on the fresh deals
    compared: tuple[Comparison, ...]   # the policies of ``compare``, on the same fresh deals
    seconds: float = field(compare=False)

    @property
    def lineup(self) -> str:
        """The tuned policy as a lineup string (studies, tournaments, ``simulate``)."""
        return self.policy.label

    @property
    def fair_share(self) -> float:
        return 1.0 / self.players

    @property
    def games_searched(self) -> int:
        return self.history[-1].games if self.history else 0

    def summary(self) -> str:
        """The result in words, as ``unosim tune`` prints it."""
        plan = self.plan
        return "\n".join([
            f"tune {self.variant}, {self.players} players, against {self.field} (seed {self.seed}): "
            f"{len(self.history)} generations × {plan.popsize} candidates × {self.players} seats × "
            f"{plan.deals:,} deals = {self.games_searched:,} games in {self.seconds:.1f} s",
            f"searched {len(self.searched)} weights"
            + (f"; {', '.join(self.fixed)} changed no probe game and keep the start's values" if self.fixed else ""),
            f"tuned policy: {self.lineup}",
            f"fresh deals ({self.tuned.deals:,}, each in every seat), win rate: tuned {self.tuned.text()} vs "
            f"start {self.start} {self.start_estimate.text()}; difference {_signed(self.difference)}; "
            f"fair share {self.fair_share:.4g}",
            *(f"  {c.text()}" for c in self.compared),
            self.verdict(),
        ])

    def verdict(self) -> str:
        """One plain line: is the tuned policy better than its start on the fresh deals (95 % interval of
        the paired difference)? A search can end worse than where it started (it picked the candidate that
        was luckiest on its own deals), and then the start is the policy to keep."""
        diff = self.difference
        if diff.ci_low > 0:
            return f"verdict: the tuned policy wins more often than its start {self.start} (interval above 0)."
        if diff.ci_high < 0:
            return (f"verdict: the tuned policy is WORSE than its start {self.start} (interval below 0): "
                    f"keep {self.start}.")
        return (f"verdict: the tuned policy is not clearly better than its start {self.start} (the interval "
                f"covers 0): no improvement was found.")

    def as_dict(self) -> dict:
        """A JSON-ready record of the run."""
        return {
            "variant": self.variant, "players": self.players, "field": self.field, "start": self.start,
            "searched": list(self.searched), "fixed": list(self.fixed), "seed": self.seed, "seeds": self.seeds,
            "plan": asdict(self.plan),
            "policy": self.lineup, "parameters": dict(self.policy.params),
            "fresh": {"tuned": self.tuned.as_dict(), "start": self.start_estimate.as_dict(),
                      "difference": self.difference.as_dict(), "fair_share": self.fair_share,
                      "compared": [{"policy": c.policy, **c.estimate.as_dict(),
                                    "difference": c.difference.as_dict()} for c in self.compared]},
            "history": [asdict(g) for g in self.history], "games_searched": self.games_searched,
            "seconds": self.seconds,
        }


def tune(variant: str, players: int, *, budget: int, against="random", seed: int = 1, start=DEFAULT_START,
         rules: dict | None = None, weights=None, sigma0: float = SIGMA0,
         eval_deals: int = DEFAULT_EVAL_DEALS, compare=(), n_jobs: int = 1, progress: bool = False) -> TuneResult:
    """Search the ``weighted`` weights of one seat against ``against`` (the other seats: one policy, a
    list, or a lineup string with a ``*`` fill) in ``variant`` at ``players`` seats.

    ``budget``: games the search may play (the probe and the fresh evaluation play theirs besides:
    ``(2 + len(compare)) × players × eval_deals`` for the evaluation).
    ``start``: a weighted preset or ``weighted(...)`` spec (its ``p_*`` parameters are kept).
    ``weights``: the weights to search (default: every ``w_*``; the others keep the start's values).
    ``sigma0``: CMA-ES's first step size in score units (default ``SIGMA0``). ``compare``: other
    policies (specs, a list or a comma-separated string) to evaluate in the tuned seat's place on the
    same fresh deals, e.g. the best preset. ``n_jobs``: worker processes (the result does not depend on it).
    Same arguments ⇒ the same result. Bad input raises ValueError naming the value and the valid ones.
    """
    from .search import Plan, search, seeds  # cma and tqdm load only when a search runs
    began = time.perf_counter()
    setup = _validated(variant, players, budget, against, seed, start, rules, weights, sigma0, eval_deals,
                       compare, n_jobs)
    table = setup.table
    seed_of = seeds(setup.seed)
    _status(progress, "tune: probing which weights can change a game…")
    space, fixed = _probed(setup.space, table, seed_of["probe"])
    plan = Plan.for_budget(setup.budget, table.players, len(space.names))
    with Evaluator(table, setup.n_jobs) as evaluator:
        best, history = search(space, evaluator, plan, seed_of, setup.sigma0, progress)
        tuned = space.policy(best)
        _status(progress, f"tune: evaluating the tuned policy, the start and {len(setup.compare)} other(s) on "
                          f"{setup.eval_deals:,} fresh deals…")
        fresh = evaluator.scores([tuned, space.start, *setup.compare], seed_of["fresh"], 0, setup.eval_deals)
    return TuneResult(
        variant=table.rules.key, players=table.players, field=lineup_label(table.field), start=space.start.label,
        searched=space.names, fixed=fixed, seed=setup.seed, seeds=seed_of, plan=plan, policy=tuned,
        history=tuple(history), tuned=Estimate.of(fresh[0]), start_estimate=Estimate.of(fresh[1]),
        difference=Estimate.of(fresh[0] - fresh[1]),
        compared=tuple(Comparison(p.label, Estimate.of(f), Estimate.of(fresh[0] - f))
                       for p, f in zip(setup.compare, fresh[2:], strict=True)),
        seconds=time.perf_counter() - began)


def _status(progress: bool, text: str) -> None:
    """A step of the run on stderr, when progress is shown (the search has its own progress line)."""
    if progress:
        print(text, file=sys.stderr, flush=True)


def _probed(space: WeightSpace, table: Table, seed: int) -> tuple[WeightSpace, tuple[str, ...]]:
    """The space of the weights that can change a game (:mod:`.relevance`), and the others."""
    from .relevance import relevant
    searched = relevant(space, table, seed)
    if not searched:
        raise ValueError(f"weights={list(space.names)} change no game of {table.rules.key} at {table.players} "
                         f"players: valid is a set of weights including one the rules use")
    return WeightSpace(space.start, searched), tuple(w for w in space.names if w not in searched)


class _Setup(NamedTuple):
    table: Table
    space: WeightSpace
    budget: int
    seed: int
    sigma0: float
    eval_deals: int
    compare: list[PolicySpec]
    n_jobs: int


def _compared(compare) -> list[PolicySpec]:
    """The ``compare`` policies, parsed (ValueError naming a bad one)."""
    try:
        return list(parse_policies(compare))
    except ValueError as exc:
        raise ValueError(f"compare={compare!r} is invalid: {exc}") from None


def _validated(variant, players, budget, against, seed, start, rules, weights, sigma0, eval_deals, compare,
               n_jobs) -> _Setup:
    """Every argument checked (ValueError naming the bad one), in the order a user reads them. The
    budget is checked against a generation of every requested weight (the probe may drop some)."""
    from .search import Plan
    overrides, rs = single_round_variant(variant, rules, "tuning")
    rs.check_players(players)
    players = int(players)
    try:
        field_specs = make_lineup(against, players - 1)
    except ValueError as exc:
        raise ValueError(f"against={against!r} is invalid for the {players - 1} other seats: {exc}") from None
    space = WeightSpace(start_spec(start), searched_weights(weights))
    budget = as_int("budget", budget, 1)
    Plan.for_budget(budget, players, len(space.names))
    seed = as_int("seed", seed, 0, MAX_SEED)
    if not is_real(sigma0) or not math.isfinite(sigma0) or sigma0 <= 0:
        raise ValueError(f"sigma0={sigma0!r} is invalid: valid is a finite number > 0 (score units)")
    eval_deals = as_int("eval_deals", eval_deals, 2)
    if not (n_jobs == -1 or (isinstance(n_jobs, int) and n_jobs >= 1)) or isinstance(n_jobs, bool):
        raise ValueError(f"n_jobs={n_jobs!r} is invalid: valid is -1 (every core) or an integer ≥ 1")
    return _Setup(Table(rs, players, field_specs), space, budget, seed, float(sigma0), eval_deals,
                  _compared(compare), n_jobs)


__all__ = ["tune", "TuneResult", "Comparison", "DEFAULT_START", "DEFAULT_EVAL_DEALS"]
