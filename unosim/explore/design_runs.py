"""The explorer's Design mode: a small design search (:mod:`unosim.design`) run from the page.

A search is ``unosim design`` in a process of its own (the compiled kernel holds the GIL while it plays,
and a search plays for minutes): the page posts the table, objectives and minutes (at most
:data:`MAX_MINUTES`), the process writes the design's directory, and the page shows its progress line
and, when done, the confirmation study's report (served from that directory: it opens with the design
verdict and the Pareto chart). The process ends with the server (it watches its parent), and a search can
be cancelled.
"""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..design.confirm import CONFIRM_DIR
from ..pipeline.study import toml_value

MAX_MINUTES = 2.0
#: design searches running at once (each is a process playing for minutes); a new one past that is a 429
MAX_RUNNING = 1
CONFIRM_GAMES = 5_000
NAME = "explorer_design"
#: the file of a search's directory holding its compile notice's words while it compiles (or waits for a compile)
NOTICE = "compiling.txt"
_LAUNCH = ("import sys; from unosim.pipeline.worker import exit_with_parent; exit_with_parent(int(sys.argv[1])); "
           "from unosim.explore.design_runs import follow_compiles; follow_compiles(sys.argv[2]); "
           "from unosim.cli.main import main; sys.exit(main(sys.argv[3:]))")


class Busy(Exception):
    """As many searches as :data:`MAX_RUNNING` already run."""


@dataclass
class DesignRun:
    id: str
    directory: Path
    minutes: float
    process: subprocess.Popen | None = None
    started: float = field(default_factory=time.perf_counter)
    cancelled: bool = False

    @property
    def status(self) -> str:
        code = self.process.poll() if self.process else None
        if self.cancelled:
            return "cancelled"
        if code is None:
            return "running"
        return "done" if code == 0 else "failed"

    def state(self) -> dict[str, Any]:
        out = (self.directory / "out.txt").read_text(encoding="utf-8", errors="replace") \
            if (self.directory / "out.txt").exists() else ""
        err = (self.directory / "err.txt").read_text(encoding="utf-8", errors="replace") \
            if (self.directory / "err.txt").exists() else ""
        status = self.status
        return {"id": self.id, "status": status, "seconds": round(time.perf_counter() - self.started, 1),
                "minutes": self.minutes, "lines": [line for line in out.splitlines() if line.strip()],
                "error": err.strip().splitlines()[-1] if status == "failed" and err.strip() else None,
                "report": self.report if status == "done" else None,
                "compiling": self.compiling if status == "running" else None}

    @property
    def compiling(self) -> str | None:
        """The compile notice's words while the search compiles an engine build, or waits for another
        process compiling it (:func:`follow_compiles`); None otherwise."""
        try:
            return (self.directory / NOTICE).read_text(encoding="utf-8") or None
        except OSError:
            return None

    @property
    def report(self) -> str | None:
        """The confirmation study's report (it opens with the design verdict), as the page fetches it; None
        when there is none (no design met the constraints: the last line names the closest)."""
        path = self.directory / NAME / CONFIRM_DIR / f"{NAME}_confirm" / "report.html"
        return f"/api/design/{self.id}/{path.relative_to(self.directory).as_posix()}" if path.is_file() else None


class DesignRuns:
    """The searches of one explorer: each in its own process and directory (deleted at exit)."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="unosim-design-"))
        self.runs: dict[str, DesignRun] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        atexit.register(self.close)

    def submit(self, data: Any) -> DesignRun:
        """Start a search of ``data`` (``variant``, ``players``, ``lineup``, ``objectives``, ``constraints``,
        ``minutes``, ``seed``); a bad request raises ValueError with the one-line message."""
        from ..design.spec import parse
        if not isinstance(data, dict):
            raise ValueError("the request must be a JSON object with variant, players, objectives, minutes")
        minutes = data.get("minutes", MAX_MINUTES)
        if isinstance(minutes, bool) or not isinstance(minutes, (int, float)) or not 0 < minutes <= MAX_MINUTES:
            raise ValueError(f"minutes = {minutes!r} is invalid: valid is a number in (0, {MAX_MINUTES:g}] (a longer "
                             f"search: `unosim design`)")
        table = {"name": NAME, "budget": {"minutes": float(minutes)}, "confirm_games": CONFIRM_GAMES,
                 **{k: data[k] for k in ("variant", "players", "lineup", "objectives", "constraints", "seed", "space")
                    if k in data}}
        parse(table)   # every mistake in one line, before a process starts
        with self._lock:
            if sum(r.status == "running" for r in self.runs.values()) >= MAX_RUNNING:
                raise Busy(f"{MAX_RUNNING} design search is already running: try again when it is done "
                           f"(or cancel it)")
            run = DesignRun(str(next(self._ids)), self.root / str(len(self.runs) + 1), float(minutes))
            run.directory.mkdir(parents=True)
            spec = run.directory / "design.toml"
            spec.write_text(_toml(table), encoding="utf-8")
            with open(run.directory / "out.txt", "w") as out, open(run.directory / "err.txt", "w") as err:
                run.process = subprocess.Popen(
                    [sys.executable, "-c", _LAUNCH, str(os.getpid()), str(run.directory), "design", str(spec),
                     "--out", str(run.directory), "--quiet"], stdout=out, stderr=err,
                    env={**os.environ, "PYTHONUNBUFFERED": "1"})
            self.runs[run.id] = run
        return run

    def get(self, run_id: str) -> DesignRun | None:
        return self.runs.get(run_id)

    def cancel(self, run_id: str) -> DesignRun | None:
        run = self.runs.get(run_id)
        if run is not None and run.process is not None and run.process.poll() is None:
            run.cancelled = True
            run.process.terminate()
        return run

    def file(self, run_id: str, relative: str) -> Path | None:
        """A file of a finished search's directory (None outside it or absent)."""
        run = self.runs.get(run_id)
        if run is None:
            return None
        path = (run.directory / relative).resolve()
        if not path.is_file() or run.directory.resolve() not in path.parents:
            return None
        return path

    def close(self) -> None:
        for run in self.runs.values():
            if run.process is not None and run.process.poll() is None:
                run.process.terminate()
                run.process.wait(10)
        shutil.rmtree(self.root, ignore_errors=True)


def follow_compiles(directory: str) -> None:
    """In a search's process: keep its compile notice's words in ``directory``/:data:`NOTICE` while a build
    compiles or another process's compile is waited for (the page shows them: a first compile takes
    minutes, and the search would read as stuck), and remove them when it ends."""
    from ..engine.compiler import notice
    from ..store.atomic import write_text_atomic
    path = Path(directory) / NOTICE

    def keep(text: str | None) -> None:
        if text is None:
            path.unlink(missing_ok=True)
        else:
            write_text_atomic(path, text)
    notice.watch(keep)


def _toml(table: dict[str, Any]) -> str:
    return "[design]\n" + "".join(f"{k} = {toml_value(v)}\n" for k, v in table.items())
