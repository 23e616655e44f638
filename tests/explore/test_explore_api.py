"""The explorer's JSON API as a script uses it: bad input gets HTTP 400 with the CLI's message, runs
report progress and can be cancelled while the server keeps answering, known effects come out in their
known direction, and the findings equal, sentence for sentence, what `study run` + `analyze` + `report`
say for the saved spec."""

from __future__ import annotations

import html
import time
import urllib.error
import urllib.request

import psutil
import pytest
from commands import run_unosim, unosim_explore
from explorer_client import call

from unosim.explore.comparison import MAX_GAMES


def cli_error(capsys, *args: str) -> str:
    """The error `unosim *args` prints (its command line run in this process: the message is compared here,
    the process's one-line error is tested with the CLI's own tests)."""
    from unosim.cli import main
    capsys.readouterr()
    try:
        code = main(list(args))
    except SystemExit as exc:   # an argparse error
        code = exc.code
    assert code == 2
    return capsys.readouterr().err.strip().removeprefix("unosim: error: ")


@pytest.mark.parametrize("body,cli", [
    ({"what_if": {"stackin": "any_draw"}}, ("rules", "classic", "--set", "stackin=any_draw")),
    ({"what_if": {"stacking": "sometimes"}}, ("rules", "classic", "--set", "stacking=sometimes")),
    ({"what_if": {"deck": {"draw_6": 4}}}, ("rules", "classic", "--deck", "draw_6=4")),
    ({"what_if": {"deck": {"dumb_fu": 4}}}, ("rules", "classic", "--deck", "dumb_fu=4")),
    ({"variant": "uno_flip"}, ("rules", "uno_flip")),
    ({"lineup": "random,nobody"}, ("simulate", "classic", "-n", "4", "--seed", "1", "--games", "1",
                                   "--lineup", "random,nobody")),
    ({"players": 11}, ("simulate", "classic", "-n", "11", "--seed", "1", "--games", "1")),
])
def test_bad_input_is_a_400_with_the_message_the_cli_prints(explorer, body, cli, capsys):
    status, answer = call(explorer, "/api/compare", {"games": 100, **body})
    assert status == 400
    assert answer["error"] == cli_error(capsys, *cli)


@pytest.mark.parametrize("body,message", [
    ({"games": MAX_GAMES + 1}, f"games={MAX_GAMES + 1} is invalid: valid is 1..{MAX_GAMES:,}"),
    ({"games": "many"}, "games='many' is invalid"),
    ({"rules": {}}, "unknown key 'rules' in the request: valid keys are"),
    (b"{not json", "the request body is not JSON"),
    ({"baseline": {"match_mode": "points"}}, "match_mode is set once for the comparison, by mode"),
])
def test_requests_the_cli_has_no_words_for_are_refused_naming_the_value(explorer, body, message):
    status, answer = call(explorer, "/api/compare", body)
    assert status == 400 and message in answer["error"]


def test_unknown_runs_and_tables_are_404(explorer):
    assert call(explorer, "/api/runs/r999")[0] == 404
    assert call(explorer, "/api/runs/r999", method="DELETE")[0] == 404


def test_options_list_each_variants_rules_with_descriptions_and_sections(explorer):
    status, options = call(explorer, "/api/options")
    assert status == 200
    classic = next(v for v in options["variants"] if v["name"] == "classic")
    stacking = next(r for r in classic["rules"] if r["name"] == "stacking")
    assert stacking["choices"] == ["none", "same_kind", "any_draw", "escalating"] and stacking["section"] == "4"
    assert "spin_weights" not in {r["name"] for r in classic["rules"]}
    assert "dumb_fu" not in classic["deck_classes"] and classic["deck"]["draw_two"] == 8
    assert options["max_games"] == MAX_GAMES
    assert f'src="{explorer.url}"' in explorer._repr_html_()   # what JupyterLab shows for start()


def _effect(result: dict, measure: str) -> dict:
    return next(r for r in result["tables"]["effects"] if r["measure"] == measure)


@pytest.mark.slow
def test_stacking_any_draw_makes_the_largest_hand_larger(explorer):
    status, run = call(explorer, "/api/compare?wait=1", {"games": 5000, "seed": 3,
                                                        "what_if": {"stacking": "any_draw"}})
    assert status == 200 and run["status"] == "done", run
    row = _effect(run["result"], "max_hand")
    assert row["paired"] and row["ci_low"] > 0, row
    assert any("largest hand" in f["text"] and "larger" in f["text"] for f in run["result"]["findings"])


