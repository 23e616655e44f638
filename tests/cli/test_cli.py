"""The command line: --help everywhere, one-line errors with exit status 2, the study workflow."""

from __future__ import annotations

import pytest
from commands import run_unosim
from study_specs import analysis_lock

from unosim.cli import main

COMMANDS = [[], ["variants"], ["policies"], ["rules"], ["simulate"], ["study"], ["study", "run"],
            ["study", "status"], ["analyze"], ["report"], ["replay"]]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "unosim")
def test_help_everywhere(command, capsys):
    with pytest.raises(SystemExit) as info:
        main([*command, "--help"])
    assert info.value.code == 0
    assert "usage:" in capsys.readouterr().out


@pytest.mark.parametrize("argv, expected", [
    (["rules", "clasic"], "unknown variant 'clasic'"),
    (["rules", "classic", "--set", "n_blank=9"], "n_blank=9"),
    (["rules", "classic", "--set", "n_blank"], "expected key=value"),
    (["simulate", "classic", "-n", "11", "--games", "5", "--seed", "1"], "out of range"),
    (["simulate", "classic", "-n", "3", "--games", "5", "--seed", "1", "--lineup", "bogus"], "unknown policy"),
    (["simulate", "classic", "-n", "3", "--seed", "1"], "--games"),
    (["analyze", "/nonexistent/dataset"], "not a unosim dataset"),
    (["study", "status", "/nonexistent/dataset"], "not a unosim dataset"),
    (["study", "run", "/nonexistent.toml"], "cannot read study spec"),
    (["frobnicate"], "invalid choice"),
    (["rules", "classic", "--deck", "draw_two=12", "--deck", "draw_two=4"],
     "--deck draw_two is given twice (draw_two=12 and draw_two=4): give each card class once"),
    (["rules", "classic", "--deck", "draw_two=12,wild=8,draw_two=12"], "--deck draw_two is given twice"),
    (["rules", "classic", "--set", "stacking=any_draw", "--set", "stacking=none"], "--set stacking is given twice"),
])
def test_errors_are_one_line_with_status_2(argv, expected, capsys):
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse usage errors
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and expected in err, err
    assert "Traceback" not in err


def test_listing_commands(capsys):
    assert main(["variants"]) == 0
    assert "classic" in capsys.readouterr().out
    assert main(["policies"]) == 0
    assert "greedy_points" in capsys.readouterr().out
    assert main(["rules", "minions", "--set", "p_dumbfu_fail=0.2"]) == 0
    assert "minions(p_dumbfu_fail=0.2)" in capsys.readouterr().out


def test_simulate_one_cell_to_parquet(tmp_path, capsys):
    assert main(["simulate", "classic", "-n", "3", "--games", "200", "--seed", "4", "--set",
                 "match_mode=single_round", "--out", str(tmp_path)]) == 0
    assert "estimate" in capsys.readouterr().out
    import polars as pl
    assert pl.read_parquet(tmp_path / "matches.parquet").height == 200


def test_status_analyze_report(small_dataset, tmp_path, capsys):  # noqa: F811
    assert main(["study", "status", str(small_dataset)]) == 0
    assert "complete" in capsys.readouterr().out
    assert main(["analyze", str(small_dataset), "--out", str(tmp_path / "tables")]) == 0
    assert (tmp_path / "tables" / "card_values.csv").exists()
    with analysis_lock(small_dataset):   # it analyses into the dataset unless it has a current analysis
        assert main(["report", str(small_dataset), "--out", str(tmp_path / "r.html")]) == 0
    assert "report:" in capsys.readouterr().out and (tmp_path / "r.html").exists()


def test_replay_prints_a_game(capsys):
    assert main(["replay", "classic", "-n", "3", "--seed", "1", "--game", "2"]) == 0
    assert capsys.readouterr().out.strip()


def test_python_dash_m_runs_the_cli():
    out = run_unosim("variants", check=True)
    assert "minions" in out.stdout
