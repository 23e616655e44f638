"""After the search: pick the top designs, export them as study specs, confirm them on fresh games.

**Selection**: among the designs the search completed, feasible ones first (then the least violation),
by Pareto rank, then by the target bands they miss (a band is what the designer asked for), then by the
worst of their percentile ranks over the objectives (the front's balanced designs before its extremes: a
design best on one objective and worst on another is on the front too), then by the sum of those
percentiles: the first ``top``. A design picked as the best of hundreds looks
better than it is (the winner's curse, docs/rules.md §8.8): its search numbers are not reported as
findings.

**Confirmation**: one study (:mod:`unosim.pipeline.study`) with the base game and the top designs as
named variants, each compared with the base game, played by the study runner on the **confirmation
seed**, a stream of the spec's seed the search never plays (:func:`unosim.design.search.seeds`). Its
standard analysis (the same tables, findings and claim checker as every study; Holm's adjustment over
the confirmed designs' effects) and report say what the designs do; the study's ``[profile]`` is the
designer's objectives (:mod:`unosim.analysis.profile`), so its verdicts judge by them. When the skill
objective is asked, the expert (``lookahead``) in one seat and its all-random twin play in the
confirmation (:data:`unosim.pipeline.house_rules.EXPERT_LINEUP`).

**Exports**: a design as a study spec of its own (the confirmed ones in ``designs/``, any trial with
``unosim design --export``) plays on the design's seed of the **export stream**
(:func:`unosim.design.search.export_seed`), not the confirmation's: running it is a fresh study of the
design, a replication, not a replay of the confirmation's games (``confirm.toml`` replays those).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..analysis.design_findings import LINEUP
from ..pipeline.house_rules import EXPERT_LINEUP, SKILL_GAMES
from ..pipeline.study import toml_value
from ..store.atomic import write_text_atomic
from .objectives import OBJECTIVES
from .search import export_seed, seeds
from .spec import DesignSpec

CONFIRM_DIR = "confirm"
SPECS_DIR = "designs"


@dataclass(frozen=True)
class Design:
    """A design the search tried: its trial number, overrides, numbers on its search games."""

    trial: int
    overrides: dict[str, Any]
    values: dict[str, float]
    base: dict[str, float]
    games: int
    violation: float
    scores: tuple[float, ...]

    @property
    def name(self) -> str:
        return f"design_{self.trial}"

    @property
    def feasible(self) -> bool:
        return self.violation <= 0


def designs(study) -> list[Design]:
    """Every design the search completed."""
    import optuna
    return [Design(t.number, t.user_attrs["overrides"], t.user_attrs["values"], t.user_attrs["base"],
                   t.user_attrs["games"], float(sum(t.user_attrs["violations"])), tuple(t.values))
            for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))]


def select(found: list[Design], spec: DesignSpec, top: int | None = None) -> list[Design]:
    """The ``top`` distinct designs (module docstring), feasible or not: the caller says which are."""
    from .search import Scored
    scored = {d.trial: Scored(d.values, d.base, list(d.scores), [d.violation], d.games, 0) for d in found}
    by_trial = {d.trial: d for d in found}
    directions = [g.direction for g in spec.goals]
    feasible = [k for k in scored if scored[k].feasible]
    if feasible:
        # by Pareto rank (sorted only as deep as the top needs), then the target bands it misses, then the worst
        # of its objectives' percentile ranks among the feasible designs (the front's balanced designs before
        # its extremes), then their sum
        from scipy.stats import rankdata

        from .search import pareto_ranks
        scores = np.array([scored[k].scores for k in feasible], float)
        ranks = dict(zip(feasible, pareto_ranks(scores, directions, enough=top or spec.top), strict=True))
        signed = scores * np.array([1.0 if d == "minimize" else -1.0 for d in directions])
        percentile = (rankdata(signed, axis=0) - 1) / max(len(feasible) - 1, 1)   # ties share their rank
        worst = dict(zip(feasible, percentile.max(axis=1), strict=True))
        total = dict(zip(feasible, percentile.sum(axis=1), strict=True))
        bands = [i for i, g in enumerate(spec.goals) if g.target is not None]
        missed = {k: sum(scored[k].scores[i] > 0 for i in bands) for k in feasible}
        ranked = sorted(feasible, key=lambda k: (ranks[k], missed[k], worst[k], total[k], -by_trial[k].games))
    else:
        ranked = sorted(scored, key=lambda k: (by_trial[k].violation, -by_trial[k].games))
    seen, distinct = set(), []   # a design the sampler proposed twice is confirmed once (its best-ranked trial)
    for k in ranked:
        key = json.dumps(by_trial[k].overrides, sort_keys=True, default=str)
        if key not in seen:
            seen.add(key)
            distinct.append(k)
    return [by_trial[k] for k in distinct[: top or spec.top]]


def profile_of(spec: DesignSpec) -> dict[str, Any]:
    """The designer's profile of the objectives: each objective with a profile key judged as asked, the
    other keys left out of the verdicts (``any``)."""
    from ..analysis.profile import WORDS
    profile = {key: "any" for key in WORDS}
    for goal in spec.goals:
        key = OBJECTIVES[goal.objective].profile
        if key is None:
            continue
        if goal.target is not None:
            if key == "length":
                profile[key] = list(goal.target)
            continue
        words = {sign: word for word, sign in WORDS[key].items()}
        if goal.sign in words:
            profile[key] = words[goal.sign]
    return profile


def study_spec(spec: DesignSpec, chosen: list[Design], *, games: int, seed: int, name: str,
               note: str) -> str:
    """A study spec (TOML) of the base game and ``chosen`` designs, each compared with the base game."""
    lineups = {LINEUP: spec.lineup}
    skill = "skill" in spec.objectives
    lines = [f"# {note}", "[study]", f'name = "{name}"',
             f'description = "{spec.variant} at {spec.players} players: the base game against '
             f'{len(chosen)} design(s) of the search {spec.name}."',
             f"seed = {seed}", f"games = {games}", 'mode = "single_round"', "common_random_numbers = true", "",
             "[variants]", f'base = {{ base = "{spec.variant}", rules = {toml_value(_rules(spec.space.fixed))}'
             f'{_deck(spec.space.fixed)} }}']
    for d in chosen:
        lines.append(f'{d.name} = {{ base = "{spec.variant}", rules = {toml_value(_rules(d.overrides))}'
                     f'{_deck(d.overrides)} }}')
    lines += ["", "[lineups]", *(f'{k} = "{v}"' for k, v in lineups.items())]
    if skill:
        lines.append(f'{EXPERT_LINEUP[0]} = "{EXPERT_LINEUP[1]}"')
    variants = ", ".join(f'"{v}"' for v in ["base", *(d.name for d in chosen)])
    lines += ["", "[[grid]]", f"variants = [{variants}]", f"players = [{spec.players}]",
              f'lineups = ["{LINEUP}"{", " + chr(34) + "random" + chr(34) if skill and spec.lineup != "random" else ""}]']
    if skill:
        lines += ["", "[[grid]]  # the expert in one seat: the confirmation's skill edge",
                  f"variants = [{variants}]", f"players = [{spec.players}]", f'lineups = ["{EXPERT_LINEUP[0]}"]',
                  f"games = {min(games, SKILL_GAMES)}"]
    for d in chosen:
        lines += ["", "[[comparisons]]", 'axis = "variant"', 'a = "base"', f'b = "{d.name}"']
    lines += ["", "[profile]", *(f"{k} = {toml_value(v)}" for k, v in profile_of(spec).items())]
    return "\n".join(lines) + "\n"


def _rules(overrides: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in overrides.items() if k != "deck"}


def _deck(overrides: dict[str, Any]) -> str:
    deck = overrides.get("deck")
    return f", deck = {toml_value(deck)}" if deck else ""


def export(spec: DesignSpec, design: Design, path: Path, games: int) -> Path:
    """``design`` against the base game as a study spec of its own (:func:`exported_spec`), written to ``path``."""
    write_text_atomic(path, exported_spec(spec, design, games))
    return path


def exported_spec(spec: DesignSpec, design: Design, games: int) -> str:
    """``design`` against the base game as a study spec of its own, on the design's seed of the export stream
    (:func:`unosim.design.search.export_seed`): games neither the search nor the confirmation played."""
    text = study_spec(spec, [design], games=games, seed=export_seed(spec.seed, design.trial),
                      name=f"{spec.name}_{design.name}",
                      note=f"{design.name} of the design search {spec.name} (selected by a search: its numbers "
                           f"there are optimistic) against the base game; `unosim study run` plays it afresh, "
                           f"on games neither the search nor its confirmation played.")
    _validate(text)
    return text


def _validate(text: str) -> None:
    import tomllib

    from ..analysis.profile import Profile
    from ..pipeline.study import parse_study
    parse_study(tomllib.loads(text), source="generated design spec", profile_check=Profile.from_mapping)


def search_record(spec: DesignSpec, trials, chosen: list[Design], *, games: int, seconds: float) -> dict[str, Any]:
    """What the confirmation's report says of the search (:mod:`unosim.analysis.design`, ``design.json``):
    the search, its objectives and every design it tried (``trials``: :func:`unosim.design.search.tidy_trials`)."""
    import polars as pl
    streams = seeds(spec.seed)
    complete = trials.filter(pl.col("state") == "complete") if not trials.is_empty() else trials
    search = {"search": spec.name, "variant": spec.variant, "players": spec.players, "lineup": spec.lineup,
              "tried": complete.height, "refused": trials.height - complete.height, "games": games,
              "seconds": round(seconds, 1), "confirmed": len(chosen), "confirm_games": spec.confirm_games,
              "search_seed": str(streams["search"]), "confirm_seed": str(streams["confirm"]),
              "objectives": "; ".join(g.describe() for g in spec.goals),
              "constraints": "; ".join(b.describe() for b in spec.bounds) or "none"}
    objectives = [{"objective": g.objective, "effect": _effect_measure(g.objective), "sign": g.sign,
                   "target_low": g.target[0] if g.target else None, "target_high": g.target[1] if g.target else None,
                   "described": g.describe(), "label": axis_label(g.objective)} for g in spec.goals]
    names = {d.trial for d in chosen}
    rows = trials.with_columns(confirmed=pl.col("trial").is_in(sorted(names))).to_dicts() if not trials.is_empty() else []
    return {"search": search, "objectives": objectives, "trials": rows}


def _effect_measure(objective: str) -> str | None:
    """The measure of the confirmation's effects table an objective is compared on (None: none)."""
    from ..analysis.measures import EFFECT_MEASURES
    measure = {"spread": "fairness"}.get(OBJECTIVES[objective].measure, OBJECTIVES[objective].measure)
    return measure if measure in EFFECT_MEASURES and objective != "deficit" else None


