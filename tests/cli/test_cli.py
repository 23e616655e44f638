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


TOURNAMENT = ["tournament", "--variant", "classic", "-n", "2", "--policies", "random,greedy_points", "--games", "10",
              "--out", "/nonexistent/never_written"]
TUNE = ["tune", "--variant", "classic", "-n", "2", "--budget", "1300"]
DRAW_THREE = "draw_three:coloured,effects=draw:3,points=20,count=2"


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
    # every command that plays a variant takes its rule changes the same ways, with the same errors
    ([*TOURNAMENT, "--deck", "draw_two=banana"], "rule deck draw_two='banana' is invalid: valid is a count in 0.."),
    ([*TOURNAMENT, "--deck", "draw_two=12", "--set", "deck={draw_two=4}"], "the designer deck is given twice"),
    ([*TOURNAMENT, "--card", "draw_three:coloured,effects=teleport"], "unknown effect 'teleport' of card 'draw_three'"),
    ([*TUNE, "--deck", "draw_two=12,draw_two=4"], "--deck draw_two is given twice"),
    ([*TUNE, "--card", "draw_three:coloured,effects=teleport"], "unknown effect 'teleport' of card 'draw_three'"),
    ([*TUNE, "--card", "x:coloured,effects=draw:2", "--rule", "cards=[]"], "the declared cards are given twice"),
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


def test_a_tournament_takes_the_deck_and_declared_cards_as_every_command_does(tmp_path, capsys):
    """`unosim tournament` plays the deck and declared cards of --deck and --card, as `unosim rules` reads
    them, and says which rules it played, as a terminal shows it."""
    import json

    from commands import unosim_on_a_terminal

    from unosim.store.reader import open_dataset
    changes = ["--deck", "draw_two=12", "--card", DRAW_THREE]
    assert main(["rules", "classic", *changes, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    screen = unosim_on_a_terminal("tournament", "--variant", "classic", "-n", "2", "--policies", "random,greedy_points",
                                  "--games", "40", *changes, "--out", str(tmp_path), "--quiet", cwd=tmp_path,
                                  columns=100)
    assert f"rules: {shown['key']}" in screen.splitlines()[1]
    assert "greedy_points" in screen and "Traceback" not in screen
    cells = open_dataset(tmp_path / "tournament_classic_p2").manifest["study"]["cells"]   # one per arrangement
    (played,) = {cell["rules_key"] for cell in cells}
    assert "deck=[draw_two:12]" in played and "cards=[draw_three:coloured" in played
