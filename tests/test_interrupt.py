"""Ctrl-C reaches a long ``simulate`` call: the kernel runs in bounded calls (about a million turns
each), so Python sees SIGINT between them and raises KeyboardInterrupt (issue 12, item 1)."""

import signal
import subprocess
import sys
import time
from pathlib import Path

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
                            text=True, cwd=Path(__file__).parents[1])
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


def test_sigint_stops_the_cli_simulate_with_one_line():
    import unosim
    unosim.simulate("classic", players=4, games=10, seed=1)   # the engine is compiled before the clock starts
    cmd = [sys.executable, "-m", "unosim", "simulate", "classic", "-n", "4", "--seed", "1", "--games", "1500000"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=Path(__file__).parents[1])
    try:
        time.sleep(4.0)   # imports, engine load, then well inside the long call
        assert proc.poll() is None, proc.communicate()
        sent = time.time()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
        exited = time.time() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130 and err.strip() == "unosim: interrupted", (out, err)
    assert exited < 10.0, f"the CLI took {exited:.2f} s to exit after SIGINT"
