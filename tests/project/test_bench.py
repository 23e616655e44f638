"""The bench: its C reference (bench/c_reference) plays the same game as unosim's kernel, its study
plays the baseline's game, and its results become the docs' benchmarks page (bench/publish.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from bench import run as bench
from unosim.play.simulate import simulate

ROUNDS = 200_000
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_c_reference_plays_classic_four_player_rounds_like_the_kernel(tmp_path):
    binary = tmp_path / "classic_rounds"
    subprocess.run(["cc", *bench.C_FLAGS, "-o", str(binary), str(bench.C_REFERENCE / "classic_rounds.c")],
                   check=True)
    c = json.loads(subprocess.run([str(binary), str(ROUNDS), "3"], check=True, capture_output=True,
                                  text=True).stdout)
    res = simulate("classic", players=4, games=ROUNDS, seed=3, rules=bench.rules_for("classic"))
    turns, points = res.rounds["n_turns"], res.rounds["points"]
    assert c["rounds"] == ROUNDS and c["truncated"] == 0
    assert abs(c["mean_turns"] - turns.mean()) < 5 * turns.std() * np.sqrt(2 / ROUNDS)
    assert abs(c["mean_points"] - points.mean()) < 5 * points.std() * np.sqrt(2 / ROUNDS)
    assert c["stalemates"] == (res.rounds["end"] == "stalemate").sum()  # both essentially never
    kernel = res.seats.group_by("rel_dealer").agg(pl.col("won").mean()).sort("rel_dealer")["won"].to_numpy()
    shares = np.array(c["wins_by_rel_dealer"]) / ROUNDS
    se = np.sqrt(kernel * (1 - kernel) * 2 / ROUNDS)
    assert np.all(np.abs(shares - kernel) < 5 * se), (shares, kernel)
    assert shares[1] - shares[0] > 10 * se[0]  # the seat left of the dealer plays first and wins more


def test_the_bench_study_plays_the_baselines_game():
    from bench.study import bench_spec
    from unosim.pipeline.study import parse_study
    from unosim.play.simulate import resolve
    (cell,) = parse_study(bench_spec(1000)).cells
    ruleset, lineup = resolve("classic", 4, "random", bench.rules_for("classic"))
    assert cell.ruleset == ruleset and cell.players == 4
    assert resolve(cell.ruleset, 4, cell.lineup_spec, None)[1] == lineup


def test_the_bench_spec_file_is_the_bench_study():
    import tomllib

    from bench.study import SPEC_TOML, bench_spec
    assert tomllib.loads(SPEC_TOML.format(name="bench", games=1000)) == bench_spec(1000)


@pytest.mark.slow
def test_the_bench_study_from_the_command_line_writes_the_dataset(tmp_path):
    from bench.study import bench_study_cli
    from unosim.store.manifest import read_manifest
    run = bench_study_cli(tmp_path, games=2000, n_jobs=2)
    assert run["wall_s"] > 0 and run["games"] == 2000
    assert read_manifest(tmp_path / "bench_cli")["status"] == "complete"


@pytest.mark.slow
def test_the_bench_study_is_measured_on_started_workers(tmp_path):
    from bench.study import bench_study_run
    run = bench_study_run(tmp_path, games=4000, n_jobs=2, chunk_size=1000)
    assert run["workers_reused"]  # the measured run's parts come from the warm-up's workers
    assert run["round_rows"] == 4000 and run["bytes"]["seats"] > 0
    assert run["wall_s"] > 0 and run["cpu_s"] > 0 and run["workers_start_s"] > 0


def _results(players=(2, 4, 6)) -> dict:
    """A results file as bench.run writes it (its keys; the figures are inputs, not expectations)."""
    kernel = [{"variant": v, "players": p, "lineup": "random", "games_per_s": 1000 * p, "games_per_cpu_s": 2000 * p + k,
               "ratio": 1.0, **({"ratio_to_c": 0.43} if (v, p) == ("classic", 4) else {})}
              for k, v in enumerate(("classic", "minions", "spin", "no_mercy")) for p in players]
    return {"commit": "6f5f3297891b5b73e5875bbd32cb8a1d28c6cbb0", "dirty": False, "date": "2026-11-27T11:01:56+0000",
            "mode": "default", "python": "3.11.7", "machine": "AMD EPYC, 2 cores, Linux",
            "load_average_at_start": [4.8, 3.8, 3.1], "seconds": 790.0,
            "baseline": {"games_per_s": 101422, "games_per_cpu_s": 204830},
            "c_reference": {"games_per_cpu_s": 627313, "flags": "-O3 -march=native"}, "kernel": kernel,
            "policies": [{"lineup": "random", "ratio": 1.0, "turns_ratio": 1.0},
                         {"lineup": "by_colour", "ratio": 0.79, "turns_ratio": 0.66}],
            "lookahead": {"rates": [{"variant": "classic", "players": p, "games_per_cpu_s": 100 + p} for p in players]},
            "memory": {"first_call_s": 2.65, "simulate_games": 200000, "simulate_s": 3.8, "simulate_peak_mb": 460},
            "study": {"games": 2_000_000, "n_jobs": 2, "games_per_s": 126520, "ratio": 0.624, "cpu_ratio": 0.686,
                      "rounds_bytes_per_row": 5.94, "workers_start_s": 8.15,
                      "cli": {"games": 2_000_000, "n_jobs": 2, "wall_s": 10.4, "games_per_s": 192_308, "ratio": 0.948,
                              "baseline_games_per_s": 101_431}},
            "analyses": {"seconds": 9.43, "peak_rss_gb": 0.65}}


def test_the_benchmarks_page_is_made_from_one_runs_results_with_its_stamp():
    from bench import publish
    sys.path.insert(0, str(ROOT / "docs" / "gen"))
    import readme_table

    page = publish.page(_results())
    table = page["tables"][0]
    assert table["measured"] == page["measured"] == {
        "date": "2026-11-27T11:01:56+0000", "commit": "6f5f329789",
        "machine": "AMD EPYC, 2 cores, Linux, Python 3.11.7, load average 4.8 at the start"}
    figures = dict(table["rows"])
    assert figures["kernel, classic 2 / 4 / 6 players `random`, per CPU-second"] == "4,000 / 8,000 / 12,000 games/s"
    assert figures["kernel, no_mercy 2 / 4 / 6 players"] == "4,003 / 8,003 / 12,003 games/s"
    assert next(v for k, v in figures.items() if k.startswith("kernel classic 4p ÷ the C reference")) == "0.43"
    assert "(C: 627,313 games per CPU-s)" in next(k for k in figures if "C reference" in k)
    assert figures["weighted presets ÷ `random`, classic 4p, games per CPU-s"] == "`by_colour` 0.79"
    assert figures["2M-game study, 2 ready workers"].startswith("126,520 games/s = 0.62 × (2 × baseline)")
    assert next(v for k, v in figures.items() if k.startswith("the same study from the command line")) == \
        "10.4 s = 192,308 games/s = 0.95 × (2 × baseline, re-measured just before: 101,431 games/s)"
    # every row the README shows is on the page
    for start in readme_table.ROWS:
        assert any(row[0].startswith(start) for row in table["rows"]), start
    look = page["tables"][1]
    assert look["columns"] == ["variant", "2 players", "4 players", "6 players"]
    assert look["rows"] == [["classic", "102", "104", "106"]] and look["measured"] == page["measured"]
    # a table measured apart keeps its own stamp; the old bench and lookahead tables are replaced
    apart = {"caption": "Cost of the game-quality counters", "measured": {"date": "d", "commit": "c", "machine": "m"}}
    kept = publish.page(_results(), [apart, {**look, "rows": []}])["tables"]
    assert [t["caption"] for t in kept] == [table["caption"], look["caption"], apart["caption"]]
    assert kept[1]["rows"]
    # a run without the study (--no-study) still makes a page, without its rows
    results = _results()
    del results["study"], results["analyses"]
    assert not any("study" in row[0] for row in publish.page(results)["tables"][0]["rows"])


def test_the_game_hashes_cover_every_family_rule_and_policy_and_ignore_column_order():
    """bench.game_hashes (the check that a restructure keeps the games): its configurations set every rule
    of the rule table to a value other than its default, in every family and with every built-in policy;
    its table hash matches columns by name, so a pure reorder is no change, and any changed cell is one."""
    import numpy as np

    from bench import game_hashes
    from unosim.game import policies, rule_table

    configs = game_hashes.configurations()
    assert {c["variant"] for c in configs} == set(game_hashes.FAMILIES)
    for rule in rule_table.PARAMETERS:
        assert any(rule.name in c["rules"] and c["rules"][rule.name] != rule.default for c in configs), rule.name
    lineups = " ".join(c["lineup"] for c in configs)
    assert all(name in lineups for name in policies.POLICIES)
    assert {c["players"] for c in configs} == {2, 3, 4, 5, 6}
    table = np.arange(12).reshape(4, 3)
    same = game_hashes._hash_table(table, ("a", "b", "c"))
    assert game_hashes._hash_table(table[:, [2, 0, 1]], ("c", "a", "b")) == same
    changed = table.copy()
    changed[3, 1] += 1
    assert game_hashes._hash_table(changed, ("a", "b", "c")) != same
