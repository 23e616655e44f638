"""Compiling what a run of many calls needs before it starts: one build, or two side by side.

numba compiles a build on one core. A study whose cells need many mechanisms (the demo: five families and
three house rules) compiled one build holding all of them while the other core waited. Split in two
groups of cells, each half compiles the shared core again, but the halves compile at once, each in a
process of its own: on the demo's cells the longer half is about 70 % of the whole (the compile-time model
of :func:`.builds.model_seconds`). The split is taken only with two or more workers and when the model
says it saves at least :data:`MIN_SAVING` of the single build's time. Which build plays a game never
changes the game (tests/engine/test_builds.py), so the split changes nothing but the wait.
"""

from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Sequence

from .builds import Build, model_seconds

#: the smallest share of the one-build compile time a side-by-side split must save to be taken
MIN_SAVING = 0.15
#: more distinct cold builds than this: no search over the ways to split them (2^(n-1) of them)
MAX_SEARCH = 12


def prepare(needed: Sequence[Build], workers: int) -> float:
    """Make every build in ``needed`` ready to load: compile, or wait for, what no compiled build covers.
    Returns the seconds spent compiling (0.0 when everything was in the cache)."""
    from .loader import choose, kernel, ready

    compiled = ready()
    cold = sorted({b for b in set(needed) if not any(c.covers(b) for c in compiled)}, key=lambda b: (b.size, b.key))
    if not cold:
        return 0.0
    whole = functools.reduce(Build.union, cold)
    halves = split(cold) if workers >= 2 else None
    start = time.perf_counter()
    if halves is None or choose(whole) != whole:   # one build, or the one UNOSIM_ENGINE_BUILD names
        kernel(choose(whole))
    else:
        _side_by_side(halves)
    return time.perf_counter() - start


def split(cold: Sequence[Build]) -> tuple[Build, Build] | None:
    """The two builds covering ``cold`` whose longer compile is shortest, if that saves at least
    :data:`MIN_SAVING` of compiling their union; else None."""
    if not 2 <= len(cold) <= MAX_SEARCH:
        return None
    whole = model_seconds(functools.reduce(Build.union, cold))
    first, rest = cold[0], cold[1:]
    best: tuple[float, tuple[Build, Build]] | None = None
    for mask in itertools.product((False, True), repeat=len(rest)):   # the first build stays in the first half
        one = [first, *(b for b, other in zip(rest, mask, strict=True) if not other)]
        two = [b for b, other in zip(rest, mask, strict=True) if other]
        if not two:
            continue
        halves = (functools.reduce(Build.union, one), functools.reduce(Build.union, two))
        longest = max(model_seconds(h) for h in halves)
        if best is None or longest < best[0]:
            best = (longest, halves)
    if best is None or best[0] > (1 - MIN_SAVING) * whole:
        return None
    return best[1]


def _side_by_side(halves: tuple[Build, Build]) -> None:
    """Compile both builds at once, each in a fresh process, under one notice in this one."""
    import multiprocessing

    from . import loader
    from .loader import estimate_seconds
    from .notice import CompileNotice

    description = " and the ".join(b.describe() for b in halves) + ", side by side"
    with CompileNotice(description, max(estimate_seconds(b) for b in halves), builds=len(halves)):
        # spawn: this process may hold thread pools (polars) that a fork would copy half-locked; the
        # pool's exit terminates both on an error or Ctrl-C (a killed compile leaves no marker behind)
        with multiprocessing.get_context("spawn").Pool(len(halves), initializer=_ignore_sigint) as pool:
            compiles = pool.map_async(_compile_quietly, [b.key for b in halves])
            while not compiles.ready():   # a wait without a timeout would not see Ctrl-C
                compiles.wait(0.2)
            seconds = compiles.get()
    loader.COMPILES.extend((b, s) for b, s in zip(halves, seconds, strict=True) if s is not None)


def _ignore_sigint() -> None:
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _compile_quietly(key: str) -> float | None:
    """In a pool process: compile the build named ``key`` without a notice of its own; the seconds it
    took, or None if another process had compiled it first."""
    from .loader import COMPILES, kernel

    kernel(Build.from_key(key), announce=False)
    return COMPILES[-1][1] if COMPILES else None
