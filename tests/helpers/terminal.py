"""Run a command as a user's terminal shows it: stdout and stderr on a pseudo-terminal of a given width."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import termios


def on_a_terminal(command: list[str], cwd, columns: int, env: dict[str, str], quiet_s: float = 120) -> str:
    """What ``command`` writes to a ``columns``-wide pseudo-terminal until it closes it (or is silent for
    ``quiet_s`` seconds); the command must exit 0."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    proc = subprocess.Popen(command, stdout=slave, stderr=slave, stdin=subprocess.DEVNULL, cwd=cwd, env=env)
    os.close(slave)
    chunks = []
    while select.select([master], [], [], quiet_s)[0]:
        try:
            data = os.read(master, 4096)
        except OSError:   # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    assert proc.wait(timeout=60) == 0
    return b"".join(chunks).decode()