def axis_label(name: str) -> str:
    """An objective's axis label: its name and unit (the unit left out when long)."""
    return f"{name} ({OBJECTIVES[name].shown_unit})" if len(OBJECTIVES[name].shown_unit) < 40 else name


def confirmation_spec(spec: DesignSpec, chosen: list[Design], tried: int) -> str:
    """The confirmation study's spec: ``chosen`` and the base game on the confirmation seed."""
    text = study_spec(spec, chosen, games=spec.confirm_games, seed=seeds(spec.seed)["confirm"],
                      name=f"{spec.name}_confirm",
                      note=f"The top {len(chosen)} of {tried:,} designs tried by the search {spec.name}, re-played "
                           f"on fresh games (a seed the search never played) against the base game.")
    _validate(text)
    return text


def confirm(spec: DesignSpec, chosen: list[Design], directory: Path, *, record: dict[str, Any],
            n_jobs: int = -1, scheduler: str | None = None, progress: bool = False):
    """Play ``chosen`` and the base game on fresh games (the confirmation seed) as a study in
    ``directory/confirm``, with ``record`` (:func:`search_record`) as its ``design.json``; analyse it
    (checked findings, the design verdict first) and write its report; returns the dataset."""
    import tomllib

    from ..analysis.design import DESIGN_FILE
    from ..analysis.provenance import write_analysis
    from ..analysis.standard import TABLE_DIR
    from ..pipeline.runner import run_study
    from ..pipeline.study import parse_study
    from ..reporting.report import write_report
    from ..store.reader import open_dataset
    text = confirmation_spec(spec, chosen, tried=record["search"]["tried"])
    spec_path = directory / "confirm.toml"
    # a resumed search that chose other designs starts their confirmation again; the same ones resume it
    again = spec_path.exists() and spec_path.read_text(encoding="utf-8") != text
    write_text_atomic(spec_path, text)
    study = parse_study(tomllib.loads(text), source="confirmation spec")
    summary = run_study(study, directory / CONFIRM_DIR, n_jobs=n_jobs, scheduler=scheduler, progress=progress,
                        force=again)
    ds = open_dataset(summary.path)
    from ..analysis.provenance import current_tables
    text = json.dumps(record, indent=1, ensure_ascii=False, default=str) + "\n"
    old = ds.path / DESIGN_FILE
    changed = not old.is_file() or old.read_text(encoding="utf-8") != text   # a resumed search tried more
    write_text_atomic(ds.path / DESIGN_FILE, text)
    if changed or current_tables(ds) is None:
        write_analysis(ds, ds.path / TABLE_DIR)
    write_report(ds)
    return ds
