"""The command line as a terminal shows it: --version, closed pipes, --set formats, rules per variant,
--json, usage of the analyses scripts, published game names and one number format in messages."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from commands import UNOSIM, run_unosim

import unosim
from unosim.cli.values import parse_value
from unosim.game import rules

ROOT = Path(__file__).parents[2]


def run(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """`unosim *args` through cli.main in this process, its output captured as a pipe would get it (the
    tests of a real process below: --version, closed pipes, the analyses scripts)."""
    import contextlib
    import io

    from unosim.cli import main
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        try:
            code = main(list(args))
        except SystemExit as exc:   # argparse: --help, usage errors
            code = exc.code or 0
    out = subprocess.CompletedProcess(["unosim", *args], code, stdout.getvalue(), stderr.getvalue())
    if check:
        assert out.returncode == 0, out.stderr
    return out


def process(*args: str) -> subprocess.CompletedProcess:
    """`python -m unosim *args` as a real process (one per command that no other test runs as one)."""
    return run_unosim(*args, cwd=ROOT)


def rule_key(*sets: str) -> str:
    out = run("rules", "classic", *(a for s in sets for a in ("--set", s))).stdout
    return out.splitlines()[0].removeprefix("key: ")


def test_version():
    out = process("--version")
    assert out.returncode == 0 and out.stdout.strip() == f"unosim {unosim.__version__}"


def test_closed_pipe_ends_quietly():
    """The reader is gone before unosim writes (like `unosim replay ... | head` once head has quit)."""
    proc = subprocess.Popen([*UNOSIM, "rules", "classic", "--all"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()
    stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141   # 128 + SIGPIPE, what a shell shows for `yes | head`
    assert stderr == ""


def test_pipe_into_head_in_a_shell():
    command = f"set -o pipefail; {sys.executable} -m unosim rules classic --all | head -n 1"
    out = subprocess.run(["bash", "-c", command], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.startswith("key: classic")
    assert "Broken pipe" not in out.stderr and "Traceback" not in out.stderr
    assert out.returncode in (0, 141)   # 0 when unosim finished writing before head quit


@pytest.mark.parametrize("value", [
    "plain_wild,swap_hands,others_draw_1",          # what people type
    "[plain_wild;swap_hands;others_draw_1]",        # what the rule key prints
    "plain_wild;swap_hands;others_draw_1",
    '["plain_wild", "swap_hands", "others_draw_1"]',  # TOML
])
def test_set_accepts_toml_and_the_rule_key_format(value):
    assert rule_key(f"blank_effects={value}") == "classic(blank_effects=[plain_wild;swap_hands;others_draw_1])"


def test_a_printed_rule_key_pastes_back_into_set():
    key = rule_key("p_forget_uno=0.1,0.2,0,0", "stacking=any_draw", "mercy_limit=30", "jump_in=true")
    assert key == ("classic(p_forget_uno=[0.1;0.2;0.0;0.0],stacking=any_draw,jump_in=true,mercy_limit=30)")
    pasted = key[len("classic("):-1].split(",")   # lists print with ';', so ',' separates the rules
    assert rule_key(*pasted) == key
    assert rule_key("mercy_limit=none") == "classic"


def test_parse_value_scalars_and_lists():
    assert parse_value("true") is True and parse_value("0.5") == 0.5 and parse_value("3") == 3
    assert parse_value("none") is None and parse_value("any_draw") == "any_draw"
    assert parse_value("[1;2]") == [1, 2] and parse_value("[1, 2]") == [1, 2]


def test_set_help_documents_both_formats():
    text = run("rules", "--help").stdout
    assert "TOML" in text and "a,b,c" in text and "--all" in text and "--json" in text


def test_rules_list_only_what_applies_and_all_lists_everything():
    def fields(*args):
        return {line.split()[0] for line in run("rules", *args).stdout.splitlines() if line.startswith("  ")}

    classic, no_mercy, spin = fields("classic"), fields("no_mercy"), fields("spin")
    assert {"n_blank", "blank_effects", "wd4_challenge", "stacking"} <= classic
    assert not {"spin_weights", "shout_weight", "p_dumbfu_fail", "dumbfu_penalty"} & classic
    assert {"spin_weights", "shout_weight", "spin_first_card_spins"} <= spin and "n_blank" not in spin
    assert "p_dumbfu_fail" in fields("minions") and "spin_weights" not in fields("minions")
    assert not {"wd4_challenge", "no_bluffing", "n_blank", "spin_weights"} & no_mercy
    assert fields("classic", "--all") == set(rules.RULE_KEYS)


def test_json_listings():
    variants = json.loads(run("variants", "--json").stdout)
    assert [v["variant"] for v in variants] == rules.variant_names()
    assert all(v["min_players"] == 2 and v["deck_size"] > 100 for v in variants)
    done = process("policies", "--json")
    assert done.returncode == 0, done.stderr
    policies = json.loads(done.stdout)
    assert {p["policy"] for p in policies} == {"random", "greedy_points", "keep_wilds", "weighted", "by_colour",
                                               "by_number", "high_card_out", "save_wilds", "punisher",
                                               "colour_counter", "lookahead"}
    assert next(p for p in policies if p["policy"] == "random")["parameters"] == ["p_draw", "p_bluff",
                                                                                   "p_challenge", "p_keep_drawn"]
    spec = json.loads(run("rules", "no_mercy", "--set", "target=300", "--json").stdout)
    assert spec["key"] == "no_mercy(target=300)" and spec["rules"]["mercy_limit"] == 25
    assert "wd4_challenge" not in spec["rules"]
    assert "wd4_challenge" in json.loads(run("rules", "no_mercy", "--all", "--json").stdout)["rules"]


def test_study_status_json(small_dataset):  # noqa: F811
    status = json.loads(run("study", "status", str(small_dataset), "--json").stdout)
    assert status["status"] == "complete"
    assert status["games_done"] == status["games"] == sum(c["games"] for c in status["cells"])
    assert all(c["status"] == "complete" and c["jobs_done"] == c["jobs"] for c in status["cells"])


def test_variant_descriptions_name_the_published_games():
    text = run("variants").stdout
    for game in ("Wild Customizable", "UNO Minions (Dumb Fu)", "UNO Spin", "UNO Show 'em No Mercy"):
        assert game in text
    assert "seed" not in text.lower()


def test_numbers_in_messages_have_thousands_separators(small_dataset, tmp_path):  # noqa: F811
    from unosim.store.manifest import read_manifest, write_manifest
    root = shutil.copytree(small_dataset, tmp_path / "copy")
    manifest = read_manifest(root)
    manifest["status"] = "running"
    manifest["cells"]["classic-p2-random"]["games_done"] = 0
    write_manifest(root, manifest)
    out = process("analyze", str(root))
    assert out.returncode == 2
    assert "5,400 of 6,000 games" in out.stderr


@pytest.mark.parametrize("script", ["win_rates", "card_values", "comparisons"])
@pytest.mark.parametrize("args", [[], ["/nonexistent/dataset"]], ids=["no-argument", "not-a-dataset"])
def test_analyses_scripts_print_their_usage(script, args, monkeypatch, capsys):
    """Run as `python analyses/<script>.py *args` would run it, in this process (test_analysis_scripts runs
    each script as a real process): an exception would escape here instead of printing a traceback."""
    import runpy
    path = ROOT / "analyses" / f"{script}.py"
    monkeypatch.setattr(sys, "argv", [str(path), *args])
    with pytest.raises(SystemExit) as exit_:
        runpy.run_path(str(path), run_name="__main__")
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: {script}.py") and "Traceback" not in err


@pytest.mark.skipif(not (ROOT / ".venv" / "bin" / "activate").exists() or not shutil.which("make"),
                    reason="needs the repository's .venv (make install) and make")
def test_make_shell_puts_the_venv_first_on_the_path():
    commands = "command -v unosim; command -v python; exit\n"
    out = subprocess.run(["make", "-s", "-o", "install", "-o", ".venv/.installed", "shell"], input=commands,
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    found = [line for line in out.stdout.splitlines() if line.startswith("/")]
    assert found == [str(ROOT / ".venv" / "bin" / "unosim"), str(ROOT / ".venv" / "bin" / "python")], out
