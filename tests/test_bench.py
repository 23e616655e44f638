"""The C reference of the bench (bench/c_reference) plays the same game as unosim's kernel."""

from __future__ import annotations

import json
import shutil
import subprocess

import numpy as np
import polars as pl
import pytest

from bench import run as bench
from unosim.play.simulate import simulate

ROUNDS = 200_000


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
    from unosim.play.simulate import resolve
    from unosim.pipeline.study import parse_study
    (cell,) = parse_study(bench_spec(1000)).cells
    ruleset, lineup = resolve("classic", 4, "random", bench.rules_for("classic"))
    assert cell.ruleset == ruleset and cell.players == 4
    assert resolve(cell.ruleset, 4, cell.lineup_spec, None)[1] == lineup


@pytest.mark.slow
def test_the_bench_study_is_measured_on_started_workers(tmp_path):
    from bench.study import bench_study_run
    run = bench_study_run(tmp_path, games=4000, n_jobs=2, chunk_size=1000)
    assert run["workers_reused"]  # the measured run's parts come from the warm-up's workers
    assert run["round_rows"] == 4000 and run["bytes"]["seats"] > 0
    assert run["wall_s"] > 0 and run["cpu_s"] > 0 and run["workers_start_s"] > 0