@pytest.mark.slow
def test_more_draw_twos_make_draw_penalties_larger(explorer):
    status, run = call(explorer, "/api/compare?wait=1", {"games": 5000, "seed": 4, "baseline": {"stacking": "any_draw"},
                                                        "what_if": {"stacking": "any_draw", "deck": {"draw_two": 24}}})
    assert status == 200 and run["status"] == "done", run
    row = _effect(run["result"], "penalty")
    assert not row["paired"] and row["ci_low"] > 0, row
    assert run["result"]["decks"]["what_if"]["draw_two"] == 24 and run["result"]["paired"] is False


def test_a_run_shows_progress_and_can_be_cancelled_while_the_server_answers(explorer):
    status, run = call(explorer, "/api/compare", {"games": MAX_GAMES, "mode": "points", "what_if": {"seven_o": True}})
    assert status == 202 and run["status"] in ("queued", "running")
    deadline = time.monotonic() + 300
    state = run
    while state["games_done"] == 0 and time.monotonic() < deadline:
        time.sleep(0.1)
        state = call(explorer, f"/api/runs/{run['id']}")[1]
    assert 0 < state["games_done"] < state["games_total"] and state["status"] == "running"
    assert call(explorer, "/api/options")[0] == 200   # answered while the games play
    assert call(explorer, f"/api/runs/{run['id']}")[1]["status"] == "running"
    call(explorer, f"/api/runs/{run['id']}", method="DELETE")
    while state["status"] == "running" and time.monotonic() < deadline:
        time.sleep(0.05)
        state = call(explorer, f"/api/runs/{run['id']}")[1]
    assert state["status"] == "cancelled"
    # the fresh worker plays the next run
    status, after = call(explorer, "/api/compare?wait=1", {"games": 200, "what_if": {"seven_o": True}})
    assert status == 200 and after["status"] == "done"


@pytest.mark.slow
def test_findings_equal_those_of_the_saved_study_run_through_the_cli(explorer, tmp_path, capsys):
    body = {"games": 3000, "seed": 11, "players": 3, "lineup": "greedy_points,random*",
            "what_if": {"stacking": "any_draw", "jump_in": True}}
    status, run = call(explorer, "/api/compare?wait=1", body)
    assert status == 200 and run["status"] == "done", run
    shown = [f["text"] for f in run["result"]["findings"]]
    assert shown, "the comparison should state something"
    status, spec = call(explorer, f"/api/runs/{run['id']}/spec.toml")
    assert status == 200 and spec == run["result"]["spec"]
    (tmp_path / "what_if.toml").write_text(spec)
    from unosim.cli import main  # run and analyze in this process: what they compute is compared
    for args in (("study", "run", str(tmp_path / "what_if.toml"), "--out", str(tmp_path), "--quiet"),
                 ("analyze", str(tmp_path / "what_if"))):
        assert main(list(args)) == 0, capsys.readouterr().err
    out = run_unosim("report", str(tmp_path / "what_if"))   # and `unosim report` as a real process
    assert out.returncode == 0, out.stderr
    from unosim.analysis.standard import read_findings
    from unosim.analysis.verdicts import ranked  # the page lists them in the profile's order
    assert [c.text for c in ranked(read_findings(tmp_path / "what_if" / "analysis"))] == shown
    report = (tmp_path / "what_if" / "report.html").read_text()
    assert all(html.escape(text, quote=False) in report for text in shown)
    status, csv = call(explorer, f"/api/runs/{run['id']}/tables/effects.csv")
    assert status == 200 and csv == (tmp_path / "what_if" / "analysis" / "effects.csv").read_text()
    assert call(explorer, f"/api/runs/{run['id']}/tables/nope.csv")[0] == 404


def test_the_spec_is_a_valid_study(explorer):
    from unosim.explore.comparison import Comparison
    comparison = Comparison(what_if={"deck": {"draw_two": 12}, "stacking": "any_draw"}, lineup="greedy_points,random*")
    study = comparison.study()
    assert [c.variant for c in study.cells] == ["classic", "designer_deck_and_stacking_any_draw"]
    assert study.variants["designer_deck_and_stacking_any_draw"].deck == (("draw_two", 12),)


