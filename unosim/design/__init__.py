"""Design search: find the rule set and deck that make the game a designer wants (``unosim design``).

:mod:`.objectives` (what can be asked, named from :mod:`unosim.analysis.measures`), :mod:`.space` (the
searched rules and card counts, from the rule table and the designer deck), :mod:`.spec` (the ``[design]``
table), :mod:`.evaluate` (a design played on a block of games), :mod:`.search` (Optuna with racing on
common seeds, trials in a journal file), :mod:`.confirm` (the top designs re-played on fresh games as a
study, analysed and checked like any study; its report opens with the design verdict and the Pareto chart:
:mod:`unosim.analysis.design`).
Statistics of selection and confirmation: docs/rules.md §8.8.
"""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import DesignSpecError

if TYPE_CHECKING:
    import polars as pl

DEFAULT_OUT = "designs"
__all__ = ["design", "DesignSpecError"]


def design(spec: str | Path | dict | None = None, *, out: str | Path = DEFAULT_OUT, n_jobs: int = -1,
           scheduler: str | None = None, progress: bool = False, confirm: bool = True,
           say=None, **table: Any) -> pl.DataFrame:
    """Run (or resume) a design search and confirm its top designs; returns one row per design tried.

    ``spec``: a TOML file with a ``[design]`` table, or the table as a dict; or give its keys as keyword
    arguments (``variant="classic", players=4, objectives={"length": [20, 30]}, budget={"games":
    500_000}``; :mod:`unosim.design.spec`). The search's trials, the confirmation study, each confirmed
    design's study spec (``designs/``) go to ``<out>/<name>/``; the confirmation study's ``report.html``
    opens with the design verdict and the Pareto chart. Running again resumes the search with its trials
    kept (a larger budget goes on searching). ``confirm=False`` stops after the search. ``say``: a function given one line per step (the command line prints them).

    The frame (tidy, polars): ``trial``, ``batch``, ``state``, ``rung``, ``games``, each objective's number
    on the design's search games and ``base_<objective>`` (the base game's on the same games),
    ``violation``, ``feasible``, ``pareto``, the searched values, ``refused`` and ``confirmed``.
    """
    import polars as pl

    from . import confirm as confirming
    from .search import run_search, tidy_trials
    from .spec import load, parse
    say = say or (lambda line: None)
    if spec is not None and table:
        raise DesignSpecError("give a spec or its keys, not both")
    parsed = load(spec) if isinstance(spec, (str, Path)) else parse(spec if spec is not None else table)
    directory = Path(out) / parsed.name
    study = run_search(parsed, directory, n_jobs=n_jobs, scheduler=scheduler, progress=progress)
    trials = tidy_trials(study, parsed)
    games, seconds = int(study.user_attrs.get("games", 0)), float(study.user_attrs.get("seconds", 0))
    found = confirming.designs(study)
    say(f"{directory}: {len(found):,} designs tried ({games:,} games, {seconds:.0f} s of search)")
    if not found:
        raise DesignSpecError(f"the search completed no design (every one was refused by the rules: see the "
                              f"'refused' column of {directory}); widen the space")
    chosen = confirming.select(found, parsed)
    if not any(d.feasible for d in found):
        say("no design satisfies the constraints; the closest: "
            + ", ".join(f"design_{d.trial} (violation {d.violation:.3g})" for d in chosen))
        return trials.with_columns(confirmed=pl.lit(False))
    for d in chosen:
        confirming.export(parsed, d, directory / confirming.SPECS_DIR / f"{d.name}.toml",
                          parsed.confirm_games or 20_000)
    if not (confirm and parsed.confirm_games):
        say("not confirmed (no fresh games): the search's numbers of its top designs are optimistic; their "
            f"study specs are in {directory / confirming.SPECS_DIR}")
        return trials.with_columns(confirmed=pl.lit(False))
    say(f"confirming the top {len(chosen)} on {parsed.confirm_games:,} fresh games each: "
        + ", ".join(d.name for d in chosen))
    record = confirming.search_record(parsed, trials, chosen, games=games, seconds=seconds)
    ds = confirming.confirm(parsed, chosen, directory, record=record, n_jobs=n_jobs,
                            scheduler=scheduler, progress=progress)
    say(f"report (the design verdict first): {ds.path / 'report.html'}")
    return trials.with_columns(confirmed=pl.col("trial").is_in([d.trial for d in chosen]))


class _CallablePackage(types.ModuleType):
    """This package, callable as :func:`design`: ``unosim.design(...)`` works whether ``unosim.design``
    is reached as the package (imported first, e.g. by ``from unosim.design import spec``) or as the
    function (``unosim``'s lazy entry points)."""

    def __call__(self, *args, **kwargs):
        return design(*args, **kwargs)


sys.modules[__name__].__class__ = _CallablePackage
