"""One warm engine cache per user (issue 11 item 3): the first compile says so once, later runs are warm.

Runs the real CLI in fresh processes against an empty per-user cache (a temporary XDG_CACHE_HOME, which
platformdirs honours, with NUMBA_CACHE_DIR unset). Asserts on the message and on the cache files; the
one timing is a coarse sanity bound on a warm call (a cold compile takes 2-3 minutes).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from unosim.engine import COMPILE_MESSAGE, STALE_AFTER_DAYS, prune_stale_builds

SPEC = """
[study]
name = "warm"
seed = 3
games = 40
mode = "single_round"

[[grid]]
variants = ["classic"]
players = [3]
lineups = ["random"]
"""

WARM_CALL = """
import time, unosim
t = time.perf_counter()
unosim.simulate("classic", players=3, games=10, seed=1)
print(time.perf_counter() - t)
"""


def _env(cache_home) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(cache_home)
    return env


def _study_run(tmp_path, env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "unosim", "study", "run", str(tmp_path / "warm.toml"),
                           "--out", str(tmp_path / "data"), "--n-jobs", "1", "--force", "--quiet"],
                          capture_output=True, text=True, env=env, timeout=600)


@pytest.mark.slow
@pytest.mark.long
def test_first_run_compiles_with_one_message_then_runs_warm(tmp_path):
    (tmp_path / "warm.toml").write_text(SPEC)
    env = _env(tmp_path / "cache")
    stale, recent = _old_build(tmp_path / "cache" / "unosim", "stale", 40), _old_build(
        tmp_path / "cache" / "unosim", "recent", 5)

    first = _study_run(tmp_path, env)
    assert first.returncode == 0, first.stderr
    assert first.stderr.count(COMPILE_MESSAGE) == 1, first.stderr
    assert not stale.exists() and recent.exists()   # the new build pruned the build unused for 40 days

    engines = [e for e in (tmp_path / "cache" / "unosim").glob("unosim-engine-*") if e != recent]
    assert len(engines) == 1, engines
    marker = engines[0] / "compiled-plain"
    assert marker.is_file()
    assert any(engines[0].rglob("*.nbi")), "numba wrote no cache index into the per-user cache"

    os.utime(marker, (time.time() - 86400, time.time() - 86400))
    second = _study_run(tmp_path, env)
    assert second.returncode == 0, second.stderr
    assert COMPILE_MESSAGE not in second.stderr
    assert marker.stat().st_mtime > time.time() - 3600   # a warm run marks the build as used

    t = time.perf_counter()
    call = subprocess.run([sys.executable, "-c", WARM_CALL], capture_output=True, text=True, env=env, timeout=600)
    process_seconds = time.perf_counter() - t
    assert call.returncode == 0, call.stderr
    assert COMPILE_MESSAGE not in call.stderr
    # the bound: a warm first call loads machine code (~0.5 s here); a compile takes 30 s or more
    assert float(call.stdout.strip()) < 3, (call.stdout, process_seconds)


def _old_build(base, name, days_ago):
    build = base / f"unosim-engine-{name}"
    build.mkdir(parents=True)
    (build / "compiled-plain").write_text("an older engine\n")
    (build / "kernel.nbi").write_bytes(b"machine code")
    stamp = time.time() - days_ago * 86400
    os.utime(build / "compiled-plain", (stamp, stamp))
    return build


def test_builds_unused_for_longer_than_the_limit_are_pruned(tmp_path):
    days = STALE_AFTER_DAYS
    stale, fresh = _old_build(tmp_path, "a", days + 1), _old_build(tmp_path, "b", days - 1)
    unmarked = tmp_path / "unosim-engine-c"
    unmarked.mkdir()          # a build still compiling: its directory is new
    other = tmp_path / "not-an-engine"
    other.mkdir()
    os.utime(other, (0, 0))
    assert prune_stale_builds(tmp_path) == [stale]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["not-an-engine", "unosim-engine-b", "unosim-engine-c"]
    assert fresh.exists() and (fresh / "kernel.nbi").exists()
    later = time.time() + 2 * 86400   # two days on, b has passed the limit too
    assert prune_stale_builds(tmp_path, now=later) == [fresh]


def test_numba_cache_dir_overrides_the_user_cache(tmp_path):
    code = "from unosim.engine import CACHE_DIR; print(CACHE_DIR)"
    env = {**_env(tmp_path / "user"), "NUMBA_CACHE_DIR": str(tmp_path / "explicit")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().startswith(str(tmp_path / "explicit" / "unosim-engine-"))
    env = _env(tmp_path / "user")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert out.stdout.strip().startswith(str(tmp_path / "user" / "unosim" / "unosim-engine-"))


def test_disabled_jit_neither_announces_nor_marks_a_compile(tmp_path):
    """NUMBA_DISABLE_JIT=1 compiles nothing: a marker then would hide the real first compile later."""
    env = {**_env(tmp_path / "cache"), "NUMBA_DISABLE_JIT": "1"}
    code = ("import unosim\nfrom unosim.engine import CACHE_DIR\n"
            "unosim.simulate('classic', players=3, games=2, seed=1)\nprint(CACHE_DIR)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
    assert out.returncode == 0, out.stderr
    assert COMPILE_MESSAGE not in out.stderr
    assert not list((tmp_path / "cache").rglob("compiled-*"))