@pytest.mark.parametrize("body,message", [
    ({}, "the what-if changes nothing: it plays the baseline's rules and deck (the published classic)"),
    ({"baseline": {"seven_o": True}, "what_if": {"seven_o": True}},
     "the what-if changes nothing: it plays the baseline's rules and deck (seven_o = true)"),
    ({"what_if": [{"seven_o": True}, {}]}, "what-if 2 changes nothing"),
    ({"what_if": [{"seven_o": True}] * 5}, "what_if has 5 what-ifs: valid is 1..4 against one baseline"),
])
def test_a_comparison_that_changes_nothing_is_refused(explorer, body, message):
    status, answer = call(explorer, "/api/compare", {"games": 100, **body})
    assert status == 400 and message in answer["error"], answer


@pytest.mark.slow
def test_up_to_four_what_ifs_side_by_side_against_one_baseline_each_named_by_its_rule(explorer):
    body = {"games": 2000, "seed": 5, "what_if": [{"seven_o": True}, {"stacking": "any_draw"}, {"hand_size": 5}]}
    status, run = call(explorer, "/api/compare?wait=1", body)
    assert status == 200 and run["status"] == "done", run
    result = run["result"]
    assert result["names"] == {"baseline": "classic", "what_ifs": ["seven_o", "stacking_any_draw", "hand_size_5"]}
    assert run["games_total"] == 4 * 2000
    assert {v["b"] for v in result["verdicts"]} == {"seven_o", "stacking_any_draw", "hand_size_5"}
    assert all(v["a"] == "classic" for v in result["verdicts"])
    # one scorecard: a row per what-if; findings name the rule, never "what_if (vs baseline)"
    assert result["scorecard_html"].count('<tr><th scope="row">') == 3
    subjects = {f["subject"] for f in result["findings"]}
    assert "seven_o (vs classic)" in subjects and not any("what_if" in s for s in subjects)
    assert {r["b"] for r in result["tables"]["scorecard"]} == {"seven_o", "stacking_any_draw", "hand_size_5"}


def test_unosim_explore_prints_its_url_and_serves_the_page():
    process, line = unosim_explore()
    try:
        assert line.startswith("unosim explore: http://127.0.0.1:") and "Ctrl-C" in line
        url = line.split()[2]
        with urllib.request.urlopen(url, timeout=60) as response:
            page = response.read().decode()
        assert "<title>unosim — what-if explorer</title>" in page
        with urllib.request.urlopen(url + "static/app.js", timeout=60) as response:
            assert "/api/compare" in response.read().decode()
        workers = psutil.Process(process.pid).children()   # the runs' worker (and multiprocessing's tracker)
        assert workers, "the explorer plays its runs in a worker process"
    finally:
        process.terminate()
        process.wait(30)
    # the server died of SIGTERM without stopping its worker: the worker leaves on its own
    _, alive = psutil.wait_procs(workers, timeout=60)
    assert alive == [], [w.cmdline() for w in alive]


def test_a_port_in_use_is_one_clear_error(explorer):
    port = explorer.url.rsplit(":", 1)[1].strip("/")
    out = run_unosim("explore", "--port", port, "--no-browser", timeout=120)
    assert out.returncode == 2
    assert out.stderr.startswith(f"unosim: error: cannot listen on 127.0.0.1:{port}") and out.stderr.count("\n") == 1


def test_the_worker_passes_the_compile_notice_on(monkeypatch):
    """In the worker, a compile's notice (the real one, as a cold build makes it) reaches the server's queue
    as its words each tick and None at its end."""
    import io
    import queue

    from unosim.engine.compiler import notice
    from unosim.explore.jobs import _forward_compiles
    monkeypatch.setattr(notice, "_watchers", [])
    monkeypatch.setattr(notice, "TICK_S", 0.05)
    results = queue.Queue()
    _forward_compiles(results)
    with notice.CompileNotice("spin engine, every policy, lookahead included", 200, io.StringIO()):
        time.sleep(0.3)
    messages = [results.get_nowait() for _ in range(results.qsize())]
    assert {m[0] for m in messages} == {"compiling"} and messages[-1][1] is None and len(messages) >= 3
    assert messages[0][1].startswith("compiling the spin engine, every policy, lookahead included (first use")


