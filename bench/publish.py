"""``python -m bench.publish [RESULTS]``: a `make bench` results file as the docs' benchmarks page.

Reads the JSON that :mod:`bench.run` writes (default ``data/bench-results.json``), writes
``docs/results/benchmarks.json`` (rendered by docs/gen/results_pages.py, stamped with the run's date,
commit, machine and load) and regenerates the README's one table from it (docs/gen/readme_table.py).
Nothing here measures: a figure on the page is a figure of that one run.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from unosim.store.atomic import write_text_atomic

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "results" / "benchmarks.json"
DEFAULT_RESULTS = ROOT / "data" / "bench-results.json"
ABOUT = ("Throughput and memory as `make bench` measures them: every figure beside a baseline measured in the "
         "same run (single-core `simulate()` of classic 4-player `random` single rounds), so a slow or busy host "
         "does not hide a regression; compare ratios across runs, not absolute figures. Kernel figures are per "
         "CPU-second on one core, of code loaded from the engine cache (each call on its own engine build). The "
         "C reference is `bench/c_reference/`, built with `cc -O3 -march=native` and run in the same process. "
         "Classic is played with its 108-card deck here (`n_blank = 0`); the other variants with their own "
         "decks. `python -m bench.publish` makes this page from the results file of one `make bench` run.")


def _n(value: float) -> str:
    return f"{value:,.0f}"


def _near(run: dict) -> str:
    """The baseline a study's ratio was taken against, measured just before it (results files before
    2026-11-27 used the bench's first baseline and do not say)."""
    return f", re-measured just before: {_n(run['baseline_games_per_s'])} games/s" if "baseline_games_per_s" in run else ""


def _kernel(results: dict, variant: str) -> str:
    rates = {row["players"]: row["games_per_cpu_s"] for row in results["kernel"]
             if row["variant"] == variant and row["lineup"] == "random"}
    return " / ".join(_n(rates[p]) for p in sorted(rates)) + " games/s"


def rows(results: dict[str, Any]) -> list[list[str]]:
    """The page's rows (figure, value), in the order `make bench` prints them."""
    base = results["baseline"]
    out = [["`simulate()` classic 4p with its tables (the baseline)",
            f"{_n(base['games_per_s'])} games/s ({_n(base['games_per_cpu_s'])} per CPU-s)"],
           ["kernel, classic 2 / 4 / 6 players `random`, per CPU-second", _kernel(results, "classic")]]
    cref = results.get("c_reference")
    to_c = next((row["ratio_to_c"] for row in results["kernel"] if "ratio_to_c" in row), None)
    if cref and to_c is not None:
        out.append([f"kernel classic 4p ÷ the C reference built with `cc {cref['flags']}`, same run "
                    f"(C: {_n(cref['games_per_cpu_s'])} games per CPU-s)", f"{to_c:.2f}"])
    for variant in ("minions", "spin", "no_mercy"):
        out.append([f"kernel, {variant} 2 / 4 / 6 players", _kernel(results, variant)])
    presets = [row for row in results["policies"] if row["lineup"] != "random"]
    out.append(["weighted presets ÷ `random`, classic 4p, games per CPU-s",
                ", ".join(f"`{row['lineup']}` {row['ratio']:.2f}" for row in presets)])
    out.append(["the same, turns per CPU-s (the cost of a decision)",
                ", ".join(f"`{row['lineup']}` {row['turns_ratio']:.2f}" for row in presets)])
    memory = results["memory"]
    out.append(["first call in a fresh process (warm cache, import included)", f"{memory['first_call_s']:.2f} s"])
    out.append([f"{_n(memory['simulate_games'])}-game `simulate()` in a fresh process",
                f"{memory['simulate_s']:.1f} s, peak {_n(memory['simulate_peak_mb'])} MB"])
    study = results.get("study")
    if study:
        millions = study["games"] / 1e6
        out.append([f"{millions:g}M-game study, {study['n_jobs']} ready workers",
                    f"{_n(study['games_per_s'])} games/s = {study['ratio']:.2f} × ({study['n_jobs']} × baseline"
                    f"{_near(study)}); "
                    f"{study['cpu_ratio']:.2f} per CPU-s; {study['rounds_bytes_per_row']:.2f} bytes per round row; "
                    f"the workers started in {study['workers_start_s']:.1f} s more"])
        if "cli" in study:   # results files before 2026-11-27 have no command-line run
            cli = study["cli"]
            out.append(["the same study from the command line (`unosim study run`: interpreter, workers, engine load)",
                        f"{cli['wall_s']:.1f} s = {_n(cli['games_per_s'])} games/s = {cli['ratio']:.2f} × "
                        f"({cli['n_jobs']} × baseline{_near(cli)})"])
        analyses = results["analyses"]
        out.append(["`unosim analyze` of it, fresh process",
                    f"{analyses['seconds']:.1f} s, peak {analyses['peak_rss_gb']:.2f} GB"])
    return out


