"""The search: Optuna proposes designs, the engine plays them against the base game, racing spends the games.

**Optimizer**: Optuna (:mod:`optuna`): NSGA-II (``NSGAIISampler``) for several objectives, TPE
(``TPESampler``) for one, both with the spec's constraints (a design's summed violation, ≤ 0 feasible).
Optuna is maintained, takes categorical, integer and conditional dimensions as they are, handles
constraints in both samplers, and stores every trial in a journal file, so a search stopped by Ctrl-C or
a kill resumes with its trials kept.

**Batches and racing**: each batch asks :data:`BATCH` designs; all play ``first_games`` games (rung 0);
the best third (feasible first, then by Pareto rank, then by the summed rank of their scores) play
:data:`ETA` times as many, and the best third of those again (successive halving: :data:`RUNGS` rungs).
Promoted designs keep their earlier games, so a design at rung r has played ``first_games × ETA^r``
games. A design is told to Optuna with its numbers on all the games it played.

**Common seeds**: batch k plays games ``k × BLOCK ..`` of the search seed; the base game and every design
of the batch play the same game numbers, so each design's difference from the base game is paired
(identical deals when the design keeps the deck). Each batch plays new deals, so the search does not
fit one sample of deals.

**Seeds**: the spec's seed spawns (``numpy.random.SeedSequence``) independent streams: the search's
games, the sampler's draws, the confirmation's games (:mod:`.confirm`), which the search never plays, and
the exported study specs' games (one child of that stream per trial, :func:`export_seed`): an exported
design played with ``unosim study run`` is a fresh study, independent of the search, of the confirmation
that chose to report it, and of every other exported design. A stream added at the end leaves the earlier
ones as they were (a child's seed depends on its index, not on how many were spawned).
"""

from __future__ import annotations

import contextlib
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .errors import DesignSpecError
from .evaluate import Job, combine, games_of, measure, play, ruleset
from .objectives import DECK_SIZE
from .spec import DesignSpec

BATCH = 24
FIRST_GAMES = 1_000
ETA = 3
RUNGS = 3
BLOCK = 2**32
JOURNAL = "trials.journal"
SEED_STREAMS = ("search", "sampler", "confirm", "export")


def seeds(seed: int) -> dict[str, int]:
    """The independent seed of each stream of :data:`SEED_STREAMS`, spawned from the spec's seed."""
    children = np.random.SeedSequence(seed).spawn(len(SEED_STREAMS))
    return {name: _as_seed(child) for name, child in zip(SEED_STREAMS, children, strict=True)}


def export_seed(seed: int, trial: int) -> int:
    """The seed of trial ``trial``'s exported study spec: child ``trial`` of the export stream (the stream's
    ``spawn()`` would hand it out as its child number ``trial``)."""
    return _as_seed(np.random.SeedSequence(seed, spawn_key=(SEED_STREAMS.index("export"), trial)))


def _as_seed(sequence: np.random.SeedSequence) -> int:
    """A study seed (a non-negative int64) drawn from ``sequence``."""
    return int(sequence.generate_state(1, np.uint64)[0] >> np.uint64(1))


@dataclass(frozen=True)
class Plan:
    """Designs per batch and the games of each rung."""

    batch: int
    rungs: tuple[int, ...]

    @classmethod
    def of(cls, spec: DesignSpec) -> Plan:
        first = spec.first_games or FIRST_GAMES
        return cls(spec.batch or BATCH, tuple(first * ETA**r for r in range(RUNGS)))

    def games_per_batch(self, needs: set[str]) -> int:
        """Games one batch plays at most (the base game to the last rung included)."""
        alive, total, before = self.batch, 0, 0
        for n in self.rungs:
            total += alive * (n - before)
            before, alive = n, math.ceil(alive / ETA)
        return (total + self.rungs[-1]) * (2 if "skilled" in needs else 1)


def storage(directory: Path):
    import optuna
    from optuna.storages.journal import JournalFileBackend, JournalStorage
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    directory.mkdir(parents=True, exist_ok=True)
    return JournalStorage(JournalFileBackend(str(directory / JOURNAL)))