def test_a_run_waiting_for_another_process_s_compile_says_so(explorer, monkeypatch, tmp_path):
    """A worker whose build another process is compiling (that process holds the build's compile lock) shows
    the wait on the run's state, as the CLI prints it, and clears it when the lock comes free. The worker's
    side is played here, as in the worker: the real loader waits on a real lock, its notice forwarded into
    the server's queue (a real cold build compiles for minutes, and the worker's cache is warm)."""
    import fcntl
    import os
    import threading

    from unosim.engine.compiler import cache, loader, notice
    from unosim.engine.compiler.builds import Build
    from unosim.explore.jobs import _forward_compiles
    monkeypatch.setattr(notice, "_watchers", [])
    monkeypatch.setattr(notice, "TICK_S", 0.05)
    monkeypatch.setattr(cache, "CACHE_DIR", tmp_path)
    compiled = threading.Event()   # what the other process's compile leaves in the cache
    monkeypatch.setattr(cache, "is_warm", lambda build: compiled.is_set())
    monkeypatch.setattr(loader, "_import", lambda build: None)
    monkeypatch.setattr(loader, "_first_call", lambda kernel: None)
    monkeypatch.setattr(loader, "_loaded", {})   # the stand-in kernel (None) must not outlive this test
    build = Build.full()
    other = os.open(tmp_path / f"{build.key}.lock", os.O_RDWR | os.O_CREAT)   # its own open file: its own lock
    fcntl.flock(other, fcntl.LOCK_EX)

    status, run = call(explorer, "/api/compare", {"games": MAX_GAMES, "mode": "points", "what_if": {"seven_o": True}})
    assert status == 202
    state_when = _poller(explorer, run["id"])
    state_when(lambda s: s["status"] == "running")
    _forward_compiles(explorer._runs._results)
    waiter = threading.Thread(target=loader._load, args=(build, False))
    waiter.start()
    try:
        words = state_when(lambda s: (s["compiling"] or "").endswith("s so far"))["compiling"]
        assert words.startswith(f"waiting for another process that is compiling the {build.describe()} (a first "
                                f"compile takes about"), words
        assert waiter.is_alive()
    finally:
        compiled.set()
        os.close(other)   # the other process's compile is done: its lock comes free
        waiter.join(60)
    assert not waiter.is_alive()
    assert state_when(lambda s: s["compiling"] is None)["status"] == "running"
    call(explorer, f"/api/runs/{run['id']}", method="DELETE")
    assert state_when(lambda s: s["status"] != "running")["status"] == "cancelled"


def test_a_design_search_s_compile_notice_reaches_its_state(monkeypatch, tmp_path):
    """A design search (its own process) keeps its compile notice's words, a wait for another process's
    compile included, where the explorer's state of the search reads them; they go when the notice ends."""
    import io

    from unosim.engine.compiler import notice
    from unosim.explore.design_runs import DesignRun, follow_compiles
    monkeypatch.setattr(notice, "_watchers", [])
    monkeypatch.setattr(notice, "TICK_S", 0.05)
    run = DesignRun("1", tmp_path, 1.0)   # no process yet: running
    follow_compiles(str(tmp_path))
    assert run.state()["compiling"] is None
    with notice.WaitNotice("classic engine (7-0), random/greedy policies", 90, io.StringIO()):
        time.sleep(0.2)
        words = run.state()["compiling"]
        assert words.startswith("waiting for another process that is compiling the classic engine (7-0)"), words
    assert run.state()["compiling"] is None
    with notice.CompileNotice("classic engine (7-0), random/greedy policies", 90, io.StringIO()):
        time.sleep(0.2)
        assert run.state()["compiling"].startswith("compiling the classic engine (7-0)")
    assert run.state()["compiling"] is None


def _poller(explorer, run_id: str):
    def state_when(check):
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            state = call(explorer, f"/api/runs/{run_id}")[1]
            if check(state):
                return state
            time.sleep(0.05)
        raise AssertionError(f"the run never reached the state wanted: {state['status']}, {state['compiling']!r}")
    return state_when


def test_a_run_whose_build_compiles_shows_the_notice_instead_of_no_games(explorer):
    """While the worker compiles, the run's state carries the notice's words (the page shows them); they
    go when the compile ends. The compile is the worker's message: a real cold build takes minutes."""
    status, run = call(explorer, "/api/compare", {"games": MAX_GAMES, "mode": "points", "what_if": {"seven_o": True}})
    assert status == 202 and run["compiling"] is None
    state_when = _poller(explorer, run["id"])
    state_when(lambda s: s["status"] == "running")
    words = "compiling the classic engine (7-0), random/greedy policies (first use of this build …): 12 s so far"
    explorer._runs._results.put(("compiling", words, None))
    assert state_when(lambda s: s["compiling"] is not None)["compiling"] == words
    explorer._runs._results.put(("compiling", None, None))
    assert state_when(lambda s: s["compiling"] is None)["status"] == "running"
    call(explorer, f"/api/runs/{run['id']}", method="DELETE")
    assert state_when(lambda s: s["status"] != "running")["status"] == "cancelled"
