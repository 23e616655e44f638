"""One compiled build per engine version, wherever the checkout is (issue 25 items 2-3).

Runs the real CLI and Python in fresh processes against an empty per-user cache (a temporary
XDG_CACHE_HOME, which platformdirs honours, with NUMBA_CACHE_DIR unset): the first use of a build is
announced once, however many processes want it at the same time; a copy of the package at another path
(a second clone, an installed wheel) then loads it without compiling. Asserts on the messages, the
compiles a process made and the cache files, never on timings.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from commands import UNOSIM
from study_specs import spec_file

from unosim.engine.compiler import cache
from unosim.engine.compiler.builds import Build
from unosim.engine.compiler.notice import CompileNotice, about

ROOT = Path(__file__).parents[2]
WARM_CALL = """
import unosim
from unosim import engine
unosim.simulate("classic", players=3, games=10, seed=1)
print(unosim.__file__, len(engine.COMPILES))
"""
HEADLINE = "unosim: compiling the classic engine (blank cards), random/greedy policies (first use"


def _env(cache_home, package_parent: Path = ROOT) -> dict[str, str]:
    # a user's environment: no cache override, no session build (tests/conftest.py)
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "UNOSIM_ENGINE_BUILD")}
    env["XDG_CACHE_HOME"] = str(cache_home)
    env["PYTHONPATH"] = str(package_parent)
    return env


def _study_run(tmp_path, env) -> subprocess.Popen:
    return subprocess.Popen([*UNOSIM, "study", "run", str(tmp_path / "warm.toml"),
                             "--out", str(tmp_path / "data"), "--n-jobs", "1", "--force", "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)


def _finish(proc: subprocess.Popen) -> str:
    _, err = proc.communicate(timeout=900)
    assert proc.returncode == 0, err
    return err


def _version_dir(cache_home) -> Path:
    (version,) = [p for p in (Path(cache_home) / "unosim").glob("unosim-engine-*") if p.name.endswith(cache.DIGEST)]
    return version


@pytest.mark.slow
@pytest.mark.long
def test_one_compile_per_build_for_every_process_and_every_checkout(tmp_path):
    spec_file(tmp_path, "warm", seed=3, games=40)
    (tmp_path / "other").mkdir()
    spec_file(tmp_path / "other", "warm", seed=3, games=40)
    env = _env(tmp_path / "cache")
    base = tmp_path / "cache" / "unosim"
    stale, recent = _old_version(base, "stale", 40), _old_version(base, "recent", 5)

    # two processes want the cold build at once: one compiles (announced), the other waits and loads it
    first, second = _study_run(tmp_path, env), _study_run(tmp_path / "other", env)
    errors = [_finish(first), _finish(second)]
    assert sum(e.count(HEADLINE) for e in errors) == 1, errors
    assert sum(e.count("compiled in") for e in errors) == 1, errors
    assert not stale.exists() and recent.exists()   # the new build pruned the version unused for 40 days
    marker = _version_dir(tmp_path / "cache") / "blank.basic" / cache.MARKER
    assert marker.is_file() and any(marker.parent.glob("*.nbi"))

    # a copy of the package at another path (a second clone, an installed wheel) loads the same build
    clone = tmp_path / "clone"
    shutil.copytree(ROOT / "unosim", clone / "unosim", ignore=shutil.ignore_patterns("__pycache__"))
    os.utime(marker, (time.time() - 86400, time.time() - 86400))
    call = subprocess.run([sys.executable, "-c", WARM_CALL], capture_output=True, text=True, cwd=tmp_path,
                          env=_env(tmp_path / "cache", clone), timeout=600)
    assert call.returncode == 0, call.stderr
    where, compiles = call.stdout.split()
    assert Path(where).is_relative_to(clone)
    assert compiles == "0" and "compiling" not in call.stderr   # loaded, not compiled
    assert marker.stat().st_mtime > time.time() - 3600   # a warm load marks the build as used
    assert not list(clone.rglob("*.nbi")), "numba cached into the clone instead of the per-user cache"


def _old_version(base: Path, name: str, days_ago: float) -> Path:
    version = base / f"unosim-engine-{name}"
    (version / "core.basic").mkdir(parents=True)
    (version / "core.basic" / cache.MARKER).write_text('{"seconds": 30}\n')
    (version / "core.basic" / "kernel.nbi").write_bytes(b"machine code")
    stamp = time.time() - days_ago * 86400
    os.utime(version / "core.basic" / cache.MARKER, (stamp, stamp))
    return version


def test_versions_unused_for_longer_than_the_limit_are_pruned(tmp_path):
    days = cache.STALE_AFTER_DAYS
    stale, fresh = _old_version(tmp_path, "a", days + 1), _old_version(tmp_path, "b", days - 1)
    unmarked = tmp_path / "unosim-engine-c"
    unmarked.mkdir()          # a build still compiling: its directory is new
    other = tmp_path / "not-an-engine"
    other.mkdir()
    os.utime(other, (0, 0))
    assert cache.prune_stale_builds(tmp_path) == [stale]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["not-an-engine", "unosim-engine-b", "unosim-engine-c"]
    assert (fresh / "core.basic" / "kernel.nbi").exists()
    later = time.time() + 2 * 86400   # two days on, b has passed the limit too
    assert cache.prune_stale_builds(tmp_path, now=later) == [fresh]


def test_numba_cache_dir_overrides_the_user_cache(tmp_path):
    code = "from unosim.engine.compiler.cache import CACHE_DIR; print(CACHE_DIR)"
    env = {**_env(tmp_path / "user"), "NUMBA_CACHE_DIR": str(tmp_path / "explicit")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str(tmp_path / "explicit" / f"unosim-engine-{cache.DIGEST}")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(tmp_path / "user"),
                         timeout=300)
    assert out.stdout.strip() == str(tmp_path / "user" / "unosim" / f"unosim-engine-{cache.DIGEST}")


def test_disabled_jit_neither_announces_nor_marks_a_compile(tmp_path):
    """NUMBA_DISABLE_JIT=1 compiles nothing: a marker then would hide the real first compile later."""
    env = {**_env(tmp_path / "cache"), "NUMBA_DISABLE_JIT": "1"}
    code = "import unosim\nunosim.simulate('classic', players=3, games=2, seed=1)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "compiling" not in out.stderr
    assert not list((tmp_path / "cache").rglob(cache.MARKER))


def test_the_digest_covers_what_is_frozen_into_the_machine_code(tmp_path):
    """An edit to any engine module, the card tables or the protocol's constants is a new version."""
    package = tmp_path / "unosim"
    shutil.copytree(ROOT / "unosim", package, ignore=shutil.ignore_patterns("__pycache__"))
    code = "from unosim.engine.compiler.cache import DIGEST; print(DIGEST)"

    def digest() -> str:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                             env={**os.environ, "PYTHONPATH": str(tmp_path)}, timeout=300)
        assert out.returncode == 0, out.stderr
        return out.stdout.strip()

    assert digest() == cache.DIGEST   # the same sources at another path: the same version
    seen = {cache.DIGEST}
    for edited in ("engine/record/piles.py", "game/cards.py", "game/protocol.py"):
        assert (package / edited).is_file(), edited   # an edit, not a new file beside the package
        with open(package / edited, "a") as f:
            f.write("\n# an edit\n")
        seen.add(digest())
    assert len(seen) == 4
    # the build machinery only decides where and when a build compiles: editing it keeps the version
    # (its decorator excepted), and no kernel module imports it, so nothing it holds reaches the machine code
    before = digest()
    machinery = [p for p in (package / "engine" / "compiler").glob("*.py") if p.name != "jit.py"]
    assert len(machinery) >= 6
    for path in machinery:
        with open(path, "a") as f:
            f.write("\n# an edit\n")
    assert digest() == before
    kernel_modules = [p for folder in ("record", "policies", "mechanics", "core")
                      for p in (ROOT / "unosim" / "engine" / folder).glob("*.py")]
    for kernel_module in kernel_modules:
        text = kernel_module.read_text()
        assert not re.search(r"build import (cache|loader|notice)|build\.(cache|loader|notice) import", text), \
            kernel_module.name