def open_study(spec: DesignSpec, directory: Path, sampler_seed: int):
    """The Optuna study of the search (created, or loaded to resume); refuses a journal of another spec."""
    import optuna
    directions = [g.direction for g in spec.goals]
    store = storage(directory)
    identity = json.dumps(spec.search_identity(), sort_keys=True, default=str)
    try:
        existing = optuna.load_study(study_name=spec.name, storage=store)
    except KeyError:
        existing = None
    if existing is not None and existing.user_attrs.get("spec") != identity:
        raise DesignSpecError(f"{directory} holds the trials of another design spec: give another --out or name, "
                              f"or delete {directory / JOURNAL} to start again")
    batches = existing.user_attrs.get("batches", 0) if existing is not None else 0
    seed = int(np.random.SeedSequence([sampler_seed, batches]).generate_state(1)[0])   # a resume asks anew
    if len(directions) > 1:
        sampler = optuna.samplers.NSGAIISampler(population_size=Plan.of(spec).batch, seed=seed)
    else:
        sampler = optuna.samplers.TPESampler(seed=seed, n_startup_trials=Plan.of(spec).batch)
    with _quiet_experimental():
        study = optuna.create_study(study_name=spec.name, storage=store, directions=directions, sampler=sampler,
                                    load_if_exists=True)
    if existing is None:
        study.set_user_attr("spec", identity)
    for trial in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.RUNNING,)):
        study.tell(trial.number, state=optuna.trial.TrialState.FAIL)   # a batch cut short: played again anew
    return study


@contextlib.contextmanager
def _quiet_experimental():
    import warnings

    import optuna
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        yield


@dataclass
class Scored:
    """A design's numbers on the games it played, and the base game's on the same games."""

    values: dict[str, float]
    base: dict[str, float]
    scores: list[float]
    violations: list[float]
    games: int
    rung: int

    @property
    def feasible(self) -> bool:
        return sum(self.violations) <= 0


def _score(spec: DesignSpec, played, base_played, deck_size: int, base_deck: int, rung: int, games: int) -> Scored:
    names = list(dict.fromkeys([*spec.objectives, *(b.quantity for b in spec.bounds)]))
    values = measure(played, names, deck_size)
    base = measure(base_played, names, base_deck)
    scores = [g.score(values[g.objective]) for g in spec.goals]
    violations = [b.violation(values[b.quantity]) for b in spec.bounds] or [0.0]
    return Scored(values, base, scores, violations, games, rung)


def pareto_ranks(scores: np.ndarray, directions: list[str], enough: int | None = None) -> np.ndarray:
    """Non-dominated sorting: rank 0 for the Pareto front, 1 for the front without it, …; with ``enough``,
    the sorting stops once that many designs are ranked (the rest share the next rank)."""
    signed = scores * np.array([1.0 if d == "minimize" else -1.0 for d in directions])
    ranks = np.full(len(signed), -1)
    remaining = np.arange(len(signed))
    level = 0
    while remaining.size:
        if enough is not None and np.sum(ranks >= 0) >= enough:
            ranks[remaining] = level
            break
        sub = signed[remaining]
        dominated = np.array([np.any(np.all(sub <= s, axis=1) & np.any(sub < s, axis=1)) for s in sub])
        ranks[remaining[~dominated]] = level
        remaining = remaining[dominated]
        level += 1
    return ranks


def order(scored: dict[Any, Scored], directions: list[str]) -> list[Any]:
    """Designs best first: feasible before infeasible (by violation), then Pareto rank, then summed rank."""
    keys = list(scored)
    if not keys:
        return []
    scores = np.array([scored[k].scores for k in keys], float)
    violation = np.array([sum(scored[k].violations) for k in keys])
    ranks = pareto_ranks(scores, directions)
    signed = scores * np.array([1.0 if d == "minimize" else -1.0 for d in directions])
    summed = np.argsort(np.argsort(signed, axis=0), axis=0).sum(axis=1)
    return [keys[i] for i in np.lexsort((summed, ranks, violation))]


