"""unosim's version, and what a measured figure names beside it: the checkout's commit and the machine."""

from __future__ import annotations

import os
import platform
import subprocess
import time
from pathlib import Path

__version__ = "0.1.0"


def commit() -> str:
    """The commit of the checkout unosim runs from (empty outside a git checkout)."""
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True,
                              cwd=Path(__file__).parent, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def machine() -> str:
    """The CPU model and core count, as results name the machine they were measured on."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, {platform.system()}"


def measured_since(started: str) -> dict:
    """The stamp of figures measured from ``started`` (``%Y-%m-%d %H:%M UTC``) until now, here: the dates,
    the commit and the machine."""
    return {"date": f"{started} to {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
            "commit": (commit() or "unknown")[:10], "machine": machine()}


def measured_over(records: list[dict]) -> dict:
    """The stamp of figures measured over several runs (each record has ``date``, ``commit`` and
    ``machine``): the range of dates, the first and last commit, every machine."""
    by_date = sorted(records, key=lambda r: r["date"])
    dates = [r["date"] for r in by_date]
    commits = list(dict.fromkeys(r["commit"][:10] for r in by_date))
    return {"date": dates[0] if dates[0] == dates[-1] else f"{dates[0]} to {dates[-1]}",
            "commit": " to ".join(commits[:1] + commits[-1:]) if len(commits) > 1 else commits[0],
            "machine": " and ".join(dict.fromkeys(r["machine"] for r in by_date))}
