"""Shared session fixtures. Helpers live in plain modules of tests/helpers/ (``study_specs``, ``browser``,
``scenario_tools``, ``differential_cases``, ``fuzz_draws``, …), imported by name (pyproject's pytest
``pythonpath``); no test module imports another. tests/README.md says where a test goes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib

import browser
import pytest
from made_once import made_once
from study_specs import DEMO_SPEC, HOUSE_RULE_SPEC, MATCH_SPEC, small, small_spec

from unosim.pipeline.runner import run_study
from unosim.pipeline.study import parse_study

# Every engine call of the tests (subprocesses included) runs on one build with every mechanism and
# policy, compiled once into the shared cache (the first worker to need it compiles it, the other waits):
# compiling each call's own build would compile dozens. tests/engine/test_builds.py plays specialised builds
# against it, and tests/engine/test_warm_cache.py compiles a user's first build in a cache of its own.
os.environ.setdefault("UNOSIM_ENGINE_BUILD", "full")


#: test modules that never run the compiled engine (scripted scenarios and invariants on the reference
#: engine, statistics on synthetic tables): they run early, while the session's build compiles
ENGINE_FREE = ("test_atomic", "test_browser_wait", "test_card_effects", "test_cards_rules", "test_docs",
               "test_docs_site", "test_effects", "test_fairness_calibration", "test_flip_pairing", "test_house_rules", "test_prepare", "test_protocol", "test_rule_table",
               "test_structure", "test_study", "test_reference_", "test_scenarios_",
               "test_docstring_examples", "test_claim_mutations", "test_distributions", "test_skill_changes",
               "test_verdicts")   # a name ending in _ is a prefix
#: ... except these, which also play their scenarios on the compiled engine
PLAYS_COMPILED = ("test_scenarios_flip",)


def _module_scoped(item) -> bool:
    """Whether the test uses a module-scoped fixture (a server, a browser page, a tournament, …)."""
    return any(defs[-1].scope == "module" for defs in item._fixtureinfo.name2fixturedefs.values())


def _start(item) -> int:
    """Tests marked ``long`` first, then the engine-free modules, then the modules with a module-scoped
    fixture, then the rest (a stable sort keeps their order): pytest-xdist hands out tests in this order, so
    the cold compiles (the session's build, started by :func:`pytest_sessionstart`, and test_warm_cache's,
    in a child process) overlap work that needs no engine instead of leaving a worker waiting for them,
    and the last tests handed out are short single ones, which keep both workers busy to the end."""
    if item.get_closest_marker("long") is not None:
        return 0
    stem = item.path.stem
    if any(stem == name or (name.endswith("_") and stem.startswith(name)) for name in ENGINE_FREE) \
            and stem not in PLAYS_COMPILED:
        return 1
    return 2 if _module_scoped(item) else 3


# `make test` runs `pytest -n 2 --dist loadgroup --no-loadscope-reorder`: the tests of a module with a
# module-scoped fixture form one group (xdist_group), run by one worker, so that the fixture is made once
# instead of once on each worker; every other test goes to whichever worker is free, in the order of _start.
@pytest.hookimpl(tryfirst=True)   # before pytest-xdist's, which reads the groups
def pytest_collection_modifyitems(config, items):
    items.sort(key=_start)
    for item in items:
        if _module_scoped(item):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))


def pytest_sessionstart(session):
    """Under pytest-xdist (``make test``), the controller starts compiling the session's build in a child
    process at once; a worker that needs it before it is done waits for it (the engine's compile lock).
    Without xdist the first test to need the build compiles it."""
    if (hasattr(session.config, "workerinput") or not session.config.getoption("numprocesses", None)
            or os.environ.get("NUMBA_DISABLE_JIT") == "1"):
        return
    from unosim.engine.compiler import cache
    from unosim.engine.compiler.builds import Build

    if cache.is_warm(Build.full()):
        return
    session.config._unosim_compile = subprocess.Popen(
        [sys.executable, "-c", "from unosim.engine import Build, kernel; kernel(Build.full())"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def pytest_unconfigure(config):
    compile_process = getattr(config, "_unosim_compile", None)
    if compile_process is not None and compile_process.poll() is None:
        compile_process.terminate()
        compile_process.wait()


# The datasets below are made once per run (made_once: the first xdist worker to ask makes them, the other
# reads them) and are read-only: a test that damages or extends one works on a copy.
@pytest.fixture(scope="session")
def small_dataset(tmp_path_factory, worker_id):
    """The path of a complete small single-round study (5 cells × 600 games… see SMALL_SPEC)."""
    return made_once(tmp_path_factory, worker_id, "small", lambda out: run_study(
        parse_study(small_spec()), out, n_jobs=1, chunk_size=250, progress=False).path)


@pytest.fixture
def copy_of(small_dataset, tmp_path):
    """A copy of :func:`small_dataset` for a test that damages or extends it."""
    return shutil.copytree(small_dataset, tmp_path / "copy")


@pytest.fixture(scope="session")
def small_pair(tmp_path_factory, worker_id):
    """Two complete datasets of 'small' (study_specs.small: seed 7 and seed 99), 150 games per job: the
    same spec but another seed, for parts that belong to another study. Tests copy them before damage."""
    def make(out):
        a = run_study(parse_study(small()), out / "a", n_jobs=1, chunk_size=150, progress=False).path
        run_study(parse_study(small(seed=99)), out / "b", n_jobs=1, chunk_size=150, progress=False)
        return a
    a = made_once(tmp_path_factory, worker_id, "pair", make)
    return a, a.parents[1] / "b" / a.name


@pytest.fixture(scope="session")
def match_dataset(tmp_path_factory, worker_id):
    """The path of a complete small points-mode study."""
    return made_once(tmp_path_factory, worker_id, "matches", lambda out: run_study(
        parse_study(MATCH_SPEC), out, n_jobs=1, progress=False).path)


@pytest.fixture(scope="session")
def demo_dataset(tmp_path_factory, worker_id):
    """The demo study (analyses/studies/demo.toml) with 1,000 games per cell instead of 4,000."""
    spec = tomllib.loads(DEMO_SPEC.read_text())
    spec["study"]["games"] = 1000
    return made_once(tmp_path_factory, worker_id, "demo", lambda out: run_study(
        parse_study(spec, source=str(DEMO_SPEC)), out, n_jobs=1, progress=False).path)


@pytest.fixture(scope="session")
def house_rule_dataset(tmp_path_factory, worker_id):
    """A rule with a large known effect (draw_until_playable: longer rounds) and one that never triggers
    under the built-in policies (force_play_drawn: they always play a drawn playable card)."""
    return made_once(tmp_path_factory, worker_id, "known_effects", lambda out: run_study(
        parse_study(HOUSE_RULE_SPEC), out, n_jobs=1, progress=False).path)


@pytest.fixture(scope="module")
def explorer(tmp_path_factory):
    """The explorer's server started in this process (``unosim.explore.start``), one per test module."""
    from unosim.explore import start
    app = start(workdir=tmp_path_factory.mktemp("explore"))
    yield app
    app.stop()


@pytest.fixture(scope="session")
def chromium():
    """Debian's Chromium (waited for while `.ci/run` installs it: tests/helpers/browser.py); skips without one."""
    path = browser.chromium()
    if path is None:
        pytest.skip("needs Debian's chromium (.ci/run installs it)")
    return path
