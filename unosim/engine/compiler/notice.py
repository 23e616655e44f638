"""Saying that a build compiles: which build and about how long (once), then the time so far, then done
(stderr).

The first line names the build(s) and the estimate, printed once (in a terminal, wrapped at its width).
In a terminal or a notebook one short line, cut to the terminal's width, then counts the seconds in
place (rewritten with a carriage return) and ends saying it is done; elsewhere (a pipe, a CI log) one
line says it is done, nothing in between. Whoever else shows the progress (the explorer's page) follows
it with :func:`watch`. Nothing here imports numba.
"""

from __future__ import annotations

import os
import shutil
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from types import TracebackType

TICK_S = 1.0
#: a load per core below this counts as a quiet machine (the estimate is not scaled)
BUSY_LOAD = 1.25

_watchers: list[Callable[[str | None], None]] = []


def watch(callback: Callable[[str | None], None]) -> None:
    """Have ``callback`` called with the compile's progress in words every tick, and with None when it
    ends (the explorer's worker passes it on to the page)."""
    _watchers.append(callback)


def about(seconds: float) -> str:
    """A rounded duration: ``about 40 s``, ``about 3 minutes``."""
    return f"about {_rounded(seconds)}"


def _rounded(seconds: float) -> str:
    if seconds < 90:
        return f"{max(5, round(seconds / 5) * 5):.0f} s"
    return f"{round(seconds / 60):.0f} minutes"


def busy_factor() -> float:
    """How many times longer than on a quiet machine a compile (one core) takes now: the last minute's
    load average per core, at least 1 (1 where the system cannot tell its load)."""
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return 1.0
    return max(1.0, load / (os.cpu_count() or 1))


def expected(estimate: float) -> str:
    """The estimate in words, allowing for the machine's load now: the load per core bounds the wait from
    above, not more (the load average lags, and counts work of a lower priority than the compile)."""
    factor = busy_factor()
    if factor < BUSY_LOAD:
        return f"{about(estimate)}, longer on a busy machine"
    return f"{about(estimate)}, up to {_rounded(estimate * factor)} on this busy machine"


def _live(stream) -> bool:
    """Whether the stream shows a line rewritten in place: a terminal, or a Jupyter kernel's stream."""
    try:
        if stream.isatty():
            return True
    except (AttributeError, ValueError):
        return False
    return type(stream).__module__.startswith("ipykernel")


def _columns(stream) -> int:
    """The width of the terminal the stream shows in (``COLUMNS`` first, as :func:`shutil.get_terminal_size`)."""
    if "COLUMNS" not in os.environ:
        try:
            columns = os.get_terminal_size(stream.fileno()).columns
            if columns > 0:
                return columns
        except (AttributeError, OSError, ValueError):
            pass
    return shutil.get_terminal_size().columns


class CompileNotice:
    """``with CompileNotice(description, estimate):`` around a compile."""

    def __init__(self, description: str, estimate: float, stream=None, builds: int = 1):
        self.description = description
        self.builds = builds
        self.estimate = estimate
        self.stream = stream if stream is not None else sys.stderr
        self.live = _live(self.stream)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._shown = 0   # characters of the line now on the terminal
        self.start = 0.0
        self.seconds = 0.0
        self.expected = expected(estimate)

    @property
    def headline(self) -> str:
        these = "this build" if self.builds == 1 else "these builds"
        return (f"unosim: compiling the {self.description} (first use of {these} on this machine, "
                f"{self.expected})")

    def progress(self, elapsed: float) -> str:
        """The short line: the time so far against the estimate."""
        return f"unosim: compiling… {elapsed:.0f} s so far ({self.expected})"

    def __enter__(self) -> CompileNotice:
        self.start = time.perf_counter()
        if self.live:
            width = max(20, _columns(self.stream) - 1)
            self._write(textwrap.fill(self.headline, width, subsequent_indent="  ") + "\n")
            self._show(self.progress(0))
        else:
            self._write(self.headline + "…\n")
        self._tell(0)
        self._thread = threading.Thread(target=self._tick, name="unosim-compile-notice", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self.seconds = time.perf_counter() - self.start
        for callback in _watchers:
            callback(None)
        outcome = self.outcome(stopped=kind is not None)
        if self.live:
            self._show(outcome)
            self._write("\n")
        else:
            self._write(f"{outcome} ({self.description})\n")

    def outcome(self, stopped: bool) -> str:
        """The last line: done, or stopped (by an error or Ctrl-C)."""
        if stopped:
            return f"unosim: compile stopped after {self.seconds:.0f} s"
        it = "it" if self.builds == 1 else "them"
        return f"unosim: compiled in {self.seconds:.0f} s; later runs load {it} from the cache"

    def _tick(self) -> None:
        while not self._stop.wait(TICK_S):
            elapsed = time.perf_counter() - self.start
            if self.live:
                self._show(self.progress(elapsed))
            self._tell(elapsed)

    def _tell(self, elapsed: float) -> None:
        text = f"{self.headline.removeprefix('unosim: ')}: {elapsed:.0f} s so far"
        for callback in _watchers:
            callback(text)

    def _show(self, line: str) -> None:
        """Rewrite the terminal's line in place, cut to its width (a longer one would wrap, and every
        rewrite would leave a copy behind)."""
        width = max(20, _columns(self.stream) - 1)
        if len(line) > width:
            line = line[:width - 1] + "…"
        self._write("\r" + line.ljust(self._shown))
        self._shown = len(line)

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            pass   # a closed stream never stops a compile


class WaitNotice(CompileNotice):
    """``with WaitNotice(description, estimate):`` while another process compiles the build this one needs
    (it holds the build's compile lock): said as a compile is, the time waited in place of the time
    compiled, so a terminal and the explorer's page both show why nothing plays yet."""

    @property
    def headline(self) -> str:
        return (f"unosim: waiting for another process that is compiling the {self.description} (a first "
                f"compile takes {self.expected})")

    def progress(self, elapsed: float) -> str:
        return f"unosim: waiting for another process's compile… {elapsed:.0f} s so far"

    def outcome(self, stopped: bool) -> str:
        if stopped:
            return f"unosim: waiting stopped after {self.seconds:.0f} s"
        return f"unosim: the other process's compile ended after {self.seconds:.0f} s of waiting"
