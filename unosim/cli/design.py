"""The ``unosim design`` command: search the rules and deck for the game a designer wants."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_parser(sub) -> None:
    from ..design import DEFAULT_OUT
    p = sub.add_parser("design", help="search the rules and deck for the game you want (SPEC.toml with a "
                                      "[design] table); confirms the top designs on fresh games",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    _objectives_when_help_shows(p)
    p.add_argument("spec", help="a TOML file with a [design] table (docs/tutorials/design.md)")
    p.add_argument("--out", default=DEFAULT_OUT, help=f"the parent directory of the design's output (default "
                                                      f"{DEFAULT_OUT}/): <out>/<name>/")
    p.add_argument("--space", action="store_true", help="print the search space (rules and card counts with their "
                                                        "values) and stop")
    p.add_argument("--export", metavar="TRIAL", type=int,
                   help="write the design of this trial against the base game as a study spec, and stop")
    p.add_argument("--to", metavar="FILE", help="the file --export writes (default: print it)")
    p.add_argument("--no-confirm", action="store_true", help="stop after the search (no fresh games)")
    p.add_argument("--n-jobs", type=int, default=-1, help="parallel workers (default -1: all cores)")
    p.add_argument("--scheduler", help="a dask scheduler: 'local' or tcp://host:8786 (default: here, on threads)")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.set_defaults(run=cmd_design)


def _objectives_when_help_shows(parser: argparse.ArgumentParser) -> None:
    """The objectives' text ends ``unosim design --help``; it is written only when help shows, because it
    imports the analyses (scipy, numba), which every other command's start-up would pay for."""
    show = parser.format_help

    def format_help() -> str:
        from ..design.objectives import help_text
        parser.epilog = help_text()
        return show()
    parser.format_help = format_help


def cmd_design(args) -> None:
    from ..design import design
    from ..design.spec import load
    spec = load(args.spec)
    if args.space:
        from .table import print_table
        print_table(spec.space.describe())
        print(f"{len(spec.space.dimensions)} dimensions, {spec.space.size():.3g} designs; fixed: "
              f"{spec.space.fixed or 'nothing'}")
        return
    directory = Path(args.out) / spec.name
    if args.export is not None:
        _export(spec, directory, args.export, args.to)
        return
    again = f"`unosim design {args.spec} --out {args.out}`"
    try:
        design(args.spec, out=args.out, n_jobs=args.n_jobs, scheduler=args.scheduler,
               progress=not args.quiet and sys.stderr.isatty(), confirm=not args.no_confirm, say=print)
    except KeyboardInterrupt:
        raise KeyboardInterrupt(f"the trials so far are kept in {directory}: run {again} again to resume") from None


def _export(spec, directory: Path, trial: int, to: str | None) -> None:
    import optuna

    from ..design import DesignSpecError
    from ..design.confirm import designs, export, exported_spec
    from ..design.search import JOURNAL, storage
    if not (directory / JOURNAL).exists():
        raise DesignSpecError(f"{directory} holds no search: run `unosim design` first")
    found = {d.trial: d for d in designs(optuna.load_study(study_name=spec.name, storage=storage(directory)))}
    if trial not in found:
        raise DesignSpecError(f"trial {trial} is not a completed design of {directory}: valid are "
                              f"{min(found, default=0)}..{max(found, default=0)} (completed ones)")
    games = spec.confirm_games or 20_000
    if to:
        export(spec, found[trial], Path(to), games)
        print(f"wrote {to}: design_{trial} against the base game; run it with `unosim study run {to}`")
    else:
        print(exported_spec(spec, found[trial], games), end="")
