"""`unosim` as a user runs it, in a real process: its output as a pipe gets it (:func:`run_unosim`) or as a
terminal of a given width shows it (:func:`unosim_on_a_terminal`). :data:`UNOSIM` starts it for the tests
that drive the process themselves (signals, a server, a kill mid-run)."""

from __future__ import annotations

import os
import subprocess
import sys

from terminal import on_a_terminal

UNOSIM = (sys.executable, "-m", "unosim")


def run_unosim(*args: str, cwd=None, env: dict[str, str] | None = None, timeout: float = 300,
           check: bool = False) -> subprocess.CompletedProcess:
    """``python -m unosim ARGS`` run to its end, stdout and stderr captured as text (``check``: it must exit 0)."""
    out = subprocess.run([*UNOSIM, *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout)
    if check:
        assert out.returncode == 0, out.stderr
    return out


def unosim_on_a_terminal(*args: str, cwd, columns: int) -> str:
    """What ``python -m unosim ARGS`` shows on a ``columns``-wide terminal (it must exit 0)."""
    return on_a_terminal([*UNOSIM, *args], cwd, columns, {**os.environ, "COLUMNS": str(columns)})


def unosim_explore(*args: str, **popen) -> tuple[subprocess.Popen, str]:
    """``python -m unosim explore --no-browser --port 0 ARGS`` started (``popen``: more of Popen's arguments),
    and the first line it prints: where it listens."""
    process = subprocess.Popen([*UNOSIM, "explore", "--no-browser", "--port", "0", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, **popen)
    return process, process.stdout.readline()
