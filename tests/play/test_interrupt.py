"""Ctrl-C reaches a long ``simulate`` call: the kernel runs in bounded calls (about a million turns
each), so Python sees SIGINT between them and raises KeyboardInterrupt (issue 12, item 1)."""

import signal
import subprocess
import sys
import time
from pathlib import Path

from commands import UNOSIM

CHILD = """
import sys, time
import unosim
unosim.simulate("classic", players=4, games=20, seed=0)   # load the compiled engine first
print("ready", flush=True)
try:
    unosim.simulate("classic", players=4, games=1_500_000, seed=1)   # about a minute of work
except KeyboardInterrupt:
    print("interrupted", time.time(), flush=True)
    sys.exit(3)
print("finished", flush=True)
"""


def test_sigint_interrupts_a_long_simulate_within_a_second_or_two():
    proc = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=Path(__file__).parents[2])
    try:
        assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
        time.sleep(1.0)   # well inside the long call
        sent = time.time()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        exited = time.time() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 3, (out, err)
    raised = float(out.split()[-1]) - sent
    assert raised < 2.0, f"KeyboardInterrupt raised {raised:.2f} s after SIGINT"
    assert exited < 10.0, f"the process took {exited:.2f} s to exit after SIGINT"


def _cpu_seconds_of(cmd: list[str]) -> float:
    """The CPU time a command takes to run to its end (its own and its children's)."""
    import resource
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, capture_output=True, cwd=Path(__file__).parents[2])
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def test_sigint_stops_the_cli_simulate_with_one_line():
    psutil = __import__("pytest").importorskip("psutil")
    cli = [*UNOSIM, "simulate", "classic", "-n", "4", "--seed", "1", "--games"]
    # imports and engine load, measured in CPU time so that a loaded machine does not move the moment the
    # signal is sent: it lands one CPU-second into the long call, not during the interpreter's start-up
    startup = _cpu_seconds_of([*cli, "10"])
    proc = subprocess.Popen([*cli, "1500000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=Path(__file__).parents[2])
    try:
        child = psutil.Process(proc.pid)
        deadline = time.monotonic() + 120
        while sum(child.cpu_times()[:2]) < startup + 1.0:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the CLI never got into its long call"
            time.sleep(0.05)
        sent = time.time()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        exited = time.time() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130 and err.strip() == "unosim: interrupted", (out, err)
    assert exited < 10.0, f"the CLI took {exited:.2f} s to exit after SIGINT"
