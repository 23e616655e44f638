"""The explorer's lifecycle: Ctrl-C while a script waits on a run ends it within 5 s with one line and
no worker left; its worker dies with it after a kill -9, even inside a run; --port and --host are
checked in one line, and listening beyond this machine is warned about."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request

import psutil
import pytest
from commands import run_unosim, unosim_explore


def _explorer(*args: str) -> tuple[subprocess.Popen, str]:
    process, line = unosim_explore(*args, start_new_session=True)   # its own process group, as a terminal gives it
    assert "unosim explore: http://" in line, line + process.stderr.read()
    return process, line.split()[2]


def _wait_on_a_long_run(url: str) -> threading.Thread:
    """A script's `POST /api/compare?wait=1` of hours of games, in a thread; returns once it is playing."""
    def post():
        request = urllib.request.Request(url + "api/compare?wait=1", data=json.dumps({"games": 200_000, "what_if": {"seven_o": True}}).encode(),
                                         headers={"Content-Type": "application/json"})
        try:
            urllib.request.urlopen(request, timeout=60).read()
        except (urllib.error.URLError, ConnectionError):
            pass
    thread = threading.Thread(target=post, daemon=True)
    thread.start()
    for _ in range(600):
        try:
            with urllib.request.urlopen(url + "api/runs/r1", timeout=10) as response:
                if json.load(response)["status"] == "running":
                    return thread
        except urllib.error.HTTPError as exc:   # 404 until the post is in
            assert exc.code == 404
        time.sleep(0.1)
    raise AssertionError("the run never started")


def test_ctrl_c_while_a_script_waits_ends_in_5_s_with_one_line_and_no_worker(tmp_path):
    process, url = _explorer()
    workers = psutil.Process(process.pid).children(recursive=True)
    _wait_on_a_long_run(url)
    started = time.perf_counter()
    os.killpg(process.pid, signal.SIGINT)   # Ctrl-C: the whole foreground group, workers included
    out, err = process.communicate(timeout=30)
    assert time.perf_counter() - started <= 5
    assert process.returncode == 0
    assert out == "unosim explore: stopped; 1 unfinished run(s) cancelled\n" and err == ""
    # within the same 5 s, every child is gone too (the multiprocessing helpers leave when their pipe closes)
    _, alive = psutil.wait_procs(workers, timeout=max(0.1, 5 - (time.perf_counter() - started)))
    assert [w for w in alive if w.status() != psutil.STATUS_ZOMBIE] == [], [w.cmdline() for w in alive]


def test_the_worker_dies_with_a_killed_server_even_inside_a_run():
    process, url = _explorer()
    _wait_on_a_long_run(url)
    workers = psutil.Process(process.pid).children(recursive=True)
    assert workers
    process.kill()
    process.communicate(timeout=30)
    _, alive = psutil.wait_procs(workers, timeout=10)
    assert alive == [], [w.cmdline() for w in alive]


@pytest.mark.parametrize("args, message", [
    (["--port", "99999"], "unosim: error: --port 99999 is invalid: valid is 1..65535 (0: any free port)"),
    (["--port", "-3"], "unosim: error: --port -3 is invalid: valid is 1..65535"),
    (["--host", "no-such-host.invalid"], "unosim: error: --host 'no-such-host.invalid' is invalid"),
    (["--host", "192.0.2.1", "--port", "0"], "unosim: error: cannot listen on 192.0.2.1:0 (Cannot assign requested "
                                             "address); choose another --host"),
])
def test_a_bad_port_or_host_is_one_line(args, message):
    out = run_unosim("explore", "--no-browser", *args, timeout=120)
    assert out.returncode == 2 and out.stderr.startswith(message) and out.stderr.count("\n") == 1, out.stderr


def test_listening_beyond_this_machine_is_warned_about():
    process, line = unosim_explore("--host", "0.0.0.0")
    assert line.startswith("unosim explore: http://0.0.0.0:")
    process.terminate()   # SIGTERM stops it as Ctrl-C does
    out, err = process.communicate(timeout=30)
    assert err.startswith("unosim explore: warning: listening on 0.0.0.0, beyond this machine")
    assert err.count("\n") == 1 and out == "unosim explore: stopped\n"