def lookahead_table(results: dict[str, Any], measured: dict[str, str]) -> dict[str, Any]:
    by_variant: dict[str, dict[int, float]] = {}
    for rate in results["lookahead"]["rates"]:
        by_variant.setdefault(rate["variant"], {})[rate["players"]] = rate["games_per_cpu_s"]
    players = sorted({p for rates in by_variant.values() for p in rates})
    return {"caption": LOOKAHEAD_CAPTION,
            "setting": "one `lookahead` seat at its default budget against `random`, one core, single rounds",
            "columns": ["variant", *(f"{p} players" for p in players)],
            "rows": [[variant, *(_n(rates[p]) if p in rates else "" for p in players)]
                     for variant, rates in by_variant.items()],
            "measured": measured}


BENCH_CAPTION = "make bench"
LOOKAHEAD_CAPTION = "The expert (lookahead) in games per CPU-second"


def page(results: dict[str, Any], kept: list[dict[str, Any]] = ()) -> dict[str, Any]:
    """The page of one run; ``kept`` are tables of the old page measured apart (with their own stamp),
    which a bench run does not measure again."""
    load = results.get("load_average_at_start") or []
    machine = (f"{results['machine']}, Python {results['python']}"
               + (f", load average {load[0]:.1f} at the start" if load else ""))
    measured = {"date": results["date"], "commit": results["commit"][:10] + (" (uncommitted changes)"
                                                                             if results.get("dirty") else ""),
                "machine": machine}
    table = {"caption": BENCH_CAPTION,
             "setting": f"classic with the 108-card deck unless named; `random` in every seat unless named; "
                        f"single rounds; a {results['mode']} run of {results['seconds']:.0f} s",
             "columns": ["figure", "value"], "rows": rows(results), "measured": measured}
    return {"title": "Benchmarks", "about": ABOUT, "command": "make bench && python -m bench.publish",
            "tables": [table, lookahead_table(results, measured),
                       *(t for t in kept if t["caption"] not in (BENCH_CAPTION, LOOKAHEAD_CAPTION))],
            "measured": measured}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="?", type=Path, default=DEFAULT_RESULTS,
                        help=f"a make bench results file (default {DEFAULT_RESULTS.relative_to(ROOT)})")
    args = parser.parse_args(argv)
    if not args.results.is_file():
        parser.error(f"no results file at {args.results}: run `make bench` first")
    kept = [t for t in json.loads(PAGE.read_text())["tables"] if "measured" in t] if PAGE.is_file() else []
    text = json.dumps(page(json.loads(args.results.read_text()), kept), indent=1, ensure_ascii=False)
    write_text_atomic(PAGE, text + "\n")
    sys.path.insert(0, str(ROOT / "docs" / "gen"))
    import readme_table
    readme_table.rewrite()
    print(f"{PAGE.relative_to(ROOT)} and the README's table rewritten from {args.results}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
