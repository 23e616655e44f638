"""The ``unosim`` command line (also ``python -m unosim``). ``unosim COMMAND --help`` for each command.

Errors print one line to stderr (``unosim: error: ...``) and exit with status 2; no tracebacks.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import threading
import time
from pathlib import Path

from ..game.checks import clip_message
from ..game.rule_table import format_value
from ..game.version import __version__
from .table import print_table
from .values import json_flag, print_json, rule_arguments, rule_overrides

EXIT_USAGE = 2
EXIT_BROKEN_PIPE = 128 + 13   # what a shell reports for a tool stopped by SIGPIPE


class _Parser(argparse.ArgumentParser):
    """argparse whose usage errors are one line, like every other error of the CLI."""

    def error(self, message: str):
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


# ---- commands ---------------------------------------------------------------------------------------
def cmd_variants(args) -> None:
    from ..game import rules
    rows = []
    for name in rules.variant_names():
        rs = rules.get_variant(name)
        rows.append({"variant": name, "family": rs.family, "min_players": rs.player_range[0],
                     "max_players": rs.max_players(), "deck_size": rs.deck_size,
                     "description": rules.variant_description(name)})
    if args.json:
        print_json(rows)
        return
    print_table([{"variant": r["variant"], "players": f"{r['min_players']}-{r['max_players']}",
                   "description": r["description"]} for r in rows])


def cmd_policies(args) -> None:
    from ..game import policies
    if args.json:
        print_json([{"policy": p.name, "description": p.doc, "parameters": list(p.params)}
                    for p in policies.POLICIES.values()])
        return
    print_table([{"policy": p.name, "description": p.doc} for p in policies.POLICIES.values()])
    print(f"\nparameters: probabilities {', '.join(policies.PROBABILITY_PARAMS)}, e.g. random(p_bluff=0.2); "
          f"weights of weighted and its presets w_points, w_wild, … (unosim/engine/policies/weighted_features.py), "
          f"e.g. by_colour(w_points=0.5); lookahead's {', '.join(policies.SEARCH_PARAMS)}, "
          f"e.g. lookahead(rollouts=64,horizon=12,rollout=by_colour)")
    print("lineups: one policy for all seats, one per seat, or 'greedy_points,random*' ('*' fills the rest)")


def cmd_rules(args) -> None:
    from ..game import rules
    rs = rules.get_variant(args.variant, rule_overrides(args))
    shown = {k: v for k, v in rs.as_dict().items()
             if k != "family" and (args.all or rules.applies(k, rs.family))}
    if args.json:
        print_json({"variant": rs.name, "family": rs.family, "key": rs.key,
                    "min_players": rs.player_range[0], "max_players": rs.max_players(),
                    "deck_size": rs.deck_size, "deck_in_effect": rs.deck_in_effect(), "rules": shown})
        return
    print(f"key: {rs.key}")
    print(f"players: {rs.player_range[0]}-{rs.max_players()}   deck: {rs.deck_size} cards   "
          f"rules: docs/rules.md")
    print("deck in effect: " + ", ".join(f"{k} {v}" for k, v in rs.deck_in_effect().items()))
    width = max(map(len, shown))
    for key, value in shown.items():
        print(f"  {key.ljust(width)}  {format_value(value)}")
    if not args.all:
        print(f"(only the rules that apply to {rs.family}; --all lists every field)")


def cmd_simulate(args) -> None:
    import polars as pl

    from .. import analysis
    from ..play.simulate import simulate
    from ..store import writer
    from ..store.layout import TABLES
    start = time.perf_counter()
    results = simulate(args.variant, players=args.players, games=args.games, seed=args.seed,
                       lineup=args.lineup, rules=rule_overrides(args), first_game=args.first_game)
    seconds = time.perf_counter() - start
    print(f"{results.rules.key}, {args.players} players, lineup {args.lineup}: {args.games:,} games, "
          f"{len(results.rounds):,} rounds in {seconds:.2f} s")
    seats = results.seats.with_columns(variant=pl.lit(results.rules.name), lineup=pl.lit(args.lineup))
    table = analysis.win_rates(seats)
    print_table(table.select("seat", "policy", "wins", "n", "estimate", "ci_low", "ci_high").to_dicts())
    if args.out:
        out = Path(args.out)
        for name in TABLES:
            writer.write_part(out / f"{name}.parquet", writer.part_table(results, name, args.lineup))
        print(f"wrote {out}/{{{','.join(TABLES)}}}.parquet")


def cmd_analyze(args) -> None:
    from ..analysis.few_games import too_few_games
    from ..analysis.standard import FINDINGS_FILE, TABLE_DIR, read_findings, read_tables
    from ..reporting.charts import CHART_DIR, charts_left_out
    from ..store.reader import open_dataset
    ds = open_dataset(args.dataset)
    profile = _profile(args.profile, ds) if args.profile else None
    start = time.perf_counter()
    out = Path(args.out or ds.path / TABLE_DIR)
    paths, charts = _write_analysis(ds, out, profile)   # checks every finding first: a contradiction raises
    csv = [p for p in paths if p.suffix == ".csv"]
    print(f"{len(csv)} tables in {out} and {len(charts)} charts (PNG, SVG) in {out / CHART_DIR} "
          f"({time.perf_counter() - start:.1f} s): {', '.join(p.stem for p in csv)}")
    print(f"{len(read_findings(out) or [])} findings, each checked against the tables: {out / FINDINGS_FILE}")
    tables = read_tables(out)
    for note in too_few_games(tables) + charts_left_out(tables):
        print(f"note: {note}")


def _profile(text: str, ds):
    """The designer's profile of ``--profile``: a TOML file (its ``[profile]`` table, or its top level),
    or ``key=wish,…`` (keys left out keep the study's profile)."""
    import tomllib

    from ..analysis.profile import Profile, ProfileError
    from ..analysis.standard import study_profile
    path = Path(text)
    try:
        if path.suffix == ".toml" or path.is_file():
            data = tomllib.loads(path.read_text(encoding="utf-8"))
            return Profile.from_mapping({**study_profile(ds).as_mapping(), **data.get("profile", data)})
        return Profile.parse(text, base=study_profile(ds))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SystemExit(f"unosim analyze: --profile {text}: {exc}") from None
    except ProfileError as exc:
        raise SystemExit(f"unosim analyze: --profile: {exc}") from None


def _write_analysis(ds, out: Path, profile=None) -> tuple[list[Path], list[str]]:
    """The standard tables of ``ds`` and their charts, written to ``out`` and bound to ``ds``; returns (the
    tables' paths, the charts' names)."""
    from ..analysis.provenance import write_analysis
    from ..reporting.charts import CHART_DIR, ChartDrawing, study_charts
    charts: list[str] = []

    def draw(tables):
        charts.extend(drawing.finish(study_charts(tables)))
        return [out / CHART_DIR / f"{name}.{kind}" for name in charts for kind in ("svg", "png")]

    with ChartDrawing(out / CHART_DIR) as drawing:   # the charts of the cells' tables start before the comparisons
        return write_analysis(ds, out, draw, draw_early=drawing.start, profile=profile)[1], charts


def cmd_report(args) -> None:
    """Analyses first when ``<dataset>/analysis`` is not current (the report itself only renders)."""
    from ..analysis.provenance import current_tables
    from ..analysis.standard import TABLE_DIR
    from ..reporting.report import write_report
    from ..store.reader import open_dataset
    ds = open_dataset(args.dataset)
    if current_tables(ds) is None:
        _write_analysis(ds, ds.path / TABLE_DIR)
    path = write_report(ds, args.out)
    print(f"report: {path.resolve()}")


def cmd_replay(args) -> None:
    from .. import replay
    print(replay(args.variant, players=args.players, seed=args.seed, game=args.game, lineup=args.lineup,
                 rules=rule_overrides(args) or None))


def cmd_explore(args) -> None:
    from ..explore import serve
    try:
        serve(host=args.host, port=args.port, open_browser=not args.no_browser)
    except KeyboardInterrupt:
        pass


# ---- parser -----------------------------------------------------------------------------------------
def _cell_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("variant", help="a registered variant (see `unosim variants`)")
    p.add_argument("--players", "-n", type=int, required=True, help="number of players")
    p.add_argument("--seed", type=int, required=True, help="the seed (game g depends only on seed and g)")
    p.add_argument("--lineup", default="random", help="policies by seat, e.g. 'greedy_points,random*'")
    rule_arguments(p)


def build_parser() -> argparse.ArgumentParser:
    from . import study as cli_study
    parser = _Parser(prog="unosim", description="Monte Carlo simulation and statistics for UNO-family games. "
                     "The rules: docs/rules.md.")
    parser.add_argument("--version", action="version", version=f"unosim {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("variants", help="list the registered variants")
    json_flag(p)
    p.set_defaults(run=cmd_variants)
    p = sub.add_parser("policies", help="list the built-in policies")
    json_flag(p)
    p.set_defaults(run=cmd_policies)

    from ..game.rule_table import help_text
    p = sub.add_parser("rules", help="show a variant's effective rules", epilog=help_text(),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("variant", help="a registered variant (see `unosim variants`)")
    rule_arguments(p)
    p.add_argument("--all", action="store_true", help="list every rule field, also those that do not apply")
    json_flag(p)
    p.set_defaults(run=cmd_rules)

    p = sub.add_parser("simulate", help="simulate one cell; print win rates, optionally write parquet")
    _cell_arguments(p)
    p.add_argument("--games", type=int, required=True, help="number of games (matches)")
    p.add_argument("--first-game", type=int, default=0, help="index of the first game (default 0)")
    p.add_argument("--out", help="directory for rounds/seats/matches.parquet")
    p.set_defaults(run=cmd_simulate)

    cli_study.add_parser(sub)

    p = sub.add_parser("analyze", help="write the standard analysis tables of a dataset (CSV) and its findings "
                                       "(findings.json), each finding checked against the tables")
    p.add_argument("dataset", help="the dataset directory, e.g. data/demo")
    p.add_argument("--out", help="directory for the tables (default: DATASET/analysis)")
    p.add_argument("--profile", metavar="WISHES", help="judge the verdicts by another designer's profile without "
                   "re-running games: 'length=shorter,skill=more' (a band: length=20-30) or a TOML file with a "
                   "[profile] table; keys left out keep the study's (docs/rules.md §8.7)")
    p.set_defaults(run=cmd_analyze)

    p = sub.add_parser("report", help="write the self-contained HTML report of a dataset")
    p.add_argument("dataset", help="the dataset directory, e.g. data/demo")
    p.add_argument("--out", help="the HTML file (default: DATASET/report.html)")
    p.set_defaults(run=cmd_report)

    p = sub.add_parser("replay", help="print one game as a readable turn-by-turn log")
    _cell_arguments(p)
    p.add_argument("--game", type=int, default=0, help="the game index (default 0)")
    p.set_defaults(run=cmd_replay)

    from ..explore import DEFAULT_PORT
    p = sub.add_parser("explore", help="the what-if explorer: a local web app comparing a rule or deck change "
                                       "with the variant, paired, in seconds")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1: this "
                                                         "machine only)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"the port (default {DEFAULT_PORT}; 0: any free port)")
    p.add_argument("--no-browser", action="store_true", help="print the URL but do not open a browser")
    p.set_defaults(run=cmd_explore)

    from . import design as cli_design
    from . import ladder as cli_ladder
    from . import tournament as cli_tournament
    from . import tune as cli_tune
    cli_tournament.add_parser(sub)
    cli_ladder.add_parser(sub)
    cli_tune.add_parser(sub)
    cli_design.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit code. ``argv`` None: this process's own command line (the ``unosim``
    script, ``python -m unosim``), which ends after the call."""
    code = _command(argv)
    if argv is None:
        _end_idle_workers()
        # the interpreter's last collections walk every object the command loaded (numba's compiled
        # functions and types: a large share of a warm `unosim simulate`); frozen objects are skipped
        gc.freeze()
    return code


def _end_idle_workers() -> None:
    """Stop the loky workers a command started (a study, a tournament, a tuning), now idle. The process
    exits next, and its exit would wait for each worker's interpreter to tear down
    (docs/results/code_choices.json)."""
    loky = sys.modules.get("joblib.externals.loky.reusable_executor")
    if loky is None:
        return
    # loky keeps the running executor in a module global; asked for it with get_reusable_executor, loky
    # would build a new one in place of an executor an interrupted call had already shut down
    executor = getattr(loky, "_executor", None)
    if executor is not None and not executor._flags.shutdown:
        executor.shutdown(wait=True, kill_workers=True)
    # A shut-down executor's call queue ends with its feeder thread, a daemon that holds the queue's last
    # reference: the queue's semaphore is released (unlinked, then unregistered from loky's resource
    # tracker) by that thread as it ends. Were the process to exit in between, the tracker would report
    # the semaphore as leaked on stderr (seen after Ctrl-C, 1 run in 50): the process waits for them.
    for thread in threading.enumerate():
        if thread.name == "QueueFeederThread" and thread is not threading.current_thread():
            thread.join(timeout=2)


def _command(argv: list[str] | None) -> int:
    args = build_parser().parse_args(argv)
    from ..pipeline.runner import RunError
    from ..pipeline.study import SpecError
    from ..store.layout import DatasetError
    try:
        args.run(args)
        sys.stdout.flush()   # a closed pipe shows up here, while we can still handle it
    except BrokenPipeError:  # the reader (e.g. `| head`) has gone: stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())   # nothing left to flush at exit
        return EXIT_BROKEN_PIPE
    except (SpecError, RunError, DatasetError, ValueError, OSError) as exc:
        print(f"unosim: error: {clip_message(str(exc))}", file=sys.stderr)
        return EXIT_USAGE
    except MemoryError:
        print("unosim: error: out of memory; ask for fewer games per call (simulate --games, or a study's "
              "--chunk-size)", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt as exc:
        print(f"unosim: interrupted{'; ' + str(exc) if str(exc) else ''}", file=sys.stderr)
        return 130
    return 0

