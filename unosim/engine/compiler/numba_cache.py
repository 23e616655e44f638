"""numba's side of the build cache: where it files a build's compiled functions and how it loads them.

:mod:`.jit` imports this module before it decorates any kernel function, which registers
:class:`BuildLocator` with numba (numba picks a function's locator when the function is decorated), and
gives each kernel function a :class:`BuildCache`. Neither changes what numba compiles, only where the
result is kept and how it is read back, so this module is not part of the engine's digest
(:data:`.cache.KERNEL_SOURCES`).
"""

from __future__ import annotations

from numba.core import caching
from numba.core.runtime import rtsys

from .builds import Build
from .cache import DIGEST, build_dir

#: kernel package name -> its build: ``unosim.engine`` itself is the full build from the start, so a
#: kernel function a test (or a user) calls straight from ``unosim.engine.<module>`` is cached with that
#: build, not compiled a second time under numba's default per-path cache
PACKAGES: dict = {__package__.rpartition(".")[0]: Build.full()}


def kernel_package(module: str) -> str:
    """The kernel package a kernel module belongs to: the package of its kernel folder
    (``<package>.core.turn``, ``<package>.mechanics.spin`` …)."""
    return module.rsplit(".", 2)[0]


class BuildLocator(caching._CacheLocator):
    """Files the functions of a registered kernel package under their build's cache directory, with the
    engine's source digest as their stamp."""

    def __init__(self, directory, lineno):
        self._directory = directory
        self._lineno = lineno

    def get_cache_path(self):
        return str(self._directory)

    def get_source_stamp(self):
        return DIGEST   # the directory is already per digest; an index of another engine never loads

    def get_disambiguator(self):
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file):
        build = PACKAGES.get(kernel_package(py_func.__module__))
        if build is None:
            return None
        locator = cls(build_dir(build), py_func.__code__.co_firstlineno)
        try:
            locator.ensure_cache_path()
        except OSError:
            return None   # not writable: numba's own locators (or no cache) take over
        return locator


#: whether this numba has the loading steps :class:`BuildCache` calls (numba's own, not public API: every
#: version from 0.61.2, the oldest unosim allows, to 0.68 has them); without them numba loads its own way
LOAD_WITHOUT_REFRESH = all(hasattr(caching.Cache, step) for step in ("_guard_against_spurious_io_errors",
                                                                     "_load_overload"))


class BuildCache(caching.FunctionCache):
    """numba's function cache, loading without first refreshing the target context.

    numba refreshes the context before every load (``Cache.load_overload``): the first refresh imports
    and registers every lowering numba has (typed containers, ``np.random``, polynomials, linear algebra
    ...), about half of loading a build from the cache here, on the critical path of every command and
    study worker. A loaded function needs none of it: its machine code is in the cache. The compiler
    needs it, and refreshes the context itself (``numba.core.compiler``). What a load does need is
    numba's runtime (NRT, which allocates the engine's arrays): without it the first call crashes.
    """

    def load_overload(self, sig, target_context):
        if not LOAD_WITHOUT_REFRESH:
            return super().load_overload(sig, target_context)
        rtsys.initialize(target_context)
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)


_impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl   # renamed in numba 0.68
if BuildLocator not in _impl._locator_classes:
    _impl._locator_classes.insert(0, BuildLocator)
