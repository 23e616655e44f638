"""Loading the engine's builds: a build's kernel modules imported as a package of their own, compiled
into the cache on first use (announced on stderr) or loaded from it, and the choice of build for a call.
"""


from __future__ import annotations

import contextlib
import importlib
import io
import sys
import threading
import types
from dataclasses import dataclass
from pathlib import Path

from .builds import Build

#: the engine package, whose modules every build loads under a package name of its own
ENGINE_PACKAGE = __name__.rsplit(".", 2)[0]
ENGINE_PATH = [str(Path(__file__).resolve().parent.parent)]
#: the build of the engine package's own modules (``unosim.engine.core.round`` …): everything
OWN_BUILD = Build.full()
_loaded: dict[Build, Kernel] = {}
#: held while a build loads: a study's job threads (unosim.pipeline.runner) may ask for one at once
_LOADING = threading.RLock()
#: the compiles this process made: (build, seconds)
COMPILES: list[tuple[Build, float]] = []


@dataclass(frozen=True)
class Kernel:
    """A loaded build: its entry point and game record constructor (``round.run_games``,
    ``round.new_game``, ``state.TRACE_CAPACITY``)."""

    build: Build
    round: types.ModuleType
    state: types.ModuleType

    @property
    def run_games(self):
        return self.round.run_games

    def new_game(self, ir, fr, pol, pp, trace=False):
        return self.round.new_game(ir, fr, pol, pp, trace)


def package_name(build: Build) -> str:
    """The Python package a build's kernel modules load under (``unosim.engine`` for :data:`OWN_BUILD`)."""
    if build == OWN_BUILD:
        return ENGINE_PACKAGE
    return f"{ENGINE_PACKAGE}.build__{build.key.replace('-', '_').replace('.', '__')}"


def _import(build: Build) -> Kernel:
    """Import the kernel modules as the build's package: a package whose ``__path__`` is this directory
    and whose ``features`` module holds the build's switches, so relative imports resolve inside it."""
    from . import numba_cache  # registers the per-build cache locator before any function is decorated

    name = package_name(build)
    numba_cache.PACKAGES[name] = build
    if name != ENGINE_PACKAGE and name not in sys.modules:
        package = types.ModuleType(name, f"unosim's engine, {build.describe()}")
        package.__path__ = list(ENGINE_PATH)
        package.__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=True)
        features = types.ModuleType(f"{name}.features")
        features.__dict__.update(build.constants())
        sys.modules[name] = package
        sys.modules[features.__name__] = features
    return Kernel(build, importlib.import_module(f"{name}.core.round"),
                  importlib.import_module(f"{name}.record.state"))


def choose(needed: Build) -> Build:
    """The build a call needing ``needed`` runs on: ``needed`` itself if it is compiled (or loaded in
    this process), else the smallest compiled build covering it, else the build ``UNOSIM_ENGINE_BUILD``
    names if it covers the call, else ``needed`` (compiled on first use)."""
    from . import cache

    if needed in _loaded or cache.is_warm(needed):
        return needed
    covering = [b for b in ready() if b.covers(needed)]
    if covering:
        return min(covering, key=lambda b: (b.size, b.key))
    preferred = preferred_build()
    return preferred if preferred is not None and preferred.covers(needed) else needed


def ready() -> list[Build]:
    """The builds a call can run on without compiling: loaded in this process or compiled in the cache."""
    from . import cache

    return [*_loaded, *cache.warm_builds()]


def preferred_build() -> Build | None:
    """``UNOSIM_ENGINE_BUILD``: a build to compile instead of each call's own (``full``: every mechanism
    and policy, compiled once for everything; or a build key such as ``blank-stacking.weighted``)."""
    import os

    raw = os.environ.get("UNOSIM_ENGINE_BUILD", "").strip()
    if not raw:
        return None
    if raw == "full":
        return Build.full()
    try:
        return Build.from_key(raw)
    except ValueError as exc:
        raise ValueError(f"UNOSIM_ENGINE_BUILD={raw!r} is invalid: {exc}; valid is 'full' or a build key "
                         f"such as {Build.full().key!r}") from None


def kernel(build: Build, announce: bool = True) -> Kernel:
    """The build, ready to run: loaded from the cache, or compiled first (announced on stderr with an
    estimate and the time so far unless ``announce`` is false; another process compiling the same build is
    waited for)."""
    if build in _loaded:
        return _loaded[build]
    with _LOADING:
        return _loaded.get(build) or _load(build, announce)


def _load(build: Build, announce: bool) -> Kernel:
    from numba.core import config

    from . import cache
    from .notice import CompileNotice, WaitNotice

    loaded = _import(build)
    if config.DISABLE_JIT:   # NUMBA_DISABLE_JIT=1 compiles nothing: no notice, no marker
        _loaded[build] = loaded
        return loaded
    if cache.is_warm(build):
        _first_call(loaded)
        cache.mark_used(build)
    else:
        stream = None if announce else io.StringIO()
        with contextlib.ExitStack() as waiting:
            wait = WaitNotice(build.describe(), estimate_seconds(build), stream=stream)
            with cache.compile_lock(build, lambda: waiting.enter_context(wait)):
                waiting.close()   # the lock is this process's: a wait for another one's compile is over
                if cache.is_warm(build):   # another process compiled it while this one waited
                    _first_call(loaded)
                else:
                    with CompileNotice(build.describe(), estimate_seconds(build), stream=stream) as notice:
                        _first_call(loaded)
                    cache.mark_compiled(build, notice.seconds)
                    COMPILES.append((build, notice.seconds))
    _loaded[build] = loaded
    return loaded


def _first_call(loaded: Kernel) -> None:
    """One tiny game (classic core, random, one round: every build plays it), which compiles or loads
    the entry point for the build's game record."""
    from ...game.policies import lineup_arrays, make_lineup
    from ...game.protocol import output_buffers
    from ...game.rules import get_variant

    ir, fr, deck = get_variant("classic", {"n_blank": 0, "match_mode": "single_round"}).compile(2)
    pol, pp = lineup_arrays(make_lineup("random", 2))
    block = loaded.new_game(ir, fr, pol, pp)
    loaded.run_games(block[0], deck, 0, 0, 1, deck[:0], *output_buffers(1, 1, 2), 0, 1)


def estimate_seconds(build: Build) -> float:
    """How long the build takes to compile here: the measured model of :func:`.builds.model_seconds`,
    scaled by how fast this machine's earlier compiles ran against it. The fastest quarter of them sets
    the scale: a compile that shared its core with other work took longer than this machine needs, and
    the load now (which niced background work inflates) says little about the next minute."""
    from . import cache
    from .builds import model_seconds

    ratios = sorted(seconds / model_seconds(b) for b, seconds in cache.recorded_compiles())
    scale = ratios[(len(ratios) - 1) // 4] if ratios else 1.0
    return model_seconds(build) * min(max(scale, 0.5), 2.0)