class _Stream(io.StringIO):
    def __init__(self, tty: bool):
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize("tty", [True, False])
def test_a_compile_is_announced_with_the_build_an_estimate_the_time_so_far_and_done(tty, monkeypatch):
    from unosim.engine.compiler import notice
    monkeypatch.setattr(notice, "TICK_S", 0.05)
    monkeypatch.setattr(notice, "busy_factor", lambda: 1.0)
    monkeypatch.setenv("COLUMNS", "400")
    stream = _Stream(tty)
    description = Build(frozenset({"blank"})).describe()
    with CompileNotice(description, 42, stream):
        time.sleep(0.5)
    text = stream.getvalue()
    assert text.startswith(f"unosim: compiling the {description} (first use of this build on this machine, "
                           f"about 40 s, longer on a busy machine)")
    if tty:   # the build once, then one short line, its seconds counted in place
        assert text.count("\n") == 2 and text.count(description) == 1
        assert re.search(r"\runosim: compiling… 0 s so far \(about 40 s", text)
        assert re.search(r"\runosim: compiled in [01] s; later runs load it from the cache *\n$", text)
    else:     # a log: a line at the start and one at the end, nothing in between
        assert "\r" not in text and text.count("\n") == 2
        assert re.search(rf"\nunosim: compiled in [01] s; later runs load it from the cache \({re.escape(description)}\)\n$",
                         text)


