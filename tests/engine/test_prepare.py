"""Compiling a run's builds before it starts: one build, or two side by side (unosim/engine/compiler/prepare.py)."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import textwrap

from unosim import engine
from unosim.engine.compiler.builds import Build, model_seconds
from unosim.engine.compiler.prepare import MIN_SAVING, split
from unosim.game import policies
from unosim.pipeline.study import load_study

DEMO = "analyses/studies/demo.toml"


def demo_builds() -> list[Build]:
    study = load_study(os.path.join(os.path.dirname(__file__), "..", "..", DEMO))
    return sorted({engine.build_for(c.ruleset, policies.make_lineup(c.lineup_spec, c.players)) for c in study.cells},
                  key=lambda b: (b.size, b.key))


def test_the_demo_splits_into_two_halves_that_cover_every_cell_and_compile_sooner():
    needed = demo_builds()
    halves = split(needed)
    assert halves is not None
    assert all(any(h.covers(b) for h in halves) for b in needed)
    whole = model_seconds(functools.reduce(Build.union, needed))
    assert max(model_seconds(h) for h in halves) <= (1 - MIN_SAVING) * whole


def test_no_split_when_one_build_or_no_saving():
    classic = Build(frozenset({"blank"}), "basic")
    assert split([classic]) is None
    # two builds whose union is one of them: splitting saves nothing
    assert split([Build(frozenset(), "basic"), classic]) is None
    # lookahead dominates both halves: the split would compile the search twice for little saving
    assert split([Build(frozenset({"blank"}), "lookahead"), Build(frozenset({"minions"}), "lookahead")]) is None


def test_side_by_side_compiles_in_two_processes_under_one_notice(tmp_path):
    """The plumbing, without numba's cost: with NUMBA_DISABLE_JIT the pool processes load the builds
    without compiling; one notice names both halves, the children print nothing, Ctrl-C is the parent's."""
    script = textwrap.dedent("""
        import sys
        from unosim.engine.compiler.builds import Build
        from unosim.engine.compiler.prepare import _side_by_side
        halves = (Build(frozenset({"blank", "stacking"}), "basic"), Build(frozenset({"spin"}), "basic"))
        _side_by_side(halves)
        print("done")
    """)
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "done\n"
    lines = done.stderr.splitlines()
    assert lines[0].startswith("unosim: compiling the classic engine (blank cards, stacking), random/greedy "
                               "policies and the spin engine, random/greedy policies, side by side (first use of "
                               "these builds on this machine, about "), lines
    assert lines[-1].startswith("unosim: compiled in ") and "later runs load them from the cache" in lines[-1]
    assert len(lines) == 2, lines