def run_search(spec: DesignSpec, directory: Path, *, n_jobs: int = -1, scheduler: str | None = None,
               progress: bool = False, report: Callable[[str], None] | None = None):
    """Run (or resume) the search of ``spec`` in ``directory``; returns the Optuna study."""
    import optuna
    from joblib import Parallel, delayed
    from tqdm import tqdm

    from ..pipeline.backends import backend
    stream = seeds(spec.seed)
    plan = Plan.of(spec)
    per_batch = plan.games_per_batch(spec.needs)
    if spec.budget.games is not None and spec.budget.games < per_batch:
        raise DesignSpecError(f"[design] budget.games = {spec.budget.games:,} is too small: one batch of "
                              f"{plan.batch} designs with racing plays up to {per_batch:,} games; valid is a "
                              f"budget of at least {per_batch:,} games")
    study = open_study(spec, directory, stream["sampler"])
    directions = [g.direction for g in spec.goals]
    base_rules = ruleset(spec.variant, spec.space.fixed)
    games_done = int(study.user_attrs.get("games", 0))
    seconds_done = float(study.user_attrs.get("seconds", 0.0))
    batch_index = int(study.user_attrs.get("batches", 0))
    total = spec.budget.games if spec.budget.games else spec.budget.minutes * 60
    start = time.perf_counter()
    last_batch_seconds = 0.0
    threads = scheduler is None
    with backend(scheduler, n_jobs, threads) as _, \
            tqdm(total=total, initial=min(total, games_done if spec.budget.games else seconds_done),
                 unit="game" if spec.budget.games else "s", unit_scale=bool(spec.budget.games), desc="design",
                 disable=not progress, smoothing=0.1,
                 bar_format=None if spec.budget.games else "{l_bar}{bar}| {n:.0f}/{total:.0f} s [{elapsed}<{remaining}{postfix}]") as bar:
        parallel = Parallel(n_jobs=n_jobs)
        while True:
            elapsed = seconds_done + time.perf_counter() - start
            if spec.budget.games is not None and games_done + per_batch > spec.budget.games:
                break
            if spec.budget.minutes is not None and batch_index > 0 and \
                    elapsed + last_batch_seconds > spec.budget.minutes * 60:
                break
            batch_start = time.perf_counter()
            played_games = _batch(spec, study, plan, batch_index, stream["search"], base_rules, directions, parallel,
                                  delayed)
            games_done += played_games
            batch_index += 1
            last_batch_seconds = time.perf_counter() - batch_start
            study.set_user_attr("games", games_done)
            study.set_user_attr("seconds", seconds_done + time.perf_counter() - start)
            study.set_user_attr("batches", batch_index)
            complete = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
            feasible = sum(1 for t in complete if sum(t.user_attrs.get("violations", [0])) <= 0)
            bar.set_postfix_str(f"{len(complete):,} designs, {feasible:,} feasible", refresh=False)
            bar.update(played_games if spec.budget.games else
                       min(total, seconds_done + time.perf_counter() - start) - bar.n)
    return study


