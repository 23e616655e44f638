"""Saying that a build compiles: which build, about how long, the time so far, then done (stderr).

The same words reach a terminal, a notebook and a log: in a terminal or a notebook the first line counts
the seconds in place (rewritten with a carriage return); elsewhere (a pipe, a CI log) a line every
:data:`LOG_INTERVAL_S` seconds says it is still at work. Nothing here imports numba.
"""

from __future__ import annotations

import sys
import threading
import time
from types import TracebackType

TICK_S = 1.0
LOG_INTERVAL_S = 30.0


def about(seconds: float) -> str:
    """A rounded duration: ``about 40 s``, ``about 3 minutes``."""
    if seconds < 90:
        return f"about {max(5, round(seconds / 5) * 5):.0f} s"
    return f"about {round(seconds / 60):.0f} minutes"


def _live(stream) -> bool:
    """Whether the stream shows a line rewritten in place: a terminal, or a Jupyter kernel's stream."""
    try:
        if stream.isatty():
            return True
    except (AttributeError, ValueError):
        return False
    return type(stream).__module__.startswith("ipykernel")


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
        self.start = 0.0
        self.seconds = 0.0

    @property
    def headline(self) -> str:
        these = "this build" if self.builds == 1 else "these builds"
        return (f"unosim: compiling the {self.description} (first use of {these} on this machine, "
                f"{about(self.estimate)})")

    def __enter__(self) -> CompileNotice:
        self.start = time.perf_counter()
        self._write(self.headline + ("…" if self.live else "…\n"))
        self._thread = threading.Thread(target=self._tick, name="unosim-compile-notice", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self.seconds = time.perf_counter() - self.start
        it = "it" if self.builds == 1 else "them"
        outcome = (f"compiled in {self.seconds:.0f} s; later runs load {it} from the cache" if kind is None
                   else f"compile stopped after {self.seconds:.0f} s")
        if self.live:
            self._write(f"\r{self.headline}: {outcome}\n")
        else:
            self._write(f"unosim: {outcome} ({self.description})\n")

    def _tick(self) -> None:
        last_log = 0.0
        while not self._stop.wait(TICK_S):
            elapsed = time.perf_counter() - self.start
            if self.live:
                self._write(f"\r{self.headline}… {elapsed:.0f} s")
            elif elapsed - last_log >= LOG_INTERVAL_S:
                last_log = elapsed
                self._write(f"unosim: still compiling ({elapsed:.0f} s so far)\n")

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            pass   # a closed stream never stops a compile