def test_on_a_busy_machine_the_estimate_grows_with_the_load_per_core(monkeypatch):
    from unosim.engine.compiler import notice
    monkeypatch.setattr(notice.os, "getloadavg", lambda: (8.0, 8.0, 8.0))
    monkeypatch.setattr(notice.os, "cpu_count", lambda: 2)
    assert notice.busy_factor() == 4.0
    assert notice.expected(40) == "about 40 s, up to 3 minutes on this busy machine"
    monkeypatch.setattr(notice.os, "getloadavg", lambda: (0.5, 0.5, 0.5))
    assert notice.expected(40) == "about 40 s, longer on a busy machine"


def test_the_explorer_can_follow_a_compile(monkeypatch):
    from unosim.engine.compiler import notice
    monkeypatch.setattr(notice, "TICK_S", 0.05)
    monkeypatch.setattr(notice, "_watchers", [])
    seen = []
    notice.watch(seen.append)
    with CompileNotice("classic engine, random/greedy policies", 42, _Stream(False)):
        time.sleep(0.3)
    assert seen[-1] is None and len(seen) >= 3
    assert all(t.startswith("compiling the classic engine, random/greedy policies (first use") and t.endswith("s so far")
               for t in seen[:-1])


NOTICE_UNDER_A_TERMINAL = """
import time
from unosim.engine.compiler import notice
from unosim.engine.compiler.builds import Build
notice.TICK_S = 0.05
halves = [Build(frozenset({"blank", "stacking", "mercy", "seven_o"}), "weighted"), Build(frozenset({"spin"}), "lookahead")]
description = " and the ".join(b.describe() for b in halves) + ", side by side"
print(description, flush=True)
with notice.CompileNotice(description, 95, builds=2):
    time.sleep(1.5)
"""


@pytest.mark.parametrize("columns", [80, 50])
def test_under_a_terminal_the_notice_is_one_short_line_after_the_builds_once(columns, tmp_path):
    """As a terminal shows it (a pseudo-terminal 80 columns wide, and a narrow one that cuts the line): the builds named once, wrapped, then
    one line rewritten in place, never wider than the terminal (a wider one wraps, and each rewrite
    leaves a copy in the scrollback)."""
    from terminal import on_a_terminal
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    output = on_a_terminal([sys.executable, "-c", NOTICE_UNDER_A_TERMINAL], tmp_path, columns, env, quiet_s=60)
    description, screen = output.replace("\r\n", "\n").split("\n", 1)
    assert len(description) > columns   # the notice names it in a line longer than the terminal
    rewrites = [piece for line in screen.split("\n") for piece in line.split("\r")]
    assert max(len(piece) for piece in rewrites) <= columns, rewrites
    assert " ".join(screen.split()).count(description) == 1   # the builds, once (wrapped)
    assert screen.count("compiling…") >= 3                      # counted in place, on one line
    lines = screen.rstrip("\n").split("\n")
    assert "\r" not in "".join(lines[:-1]) and "compiled in" in lines[-1]   # the ticks rewrite the last line only


def test_estimates_read_as_rounded_durations():
    assert [about(s) for s in (3, 31, 44, 89, 95, 200)] == [
        "about 5 s", "about 30 s", "about 45 s", "about 90 s", "about 2 minutes", "about 3 minutes"]