def _batch(spec, study, plan: Plan, batch_index: int, search_seed: int, base_rules, directions, parallel,
           delayed) -> int:
    """Ask, race and tell one batch; returns the games it played."""
    import optuna
    trials = [study.ask() for _ in range(plan.batch)]
    overrides = {t.number: spec.space.overrides({d.name: d.suggest(t) for d in spec.space.dimensions})
                 for t in trials}
    by_number = {t.number: t for t in trials}
    first = (batch_index + 1) * BLOCK
    alive = list(overrides)
    parts: dict[Any, list] = {}
    scored: dict[int, Scored] = {}
    refused: dict[int, str] = {}
    deck_sizes: dict[int, int] = {}
    played_games = 0
    before = 0
    needs = frozenset(spec.needs)
    for rung, n in enumerate(plan.rungs):
        jobs = [Job(k, spec.variant, overrides[k], spec.players, spec.lineup, search_seed, first + before,
                    n - before, needs, spec.skill_policy) for k in alive]
        jobs.append(Job("base", spec.variant, spec.space.fixed, spec.players, spec.lineup, search_seed,
                        first + before, n - before, needs, spec.skill_policy))
        for job, (key, result) in zip(jobs, parallel(delayed(play)(job) for job in jobs), strict=True):
            if isinstance(result, str):
                refused[key] = result
                continue
            played_games += games_of(job)
            parts.setdefault(key, []).append(result)
        base_played = combine(parts["base"])
        for k in alive:
            if k in refused:
                continue
            if k not in deck_sizes:
                deck_sizes[k] = ruleset(spec.variant, overrides[k]).deck_size
            scored[k] = _score(spec, combine(parts[k]), base_played, deck_sizes[k], base_rules.deck_size, rung, n)
            if any(not math.isfinite(v) for v in scored[k].scores):
                refused[k] = "no round with a winner to measure"
                del scored[k]
        racing = [k for k in alive if k in scored]
        before = n
        if rung < len(plan.rungs) - 1:
            alive = order({k: scored[k] for k in racing}, directions)[:math.ceil(len(racing) / ETA)]
            if not alive:
                break
    for number, trial in by_number.items():
        trial.set_user_attr("batch", batch_index)
        if number in refused or number not in scored:
            trial.set_user_attr("refused", refused.get(number, "not played"))
            study.tell(trial, state=optuna.trial.TrialState.FAIL)
            continue
        s = scored[number]
        trial.set_user_attr("values", s.values)
        trial.set_user_attr("base", s.base)
        trial.set_user_attr("violations", s.violations)
        for bound, violation in zip(spec.bounds, s.violations, strict=False):
            trial.set_constraint(bound.quantity, violation)
        trial.set_user_attr("games", s.games)
        trial.set_user_attr("rung", s.rung)
        trial.set_user_attr("overrides", json.loads(json.dumps(overrides[number], default=list)))
        trial.set_user_attr("deck_size", deck_sizes[number])
        study.tell(trial, s.scores)
    return played_games


def tidy_trials(study, spec: DesignSpec):
    """One row per design tried: trial, batch, state, rung, games, each objective's value and the base
    game's on the same games, violation, feasible, pareto (on the feasible complete designs), the searched
    values, and why a design was refused."""
    import optuna
    import polars as pl
    rows = []
    complete = []
    for t in study.get_trials(deepcopy=False):
        attrs = t.user_attrs
        row: dict[str, Any] = {"trial": t.number, "batch": attrs.get("batch"), "state": t.state.name.lower(),
                               "rung": attrs.get("rung"), "games": attrs.get("games"),
                               "deck_size": attrs.get("deck_size")}
        for name in dict.fromkeys([*spec.objectives, *(b.quantity for b in spec.bounds)]):
            if name == DECK_SIZE:
                continue
            row[name] = attrs.get("values", {}).get(name)
            row[f"base_{name}"] = attrs.get("base", {}).get(name)
        row["violation"] = float(sum(attrs["violations"])) if "violations" in attrs else None
        row["feasible"] = row["violation"] is not None and row["violation"] <= 0
        for d in spec.space.dimensions:
            row[d.name] = None if d.name not in t.params else str(t.params[d.name])
        row["refused"] = attrs.get("refused")
        rows.append(row)
        if t.state == optuna.trial.TrialState.COMPLETE and row["feasible"]:
            complete.append((t.number, t.values))
    front = set()
    if complete:
        ranks = pareto_ranks(np.array([v for _, v in complete], float), [g.direction for g in spec.goals], enough=1)
        front = {n for (n, _), r in zip(complete, ranks, strict=True) if r == 0}
    frame = pl.DataFrame(rows, infer_schema_length=None)
    if frame.is_empty():
        return frame
    return frame.with_columns(pareto=pl.col("trial").is_in(sorted(front)))
